"""Wrong versions of lesson 6's pieces (the whole ``run_agent`` and the capstone's ``my_agent``), each made
from a right one by the one change a learner makes, and the hint each must get.

The variants are source text run in a namespace like notebook 05's (``lessons``, ``MODEL``, the
learner's earlier pieces, ``MAX_TURNS`` ...), so each one reads as the learner typed it.
"""

from __future__ import annotations

import json
from urllib.parse import urlsplit

import harness_lab as hl
from harness_lab import lessons
from harness_lab.lessons.capstone import ALLOWED_HOSTS, GET_TIME, HTTP_POST, get_time
from harness_lab.lessons.lesson2 import run_tools
from harness_lab.lessons.lesson3 import next_step
from harness_lab.lessons.lesson4 import signature_of
from harness_lab.lessons.lesson5 import HIGH_IMPACT, run_tool_uses
from harness_lab.lessons.lesson6 import run_agent as reference_run_agent
from tests.lessons.answers import approve_asks_everything

RIGHT_RUN_AGENT = """
def run_agent(client, user_input, tools, tool_impls, approve=None):
    messages = [{"role": "user", "content": user_input}]
    turns, tokens_used, last_signature = 0, 0, None
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    tokens_used += response.usage.input_tokens + (response.usage.cache_creation_input_tokens or 0) + (response.usage.cache_read_input_tokens or 0) + response.usage.output_tokens
    step = next_step(response)
    while step in ("run_tools", "resend"):
        if turns >= MAX_TURNS:
            return lessons.stopped("max_turns", "上限", turns, tokens_used)
        if tokens_used >= TOKEN_BUDGET:
            return lessons.stopped("token_budget", "予算", turns, tokens_used)
        turns += 1
        results = []
        if step == "run_tools":
            signature = signature_of(response.content)
            if signature == last_signature:
                return lessons.stopped("no_progress", "空回り", turns, tokens_used)
            last_signature = signature
            results = run_tool_uses(response.content, tool_impls, approve or (lambda name, given: False))
        messages.append({"role": "assistant", "content": response.content})
        if results:
            messages.append({"role": "user", "content": results})
        yield lessons.turn(turns, response, results)
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
        tokens_used += response.usage.input_tokens + (response.usage.cache_creation_input_tokens or 0) + (response.usage.cache_read_input_tokens or 0) + response.usage.output_tokens
        step = next_step(response)
    if step == "finish":
        return lessons.finished(response, turns, tokens_used)
    return lessons.stopped(response.stop_reason, "止めました", turns, tokens_used)
"""
# What each response used, as valve 2 counts it: prompt caching's cache writes and reads too.
USED = (
    "response.usage.input_tokens + (response.usage.cache_creation_input_tokens or 0)"
    " + (response.usage.cache_read_input_tokens or 0) + response.usage.output_tokens"
)
VALVE_1 = """        if turns >= MAX_TURNS:
            return lessons.stopped("max_turns", "上限", turns, tokens_used)
"""
VALVE_2 = """        if tokens_used >= TOKEN_BUDGET:
            return lessons.stopped("token_budget", "予算", turns, tokens_used)
"""
TOOLS_RAN = """            messages.append({"role": "user", "content": results})
"""
# Valve 3 asked after the tools ran: the repeated call has run once more by then.
CHECK_SPIN = """            if signature == last_signature:
                return lessons.stopped("no_progress", "空回り", turns, tokens_used)
            last_signature = signature
"""
RUN = """            results = run_tool_uses(response.content, tool_impls, approve or (lambda name, given: False))
"""
AFTER_TOOLS = """            if turns >= MAX_TURNS:
                return lessons.stopped("max_turns", "上限", turns, tokens_used)
"""


def variant(*edits: tuple[str, str], base: str = RIGHT_RUN_AGENT) -> str:
    for old, new in edits:
        assert old in base, old
        base = base.replace(old, new)
    return base


def loaded(source: str, name: str = "run_agent"):
    """The function ``name`` defined by ``source``, in a namespace like notebook 05's."""
    namespace = {
        "__name__": "__main__",
        "json": json,
        "hl": hl,
        "lessons": lessons,
        "MODEL": "claude-sonnet-5",
        "MAX_TURNS": 8,
        "TOKEN_BUDGET": 40_000,
        "next_step": next_step,
        "signature_of": signature_of,
        "run_tool_uses": run_tool_uses,
        "run_tools": run_tools,
        "asks_everything": approve_asks_everything,
        "HIGH_IMPACT": HIGH_IMPACT,
        "run_agent": reference_run_agent,
        "urlsplit": urlsplit,
        "get_time": get_time,
        "GET_TIME": GET_TIME,
        "HTTP_POST": HTTP_POST,
        "ALLOWED_HOSTS": ALLOWED_HOSTS,
    }
    exec(compile(source, f"<{name}>", "exec"), namespace)
    return namespace[name]


LOOP_ON_STOP_REASON = variant(
    (
        '    step = next_step(response)\n    while step in ("run_tools", "resend"):',
        '    while response.stop_reason == "tool_use":',
    ),
    ('        if step == "run_tools":', "        if True:"),
    ('        step = next_step(response)\n    if step == "finish":', '    if response.stop_reason != "max_tokens":'),
)
NOT_A_GENERATOR = """
def run_agent(client, user_input, tools, tool_impls, approve=None):
    return "答え"
"""
FIRST = "    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)\n"
ADD = "    tokens_used += " + USED + "\n"
WRONG_RUN_AGENT = [
    (NOT_A_GENERATOR, 1, "lesson.l6.run_agent.not_generator"),
    (  # the finish handed back without the tokens counted
        variant(("lessons.finished(response, turns, tokens_used)", "lessons.finished(response, turns)")),
        1,
        "lesson.l6.run_agent.end_tokens",
    ),
    (  # the turns counted from 1, compared with >: the same stops, every number one too high
        variant(
            ("turns, tokens_used, last_signature = 0, 0, None", "turns, tokens_used, last_signature = 1, 0, None"),
            ("if turns >= MAX_TURNS:", "if turns > MAX_TURNS:"),
        ),
        1,
        "lesson.l6.run_agent.end_turns",
    ),
    (  # only tool turns counted: a model that pauses for ever never meets valve 1
        variant(
            (
                '        turns += 1\n        results = []\n        if step == "run_tools":\n',
                '        results = []\n        if step == "run_tools":\n            turns += 1\n',
            ),
        ),
        3,
        "lesson.l6.run_agent.resend_uncounted",
    ),
    (variant((FIRST + ADD, FIRST)), 4, "lesson.l6.run_agent.budget_first_missing"),
    (  # each response counted at the top of the next lap, after valve 2 has looked
        variant(
            (FIRST + ADD, FIRST),
            ("    " + FIRST + "    " + ADD, "    " + FIRST),
            ("        turns += 1\n", "        turns += 1\n    " + ADD),
        ),
        4,
        "lesson.l6.run_agent.budget_counted_late",
    ),
    (  # the last return one indent too deep: the loop body runs once
        variant(
            (
                '    return lessons.stopped(response.stop_reason, "止めました", turns, tokens_used)\n',
                '        return lessons.stopped(response.stop_reason, "止めました", turns, tokens_used)\n',
            ),
            ('    if step == "finish":\n        return', '        if step == "finish":\n            return'),
        ),
        1,
        "lesson.l6.run_agent.left_early",
    ),
    (  # yielded after the next request: each turn carries the response after the one its results answer
        variant(
            ("        yield lessons.turn(turns, response, results)\n", ""),
            (
                "        step = next_step(response)\n    if step",
                "        step = next_step(response)\n        yield lessons.turn(turns, response, results)\n    if step",
            ),
        ),
        1,
        "lesson.l6.run_agent.yield_other_response",
    ),
    (
        variant(("        if tokens_used >= TOKEN_BUDGET:", "        if tokens_used > TOKEN_BUDGET:")),
        4,
        "lesson.l6.run_agent.budget_reached",
    ),
    (  # lesson 2's habit: the results' user message after every step, the resend's empty one too
        variant(
            ("        if results:\n            messages.append(", "        if True:\n            messages.append(")
        ),
        2,
        "lesson.l6.run_agent.empty_results",
    ),
    (  # valve 1 asked after the re-send: a task done right at the limit loses its answer
        variant(
            (VALVE_1, ""),
            (
                "        step = next_step(response)\n    if step",
                "        step = next_step(response)\n" + VALVE_1 + "    if step",
            ),
        ),
        3,
        "lesson.l6.run_agent.limit_after_answer",
    ),
    (  # valve 3 asked on every step, as the seed's loop body does: two pauses in a row look like spinning
        variant(
            (
                """        if step == "run_tools":
            signature = signature_of(response.content)
            if signature == last_signature:
                return lessons.stopped("no_progress", "空回り", turns, tokens_used)
            last_signature = signature
            results""",
                """        signature = signature_of(response.content)
        if signature == last_signature:
            return lessons.stopped("no_progress", "空回り", turns, tokens_used)
        last_signature = signature
        if step == "run_tools":
            results""",
            )
        ),
        2,
        "lesson.l6.run_agent.spin_on_resend",
    ),
    (  # no approver, so it gives up before asking the model anything
        variant(
            (
                "    messages = [{",
                '    if approve is None:\n        return lessons.stopped("max_turns", "承認なし", 0, 0)\n    messages = [{',
            )
        ),
        6,
        "lesson.l6.run_agent.no_request",
    ),
    (
        variant(
            (
                "        return lessons.finished(response, turns, tokens_used)",
                "        return hl.text_of(response.content)",
            )
        ),
        1,
        "lesson.l6.run_agent.no_end",
    ),
    (variant(('    if step == "finish":', "    if False:")), 1, "lesson.l6.run_agent.finish_as_stop"),
    (
        variant(
            (
                "    step = next_step(response)\n    while",
                "    first = response\n    step = next_step(response)\n    while",
            ),
            ("lessons.finished(response, turns, tokens_used)", "lessons.finished(first, turns, tokens_used)"),
        ),
        1,
        "lesson.l6.run_agent.not_answer",
    ),
    (
        variant(
            (
                "run_tool_uses(response.content, tool_impls,",
                "run_tool_uses(response.content, {k: v for k, v in tool_impls.items() if k != 'get_time'},",
            )
        ),
        7,
        "lesson.l6.run_agent.harmless_not_run",
    ),
    (LOOP_ON_STOP_REASON, 2, "lesson.l6.run_agent.pause_turn"),
    (
        variant(
            (
                "        if results:\n",
                '        messages.append({"role": "user", "content": results or "続けて"})\n        if False:\n',
            )
        ),
        2,
        "lesson.l6.run_agent.resend_changed",
    ),
    (
        variant(
            (
                "    step = next_step(response)\n    while",
                '    step = "run_tools" if response.stop_reason == "max_tokens" else next_step(response)\n    while',
            )
        ),
        2,
        "lesson.l6.run_agent.ran_cut_call",
    ),
    (
        variant(('    if step == "finish":\n        return', "    if True:\n        return")),
        2,
        "lesson.l6.run_agent.max_tokens",
    ),
    (
        variant(
            (
                "signature = signature_of(response.content)",
                'signature = " | ".join(sorted(b.name for b in response.content if b.type == "tool_use"))',
            )
        ),
        3,
        "lesson.l6.run_agent.no_progress_on_new_calls",
    ),
    (variant((VALVE_1, ""), (TOOLS_RAN, TOOLS_RAN + AFTER_TOOLS)), 3, "lesson.l6.run_agent.after_tools"),
    (
        variant((VALVE_1, ""), ("        turns += 1\n", "        turns += 1\n" + VALVE_1)),
        3,
        "lesson.l6.run_agent.after_increment",
    ),
    (variant(("if turns >= MAX_TURNS:", "if turns >= 8:")), 3, "lesson.l6.run_agent.limit_ignored"),
    (variant((VALVE_1, "")), 3, "lesson.l6.run_agent.valve1_silent"),
    (variant((VALVE_1, ""), (VALVE_2, "")), 3, "lesson.l6.run_agent.no_max_turns"),
    (variant(('"max_turns", "上限"', '"上限に達した", "上限"')), 3, "lesson.l6.run_agent.unknown_cause"),
    (
        variant(("if tokens_used >= TOKEN_BUDGET:", "if tokens_used * 100 >= TOKEN_BUDGET:")),
        3,
        "lesson.l6.run_agent.budget_too_early",
    ),
    (
        variant(
            ("        if turns >= MAX_TURNS:", "        if False:\n            yield\n        if turns >= MAX_TURNS:"),
            ("        yield lessons.turn(turns, response, results)\n", ""),
        ),
        1,
        "lesson.l6.run_agent.no_yield",
    ),
    (
        variant((USED, "response.usage.output_tokens")),
        4,
        "lesson.l6.run_agent.budget_output_only",
    ),
    (
        variant((USED, "response.usage.input_tokens")),
        4,
        "lesson.l6.run_agent.budget_input_only",
    ),
    (
        variant(("if tokens_used >= TOKEN_BUDGET:", "if tokens_used >= 40_000:")),
        4,
        "lesson.l6.run_agent.budget_ignored",
    ),
    (
        variant(("tokens_used += " + USED, "pass")),
        4,
        "lesson.l6.run_agent.budget_not_counted",
    ),
    (
        variant(
            (
                "signature = signature_of(response.content)",
                'signature = [b.id for b in response.content if b.type == "tool_use"]',
            )
        ),
        5,
        "lesson.l6.run_agent.missed_spinning",
    ),
    (
        variant((CHECK_SPIN, ""), (RUN, RUN + CHECK_SPIN)),
        5,
        "lesson.l6.run_agent.spin_ran_again",
    ),
    (
        variant(("signature = signature_of(response.content)", "signature = hl.text_of(response.content)")),
        1,
        "lesson.l6.run_agent.normal_no_progress",
    ),
    (variant(("if turns >= MAX_TURNS:", "if turns >= MAX_TURNS // 8:")), 1, "lesson.l6.run_agent.normal_stopped"),
    (
        variant(
            (
                '    while step in ("run_tools", "resend"):',
                '    while step in ("run_tools", "resend") and not hl.text_of(response.content):',
            )
        ),
        3,
        "lesson.l6.run_agent.ended_while_calling",
    ),
    (
        variant(("approve or (lambda name, given: False)", "approve or (lambda n, i: True)")),
        6,
        "lesson.l6.run_agent.no_approver_ran",
    ),
    (
        variant(
            (
                "run_tool_uses(response.content, tool_impls, approve or (lambda name, given: False))",
                "run_tools(response.content, tool_impls)",
            )
        ),
        6,
        "lesson.l6.run_agent.not_asked",
    ),
    (
        variant(
            (
                "approve or (lambda name, given: False)",
                "(lambda name, given: [approve and approve(name, given), True][1])",
            )
        ),
        6,
        "lesson.l6.run_agent.denied_ran",
    ),
    (
        variant(
            ("results = run_tool_uses(", "results = [dict(r, is_error=False) for r in run_tool_uses("),
            ("given: False))\n", "given: False))]\n"),
        ),
        6,
        "lesson.l6.run_agent.denied_not_error",
    ),
    (variant(("results = run_tool_uses(", "results = asks_everything(")), 7, "lesson.l6.run_agent.asked_harmless"),
    (
        variant(("approve or (lambda name, given: False)", "(lambda name, given: False)")),
        7,
        "lesson.l6.run_agent.approved_not_run",
    ),
]
