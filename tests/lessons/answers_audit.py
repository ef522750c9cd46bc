"""More wrong answers a learner writes (the red-team of the lesson checks), and right answers written in
other styles than the reference's: every wrong one must get its own cause's hint, every right one must pass.

Each wrong entry: (piece, the wrong function, the point it fails (1-based), the hint key), as in
``answers.WRONG``; the lesson 6 entries are source text, as in ``answers6.WRONG_RUN_AGENT``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import harness_lab as hl
from harness_lab.lessons.lesson2 import run_tools as good_run_tools
from harness_lab.lessons.lesson4 import signature_of as good_signature
from harness_lab.lessons.lesson5 import HIGH_IMPACT
from harness_lab.lessons.lesson5 import run_tool_uses as good_run_tool_uses
from tests.lessons.answers6 import variant

MODEL = "claude-sonnet-5"


def _result(block, output) -> dict:
    text = output if isinstance(output, str) else json.dumps(output, ensure_ascii=False)
    return {"type": "tool_result", "tool_use_id": block.id, "content": text}


def _error(block, err) -> dict:
    return {"type": "tool_result", "tool_use_id": block.id, "content": f"失敗: {err}", "is_error": True}


# --- run_tools ------------------------------------------------------------------------------


def tools_print_not_return(content, impls):
    print(good_run_tools(content, impls))


def tools_return_in_loop(content, impls):  # the return indented into the for
    results = []
    for block in content:
        if block.type == "tool_use":
            results.append(_result(block, impls[block.name](**block.input)))
            return results
    return results


def tools_with_a_note(content, impls):  # a text block put in with the results
    return [{"type": "text", "text": "結果です"}, *good_run_tools(content, impls)]


def tools_kept_results(content, impls, results=[]):  # noqa: B006 (the mistake under test)
    for block in content:
        if block.type == "tool_use":
            results.append(_result(block, impls[block.name](**block.input)))
    return results


def tools_positional_input(content, impls):  # impls[name](block.input): every call fails, the try hides why
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        try:
            results.append(_result(block, impls[block.name](block.input)))
        except Exception as err:
            results.append(_error(block, err))
    return results


def tools_prune_content(content, impls):  # drops the non-tool blocks from the list it was given
    content[:] = [b for b in content if b.type == "tool_use"]
    return good_run_tools(content, impls)


def tools_str_dict(content, impls):
    return [
        {"type": "tool_result", "tool_use_id": b.id, "content": str(impls[b.name](**b.input))}
        for b in content
        if b.type == "tool_use"
    ]


def tools_given_the_response(content, impls):  # treats content as the response
    return good_run_tools(content.content, impls)


def tools_id_from_name(content, impls):  # the tool's name where the call's id belongs
    return [dict(r, tool_use_id=b.name) for r, b in zip(good_run_tools(content, impls), tool_uses(content))]


def tool_uses(content) -> list:
    return [b for b in content if b.type == "tool_use"]


def tools_one_parameter(content):
    return []


# --- run_agent (lesson 2) -----------------------------------------------------------------------


def _create(client, tools, messages):
    return client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)


def _final(client, user_input, tools, impls):
    """The lesson's loop, right up to its last response (the wrong answers below differ after it)."""
    messages = [{"role": "user", "content": user_input}]
    response = _create(client, tools, messages)
    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": good_run_tools(response.content, impls)})
        response = _create(client, tools, messages)
    return response


def agent_prints(client, user_input, tools, impls):
    print(hl.text_of(_final(client, user_input, tools, impls).content))


def agent_returns_response(client, user_input, tools, impls):
    return _final(client, user_input, tools, impls)


def agent_kept_history(client, user_input, tools, impls, messages=[]):  # noqa: B006 (the mistake under test)
    messages.append({"role": "user", "content": user_input})
    response = _create(client, tools, messages)
    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": good_run_tools(response.content, impls)})
        response = _create(client, tools, messages)
    messages.append({"role": "assistant", "content": response.content})
    return hl.text_of(response.content)


def agent_drops_thinking(client, user_input, tools, impls):  # "only what the model said and called"
    messages = [{"role": "user", "content": user_input}]
    response = _create(client, tools, messages)
    while response.stop_reason == "tool_use":
        kept = [b for b in response.content if b.type != "thinking"]
        messages.append({"role": "assistant", "content": kept})
        messages.append({"role": "user", "content": good_run_tools(response.content, impls)})
        response = _create(client, tools, messages)
    return hl.text_of(response.content)


def agent_tools_for_impls(client, user_input, tools, impls):  # the definitions where the functions belong
    return hl.text_of(_final(client, user_input, tools, tools).content)


def agent_first_text_only(client, user_input, tools, impls):  # the answer read from one block
    return next(b.text for b in _final(client, user_input, tools, impls).content if b.type == "text")


def agent_drops_the_text(client, user_input, tools, impls):  # "the calls are what matters"
    messages = [{"role": "user", "content": user_input}]
    response = _create(client, tools, messages)
    while response.stop_reason == "tool_use":
        kept = [b for b in response.content if b.type != "text"]  # the API takes it; the model loses its words
        messages.append({"role": "assistant", "content": kept})
        messages.append({"role": "user", "content": good_run_tools(response.content, impls)})
        response = _create(client, tools, messages)
    return hl.text_of(response.content)


def agent_never_resends(client, user_input, tools, impls):  # runs the tools, never asks the model again
    messages = [{"role": "user", "content": user_input}]
    response = _create(client, tools, messages)
    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": good_run_tools(response.content, impls)})
    return hl.text_of(response.content)


def agent_results_first(client, user_input, tools, impls):  # user (results) before assistant (calls)
    messages = [{"role": "user", "content": user_input}]
    response = _create(client, tools, messages)
    while response.stop_reason == "tool_use":
        messages.append({"role": "user", "content": good_run_tools(response.content, impls)})
        messages.append({"role": "assistant", "content": response.content})
        response = _create(client, tools, messages)
    return hl.text_of(response.content)


def agent_fixed_turns(client, user_input, tools, impls):  # goes on whatever the stop_reason says
    messages = [{"role": "user", "content": user_input}]
    response = _create(client, tools, messages)
    for _ in range(3):
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": good_run_tools(response.content, impls)})
        response = _create(client, tools, messages)
    return hl.text_of(response.content)


def agent_appends_response(client, user_input, tools, impls):  # the Message, not its content
    messages = [{"role": "user", "content": user_input}]
    response = _create(client, tools, messages)
    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response})
        messages.append({"role": "user", "content": good_run_tools(response.content, impls)})
        response = _create(client, tools, messages)
    return hl.text_of(response.content)


def agent_first_block_text(client, user_input, tools, impls):  # the first block taken for the text
    messages = [{"role": "user", "content": user_input}]
    response = _create(client, tools, messages)
    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": good_run_tools(response.content, impls)})
        response = _create(client, tools, messages)
    return response.content[0].text


def agent_subscripts_response(client, user_input, tools, impls):
    messages = [{"role": "user", "content": user_input}]
    response = _create(client, tools, messages)
    while response["stop_reason"] == "tool_use":
        messages.append({"role": "assistant", "content": response.content})
        response = _create(client, tools, messages)
    return hl.text_of(response.content)


def agent_tools_on_the_response(client, user_input, tools, impls):  # run_tools(response, ...)
    messages = [{"role": "user", "content": user_input}]
    response = _create(client, tools, messages)
    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": good_run_tools(response, impls)})
        response = _create(client, tools, messages)
    return hl.text_of(response.content)


# --- next_step ------------------------------------------------------------------------------


def step_prints(response):
    print({"tool_use": "run_tools", "pause_turn": "resend", "end_turn": "finish"}.get(response.stop_reason, "stop"))


def step_max_tokens_finishes(response):  # "it ended, so it is finished"
    if response.stop_reason == "tool_use":
        return "run_tools"
    if response.stop_reason == "pause_turn":
        return "resend"
    if response.stop_reason in ("end_turn", "stop_sequence", "max_tokens"):
        return "finish"
    return "stop"


# --- signature_of ---------------------------------------------------------------------------


def sig_str_dict(content):  # str(dict) keeps the key order the model wrote
    return " | ".join(sorted(f"{b.name}({b.input})" for b in content if b.type == "tool_use"))


def sig_with_text(content):  # the whole turn, what it said included
    calls = sorted(f"{b.name}{json.dumps(b.input, sort_keys=True)}" for b in content if b.type == "tool_use")
    return hl.text_of(content) + " | " + " | ".join(calls)


def sig_with_thinking(content):  # what the model thought before the calls, kept in
    kept = [b.thinking for b in content if b.type == "thinking"]
    return " | ".join(kept) + " | " + good_signature(content)


def sig_sorts_in_place(content):  # sorts the history's own list
    content.sort(key=lambda b: b.type)
    return good_signature(content)


def sig_input_only(content):  # which tool was called left out
    return " | ".join(sorted(json.dumps(b.input, sort_keys=True) for b in content if b.type == "tool_use"))


# --- run_tool_uses --------------------------------------------------------------------------


def _denied(block) -> dict:
    return {"type": "tool_result", "tool_use_id": block.id, "content": "拒否されました", "is_error": True}


def approve_one_argument(content, impls, approve):  # approve(block): the callback takes name and input
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        if block.name in HIGH_IMPACT and not approve(block):
            results.append(_denied(block))
            continue
        results.append(_result(block, impls[block.name](**block.input)))
    return results


def approve_one_argument_in_try(content, impls, approve):  # the same, its TypeError turned into a result
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        try:
            if block.name in HIGH_IMPACT and not approve(block):
                results.append(_denied(block))
                continue
            results.append(_result(block, impls[block.name](**block.input)))
        except Exception as err:
            results.append(_error(block, err))
    return results


def approve_positional_input(content, impls, approve):  # impls[name](block.input), inside a try
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        if block.name in HIGH_IMPACT and not approve(block.name, block.input):
            results.append(_denied(block))
            continue
        try:
            results.append(_result(block, impls[block.name](block.input)))
        except Exception as err:
            results.append(_error(block, err))
    return results


def approve_only_write_file(content, impls, approve):  # HIGH_IMPACT read as "write_file"
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        if block.name == "write_file" and not approve(block.name, block.input):
            results.append(_denied(block))
            continue
        try:
            results.append(_result(block, impls[block.name](**block.input)))
        except Exception as err:
            results.append(_error(block, err))
    return results


def approve_one_no_stops_all(content, impls, approve):  # one no for the whole turn
    calls = [b for b in content if b.type == "tool_use"]
    if not all(approve(b.name, b.input) for b in calls if b.name in HIGH_IMPACT):
        return [_denied(b) for b in calls]
    return good_run_tool_uses(content, impls, approve)


def approve_raises_on_no(content, impls, approve):
    for block in content:
        if block.type == "tool_use" and block.name in HIGH_IMPACT and not approve(block.name, block.input):
            raise PermissionError(f"{block.name} は許可されませんでした")
    return good_run_tool_uses(content, impls, lambda name, given: True)


def approve_prunes_content(content, impls, approve):
    content[:] = [b for b in content if b.type == "tool_use"]
    return good_run_tool_uses(content, impls, approve)


def approve_no_try(content, impls, approve):
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        if block.name in HIGH_IMPACT and not approve(block.name, block.input):
            results.append(_denied(block))
            continue
        results.append(_result(block, impls[block.name](**block.input)))
    return results


def approve_kept_results(content, impls, approve, results=[]):  # noqa: B006 (the mistake under test)
    results.extend(good_run_tool_uses(content, impls, approve))
    return results


def approve_failure_unflagged(content, impls, approve):  # a failure answered, but not as an error
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        if block.name in HIGH_IMPACT and not approve(block.name, block.input):
            results.append(_denied(block))
            continue
        try:
            results.append(_result(block, impls[block.name](**block.input)))
        except Exception as err:
            results.append(_result(block, f"失敗: {err}"))
    return results


def approve_fails_open(content, impls, approve):  # an approval that raises counted as a yes
    def allowed(block):
        try:
            return approve(block.name, block.input)
        except Exception:
            return True

    return (
        good_run_tool_uses(content, impls, lambda name, given: True)
        if all(allowed(b) for b in content if b.type == "tool_use" and b.name in HIGH_IMPACT)
        else approve_right_flagged(content, impls, approve)
    )


def approve_asks_with_the_block(content, impls, approve):  # the whole block where its input belongs
    return good_run_tool_uses(
        content,
        impls,
        lambda name, given: approve(name, next(b for b in content if b.type == "tool_use" and b.input is given)),
    )


def approve_arguments_swapped(content, impls, approve):
    return good_run_tool_uses(content, impls, lambda name, given: approve(given, name))


def approve_forgot_return(content, impls, approve):  # right in every way but the last line
    good_run_tool_uses(content, impls, approve)


def approve_yields(content, impls, approve):  # notebook 04 has just taught generators
    yield from good_run_tool_uses(content, impls, approve)


def approve_return_inside_for(content, impls, approve):
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        results += good_run_tool_uses([block], impls, approve)
        return results  # one indent too deep
    return results


def approve_remembers_yes(content, impls, approve):  # a yes for write_file taken for every write_file after it
    results, approved = [], set()
    for block in content:
        if block.type != "tool_use":
            continue
        if block.name in HIGH_IMPACT and block.name not in approved:
            if not approve(block.name, block.input):
                results.append(_denied(block))
                continue
            approved.add(block.name)
        results += good_run_tool_uses([block], impls, lambda name, given: True)
    return results


def approve_raises_dropped(content, impls, approve):  # an approval that raises: not run, and no result either
    def ask(name, given):
        try:
            return approve(name, given)
        except Exception:
            return None

    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        answer = ask(block.name, block.input) if block.name in HIGH_IMPACT else True
        if answer is None:
            continue
        results += good_run_tool_uses([block], impls, lambda name, given, a=answer: a)
    return results


# --- read_file ------------------------------------------------------------------------------


def read_ignores_root(path, root="."):
    return Path(path).read_text(encoding="utf-8")[:2000]


def _inside(path, root) -> Path:
    base = Path(root).resolve()
    target = (base / path).resolve()
    if not target.is_relative_to(base):
        raise PermissionError(path)
    return target


def read_joins_strings(path, root="."):  # fine for a str root, a TypeError for notebook 05's Path roots
    base = os.path.realpath(root)
    target = os.path.realpath(root + "/" + path)
    if os.path.commonpath([base, target]) != base:
        raise PermissionError(path)
    with open(target, encoding="utf-8") as f:
        return f.read(2000)


def read_whole_file(path, root="."):
    return _inside(path, root).read_text(encoding="utf-8")


def read_returns_refusal(path, root="."):
    base = Path(root).resolve()
    target = (base / path).resolve()
    if not target.is_relative_to(base):
        return "ルートの外は読めません"
    return target.read_text(encoding="utf-8")[:2000]


def read_raises_value_error(path, root="."):
    base = Path(root).resolve()
    target = (base / path).resolve()
    if not target.is_relative_to(base):
        raise ValueError(f"{path} はルートの外です")
    return target.read_text(encoding="utf-8")[:2000]


WRONG_MORE = [
    ("run_tools", tools_print_not_return, 1, "lesson.l2.run_tools.returned_none"),
    ("run_tools", tools_return_in_loop, 1, "lesson.l2.run_tools.too_few"),
    ("run_tools", tools_with_a_note, 1, "lesson.l2.run_tools.text_in_results"),
    ("run_tools", tools_kept_results, 1, "lesson.l2.run_tools.kept_results"),
    ("run_tools", tools_positional_input, 2, "lesson.l2.run_tools.call_failed"),
    ("run_tools", tools_prune_content, 4, "lesson.l2.run_tools.changed_content"),
    ("run_tools", tools_str_dict, 2, "lesson.l2.run_tools.not_json"),
    ("run_tools", tools_given_the_response, 1, "lesson.rule.content_given"),
    ("run_tools", tools_one_parameter, 1, "lesson.arguments"),
    ("run_tools", tools_id_from_name, 1, "lesson.l2.run_tools.ids"),
    ("run_agent", agent_prints, 1, "lesson.l2.run_agent.returned_none"),
    ("run_agent", agent_returns_response, 1, "lesson.l2.run_agent.returned_response"),
    ("run_agent", agent_kept_history, 1, "lesson.l2.run_agent.stale_history"),
    ("run_agent", agent_drops_thinking, 2, "lesson.l2.keep_thinking"),
    ("run_agent", agent_tools_for_impls, 3, "lesson.l2.run_agent.tools_not_run"),
    ("run_agent", agent_first_text_only, 2, "lesson.l2.run_agent.not_text"),
    ("run_agent", agent_drops_the_text, 2, "lesson.l2.run_agent.not_whole"),
    ("run_agent", agent_results_first, 2, "lesson.l2.results_before_call"),
    ("run_agent", agent_fixed_turns, 1, "lesson.l2.empty_message"),
    ("run_agent", agent_appends_response, 2, "lesson.l2.content_not_list"),
    ("run_agent", agent_first_block_text, 1, "lesson.rule.first_not_text"),
    ("run_agent", agent_subscripts_response, 1, "lesson.rule.message_attributes"),
    ("run_agent", agent_tools_on_the_response, 2, "lesson.rule.response_given"),
    ("next_step", step_prints, 1, "lesson.l3.next_step.returned_none"),
    ("next_step", step_max_tokens_finishes, 3, "lesson.l3.next_step.max_tokens_finish"),
    ("signature_of", sig_str_dict, 1, "lesson.l4.signature.key_order"),
    ("signature_of", sig_with_text, 1, "lesson.l4.signature.text"),
    ("signature_of", sig_with_thinking, 1, "lesson.l4.signature.text"),
    ("signature_of", sig_sorts_in_place, 1, "lesson.l4.signature.changed_content"),
    ("signature_of", sig_input_only, 2, "lesson.l4.signature.collides"),
    ("run_tool_uses", approve_one_argument, 1, "lesson.l5.approve_call"),
    ("run_tool_uses", approve_one_argument_in_try, 1, "lesson.l5.approve_call"),
    ("run_tool_uses", approve_positional_input, 1, "lesson.l5.call_failed"),
    ("run_tool_uses", approve_only_write_file, 1, "lesson.l5.not_asked"),
    ("run_tool_uses", approve_one_no_stops_all, 2, "lesson.l5.per_call"),
    ("run_tool_uses", approve_raises_on_no, 2, "lesson.l5.denied_raised"),
    ("run_tool_uses", approve_prunes_content, 3, "lesson.l5.changed_content"),
    ("run_tool_uses", approve_no_try, 3, "lesson.l5.tool_raised"),
    ("run_tool_uses", approve_kept_results, 2, "lesson.l5.kept_results"),
    ("run_tool_uses", approve_failure_unflagged, 3, "lesson.l5.failure_not_error"),
    ("run_tool_uses", approve_fails_open, 2, "lesson.l5.failed_open"),
    ("run_tool_uses", approve_forgot_return, 1, "lesson.l5.returned_none"),
    ("run_tool_uses", approve_asks_with_the_block, 1, "lesson.l5.approve_args"),
    ("run_tool_uses", approve_arguments_swapped, 1, "lesson.l5.approve_args"),
    ("run_tool_uses", approve_yields, 1, "lesson.l5.not_list"),
    ("run_tool_uses", approve_return_inside_for, 1, "lesson.l5.returned_early"),
    ("run_tool_uses", approve_remembers_yes, 2, "lesson.l5.yes_reused"),
    ("run_tool_uses", approve_raises_dropped, 2, "lesson.l5.denied_dropped"),
    ("read_file", read_ignores_root, 1, "lesson.l6.read_file.wrong_root"),
    ("read_file", read_whole_file, 1, "lesson.l6.read_file.limit"),
    ("read_file", read_joins_strings, 1, "lesson.l6.read_file.path_root"),
    ("read_file", read_returns_refusal, 2, "lesson.l6.read_file.returned_refusal"),
    ("read_file", read_raises_value_error, 2, "lesson.l6.read_file.not_permission"),
]

# A loop that never sends the next request: it runs out of time, and the hint says why.
STALLED = [("run_agent", agent_never_resends, 2, "lesson.l2.run_agent.stalled")]


# --- run_agent (lesson 6), as source ----------------------------------------------------------

DROPS_DENIED = """
def drops_denied(content, impls, approve):
    return [r for r in run_tool_uses(content, impls, approve) if not r.get("is_error")]
"""

WRONG_RUN_AGENT_MORE = [
    (variant(("approve or (lambda name, given: False)", "approve")), 6, "lesson.l6.run_agent.approve_none"),
    (
        variant(("tokens_used += response.usage.input_tokens", "tokens_used = response.usage.input_tokens")),
        4,
        "lesson.l6.run_agent.budget_last_only",
    ),
    (
        DROPS_DENIED + variant(("results = run_tool_uses(", "results = drops_denied(")),
        6,
        "lesson.l6.run_agent.denied_dropped",
    ),
    (
        variant(
            (
                '{"role": "assistant", "content": response.content}',
                '{"role": "assistant", "content": [b for b in response.content if b.type != "thinking"]}',
            )
        ),
        1,
        "lesson.l2.keep_thinking",
    ),
    (variant(("if turns >= MAX_TURNS:", "if turns > MAX_TURNS:")), 3, "lesson.l6.run_agent.one_too_many"),
    (
        variant(
            (
                "def run_agent(client, user_input, tools, tool_impls, approve=None):\n    messages = [",
                "def run_agent(client, user_input, tools, tool_impls, approve=None, messages=[]):\n    messages += [",
            ),
        ),
        2,
        "lesson.l6.run_agent.stale_history",
    ),
    (
        variant(
            (
                '    while step in ("run_tools", "resend"):',
                '    while step in ("run_tools", "resend") and turns < MAX_TURNS:',
            ),
            (
                '        if turns >= MAX_TURNS:\n            return lessons.stopped("max_turns", "上限", turns, tokens_used)\n',
                "",
            ),
        ),
        3,
        "lesson.l6.run_agent.valve_not_named",
    ),
    (
        variant(("yield lessons.turn(turns, response, results)", "yield lessons.turn(turns, response, [])")),
        1,
        "lesson.l6.run_agent.yield_results",
    ),
    (
        variant(
            (
                "tokens_used += response.usage.input_tokens + response.usage.output_tokens\n    step",
                "tokens_used += response.usage.total_tokens\n    step",
            )
        ),
        1,
        "lesson.rule.usage",
    ),
]

# Right answers in other styles than the references': each must pass every point.
NO_YIELD_NO_RESEND = """
def run_agent(client, user_input, tools, tool_impls, approve=None):
    messages = [{"role": "user", "content": user_input}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls, approve)})
    return lessons.finished(response, 0, 0)
"""
STALLED_RUN_AGENT = [(NO_YIELD_NO_RESEND, 1, "lesson.l6.run_agent.not_generator_stalled")]


# --- right answers, written in other styles than the references' ---------------------------------


def tools_right_as_blocks(content, impls):  # text blocks as the content, a helper per call
    def answer(block):
        try:
            output = impls[block.name](**block.input)
        except Exception as err:
            return {"type": "tool_result", "tool_use_id": block.id, "is_error": True, "content": repr(err)}
        text = output if isinstance(output, str) else json.dumps(output, ensure_ascii=False, indent=1)
        return {"type": "tool_result", "tool_use_id": block.id, "content": [{"type": "text", "text": text}]}

    return [answer(b) for b in content if b.type == "tool_use"]


def agent_right_while_true(client, user_input, tools, impls):
    messages = [{"role": "user", "content": user_input}]
    while True:
        response = _create(client, tools, messages)
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            return "".join(b.text for b in response.content if b.type == "text")
        messages.append({"role": "user", "content": good_run_tools(response.content, impls)})


def step_right_match(response):
    match response.stop_reason:
        case "tool_use":
            return "run_tools"
        case "pause_turn":
            return "resend"
        case "end_turn" | "stop_sequence":
            return "finish"
        case _:
            return "stop"


def sig_right_tuples(content):  # a sorted list of (name, input as sorted JSON), as its repr
    return repr(sorted((b.name, json.dumps(b.input, sort_keys=True)) for b in content if b.type == "tool_use"))


def sig_right_compact(content):
    calls = [{"name": b.name, "input": b.input} for b in content if b.type == "tool_use"]
    calls.sort(key=lambda c: json.dumps(c, sort_keys=True))
    return json.dumps(calls, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def approve_right_flagged(content, impls, approve):
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        allowed = block.name not in HIGH_IMPACT or approve(block.name, block.input)
        if not allowed:
            results.append(_denied(block))
            continue
        try:
            results.append(_result(block, impls[block.name](**block.input)))
        except Exception as err:
            results.append(_error(block, err))
    return results


def approve_right_closed(content, impls, approve):  # an approval that cannot be had is a no
    def allowed(name, given):
        try:
            return approve(name, given)
        except Exception:
            return False

    return good_run_tool_uses(content, impls, allowed)


def read_right_commonpath(path, root="."):
    import os

    base = os.path.realpath(root)
    target = os.path.realpath(os.path.join(base, path))
    if os.path.commonpath([base, target]) != base:
        raise PermissionError(f"{path} はルートの外です")
    with open(target, encoding="utf-8") as f:
        return f.read(2000)


def read_right_relative_to(path, root="."):
    base = Path(root).resolve()
    target = (base / path).resolve()
    try:
        target.relative_to(base)
    except ValueError:
        raise PermissionError(path) from None
    return target.read_text(encoding="utf-8")[:2000]


RIGHT_MORE = [
    ("run_tools", tools_right_as_blocks),
    ("run_agent", agent_right_while_true),
    ("next_step", step_right_match),
    ("signature_of", sig_right_tuples),
    ("signature_of", sig_right_compact),
    ("run_tool_uses", approve_right_flagged),
    ("run_tool_uses", approve_right_closed),
    ("read_file", read_right_commonpath),
    ("read_file", read_right_relative_to),
]
RIGHT_RUN_AGENT_MORE = [
    variant(
        ("    messages = [", "    approve = approve or (lambda *_: False)\n    messages = ["),
        ("approve or (lambda name, given: False)", "approve"),
    ),
]
