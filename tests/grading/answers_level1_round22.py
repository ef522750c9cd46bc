"""Exercise level 1, round twenty-two: an approval that takes no answer (None, or a timeout) for a yes, input()
in place of approve, a generator of results, one result dict for every call, a deny taken out of the content, a
typo on the deny path; each with the criteria and hint keys that must catch it, and right answers in styles the
others do not use (print noise, a match statement with a guard, recursion).

Three got another cause's hint: input() was told "a tool the policy does not list raised" (criterion 1) and
"your code raised" (2, 3), now the keyboard's own hint; one result dict was told the ids do not match their calls;
a NameError on the deny path was told a deny is no exception.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as NoAnswer

from answers_level1_runners import DICT_POLICY, GOOD_ANSWERS, forbidden, refused, result, run


def _tier(name):
    return DICT_POLICY.get(name, "ask")


def _tabled(runner):
    return (DICT_POLICY, "ask", runner, GOOD_ANSWERS)


def _silence_is_yes(content, tool_impls, approve):
    """Only an explicit False refuses: an approver that answers nothing (None) lets the call run."""
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        tier = _tier(block.name)
        if tier == "deny":
            results.append(forbidden(block))
        elif tier == "ask" and approve(block.name, block.input) is False:
            results.append(refused(block))
        else:
            results.append(run(block, tool_impls))
    return results


def _input_instead(content, tool_impls, approve):
    """The person asked at the keyboard, approve left unused."""
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        tier = _tier(block.name)
        if tier == "deny":
            results.append(forbidden(block))
        elif tier == "ask" and input(f"{block.name} を実行しますか？ [y/N] ").strip().lower() != "y":
            results.append(refused(block))
        else:
            results.append(run(block, tool_impls))
    return results


def _yielded(content, tool_impls, approve):
    """Each result yielded as it is made ("no list to build")."""
    for block in content:
        if block.type != "tool_use":
            continue
        tier = _tier(block.name)
        if tier == "deny":
            yield forbidden(block)
        elif tier == "ask" and approve(block.name, block.input) is not True:
            yield refused(block)
        else:
            yield run(block, tool_impls)


def _one_dict(content, tool_impls, approve):
    """One dict for the turn, cleared, refilled with each result and appended."""
    results, shared = [], {"type": "tool_result"}
    for block in content:
        if block.type != "tool_use":
            continue
        tier = _tier(block.name)
        if tier == "deny":
            one = forbidden(block)
        elif tier == "ask" and approve(block.name, block.input) is not True:
            one = refused(block)
        else:
            one = run(block, tool_impls)
        shared.clear()
        shared.update(one)
        results.append(shared)
    return results


def _denied_removed(content, tool_impls, approve):
    """A forbidden call taken out of the response's content, its result still returned."""
    results = []
    for block in list(content):
        if block.type != "tool_use":
            continue
        tier = _tier(block.name)
        if tier == "deny":
            content.remove(block)  # 禁止された呼び出しは、なかったことにする
            results.append(forbidden(block))
        elif tier == "ask" and approve(block.name, block.input) is not True:
            results.append(refused(block))
        else:
            results.append(run(block, tool_impls))
    return results


def _forbid_typo(block):
    return result(block, f"{block.name} is forbidden by the policy, so it was not run.", is_error=Ture)  # noqa: F821


def _typo_on_deny(content, tool_impls, approve):
    """True misspelt in the deny's helper: the NameError is met only when a deny tool is called."""
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        tier = _tier(block.name)
        if tier == "deny":
            results.append(_forbid_typo(block))
        elif tier == "ask" and approve(block.name, block.input) is not True:
            results.append(refused(block))
        else:
            results.append(run(block, tool_impls))
    return results


def _timeout_open(content, tool_impls, approve):
    """The question put in a thread; a minute without an answer, or an answer of None, counts as a yes."""
    results = []
    with ThreadPoolExecutor(max_workers=1) as pool:
        for block in content:
            if block.type != "tool_use":
                continue
            tier = _tier(block.name)
            if tier == "deny":
                results.append(forbidden(block))
                continue
            if tier == "ask":
                try:
                    ok = pool.submit(approve, block.name, block.input).result(timeout=60)
                except NoAnswer:
                    ok = True  # 返事がなければ進める
                if ok is None:
                    ok = True
                if not ok:
                    results.append(refused(block))
                    continue
            results.append(run(block, tool_impls))
    return results


# --- right answers in other styles ---------------------------------------------------------------
def _print_noise_right(content, tool_impls, approve):
    """A line printed for every call and every refusal."""
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        tier = _tier(block.name)
        print(f"[policy] {block.name}: {tier}")
        if tier == "deny":
            results.append(forbidden(block))
        elif tier == "ask" and approve(block.name, block.input) is not True:
            print("  -> refused")
            results.append(refused(block))
        else:
            results.append(run(block, tool_impls))
    return results


def _match_right(content, tool_impls, approve):
    """A match on the tier, with a guard on the ask case: anything but a yes refuses."""
    results = []
    for block in (b for b in content if b.type == "tool_use"):
        match _tier(block.name):
            case "deny":
                results.append(forbidden(block))
            case "ask" if approve(block.name, block.input) is not True:
                results.append(refused(block))
            case _:
                results.append(run(block, tool_impls))
    return results


def _recursive_right(content, tool_impls, approve):
    """One call answered, then the rest by a call of itself."""
    calls = [b for b in content if b.type == "tool_use"]

    def answer(rest):
        if not rest:
            return []
        block, tier = rest[0], _tier(rest[0].name)
        if tier == "deny":
            first = forbidden(block)
        elif tier == "ask" and approve(block.name, block.input) is not True:
            first = refused(block)
        else:
            first = run(block, tool_impls)
        return [first, *answer(rest[1:])]

    return answer(calls)


WRONG_ROUND_22 = {
    "no answer from approve taken for a yes": (_tabled(_silence_is_yes), {2: "grade.l1.c2.unknown_allowed"}),
    "a person asked with input()": (
        _tabled(_input_instead),
        {1: "grade.keyboard", 2: "grade.keyboard", 3: "grade.keyboard"},  # was unlisted_error and grade.raised
    ),
    "the results yielded one by one": (_tabled(_yielded), {3: "grade.l1.c3.not_list"}),
    "one result dict refilled for every call": (_tabled(_one_dict), {3: "grade.l1.c3.one_dict"}),  # was c3.ids
    "a forbidden call taken out of the content": (_tabled(_denied_removed), {3: "grade.l1.c3.content_changed"}),
    "a NameError on the deny path": (
        _tabled(_typo_on_deny),
        {1: "grade.raised", 2: "grade.raised", 3: "grade.raised"},  # was grade.l1.deny_raised
    ),
    "an approval that times out open": (_tabled(_timeout_open), {2: "grade.l1.c2.unknown_allowed"}),
}
RIGHT_ROUND_22 = {
    "print noise for every call": _tabled(_print_noise_right),
    "a match on the tier with a guard": _tabled(_match_right),
    "a recursive helper over the calls": _tabled(_recursive_right),
}
