"""Exercise level 1, round twenty-one: an approval asked once and kept for the rest of the turn, a deny whose
is_error is the text "true" (or str(True), "True"), a person's no that still runs the tool, a deny told as a
person's refusal in English, and the results grouped by tier; each with the criteria and hint keys that must
catch it, and right answers in styles the others do not use (functools.reduce, a while loop with an index).
"""

from __future__ import annotations

from functools import reduce

from answers_level1_runners import DICT_POLICY, GOOD_ANSWERS, forbidden, refused, result, run


def _tier(name):
    return DICT_POLICY.get(name, "ask")


def _tabled(runner):
    return (DICT_POLICY, "ask", runner, GOOD_ANSWERS)


def _asks_once_per_turn(content, tool_impls, approve):
    """The first ask-tier call is put to the person; the answer stands for every later one ("one question a turn")."""
    results, answer = [], None
    for block in content:
        if block.type != "tool_use":
            continue
        tier = _tier(block.name)
        if tier == "deny":
            results.append(forbidden(block))
            continue
        if tier == "ask":
            if answer is None:
                answer = approve(block.name, block.input) is True
            if not answer:
                results.append(refused(block))
                continue
        results.append(run(block, tool_impls))
    return results


def _deny_flag_as_text(content, tool_impls, approve):
    """A deny whose is_error is the string "true" (copied from a JSON log)."""
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        tier = _tier(block.name)
        if tier == "deny":
            results.append(
                {
                    "type": "tool_result",
                    "tool_use_id": block.id,
                    "content": "ポリシーで禁止されています",
                    "is_error": "true",
                }
            )
        elif tier == "ask" and approve(block.name, block.input) is not True:
            results.append(refused(block))
        else:
            results.append(run(block, tool_impls))
    return results


def _flag_as_str_of_bool(content, tool_impls, approve):
    """Every refusal's is_error written as str(True) ("True", Python's word): the API wants the value."""
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        tier = _tier(block.name)
        if tier == "allow" or (tier == "ask" and approve(block.name, block.input) is True):
            results.append(run(block, tool_impls))
            continue
        reason = "ポリシーで禁止されています" if tier == "deny" else "承認されなかったので実行していません"
        results.append({"type": "tool_result", "tool_use_id": block.id, "content": reason, "is_error": str(True)})
    return results


def _no_still_runs(content, tool_impls, approve):
    """The person's answer printed for the log, the tool run whatever it was."""
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        tier = _tier(block.name)
        if tier == "deny":
            results.append(forbidden(block))
            continue
        if tier == "ask":
            print(f"approve({block.name}) -> {approve(block.name, block.input)}")
        results.append(run(block, tool_impls))
    return results


def _grouped_by_tier(content, tool_impls, approve):
    """The denied results first, then the asked ones, then the allowed ones ("the problems on top")."""
    rank = {"deny": 0, "ask": 1, "allow": 2}
    calls = sorted((b for b in content if b.type == "tool_use"), key=lambda b: rank.get(_tier(b.name), 1))
    results = []
    for block in calls:
        tier = _tier(block.name)
        if tier == "deny":
            results.append(forbidden(block))
        elif tier == "ask" and approve(block.name, block.input) is not True:
            results.append(refused(block))
        else:
            results.append(run(block, tool_impls))
    return results


# --- right answers in other styles ---------------------------------------------------------------
def _reduced(content, tool_impls, approve):
    """functools.reduce over the calls; a new list each step, one result per call in call order."""

    def step(results, block):
        tier = _tier(block.name)
        if tier == "deny":
            return [*results, forbidden(block)]
        if tier == "ask" and approve(block.name, block.input) is not True:
            return [*results, refused(block)]
        return [*results, run(block, tool_impls)]

    return reduce(step, (b for b in content if b.type == "tool_use"), [])


def _indexed(content, tool_impls, approve):
    """A while loop with an index over the blocks; English results that say a rule forbids it."""
    results, i = [], 0
    while i < len(content):
        block = content[i]
        i += 1
        if block.type != "tool_use":
            continue
        tier = _tier(block.name)
        if tier == "deny":
            results.append(result(block, f"{block.name} is not allowed by the policy, so it was not run.", True))
        elif tier == "ask" and approve(block.name, block.input) is not True:
            results.append(result(block, "The user declined, so it was not run.", True))
        else:
            results.append(run(block, tool_impls))
    return results


WRONG_ROUND_21 = {
    "one approval asked for the whole turn": (_tabled(_asks_once_per_turn), {2: "grade.l1.c2.per_call"}),
    # the API's own 400 names it: "is_error: Input should be a valid boolean"
    "a deny whose is_error is the text true": (_tabled(_deny_flag_as_text), {3: "grade.l1.c3.is_error_text"}),
    "every refusal's is_error written as str(True)": (
        _tabled(_flag_as_str_of_bool),
        {3: "grade.l1.c3.is_error_text"},
    ),
    "a no printed and the tool run anyway": (_tabled(_no_still_runs), {2: "grade.l1.c2.refusal_ignored"}),
    "the results grouped by tier": (_tabled(_grouped_by_tier), {3: "grade.l1.c3.order"}),
}
RIGHT_ROUND_21 = {
    "functools.reduce over the calls": _tabled(_reduced),
    "a while loop with an index, English results": _tabled(_indexed),
}
