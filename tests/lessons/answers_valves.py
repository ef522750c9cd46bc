"""Wrong whole harnesses the second audit of lesson 05's final check found (issue 30.1 and 30.4), each the
one change a learner makes to the right ``run_agent``, with the point it fails and the hint it must get;
and right ones in another style, which must still pass.

Valve 4 guards every high-impact tool (lesson 5's ``HIGH_IMPACT``: write_file, http_post, delete_file),
not only the one the lesson's examples use: a fallback approver that refuses write_file alone, or a
wrapper that asks about write_file alone, lets the others run with no yes. Valve 2 asked after the
tools runs the calls of the response that crossed the budget.
"""

from __future__ import annotations

from tests.lessons.answers6 import ADD, RUN, VALVE_2, variant

DENY = "approve or (lambda name, given: False)"
YIELD = "        yield lessons.turn(turns, response, results)\n"

WRONG_RUN_AGENT_VALVES = [
    # The audit's A13: with nobody to ask, it refuses write_file but lets http_post and delete_file run.
    (
        variant((DENY, "approve or (lambda name, given: name != 'write_file')")),
        6,
        "lesson.l6.run_agent.no_approver_some",
    ),
    # The audit's A14: the fallback says yes to the two it thinks are safe.
    (
        variant((DENY, "approve or (lambda name, given: name not in ('http_post', 'delete_file'))")),
        6,
        "lesson.l6.run_agent.no_approver_some",
    ),
    # The other way round: it refuses only the request that leaves the machine.
    (
        variant((DENY, "approve or (lambda name, given: name != 'http_post')")),
        6,
        "lesson.l6.run_agent.no_approver_some",
    ),
    # It asks approve about write_file only; http_post runs unasked even when approve would say no.
    (
        variant((DENY, "(lambda name, given: name != 'write_file' or bool(approve and approve(name, given)))")),
        6,
        "lesson.l6.run_agent.not_asked",
    ),
    # It asks about every high-impact tool, but lets http_post through whatever the answer.
    (
        variant((DENY, "(lambda name, given: bool(approve and approve(name, given)) or name == 'http_post')")),
        6,
        "lesson.l6.run_agent.denied_ran",
    ),
    # One question per turn: the first high-impact call is asked about, and its yes lets every call run.
    (
        variant(
            (
                RUN,
                "            first = []  # the first answer stands for the whole turn\n"
                "            def once(name, given):\n"
                "                if not first:\n"
                "                    first.append(bool(approve and approve(name, given)))\n"
                "                return first[0]\n"
                "            results = run_tool_uses(response.content, tool_impls, once)\n",
            )
        ),
        6,
        "lesson.l6.run_agent.one_answer_per_turn",
    ),
    # It asks about each call by name only: a person cannot see what they would allow.
    (
        variant((DENY, "(lambda name, given: bool(approve and approve(name, {})))")),
        6,
        "lesson.l6.run_agent.approve_input",
    ),
    # Every call is asked about, but one no refuses the whole turn.
    (
        variant(
            (
                RUN,
                '            risky = [b for b in response.content if b.type == "tool_use" and b.name in HIGH_IMPACT]\n'
                "            allowed = all([bool(approve and approve(b.name, b.input)) for b in risky])\n"
                "            results = run_tool_uses(response.content, tool_impls, lambda name, given: allowed)\n",
            )
        ),
        6,
        "lesson.l6.run_agent.no_stopped_yes",
    ),
    # A yes is remembered by tool name at module level: in the next run that tool is no longer asked about.
    (
        "APPROVED = set()\n"
        + variant(
            (
                DENY,
                "(lambda name, given: name in APPROVED or (bool(approve and approve(name, given)) and not APPROVED.add(name)))",
            )
        ),
        7,
        "lesson.l6.run_agent.yes_kept",
    ),
    # The last result (delete_file's, refused) goes back unflagged: each refused call needs its is_error.
    (
        variant(
            (
                "        if results:\n",
                "        if results:\n            results[-1] = dict(results[-1], is_error=False)\n",
            )
        ),
        6,
        "lesson.l6.run_agent.denied_not_error",
    ),
    # Valve 2 compares the latest response's size, not the running total tokens_used (which is counted right).
    (
        variant(
            (
                "if tokens_used >= TOKEN_BUDGET:",
                "if response.usage.input_tokens + (response.usage.cache_creation_input_tokens or 0) + (response.usage.cache_read_input_tokens or 0) + response.usage.output_tokens >= TOKEN_BUDGET:",
            )
        ),
        4,
        "lesson.l6.run_agent.budget_not_total",
    ),
    # Valve 2 compares a total of the input tokens alone, kept beside tokens_used.
    (
        variant(
            (
                "turns, tokens_used, last_signature = 0, 0, None",
                "turns, tokens_used, last_signature, read = 0, 0, None, 0",
            ),
            (ADD.strip(), ADD.strip() + "; read += response.usage.input_tokens"),
            ("if tokens_used >= TOKEN_BUDGET:", "if read >= TOKEN_BUDGET:"),
        ),
        4,
        "lesson.l6.run_agent.budget_not_total",
    ),
    # The audit's A6: valve 2 asked after the tools, so the calls of the response that crossed the
    # budget ran before it stopped.
    (
        variant(
            (VALVE_2, ""),
            (
                YIELD,
                "        if tokens_used >= TOKEN_BUDGET:\n"
                '            return lessons.stopped("token_budget", "予算", turns, tokens_used)\n' + YIELD,
            ),
        ),
        4,
        "lesson.l6.run_agent.budget_after_tools",
    ),
    # The same, asked after the yield: the tools have run by then too.
    (
        variant(
            (VALVE_2, ""),
            (
                YIELD,
                YIELD + "        if tokens_used >= TOKEN_BUDGET:\n"
                '            return lessons.stopped("token_budget", "予算", turns, tokens_used)\n',
            ),
        ),
        4,
        "lesson.l6.run_agent.budget_after_tools",
    ),
]

RIGHT_RUN_AGENT_VALVES = [
    # A fallback that says no to every high-impact tool by name is a no where it matters (run_tool_uses
    # asks about no other tool).
    variant((DENY, "approve or (lambda name, given: name not in HIGH_IMPACT)")),
]
