"""Wrong pieces the checks' probes used to miss (or named with another cause's hint), each with the point
that must catch it and the hint that must name it, and right ones in other styles.

run_tools: results sorted (by city) or walked through a set of ids came back in call order on the
probe's two calls, so a sort passed always and a set half the time; a dict keyed by tool name and one
result dict reused were named as other causes. next_step: an end_turn with no blocks at all was never
asked about. run_agent (lesson 6) with prompt caching: every budget probe was crossed before the first
cache read, so counting the cache twice, or cache writes alone, passed. run_agent (lesson 2) sending only
the last two messages ran away and was told its loop condition never changes. run_agent (lesson 6) looping
until end_turn sent a cut-off answer again and was shown only the API's 400; one asking valve 2 right after
each response threw away an answer that crossed the budget, and passed. stop_message: the probe's cut-off
text was one block, so keeping the first text block alone passed. run_agent (lesson 6): every probe's
response held one call, so counting calls as turns passed; and no probe called the same thing again
after another call in between, so a valve 3 that remembers every signature so far passed; and every
probe's repeated call worked, so a valve 3 that keeps only the signatures of calls that worked passed.
"""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass

from harness_lab.lessons.lesson2 import run_tools
from tests.lessons.answers6 import RIGHT_RUN_AGENT, VALVE_2, variant
from tests.lessons.answers_reuse import ADD, CACHED, CREATE


def _result(block, impls):
    try:
        output = impls[block.name](**block.input)
        return {"type": "tool_result", "tool_use_id": block.id, "content": json.dumps(output, ensure_ascii=False)}
    except Exception as err:
        return {"type": "tool_result", "tool_use_id": block.id, "content": str(err), "is_error": True}


def tools_sorted_by_input(content, impls):  # "tidy" results: sorted by what was asked
    calls = [b for b in content if b.type == "tool_use"]
    return [_result(b, impls) for b in sorted(calls, key=lambda b: b.name + json.dumps(b.input, ensure_ascii=False))]


def tools_through_a_set(content, impls):  # the ids in a set: its order is the hash's, not the calls'
    by_id = {b.id: b for b in content if b.type == "tool_use"}
    return [_result(by_id[i], impls) for i in set(by_id)]


def tools_keyed_by_name(content, impls):  # a second call of the same tool overwrites the first's result
    by_name = {}
    for block in content:
        if block.type == "tool_use":
            by_name[block.name] = _result(block, impls)
    return list(by_name.values())


def tools_last_only(content, impls):  # the list made anew on every lap: only the last call's result is left
    for block in content:
        if block.type == "tool_use":
            results = [_result(block, impls)]
    return results


def tools_one_result_dict(content, impls):  # one dict refilled and appended for every call
    results, result = [], {"type": "tool_result"}
    for block in content:
        if block.type == "tool_use":
            result.update(_result(block, impls))
            results.append(result)
    return results


def step_resends_an_empty_answer(response):  # "nothing came back, ask again"
    reason = response.stop_reason
    if reason == "tool_use":
        return "run_tools"
    if reason == "pause_turn" or (reason == "end_turn" and not response.content):
        return "resend"
    if reason in ("end_turn", "stop_sequence"):
        return "finish"
    return "stop"


def agent_sends_the_last_two(client, user_input, tools, impls):  # "only the latest turn, to save tokens"
    messages = [{"role": "user", "content": user_input}]
    response = client.messages.create(model="claude-sonnet-5", max_tokens=1024, tools=tools, messages=messages)
    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tools(response.content, impls)})
        response = client.messages.create(model="claude-sonnet-5", max_tokens=1024, tools=tools, messages=messages[-2:])
    return "".join(b.text for b in response.content if b.type == "text")


def _refusal_said(response):
    details = response.stop_details
    category = (details.category if details else None) or "分類なし"
    return f"断られました（{category}）: {(details.explanation if details else None) or '説明なし'}"


def stop_first_text_block(response):  # the first text block taken for all that was written
    text = next((b.text for b in response.content if b.type == "text"), "")
    if response.stop_reason == "refusal":
        return _refusal_said(response)
    if response.stop_reason == "max_tokens":
        return f"max_tokens で切れました: {text}"
    if response.stop_reason == "model_context_window_exceeded":
        return f"コンテキストが一杯で切れました: {text}"
    return None


WRONG_PROBES = [
    ("run_tools", tools_sorted_by_input, 1, "lesson.l2.run_tools.order"),
    ("run_tools", tools_through_a_set, 1, "lesson.l2.run_tools.order"),
    ("run_tools", tools_keyed_by_name, 1, "lesson.l2.run_tools.by_name"),
    ("run_tools", tools_keyed_by_name, 3, "lesson.l2.run_tools.by_name"),
    ("run_tools", tools_last_only, 2, "lesson.l2.run_tools.by_name"),
    ("run_tools", tools_one_result_dict, 1, "lesson.l2.run_tools.one_dict"),
    ("next_step", step_resends_an_empty_answer, 2, "lesson.l3.next_step.empty_end_turn"),
    ("run_agent", agent_sends_the_last_two, 2, "lesson.history_trimmed"),
    ("stop_message", stop_first_text_block, 3, "lesson.l7.stop_message.lost_text"),
]


@dataclass
class 結果:
    type: str
    tool_use_id: str
    content: str
    is_error: bool = False


def tools_right_dataclass_match(content, impls):
    結果たち: list[dict] = []
    for ブロック in content:
        match ブロック.type:
            case "tool_use":
                try:
                    出力 = impls[ブロック.name](**ブロック.input)
                    文字 = 出力 if isinstance(出力, str) else json.dumps(出力, ensure_ascii=False)
                    結果たち.append(asdict(結果("tool_result", ブロック.id, 文字)))
                except Exception as err:
                    結果たち.append(asdict(結果("tool_result", ブロック.id, repr(err), True)))
            case _:
                pass
    return 結果たち


def tools_right_in_threads(content, impls):  # run at once, handed back in call order (map keeps it)
    with ThreadPoolExecutor(4) as pool:
        return list(pool.map(lambda b: _result(b, impls), [b for b in content if b.type == "tool_use"]))


def tools_right_recursive(content, impls):
    calls = [b for b in content if b.type == "tool_use"]
    return [] if not calls else [_result(calls[0], impls), *tools_right_recursive(calls[1:], impls)]


def stop_right_lines(response):  # the text blocks joined with newlines, the reason on a line of its own
    text = "\n".join(b.text for b in response.content if b.type == "text")
    match response.stop_reason:
        case "refusal":
            return _refusal_said(response)
        case "max_tokens":
            return f"max_tokens に達して途中で切れました:\n{text}"
        case "model_context_window_exceeded":
            return f"コンテキストウィンドウが一杯で切れました:\n{text}"
    return None


RIGHT_PROBES = [
    ("stop_message", stop_right_lines),
    ("run_tools", tools_right_dataclass_match),
    ("run_tools", tools_right_in_threads),
    ("run_tools", tools_right_recursive),
]

USAGE = "u = response.usage; tokens_used += u.input_tokens + u.output_tokens"
WRITES = "(u.cache_creation_input_tokens or 0)"
READS = "(u.cache_read_input_tokens or 0)"


def _cached_counting(add: str) -> str:
    return RIGHT_RUN_AGENT.replace(CREATE, CACHED).replace(ADD, add)


# The article's loop on "not end_turn": a pause is sent back right, but a cut-off answer is sent again too.
UNTIL_END_TURN = variant(
    ('    while step in ("run_tools", "resend"):', '    while response.stop_reason != "end_turn":'),
    ('        if step == "run_tools":', '        if response.stop_reason == "tool_use":'),
    ('    if step == "finish":', '    if response.stop_reason == "end_turn":'),
)

# Valve 2 asked right after each response, not at the top of the next lap: an answer that crosses the
# budget is thrown away, as valve 1 asked after the answer throws it away.
SPENT = "        tokens_used += response.usage.input_tokens + (response.usage.cache_creation_input_tokens or 0) + (response.usage.cache_read_input_tokens or 0) + response.usage.output_tokens\n"
BUDGET_AFTER_RESPONSE = variant((VALVE_2, ""), (SPENT + "        step", SPENT + VALVE_2 + "        step"))

# Each tool call counted as a turn: two calls in one response spend two of MAX_TURNS.
COUNTS_CALLS = variant(
    ("        turns += 1\n", '        turns += len([b for b in response.content if b.type == "tool_use"])\n')
)
# Valve 3 with every signature so far: README read again after asking the time looks like a spin.
REMEMBERS_EVERY_SIGNATURE = variant(
    ("turns, tokens_used, last_signature = 0, 0, None", "turns, tokens_used, seen = 0, 0, set()"),
    ("            if signature == last_signature:", "            if signature in seen:"),
    ("            last_signature = signature\n", "            seen.add(signature)\n"),
)
# Valve 3 fed only by calls that worked ("a failure retried is no spin"): a call that fails again and
# again, the spin the lessons start from, goes on until valve 1.
KEEPS_WORKING_SIGNATURES = variant(
    (
        "            last_signature = signature\n"
        "            results = run_tool_uses(response.content, tool_impls, approve or (lambda name, given: False))\n",
        "            results = run_tool_uses(response.content, tool_impls, approve or (lambda name, given: False))\n"
        '            if any(not r.get("is_error") for r in results):\n'
        "                last_signature = signature\n",
    )
)
WRONG_RUN_AGENT_PROBES = [
    (COUNTS_CALLS, 3, "lesson.l6.run_agent.turns_per_call"),
    (KEEPS_WORKING_SIGNATURES, 5, "lesson.l6.run_agent.spin_on_failures"),
    (REMEMBERS_EVERY_SIGNATURE, 5, "lesson.l6.run_agent.spin_not_in_a_row"),
    (BUDGET_AFTER_RESPONSE, 4, "lesson.l6.run_agent.budget_after_answer"),
    (UNTIL_END_TURN, 2, "lesson.l6.run_agent.went_on_after_cut"),
    (_cached_counting(f"{USAGE} + 2 * ({WRITES} + {READS})"), 4, "lesson.l6.run_agent.budget_cache_twice"),
    (_cached_counting(f"{USAGE} + {WRITES}"), 4, "lesson.l6.run_agent.budget_field_omitted"),  # the reads left out
    (  # the breakdown in cache_creation added on top of the total it splits
        _cached_counting(f"{USAGE} + {WRITES} + {READS} + (u.cache_creation.ephemeral_5m_input_tokens or 0)"),
        4,
        "lesson.l6.run_agent.budget_overcounted",
    ),
]
RIGHT_RUN_AGENT_PROBES = [
    _cached_counting(
        "tokens_used += sum(getattr(response.usage, k, 0) or 0 for k in ('input_tokens', 'output_tokens',"
        " 'cache_creation_input_tokens', 'cache_read_input_tokens'))"
    ),
]
