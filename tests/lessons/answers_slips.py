"""Slips a learner makes in lessons 2, 5 and 6 that used to pass (or were told another cause), each with the
point that must catch it and the hint that must name it; and right answers in another style.

run_agent (lesson 6): a yield kept only for tool turns (or skipped on the turn before the answer) let the
Stepper run through a lap without pausing; turns numbered one off, or counted after the yield or per
request, labelled every turn wrongly; a stop with a fixed cause told a refusal as max_tokens; results
sent back in reverse passed (each probe's results were paired by id); a budget compared with one token
less, or with the next reply's max_tokens added, was told only that valve 2 stopped a normal task.
run_tool_uses (lesson 5): refusing only an explicit no (``is False``, ``== False``) ran a call whose
approval answered None; denied results put after the others were never provoked.
run_tools (lesson 2): a tool given ``*block.input.values()`` passed, every probe's input having one key.
"""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

from harness_lab.lessons.lesson5 import HIGH_IMPACT
from harness_lab.text import t
from tests.lessons.answers6 import variant

YIELD = "        yield lessons.turn(turns, response, results)\n"
NEXT = "        step = next_step(response)\n    if step"
SPIN = """            if signature == last_signature:
                return lessons.stopped("no_progress", "空回り", turns, tokens_used)
            last_signature = signature
"""

WRONG_RUN_AGENT_SLIPS = [
    # yields only when tools ran: a pause_turn resend is a lap the Stepper never pauses on
    (variant((YIELD, "        if results:\n    " + YIELD)), 2, "lesson.l6.run_agent.lap_not_yielded"),
    (variant((YIELD, '        if step == "run_tools":\n    ' + YIELD)), 2, "lesson.l6.run_agent.lap_not_yielded"),
    # yields only when more is to come: the turn before the answer is never paused on
    (
        variant(
            (YIELD, "        answered = response\n"),
            (
                NEXT,
                '        step = next_step(response)\n        if step != "finish":\n'
                "            yield lessons.turn(turns, answered, results)\n    if step",
            ),
        ),
        1,
        "lesson.l6.run_agent.lap_not_yielded",
    ),
    (
        variant(("lessons.turn(turns, response", "lessons.turn(turns - 1, response")),
        1,
        "lesson.l6.run_agent.turn_labels",
    ),
    (
        variant(("lessons.turn(turns, response", "lessons.turn(turns + 1, response")),
        1,
        "lesson.l6.run_agent.turn_labels",
    ),
    # turns += 1 after the yield: the same stops, every turn labelled with the turns before it
    (
        variant(("        turns += 1\n", ""), (YIELD, YIELD + "        turns += 1\n")),
        1,
        "lesson.l6.run_agent.turn_labels",
    ),
    # a turn counted per request sent, after the yield
    (
        variant(("        turns += 1\n", ""), (NEXT, "        turns += 1\n" + NEXT)),
        1,
        "lesson.l6.run_agent.turn_labels",
    ),
    # every stop told as max_tokens: a refusal is reported as a cut-off answer
    (
        variant(('lessons.stopped(response.stop_reason, "止めました"', 'lessons.stopped("max_tokens", "止めました"')),
        2,
        "lesson.l6.run_agent.refusal",
    ),
    # the results reversed ("newest first"): one result per call, but not in call order
    (
        variant(('{"role": "user", "content": results}', '{"role": "user", "content": results[::-1]}')),
        3,
        "lesson.l6.run_agent.results_order",
    ),
    # results sorted by id: the API's ids are no call order
    (
        variant(
            (
                '{"role": "user", "content": results}',
                '{"role": "user", "content": sorted(results, key=lambda r: r["tool_use_id"], reverse=True)}',
            )
        ),
        3,
        "lesson.l6.run_agent.results_order",
    ),
    (variant(("if turns >= MAX_TURNS:", "if turns >= MAX_TURNS - 1:")), 3, "lesson.l6.run_agent.after_increment"),
    (
        variant(("if tokens_used >= TOKEN_BUDGET:", "if tokens_used >= TOKEN_BUDGET - 1:")),
        4,
        "lesson.l6.run_agent.budget_below",
    ),
    # the next reply's max_tokens reserved: it stops before the budget is reached
    (
        variant(("if tokens_used >= TOKEN_BUDGET:", "if tokens_used + 1024 >= TOKEN_BUDGET:")),
        4,
        "lesson.l6.run_agent.budget_below",
    ),
    # the largest response instead of the sum
    (
        variant(
            (
                "tokens_used += response.usage.input_tokens + (response.usage.cache_creation_input_tokens or 0) + (response.usage.cache_read_input_tokens or 0) + response.usage.output_tokens",
                "tokens_used = max(tokens_used, response.usage.input_tokens + (response.usage.cache_creation_input_tokens or 0) + (response.usage.cache_read_input_tokens or 0) + response.usage.output_tokens)",
            )
        ),
        4,
        "lesson.l6.run_agent.budget_last_only",
    ),
]

RIGHT_RUN_AGENT_SLIPS = [
    variant(("if turns >= MAX_TURNS:", "if turns + 1 > MAX_TURNS:")),
    variant(
        ("if turns >= MAX_TURNS:", "if MAX_TURNS <= turns:"),
        ("tokens_used >= TOKEN_BUDGET", "not tokens_used < TOKEN_BUDGET"),
    ),
    # the last signature swapped in before the comparison, compared with the one it replaced
    variant(
        (
            SPIN,
            "            last_signature, previous = signature, last_signature\n"
            "            if signature == previous:\n"
            '                return lessons.stopped("no_progress", "空回り", turns, tokens_used)\n',
        )
    ),
    # an approver that answers nothing when none was given: the reference run_tool_uses reads it as no
    variant(("approve or (lambda name, given: False)", "approve or (lambda name, given: None)")),
]


def _ran(block, impls):
    try:
        return {"type": "tool_result", "tool_use_id": block.id, "content": str(impls[block.name](**block.input))}
    except Exception as err:
        return {
            "type": "tool_result",
            "tool_use_id": block.id,
            "content": t("result.failed", error=err),
            "is_error": True,
        }


def _denied(block):
    return {"type": "tool_result", "tool_use_id": block.id, "is_error": True, "content": t("result.denied")}


def approve_only_false_refused(content, impls, approve):  # a None from approve is no "False": it runs
    results = []
    for block in content:
        if block.type == "tool_use":
            if block.name in HIGH_IMPACT and approve(block.name, block.input) is False:
                results.append(_denied(block))
            else:
                results.append(_ran(block, impls))
    return results


def approve_equals_false(content, impls, approve):
    calls = [b for b in content if b.type == "tool_use"]
    return [
        _denied(b) if b.name in HIGH_IMPACT and approve(b.name, b.input) == False else _ran(b, impls)  # noqa: E712
        for b in calls
    ]


def approve_no_words(content, impls, approve):  # the person's "no" spelt out: anything else is a yes
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        answer = approve(block.name, block.input) if block.name in HIGH_IMPACT else True
        results.append(_denied(block) if answer in (False, "no", "n", "いいえ") else _ran(block, impls))
    return results


def approve_denied_last(content, impls, approve):  # the refusals gathered at the end of the list
    ran, denied = [], []
    for block in content:
        if block.type == "tool_use":
            if block.name in HIGH_IMPACT and not approve(block.name, block.input):
                denied.append(_denied(block))
            else:
                ran.append(_ran(block, impls))
    return ran + denied


def approve_only_true_runs(content, impls, approve):  # right: anything but True is refused
    calls = [b for b in content if b.type == "tool_use"]
    return [
        _ran(b, impls) if b.name not in HIGH_IMPACT or approve(b.name, b.input) is True else _denied(b) for b in calls
    ]


def _result(block, impls):
    try:
        output = impls[block.name](**block.input)
        text = output if isinstance(output, str) else json.dumps(output, ensure_ascii=False)
        return {"type": "tool_result", "tool_use_id": block.id, "content": text}
    except Exception as err:
        return {"type": "tool_result", "tool_use_id": block.id, "content": f"失敗しました: {err}", "is_error": True}


def tools_by_position(content, impls):  # the input's values in the model's key order, as positions
    results = []
    for block in content:
        if block.type == "tool_use":
            try:
                output = impls[block.name](*block.input.values())
                text = output if isinstance(output, str) else json.dumps(output, ensure_ascii=False)
                results.append({"type": "tool_result", "tool_use_id": block.id, "content": text})
            except Exception as err:
                results.append(
                    {
                        "type": "tool_result",
                        "tool_use_id": block.id,
                        "content": f"失敗しました: {err}",
                        "is_error": True,
                    }
                )
    return results


def tools_at_once_in_call_order(content, impls):  # right: run at once, map keeps the calls' order
    with ThreadPoolExecutor() as pool:
        return list(pool.map(lambda b: _result(b, impls), [b for b in content if b.type == "tool_use"]))


def next_step_by_match(response):  # right: a match statement, every other reason stops
    match response.stop_reason:
        case "tool_use":
            return "run_tools"
        case "pause_turn":
            return "resend"
        case "end_turn" | "stop_sequence":
            return "finish"
        case _:
            return "stop"


WRONG_SLIPS = [
    ("run_tools", tools_by_position, 2, "lesson.l2.run_tools.by_position"),
    ("run_tool_uses", approve_only_false_refused, 2, "lesson.l5.unknown_allowed"),
    ("run_tool_uses", approve_equals_false, 2, "lesson.l5.unknown_allowed"),
    ("run_tool_uses", approve_no_words, 2, "lesson.l5.unknown_allowed"),
    ("run_tool_uses", approve_denied_last, 2, "lesson.l5.results_order"),
]
RIGHT_SLIPS = [
    ("run_tool_uses", approve_only_true_runs),
    ("run_tools", tools_at_once_in_call_order),
    ("next_step", next_step_by_match),
]
