"""Exercise level 1, round eighteen: the tiers asked in the wrong order, an answer kept for a tool name,
approve's answer read as text, a failure or a refusal sent without is_error; each wrong answer with the
criteria and hint keys that must catch it, and right answers in styles the others do not use (a match
with early returns, a class, a while loop).

None passed; one got another cause's hint: an answer kept by tool name with setdefault (asked about
each call, the first answer used for both) was told to decide per tool_use block, which it did.
"""

from __future__ import annotations

import contextlib

from answers_level1_runners import DICT_POLICY, GOOD_ANSWERS, forbidden, make_runner, refused, result, run


def _tier_or_ask(name):
    return DICT_POLICY.get(name, "ask")


def _asks_before_the_deny(content, tool_impls, approve):
    """The person is asked first about every tool that is not allow; deny is looked at only after a yes."""
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        tier = _tier_or_ask(block.name)
        if tier != "allow" and not approve(block.name, block.input):
            results.append(refused(block))
        elif tier == "deny":
            results.append(forbidden(block))
        else:
            results.append(run(block, tool_impls))
    return results


def _first_answer_per_tool(content, tool_impls, approve):
    """approve is asked every time, but setdefault keeps the first answer for that tool name."""
    answers, results = {}, []
    for block in content:
        if block.type != "tool_use":
            continue
        tier = _tier_or_ask(block.name)
        if tier == "deny":
            results.append(forbidden(block))
        elif tier == "ask" and not answers.setdefault(block.name, approve(block.name, block.input)):
            results.append(refused(block))
        else:
            results.append(run(block, tool_impls))
    return results


def _no_words_only(content, tool_impls, approve):
    """approve's answer read as text: only a no-word refuses, so an empty answer runs the tool."""
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        tier = _tier_or_ask(block.name)
        if tier == "deny":
            results.append(forbidden(block))
        elif tier == "ask" and str(approve(block.name, block.input)).strip().lower() in ("n", "no", "false", "いいえ"):
            results.append(refused(block))
        else:
            results.append(run(block, tool_impls))
    return results


def _suppressed_approval(content, tool_impls, approve):
    """contextlib.suppress around approve: an approval that raised leaves the yes it started with."""
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        tier, yes = _tier_or_ask(block.name), True
        if tier == "ask":
            with contextlib.suppress(Exception):
                yes = approve(block.name, block.input)
        if tier == "deny":
            results.append(forbidden(block))
        elif not yes:
            results.append(refused(block))
        else:
            results.append(run(block, tool_impls))
    return results


def _run_failure_as_output(block, tool_impls):
    try:
        return result(block, str(tool_impls[block.name](**block.input)))
    except Exception as err:  # the error's text, as if the tool had said it
        return result(block, f"Error: {err}")


def _refusal_flag_dropped(block):
    return {"type": "tool_result", "tool_use_id": block.id, "content": "ユーザーが拒否したため、実行していません。"}


def _asks_the_allowed_too(content, tool_impls, approve):
    """Every tool that is not deny is put to approve, allow included."""
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        tier = _tier_or_ask(block.name)
        if tier == "deny":
            results.append(forbidden(block))
        elif not approve(block.name, block.input):
            results.append(refused(block))
        else:
            results.append(run(block, tool_impls))
    return results


def _only_the_first_per_tier(content, tool_impls, approve):
    """Results kept in a dict by tier: one result per tier survives."""
    by_tier = {}
    for block in content:
        if block.type != "tool_use":
            continue
        tier = _tier_or_ask(block.name)
        if tier == "deny":
            by_tier.setdefault(tier, forbidden(block))
        elif tier == "ask" and not approve(block.name, block.input):
            by_tier.setdefault("refused", refused(block))
        else:
            by_tier.setdefault(tier, run(block, tool_impls))
    return list(by_tier.values())


# --- right answers in other styles ---------------------------------------------------------------
def _match_with_early_returns(content, tool_impls, approve):
    """A helper per call with a match on the tier and early returns."""

    def handle(block):
        match DICT_POLICY.get(block.name, "ask"):
            case "deny":
                return forbidden(block)
            case "ask":
                try:
                    yes = approve(block.name, block.input) is True
                except Exception:  # 承認が取れないときは「いいえ」
                    yes = False
                if not yes:
                    return refused(block)
        return run(block, tool_impls)

    return [handle(b) for b in content if b.type == "tool_use"]


class _Policy:
    """The tiers as an object: tier_of falls back to the default."""

    def __init__(self, table, default):
        self.table, self.default = table, default

    def tier_of(self, name):
        return self.table.get(name, self.default)


_TIERS = _Policy(DICT_POLICY, "ask")


def _while_over_a_queue(content, tool_impls, approve):
    """A while loop over the calls left, popped from the front of a copy (content itself untouched)."""
    queue, results = [b for b in content if b.type == "tool_use"], []
    while queue:
        block = queue.pop(0)
        tier = _TIERS.tier_of(block.name)
        if tier == "deny":
            results.append(forbidden(block))
            continue
        if tier == "ask" and not approve(block.name, block.input):
            results.append(refused(block))
            continue
        results.append(run(block, tool_impls))
    return results


def _tabled(runner):
    return (DICT_POLICY, "ask", runner, GOOD_ANSWERS)


WRONG_ROUND_18 = {
    "the person asked before the deny tier is read": (
        _tabled(_asks_before_the_deny),
        {1: "grade.l1.c1.mismatch", 3: "grade.l1.c3.no_deny"},
    ),
    "the first answer kept for a tool name": (_tabled(_first_answer_per_tool), {2: "grade.l1.c2.answer_reused"}),
    "approve's answer read as no-words": (_tabled(_no_words_only), {2: "grade.l1.c2.unknown_allowed"}),
    "an approval that raised kept as a yes (suppress)": (_tabled(_suppressed_approval), {2: "grade.l1.c2.fails_open"}),
    "a tool's failure sent as its output": (
        _tabled(make_runner(_tier_or_ask, execute=_run_failure_as_output)),
        {3: "grade.l1.c3.tool_error_not_error"},
    ),
    "a refusal's is_error dropped": (
        _tabled(make_runner(_tier_or_ask, refuse=_refusal_flag_dropped)),
        {3: "grade.l1.c3.refused_not_error"},
    ),
    "allow tools asked about too": (_tabled(_asks_the_allowed_too), {1: "grade.l1.c1.mismatch"}),
    "one result per tier": (_tabled(_only_the_first_per_tier), {3: "grade.l1.c3.count"}),
}
RIGHT_ROUND_18 = {
    "a match with early returns, an error from approve a no": _tabled(_match_with_early_returns),
    "a policy object and a while over a queue": _tabled(_while_over_a_queue),
}
