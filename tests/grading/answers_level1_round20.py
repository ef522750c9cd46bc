"""Exercise level 1, round twenty: answers whose run_tool_uses never returns, graded with a short time limit
(HOSTILE's clock); each with the criteria and hint keys that must catch it.

Criterion 1 judges POLICY and DEFAULT_TIER, by what run_tool_uses does with them. With a right table and a
run_tool_uses that loops, it was told "Is there an endless loop?" as criteria 2 and 3 are, though its own
part was right; with a wrong DEFAULT_TIER as well, that wrong default was never named. It now reads POLICY and
DEFAULT_TIER apart when run_tool_uses does not return: a fault of theirs is named, else that the tiers could
not be seen within the limit.
"""

from __future__ import annotations

from answers_level1_runners import DICT_POLICY, GOOD_ANSWERS, forbidden, run


def _asks_until_yes(content, tool_impls, approve):
    """A no is asked again, until a yes comes ("the person will agree in the end"): a no never ends it."""
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        tier = DICT_POLICY.get(block.name, "ask")
        if tier == "deny":
            results.append(forbidden(block))
            continue
        if tier == "ask":
            while not approve(block.name, block.input):
                pass
        results.append(run(block, tool_impls))
    return results


def _loops(content, tool_impls, approve):
    while True:
        pass


WRONG_LOOPS_ROUND_20 = {
    "an endless loop with a right POLICY and DEFAULT_TIER": (
        (DICT_POLICY, "ask", _loops, GOOD_ANSWERS),
        {1: "grade.l1.c1.tiers_unseen", 2: "grade.timeout", 3: "grade.timeout"},
    ),
    "a no asked again until a yes": (
        (DICT_POLICY, "ask", _asks_until_yes, GOOD_ANSWERS),
        {1: "grade.l1.c1.tiers_unseen", 2: "grade.timeout", 3: "grade.timeout"},
    ),
    "an endless loop with no DEFAULT_TIER": (
        (DICT_POLICY, None, _loops, GOOD_ANSWERS),
        {1: "grade.l1.c1.no_default", 2: "grade.timeout", 3: "grade.timeout"},
    ),
}
