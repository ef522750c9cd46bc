"""Wrong whole harnesses (lesson 6's ``run_agent``) from habits of elsewhere and small misreadings of a
valve, each the one change a learner makes to the right one, with the point it fails and the hint it must
get; and right ones in other styles, which must pass.

Valve 4 refuses anything but a yes: an approval that answers None (a callback with no return on some
path) allowed by a ``is not False`` lets every high-impact tool run. Valve 3's signature is the turn's
calls as names and inputs, sorted, with the keys sorted: a signature written by hand in the loop that
keeps the calls' order or the keys' order misses a spin, and one that drops the names sees a spin in a
read and then a delete of one file.
"""

from __future__ import annotations

from tests.lessons.answers6 import variant

DENY = "approve or (lambda name, given: False)"
COUNT = "tokens_used += response.usage.input_tokens + (response.usage.cache_creation_input_tokens or 0) + (response.usage.cache_read_input_tokens or 0) + response.usage.output_tokens"
SIGN = "signature = signature_of(response.content)"
CALLS = "for b in response.content if b.type == 'tool_use'"
CHECK_SPIN = """        if step == "run_tools":
            signature = signature_of(response.content)
            if signature == last_signature:
                return lessons.stopped("no_progress", "空回り", turns, tokens_used)
            last_signature = signature
"""
EVERY_LAP = """        signature = signature_of(response.content)
        if signature == last_signature:
            return lessons.stopped("no_progress", "空回り", turns, tokens_used)
        last_signature = signature
        if step == "run_tools":
"""

WRONG_RUN_AGENT_HABITS = [
    # An answer of None passes an "is not False": refusing only an explicit no fails open.
    (
        variant((DENY, "(lambda name, given: approve is not None and approve(name, given) is not False)")),
        6,
        "lesson.l6.run_agent.unknown_allowed",
    ),
    (
        variant((DENY, "(lambda name, given: bool(approve) and approve(name, given) != False)")),
        6,
        "lesson.l6.run_agent.unknown_allowed",
    ),
    # input() habits: only the words of a no refuse; approve's False is no such word.
    (
        variant(
            (DENY, "(lambda name, given: approve is not None and approve(name, given) not in ('n', 'no', 'いいえ'))")
        ),
        6,
        "lesson.l6.run_agent.denied_ran",
    ),
    # An approval that raised taken as a yes (the except returns True).
    (
        "def ask(approve, name, given):\n    try:\n        return approve(name, given) if approve else False\n"
        "    except Exception:\n        return True\n"
        + variant((DENY, "(lambda name, given: ask(approve, name, given))")),
        6,
        "lesson.l6.run_agent.failed_open",
    ),
    # Valve 3 by hand: the inputs alone, the calls in the order they came, a dict's repr, the blocks' repr.
    (
        variant((SIGN, f"signature = sorted(json.dumps(b.input, sort_keys=True) {CALLS})")),
        5,
        "lesson.l6.run_agent.spin_names_dropped",
    ),
    (
        variant((SIGN, f"signature = [(b.name, json.dumps(b.input, sort_keys=True)) {CALLS}]")),
        5,
        "lesson.l6.run_agent.spin_reordered",
    ),
    (variant((SIGN, f"signature = sorted(f'{{b.name}}{{b.input}}' {CALLS})")), 5, "lesson.l6.run_agent.spin_reordered"),
    (variant((SIGN, f"signature = str([b {CALLS}])")), 5, "lesson.l6.run_agent.missed_spinning"),
    # Valve 3 asked on every lap: two resends in a row have the same empty signature (valve 1 never gets there).
    (variant((CHECK_SPIN, EVERY_LAP)), 3, "lesson.l6.run_agent.spin_on_resend"),
    # Turns counted from 1: the end value and valve 1 are both one off.
    (
        variant(("turns, tokens_used, last_signature = 0, 0, None", "turns, tokens_used, last_signature = 1, 0, None")),
        3,
        "lesson.l6.run_agent.end_turns",
    ),
    # Turns read off the history's length: a resend adds one message, so valve 1 stops late.
    (variant(("if turns >= MAX_TURNS:", "if len(messages) // 2 >= MAX_TURNS:")), 3, "lesson.l6.run_agent.resend_late"),
    # Valve 1 in the while's condition: the loop leaves with the model's tool_use as its end.
    (
        variant(
            ('while step in ("run_tools", "resend"):', 'while step in ("run_tools", "resend") and turns < MAX_TURNS:')
        ),
        3,
        "lesson.l6.run_agent.valve_not_named",
    ),
    # Only the model's output counted: the end value carries the same miscount valve 2 compares.
    (variant((COUNT, "tokens_used += response.usage.output_tokens")), 1, "lesson.l6.run_agent.budget_output_only"),
    # The TypeScript's result object ported as a dict: no end value the Stepper can read.
    (
        variant(
            (
                'return lessons.stopped("max_turns", "上限", turns, tokens_used)',
                'return {"kind": "stopped", "cause": "max_turns", "turns": turns}',
            )
        ),
        3,
        "lesson.l6.run_agent.no_end",
    ),
]

RIGHT_RUN_AGENT_HABITS = [
    # Only a clear yes allowed, whatever type the answer comes in.
    variant(
        (
            DENY,
            "(lambda name, given: approve is not None and str(approve(name, given)).strip().lower() in ('true', 'y', 'yes'))",
        )
    ),
    # Every billed token, None read as 0.
    variant(
        (
            COUNT,
            "u = response.usage; tokens_used += sum(v or 0 for v in (u.input_tokens, u.cache_read_input_tokens, u.cache_creation_input_tokens, u.output_tokens))",
        )
    ),
    # Valve 3's signature by hand, as a multiset of (name, sorted JSON).
    variant(
        (
            SIGN,
            f"from collections import Counter; signature = frozenset(Counter((b.name, json.dumps(b.input, sort_keys=True)) {CALLS}).items())",
        )
    ),
    # The end chosen by a match statement.
    variant(
        (
            '    if step == "finish":\n        return lessons.finished(response, turns, tokens_used)\n    return lessons.stopped(response.stop_reason, "止めました", turns, tokens_used)\n',
            '    match step:\n        case "finish":\n            return lessons.finished(response, turns, tokens_used)\n        case _:\n            return lessons.stopped(response.stop_reason, "止めました", turns, tokens_used)\n',
        )
    ),
    # The loop's state in a dataclass, the next step decided in the while's condition.
    """
from dataclasses import dataclass


@dataclass
class State:
    turns: int = 0
    tokens: int = 0
    last: object = None

    def count(self, response):
        self.tokens += response.usage.input_tokens + (response.usage.cache_creation_input_tokens or 0) + (response.usage.cache_read_input_tokens or 0) + response.usage.output_tokens


def run_agent(client, user_input, tools, tool_impls, approve=None):
    s, messages = State(), [{"role": "user", "content": user_input}]
    ask = lambda: client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    response = ask()
    s.count(response)
    while (step := next_step(response)) in ("run_tools", "resend"):
        if s.turns >= MAX_TURNS:
            return lessons.stopped("max_turns", "上限", s.turns, s.tokens)
        if s.tokens >= TOKEN_BUDGET:
            return lessons.stopped("token_budget", "予算", s.turns, s.tokens)
        s.turns += 1
        results = []
        if step == "run_tools":
            if (signature := signature_of(response.content)) == s.last:
                return lessons.stopped("no_progress", "空回り", s.turns, s.tokens)
            s.last = signature
            results = run_tool_uses(response.content, tool_impls, approve or (lambda n, g: False))
        messages.append({"role": "assistant", "content": response.content})
        if results:
            messages.append({"role": "user", "content": results})
        yield lessons.turn(s.turns, response, results)
        response = ask()
        s.count(response)
    if step == "finish":
        return lessons.finished(response, s.turns, s.tokens)
    return lessons.stopped(response.stop_reason, "止めました", s.turns, s.tokens)
""",
]
