"""Round fourteen: wrong answers from mix-ups a learner makes between what the API says and what the loop
does, each with the point that must catch it and the hint naming its cause; and right answers in styles
the others do not use.

The content list a piece is handed is the very list the loop sends back as the assistant turn: a piece
that appends to it, sorts it or drops blocks from it changes the history. stop_reason words from
elsewhere ("tool_calls", "stop", "end-turn") match nothing the API sends. pause_turn, refusal and
model_context_window_exceeded each have their own answer (send back as it is; stop and say why; stop,
the answer is cut). A tool's failure is a result with is_error, never an exception out of the piece; an
approval that raised is a no. Valve 1 counts turns, not calls; valve 2 asks before the next request is
sent; valve 3 compares calls (names and inputs), not the blocks with their ids; every usage field counts.
"""

from __future__ import annotations

import json

from harness_lab.lessons.lesson5 import HIGH_IMPACT
from tests.lessons.answers6 import USED, variant


def _text(output):
    return output if isinstance(output, str) else json.dumps(output, ensure_ascii=False)


def _ran(block, impls):
    try:
        return {"type": "tool_result", "tool_use_id": block.id, "content": _text(impls[block.name](**block.input))}
    except Exception as err:
        return {"type": "tool_result", "tool_use_id": block.id, "content": f"失敗しました: {err}", "is_error": True}


def _denied(block):
    return {
        "type": "tool_result",
        "tool_use_id": block.id,
        "content": "人が断ったので実行していません",
        "is_error": True,
    }


# --- run_tools (lesson 2) ------------------------------------------------------------------------------


def tools_raise_failures(content, impls):  # a failing tool's exception let out of the piece
    return [
        {"type": "tool_result", "tool_use_id": b.id, "content": _text(impls[b.name](**b.input))}
        for b in content
        if b.type == "tool_use"
    ]


def tools_reraise_after_noting(content, impls):  # the error result made, then raised "so the caller knows"
    results = []
    for b in content:
        if b.type == "tool_use":
            result = _ran(b, impls)
            results.append(result)
            if result.get("is_error"):
                raise RuntimeError(result["content"])
    return results


def tools_results_into_content(content, impls):  # the results appended to the list it was handed
    calls = [b for b in content if b.type == "tool_use"]
    content.extend(_ran(b, impls) for b in calls)
    return content[len(content) - len(calls) :]


def tools_content_sorted_in_place(content, impls):  # "tidied" by name in place before answering
    content.sort(key=lambda b: getattr(b, "name", ""))
    return [_ran(b, impls) for b in content if b.type == "tool_use"]


def tools_right_generator_inside(content, impls):  # right: a generator drained into the list it returns
    def each():
        for b in content:
            if b.type == "tool_use":
                yield _ran(b, impls)

    return list(each())


# --- next_step (lesson 3) ------------------------------------------------------------------------------


def next_step_tool_calls(response):  # OpenAI's finish_reason word
    if response.stop_reason == "tool_calls":
        return "run_tools"
    if response.stop_reason == "pause_turn":
        return "resend"
    if response.stop_reason in ("end_turn", "stop_sequence"):
        return "finish"
    return "stop"


def next_step_end_turn_hyphen(response):  # "end-turn": no such stop_reason
    if response.stop_reason == "tool_use":
        return "run_tools"
    if response.stop_reason == "pause_turn":
        return "resend"
    if response.stop_reason in ("end-turn", "stop_sequence"):
        return "finish"
    return "stop"


def next_step_pause_finishes(response):  # pause_turn read as "the model paused: done"
    if response.stop_reason == "tool_use":
        return "run_tools"
    if response.stop_reason in ("end_turn", "stop_sequence", "pause_turn"):
        return "finish"
    return "stop"


def next_step_pause_runs_tools(response):  # pause_turn read as one more tool turn
    if response.stop_reason in ("tool_use", "pause_turn"):
        return "run_tools"
    if response.stop_reason in ("end_turn", "stop_sequence"):
        return "finish"
    return "stop"


def next_step_refusal_finishes(response):  # a refusal's words taken for the answer
    if response.stop_reason == "tool_use":
        return "run_tools"
    if response.stop_reason == "pause_turn":
        return "resend"
    if response.stop_reason in ("end_turn", "stop_sequence", "refusal"):
        return "finish"
    return "stop"


def next_step_window_resends(response):  # a full context window "tried again"
    if response.stop_reason == "tool_use":
        return "run_tools"
    if response.stop_reason in ("pause_turn", "model_context_window_exceeded"):
        return "resend"
    if response.stop_reason in ("end_turn", "stop_sequence"):
        return "finish"
    return "stop"


def next_step_by_last_block(response):  # the last block's type instead of stop_reason: a cut call runs
    if response.content and response.content[-1].type == "tool_use":
        return "run_tools"
    if response.stop_reason == "pause_turn":
        return "resend"
    if response.stop_reason in ("end_turn", "stop_sequence"):
        return "finish"
    return "stop"


NEXT_STEPS = {"tool_use": "run_tools", "pause_turn": "resend", "end_turn": "finish", "stop_sequence": "finish"}


def next_step_right_table(response):  # right: a table, everything else stops
    return NEXT_STEPS.get(response.stop_reason, "stop")


# --- signature_of (lesson 4) ---------------------------------------------------------------------------


def sig_whole_blocks(content):  # the blocks as they came, ids and all
    return json.dumps([b.model_dump() for b in content if b.type == "tool_use"], sort_keys=True)


def sig_whole_content(content):  # every block, the thinking and text too
    return repr(content)


def sig_inputs_as_text(content):  # name and str(input): a dict's repr keeps the model's key order
    return repr(sorted(f"{b.name}:{b.input}" for b in content if b.type == "tool_use"))


def sig_tuple_of_pairs(content):  # a tuple, not the text the stop message and the gauge show
    return tuple(sorted((b.name, json.dumps(b.input, sort_keys=True)) for b in content if b.type == "tool_use"))


def sig_right_json_of_pairs(content):  # right: the sorted (name, sorted JSON) pairs, as JSON text
    pairs = sorted((b.name, json.dumps(b.input, sort_keys=True)) for b in content if b.type == "tool_use")
    return json.dumps(pairs, ensure_ascii=False)


# --- run_tool_uses (lesson 5) --------------------------------------------------------------------------


def approve_error_allows(content, impls, approve):  # "the prompt broke, let it through"
    results = []
    for b in (b for b in content if b.type == "tool_use"):
        if b.name in HIGH_IMPACT:
            try:
                yes = approve(b.name, b.input)
            except Exception:
                yes = True
            if not yes:
                results.append(_denied(b))
                continue
        results.append(_ran(b, impls))
    return results


def approve_tool_errors_raised(content, impls, approve):  # only the approval guarded, the tool's error let out
    results = []
    for b in (b for b in content if b.type == "tool_use"):
        if b.name in HIGH_IMPACT and not approve(b.name, b.input):
            results.append(_denied(b))
            continue
        results.append({"type": "tool_result", "tool_use_id": b.id, "content": _text(impls[b.name](**b.input))})
    return results


def approve_denied_removed_from_content(content, impls, approve):  # the refused call taken out of the turn
    results = []
    for b in [b for b in content if b.type == "tool_use"]:
        if b.name in HIGH_IMPACT and not approve(b.name, b.input):
            content.remove(b)
            results.append(_denied(b))
            continue
        results.append(_ran(b, impls))
    return results


def approve_once_for_the_turn(content, impls, approve):  # one question for all the turn's high-impact calls
    calls = [b for b in content if b.type == "tool_use"]
    risky = [b for b in calls if b.name in HIGH_IMPACT]
    yes = bool(approve(risky[0].name, risky[0].input)) if risky else True
    return [_ran(b, impls) if b.name not in HIGH_IMPACT or yes else _denied(b) for b in calls]


def approve_right_guard_clause(content, impls, approve):  # right: a helper that says no unless it hears yes
    def allowed(block):
        if block.name not in HIGH_IMPACT:
            return True
        try:
            return approve(block.name, block.input) is True
        except Exception:
            return False

    return [_ran(b, impls) if allowed(b) else _denied(b) for b in content if b.type == "tool_use"]


# --- stop_message (lesson 7) ---------------------------------------------------------------------------


def _so_far(response):
    return "".join(b.text for b in response.content if b.type == "text")


def stop_pause_told(response):  # pause_turn told to the person as a stop
    if response.stop_reason == "refusal":
        d = response.stop_details
        return f"モデルが断りました（{(d and d.category) or '分類なし'}）: {(d and d.explanation) or '説明なし'}"
    if response.stop_reason in ("max_tokens", "model_context_window_exceeded", "pause_turn"):
        return f"答えが途中で切れました（{response.stop_reason}）。ここまで: {_so_far(response)}"
    return None


def stop_window_silent(response):  # only max_tokens is a cut: the full window says nothing
    if response.stop_reason == "refusal":
        d = response.stop_details
        return f"モデルが断りました（{(d and d.category) or '分類なし'}）: {(d and d.explanation) or '説明なし'}"
    if response.stop_reason == "max_tokens":
        return f"max_tokens で答えが切れました。ここまで: {_so_far(response)}"
    return None


def stop_right_dispatch(response):  # right: one function per reason, in a dict
    def refused(r):
        d = r.stop_details
        return (
            f"モデルはこの依頼を断りました（{(d and d.category) or '分類なし'}）: {(d and d.explanation) or '説明なし'}"
        )

    def cut(why):
        return lambda r: f"{why}ので、答えが途中で切れました。ここまで: {_so_far(r)}"

    said = {
        "refusal": refused,
        "max_tokens": cut("max_tokens に達した"),
        "model_context_window_exceeded": cut("コンテキストウィンドウが一杯になった"),
    }
    return said[response.stop_reason](response) if response.stop_reason in said else None


WRONG_MIXUPS = [
    ("run_tools", tools_raise_failures, 3, "lesson.l2.run_tools.raised"),
    ("run_tools", tools_reraise_after_noting, 3, "lesson.l2.run_tools.raised"),
    ("run_tools", tools_results_into_content, 4, "lesson.l2.run_tools.changed_content"),
    ("run_tools", tools_content_sorted_in_place, 4, "lesson.l2.run_tools.changed_content"),
    ("next_step", next_step_tool_calls, 1, "lesson.l3.next_step.tool_use"),
    ("next_step", next_step_end_turn_hyphen, 2, "lesson.l3.next_step.end_turn"),
    ("next_step", next_step_pause_finishes, 1, "lesson.l3.next_step.pause_turn"),
    ("next_step", next_step_pause_runs_tools, 1, "lesson.l3.next_step.pause_turn"),
    ("next_step", next_step_refusal_finishes, 3, "lesson.l3.next_step.refusal"),
    ("next_step", next_step_window_resends, 3, "lesson.l3.next_step.model_context_window_exceeded"),
    ("next_step", next_step_by_last_block, 3, "lesson.l3.next_step.max_tokens"),
    ("signature_of", sig_whole_blocks, 1, "lesson.l4.signature.ids"),
    ("signature_of", sig_whole_content, 1, "lesson.l4.signature.ids"),
    ("signature_of", sig_inputs_as_text, 1, "lesson.l4.signature.key_order"),
    ("signature_of", sig_tuple_of_pairs, 1, "lesson.l4.signature.not_text"),
    ("run_tool_uses", approve_error_allows, 2, "lesson.l5.failed_open"),
    ("run_tool_uses", approve_tool_errors_raised, 3, "lesson.l5.tool_raised"),
    ("run_tool_uses", approve_denied_removed_from_content, 2, "lesson.l5.changed_content"),
    ("run_tool_uses", approve_once_for_the_turn, 1, "lesson.l5.answer_carried"),  # the second call never asked
    ("stop_message", stop_pause_told, 4, "lesson.l7.stop_message.not_none"),
    ("stop_message", stop_window_silent, 3, "lesson.l7.stop_message.silent"),
]
RIGHT_MIXUPS = [
    ("run_tools", tools_right_generator_inside),
    ("next_step", next_step_right_table),
    ("signature_of", sig_right_json_of_pairs),
    ("run_tool_uses", approve_right_guard_clause),
    ("stop_message", stop_right_dispatch),
]

# --- run_agent (lesson 6), each the one change a learner makes to the right one -----------------------

APPEND_TURN = """        messages.append({"role": "assistant", "content": response.content})
        if results:
            messages.append({"role": "user", "content": results})
"""
RUN = "            results = run_tool_uses(response.content, tool_impls, approve or (lambda name, given: False))\n"
VALVE_2 = """        if tokens_used >= TOKEN_BUDGET:
            return lessons.stopped("token_budget", "予算", turns, tokens_used)
"""
SEND = """        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
        tokens_used += """

WRONG_RUN_AGENT_MIXUPS = [
    # The results sent before the assistant turn that called them: the API's 400 names the order.
    (
        variant(
            (
                APPEND_TURN,
                """        if results:
            messages.append({"role": "user", "content": results})
        messages.append({"role": "assistant", "content": response.content})
""",
            )
        ),
        1,
        "lesson.l2.results_before_call",
    ),
    # stop_reason compared with OpenAI's word: no tool ever runs, the calls left unanswered.
    (
        variant(('        if step == "run_tools":', '        if response.stop_reason == "tool_calls":')),
        1,
        "lesson.l2.calls_unanswered",
    ),
    # A pause sent back with a "continue" of its own.
    (
        variant(
            (
                "        if results:\n            messages.append",
                '        if step == "resend":\n            messages.append({"role": "user", "content": "続けて"})\n'
                "        if results:\n            messages.append",
            )
        ),
        2,
        "lesson.l6.run_agent.resend_changed",
    ),
    # A refusal handed back as though it were the answer.
    (variant(('    if step == "finish":', '    if step in ("finish", "stop"):')), 2, "lesson.l6.run_agent.max_tokens"),
    # The full window "tried again": the loop goes on while the model says the window is full.
    (
        variant(('    while step in ("run_tools", "resend"):', '    while step != "finish" and turns < 3:')),
        2,
        "lesson.l6.run_agent.went_on_after_cut",
    ),
    # Valve 1 counting the calls a turn made, not the turn.
    (
        variant(("        turns += 1\n", ""), (RUN, RUN + "            turns += len(results)\n")),
        3,
        "lesson.l6.run_agent.turns_per_call",
    ),
    # Valve 3 on the whole response content, ids and all: a spin never looks the same twice.
    (
        variant(
            ("signature = signature_of(response.content)", "signature = [b.model_dump() for b in response.content]")
        ),
        5,
        "lesson.l6.run_agent.missed_spinning",
    ),
    # No approver read as "nobody objects".
    (
        variant(("approve or (lambda name, given: False)", "approve or (lambda name, given: True)")),
        6,
        "lesson.l6.run_agent.no_approver_ran",
    ),
    # Valve 2 asked after the next request is sent: the answer that crossed the budget is thrown away.
    (
        variant((VALVE_2, ""), (SEND + USED + "\n", SEND + USED + "\n" + VALVE_2)),
        4,
        "lesson.l6.run_agent.budget_after_answer",
    ),
    # Only the cache reads added to the input: the cache writes are left out.
    (
        variant(
            (
                USED,
                "response.usage.input_tokens + (response.usage.cache_read_input_tokens or 0) + response.usage.output_tokens",
            )
        ),
        4,
        "lesson.l6.run_agent.budget_field_omitted",
    ),
    (
        variant(
            (
                USED,
                "response.usage.input_tokens + (response.usage.cache_creation_input_tokens or 0) + response.usage.output_tokens",
            )
        ),
        4,
        "lesson.l6.run_agent.budget_field_omitted",
    ),
    (
        variant((USED, "response.usage.input_tokens + response.usage.output_tokens")),
        4,
        "lesson.l6.run_agent.budget_cache_omitted",
    ),
    (
        variant(
            (
                USED,
                "response.usage.input_tokens + (response.usage.cache_creation_input_tokens or 0) + (response.usage.cache_read_input_tokens or 0)",
            )
        ),
        1,
        "lesson.l6.run_agent.budget_field_omitted",
    ),
    (
        variant(
            (
                USED,
                "(response.usage.cache_creation_input_tokens or 0) + (response.usage.cache_read_input_tokens or 0) + response.usage.output_tokens",
            )
        ),
        1,
        "lesson.l6.run_agent.budget_field_omitted",
    ),
    # A tool's failure let out of the loop: the tools called directly, no result for the failure.
    (
        variant(
            (
                RUN,
                "            results = [{'type': 'tool_result', 'tool_use_id': b.id, 'content': str(tool_impls[b.name](**b.input))}"
                " for b in response.content if b.type == 'tool_use']\n",
            )
        ),
        5,
        "lesson.l6.run_agent.tool_raised",
    ),
]

RIGHT_RUN_AGENT_MIXUPS = [
    # Every usage field through the SDK object's model_dump, None as 0.
    variant(
        (
            USED,
            "sum(v or 0 for k, v in response.usage.model_dump().items() if k in "
            "('input_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens', 'output_tokens'))",
        )
    ),
    # The turn's history entries built first, then added with one extend.
    variant(
        (
            APPEND_TURN,
            """        turn_messages = [{"role": "assistant", "content": response.content}]
        if results:
            turn_messages.append({"role": "user", "content": results})
        messages.extend(turn_messages)
""",
        )
    ),
]
