"""Round eighteen of a learner's whole harness (lesson 6's ``run_agent``, notebook 05): each wrong one with
the point that must catch it and the hint that must name it, and right ones in other styles.

Four used to pass: approvals gathered at the top of the lap (before valve 1) or before valve 3's
comparison, so a person was asked about a turn the valve then stopped; a yes kept by tool name for the
run (setdefault: asked again, the new answer not read); a failed tool's result sent without is_error.
A turn counter set to 0 in the loop's body was told the end value's turns, then that valve 1 never
stopped it; it is now told the counter starts again on every lap.
"""

from __future__ import annotations

from tests.lessons.answers_whole_harness import GATE, inline

TOP = """    while step in ("run_tools", "resend"):
        if turns >= MAX_TURNS:
"""
COUNT_FIRST = """    u = response.usage
    tokens_used += u.input_tokens + (u.cache_creation_input_tokens or 0) + (u.cache_read_input_tokens or 0) + u.output_tokens
    step = next_step(response)
    while"""

# the counter made in the loop's body ("a fresh count for this lap"): valve 1 never sees more than one
TURNS_RESET = inline(
    (TOP, """    while step in ("run_tools", "resend"):\n        turns = 0\n        if turns >= MAX_TURNS:\n"""),
)

# the approvals gathered at the top of the lap, before valve 1: the person is asked about a turn valve 1 then stops
ASKED_BEFORE_VALVE_1 = inline(
    (
        TOP,
        """    while step in ("run_tools", "resend"):
        answers = {b.id: approve is not None and approve(b.name, b.input) for b in response.content if b.type == "tool_use" and b.name in HIGH_IMPACT}
        if turns >= MAX_TURNS:
""",
    ),
    (
        "if block.name in HIGH_IMPACT and not (approve is not None and approve(block.name, block.input)):",
        "if block.name in HIGH_IMPACT and not answers[block.id]:",
    ),
)

# the approvals gathered before valve 3's comparison: the person is asked about a repeated call valve 3 then stops
ASKED_BEFORE_VALVE_3 = inline(
    (
        "            signature = signature_of(response.content)\n",
        """            answers = {b.id: approve is not None and approve(b.name, b.input) for b in response.content if b.type == "tool_use" and b.name in HIGH_IMPACT}
            signature = signature_of(response.content)
""",
    ),
    (
        "if block.name in HIGH_IMPACT and not (approve is not None and approve(block.name, block.input)):",
        "if block.name in HIGH_IMPACT and not answers[block.id]:",
    ),
)

# one answer per tool name for the whole run: asked again each time, the first answer kept (setdefault)
FIRST_ANSWER_KEPT = inline(
    (
        "    turns, tokens_used, last_signature = 0, 0, None\n",
        "    turns, tokens_used, last_signature = 0, 0, None\n    answers = {}\n",
    ),
    (
        "if block.name in HIGH_IMPACT and not (approve is not None and approve(block.name, block.input)):",
        "if block.name in HIGH_IMPACT and not (approve is not None and answers.setdefault(block.name, approve(block.name, block.input))):",
    ),
)

# an approver's answer compared with "no" words: an empty answer (or None) lets the tool run
EMPTY_ANSWER_RUNS = inline(
    (
        "if block.name in HIGH_IMPACT and not (approve is not None and approve(block.name, block.input)):",
        'if block.name in HIGH_IMPACT and (approve is None or str(approve(block.name, block.input)).strip().lower() in ("n", "no", "false", "いいえ")):',
    ),
)

# a failed tool's result sent back with no is_error: the model reads the error text as the tool's output
FAILURE_UNFLAGGED = inline(
    (
        """                    results.append({"type": "tool_result", "tool_use_id": block.id, "content": f"失敗: {err}", "is_error": True})""",
        """                    results.append({"type": "tool_result", "tool_use_id": block.id, "content": f"失敗: {err}"})""",
    ),
)

# a refusal sent back with no is_error
DENIAL_UNFLAGGED = inline(
    (
        GATE,
        GATE.replace(', "content": "拒否されました", "is_error": True}', ', "content": "拒否されました"}'),
    ),
)

# the usage list made afresh in the body: valve 2 sums the last response only
USAGES_IN_THE_BODY = inline(
    ("    turns, tokens_used, last_signature = 0, 0, None\n", "    turns, last_signature = 0, None\n    usages = []\n"),
    (
        """    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    u = response.usage
    tokens_used += u.input_tokens + (u.cache_creation_input_tokens or 0) + (u.cache_read_input_tokens or 0) + u.output_tokens
    step = next_step(response)
    while step in ("run_tools", "resend"):
""",
        """    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    usages.append(response.usage)
    tokens_used = sum(u.input_tokens + (u.cache_creation_input_tokens or 0) + (u.cache_read_input_tokens or 0) + u.output_tokens for u in usages)
    step = next_step(response)
    while step in ("run_tools", "resend"):
        usages = []
""",
    ),
    (
        """        u = response.usage
        tokens_used += u.input_tokens + (u.cache_creation_input_tokens or 0) + (u.cache_read_input_tokens or 0) + u.output_tokens
""",
        """        usages.append(response.usage)
        tokens_used = sum(u.input_tokens + (u.cache_creation_input_tokens or 0) + (u.cache_read_input_tokens or 0) + u.output_tokens for u in usages)
""",
    ),
)

# valve 3 by tool names alone (its own signature, not signature_of): new arguments read as a spin
SPIN_BY_NAMES = inline(
    (
        "            signature = signature_of(response.content)\n",
        '            signature = sorted(b.name for b in response.content if b.type == "tool_use")\n',
    ),
)

# the budget left to spend compared with < 0: a budget reached exactly still sends
BUDGET_LEFT_BELOW_ZERO = inline(
    ("        if tokens_used >= TOKEN_BUDGET:\n", "        if TOKEN_BUDGET - tokens_used < 0:\n"),
)

WRONG_RUN_AGENT_ROUND_18 = [
    (TURNS_RESET, 1, "lesson.l6.run_agent.turns_reset"),  # every turn yielded as turn 1
    (TURNS_RESET, 3, "lesson.l6.run_agent.turns_reset"),  # valve 1 never reaches its limit
    (ASKED_BEFORE_VALVE_1, 3, "lesson.l6.run_agent.asked_unrun"),
    (ASKED_BEFORE_VALVE_3, 5, "lesson.l6.run_agent.asked_unrun"),
    (FIRST_ANSWER_KEPT, 6, "lesson.l6.run_agent.answer_reused"),
    (EMPTY_ANSWER_RUNS, 6, "lesson.l6.run_agent.unknown_allowed"),
    (FAILURE_UNFLAGGED, 5, "lesson.l6.run_agent.failure_not_error"),
    (DENIAL_UNFLAGGED, 6, "lesson.l6.run_agent.denied_not_error"),
    (USAGES_IN_THE_BODY, 4, "lesson.l6.run_agent.budget_last_only"),
    (SPIN_BY_NAMES, 3, "lesson.l6.run_agent.no_progress_on_new_calls"),
    (BUDGET_LEFT_BELOW_ZERO, 4, "lesson.l6.run_agent.budget_reached"),
]

# --- right ones, in other styles ------------------------------------------------------------------------

# a class holding the four valves' state, a for over itertools.count, match on next_step
VALVES_AS_A_CLASS = """
import itertools


class Valves:
    def __init__(self):
        self.tokens = 0
        self.last = None

    def add(self, usage):
        self.tokens += usage.input_tokens + (usage.cache_creation_input_tokens or 0) + (usage.cache_read_input_tokens or 0) + usage.output_tokens

    def spinning(self, content):
        # valve 3: the same calls as the previous tool turn
        signature = signature_of(content)
        repeated, self.last = signature == self.last, signature
        return repeated


def run_agent(client, user_input, tools, tool_impls, approve=None):
    messages = [{"role": "user", "content": user_input}]
    valves = Valves()
    for turns in itertools.count():
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
        valves.add(response.usage)
        match next_step(response):
            case "finish":
                return lessons.finished(response, turns, valves.tokens)
            case "stop":
                return lessons.stopped(response.stop_reason, "止めました", turns, valves.tokens)
            case step:
                pass
        # valves 1 and 2 before the lap; valve 3 before the tools; valve 4 inside run_tool_uses
        if turns >= MAX_TURNS:
            return lessons.stopped("max_turns", "上限", turns, valves.tokens)
        if valves.tokens >= TOKEN_BUDGET:
            return lessons.stopped("token_budget", "予算", turns, valves.tokens)
        results = []
        if step == "run_tools":
            if valves.spinning(response.content):
                return lessons.stopped("no_progress", "空回り", turns + 1, valves.tokens)
            results = run_tool_uses(response.content, tool_impls, approve or (lambda name, given: False))
        messages.append({"role": "assistant", "content": response.content})
        if results:
            messages.append({"role": "user", "content": results})
        yield lessons.turn(turns + 1, response, results)
"""

# the turns counted down, a helper for each request that returns the response and its tokens, early returns
COUNTDOWN = """
def _send(client, tools, messages):
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    u = response.usage
    return response, u.input_tokens + (u.cache_creation_input_tokens or 0) + (u.cache_read_input_tokens or 0) + u.output_tokens


def run_agent(client, user_input, tools, tool_impls, approve=None):
    # 履歴は呼ばれるたびに新しく作る
    messages = [{"role": "user", "content": user_input}]
    left, spent, last = MAX_TURNS, 0, None
    response, used = _send(client, tools, messages)
    spent += used
    while (step := next_step(response)) in ("run_tools", "resend"):
        done = MAX_TURNS - left
        if left == 0:
            return lessons.stopped("max_turns", "上限に達しました", done, spent)
        if spent >= TOKEN_BUDGET:
            return lessons.stopped("token_budget", "予算を使い切りました", done, spent)
        left -= 1
        results = []
        if step == "run_tools":
            if (signature := signature_of(response.content)) == last:
                return lessons.stopped("no_progress", "同じ呼び出しの繰り返し", done + 1, spent)
            last = signature
            results = run_tool_uses(response.content, tool_impls, approve if approve is not None else (lambda name, given: False))
        messages.append({"role": "assistant", "content": response.content})
        if results:
            messages.append({"role": "user", "content": results})
        yield lessons.turn(done + 1, response, results)
        response, used = _send(client, tools, messages)
        spent += used
    if step == "finish":
        return lessons.finished(response, MAX_TURNS - left, spent)
    return lessons.stopped(response.stop_reason, "止めました", MAX_TURNS - left, spent)
"""

RIGHT_RUN_AGENT_ROUND_18 = [VALVES_AS_A_CLASS, COUNTDOWN]
