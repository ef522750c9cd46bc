"""Exercise level 1: how a learner calls the approver and handles what it says, each wrong answer with the
criteria and hint keys that must catch it, and right answers in styles the others do not use.

The approver the learner is given is the notebook's, ``approve(name, input)`` (``say_no(name, tool_input)``):
two arguments, by position or by those parameter names. Called with other keywords, with the whole block,
or with a third argument, the notebook's own raises a TypeError, so the grader's must too, and its hint
must name the call. Its tools take their input by keyword (``impl(**tool_input)``): by position, the same.
"""

from __future__ import annotations

import json
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor

from answers_level1_content import _dict
from answers_level1_runners import DICT_POLICY, GOOD_ANSWERS, forbidden, make_runner, refused, result, run


def asking(ask, on_error=None):
    """The lesson's runner with the policy valve in front, asking the person through ``ask(approve, block)``;
    ``on_error`` answers an approver's exception (None: let it out)."""

    def run_tool_uses(content, tool_impls, approve):
        results = []
        for block in content:
            if block.type != "tool_use":
                continue
            tier = DICT_POLICY.get(block.name, "ask")
            if tier == "deny":
                results.append(forbidden(block))
                continue
            if tier == "ask":
                try:
                    yes = ask(approve, block)
                except Exception:
                    if on_error is None:
                        raise
                    yes = on_error
                if not yes:
                    results.append(refused(block))
                    continue
            results.append(run(block, tool_impls))
        return results

    return run_tool_uses


def _raises_tool_errors(content, tool_impls, approve):  # a tool's failure let out instead of an is_error result
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        tier = DICT_POLICY.get(block.name, "ask")
        if tier == "deny":
            results.append(forbidden(block))
        elif tier == "ask" and not approve(block.name, block.input):
            results.append(refused(block))
        else:
            results.append(result(block, str(tool_impls[block.name](**block.input))))
    return results


def _calling(call_tool, catch=True):
    """The right runner, each tool run as ``call_tool(tool_impls, block)``; ``catch``: its error is an
    is_error result, else it goes up."""

    def execute(block, tool_impls):
        try:
            return result(block, str(call_tool(tool_impls, block)))
        except Exception as err:
            if not catch:
                raise
            return result(block, f"ツールの実行に失敗しました: {err}", True)

    return make_runner(lambda name: DICT_POLICY.get(name, "ask"), execute=execute)


def _one_call(block, tool_impls, approve, tier):
    """One tool_use block through the policy valve: its result."""
    if tier == "deny":
        return forbidden(block)
    if tier == "ask" and not approve(block.name, block.input):
        return refused(block)
    try:
        return result(block, str(tool_impls[block.name](**block.input)))
    except Exception as err:
        return result(block, f"ツールの実行に失敗しました: {err}", True)


def _in_threads(content, tool_impls, approve):  # right: the calls run in a thread pool, map keeps their order
    uses = [b for b in content if b.type == "tool_use"]
    with ThreadPoolExecutor(4) as pool:
        return list(pool.map(lambda b: _one_call(b, tool_impls, approve, DICT_POLICY.get(b.name, "ask")), uses))


def _deny_raised_and_caught(content, tool_impls, approve):  # right: a deny raised, the same except reports it
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        try:
            tier = DICT_POLICY.get(block.name, "ask")
            if tier == "deny":
                raise PermissionError(f"{block.name} はポリシーで禁止されています")
            if tier == "ask" and not approve(block.name, block.input):
                results.append(refused(block))
                continue
            results.append(result(block, str(tool_impls[block.name](**block.input))))
        except Exception as err:
            results.append(result(block, f"ツールの実行に失敗しました: {err}", True))
    return results


def _matched(content, tool_impls, approve):  # right: a match statement on the tier, a guard for the no
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        match DICT_POLICY.get(block.name, "ask"):
            case "deny":
                results.append(forbidden(block))
            case "ask" if not approve(block.name, block.input):
                results.append(refused(block))
            case _:
                results.append(_one_call(block, tool_impls, approve, "allow"))
    return results


# right: the default lives in the policy itself, a defaultdict read by subscript
DEFAULTING = defaultdict(lambda: "ask", DICT_POLICY)


def _by_subscript(content, tool_impls, approve):
    return [_one_call(b, tool_impls, approve, DEFAULTING[b.name]) for b in content if b.type == "tool_use"]


def _asks_with_the_input_copied(approve, block):  # right: a copy of the input, so approve cannot edit the call
    return approve(block.name, dict(block.input))


WRONG_CALLS = {
    "approve(name=..., input=...)": (
        _dict(asking(lambda approve, b: approve(name=b.name, input=b.input))),
        {1: "grade.l1.approve_call", 2: "grade.l1.approve_call", 3: "grade.raised"},
    ),
    "approve(tool_name=..., tool_input=...)": (
        _dict(asking(lambda approve, b: approve(tool_name=b.name, tool_input=b.input))),
        {1: "grade.l1.approve_call", 2: "grade.l1.approve_call", 3: "grade.raised"},
    ),
    "approve(name, input=...)": (
        _dict(asking(lambda approve, b: approve(b.name, input=b.input))),
        {1: "grade.l1.approve_call", 2: "grade.l1.approve_call", 3: "grade.raised"},
    ),
    "approve(block)": (
        _dict(asking(lambda approve, b: approve(b))),
        {1: "grade.l1.approve_call", 2: "grade.l1.approve_call", 3: "grade.raised"},
    ),
    "approve(name, input, block)": (
        _dict(asking(lambda approve, b: approve(b.name, b.input, b))),
        {1: "grade.l1.approve_call", 2: "grade.l1.approve_call", 3: "grade.raised"},
    ),
    # The TypeError caught as a no: every ask tool is refused, and the learner never sees why.
    "approve(name=..., input=...) with its error taken for a no": (
        _dict(asking(lambda approve, b: approve(name=b.name, input=b.input), on_error=False)),
        {1: "grade.l1.approve_call", 2: "grade.l1.approve_call"},
    ),
    "approve(block) with its error taken for a yes": (
        _dict(asking(lambda approve, b: approve(b), on_error=True)),
        {1: "grade.l1.approve_call", 2: "grade.l1.approve_call"},
    ),
    "approval defaulting to allow when approve raises": (
        _dict(asking(lambda approve, b: approve(b.name, b.input), on_error=True)),
        {2: "grade.l1.c2.fails_open"},
    ),
    # The notebook's tools take keywords (impl(**tool_input)): by position, every run is a TypeError the
    # try turns into an error result, and the grade must not pass what the notebook shows failing.
    "tools given the input by position": (
        _dict(_calling(lambda impls, b: impls[b.name](b.input))),
        {1: "grade.l1.impl_call", 2: "grade.l1.impl_call", 3: "grade.l1.impl_call"},
    ),
    "tools given the input by position, the TypeError let out": (
        _dict(_calling(lambda impls, b: impls[b.name](b.input), catch=False)),
        {1: "grade.l1.impl_call", 2: "grade.l1.impl_call", 3: "grade.l1.impl_call"},
    ),
    "tools given the whole block": (
        _dict(_calling(lambda impls, b: impls[b.name](b))),
        {1: "grade.l1.impl_call", 2: "grade.l1.impl_call", 3: "grade.l1.impl_call"},
    ),
    "tools given the input's values by position": (
        _dict(_calling(lambda impls, b: impls[b.name](*b.input.values()))),
        {1: "grade.l1.impl_call", 2: "grade.l1.impl_call", 3: "grade.l1.impl_call"},
    ),
    "tools given the input by position and a keyword": (
        _dict(_calling(lambda impls, b: impls[b.name](b.input, approved=True))),
        {1: "grade.l1.impl_call", 2: "grade.l1.impl_call", 3: "grade.l1.impl_call"},
    ),
    # A toy tool takes input=… as one more keyword; the call it ran is not the model's.
    "tools given the input under input=": (
        _dict(_calling(lambda impls, b: impls[b.name](input=b.input))),
        {2: "grade.l1.c2.input_changed"},
    ),
    "approve given only the name": (
        _dict(asking(lambda approve, b: approve(b.name))),
        {1: "grade.l1.approve_call", 2: "grade.l1.approve_call", 3: "grade.raised"},
    ),
    "approve given the input spread as keywords": (
        _dict(asking(lambda approve, b: approve(b.name, **b.input))),
        {1: "grade.l1.approve_call", 2: "grade.l1.approve_call", 3: "grade.raised"},
    ),
    # Python binds these, so the notebook's approver prints them: the person sees no dict of the call.
    "approve given the input as JSON text": (
        _dict(asking(lambda approve, b: approve(b.name, json.dumps(b.input)))),
        {2: "grade.l1.c2.approve_input"},
    ),
    "approve given the block where the input goes": (
        _dict(asking(lambda approve, b: approve(b.name, b))),
        {2: "grade.l1.c2.approve_input"},
    ),
    "a tool's error raised instead of returned as is_error": (
        _dict(_raises_tool_errors),
        {3: "grade.l1.c3.tool_error_raised"},
    ),
}

RIGHT_CALLS = {
    "tools run in a thread pool": (DICT_POLICY, "ask", _in_threads, GOOD_ANSWERS),
    "a deny raised as PermissionError and reported by the except": (
        DICT_POLICY,
        "ask",
        _deny_raised_and_caught,
        GOOD_ANSWERS,
    ),
    "a match statement on the tier": (DICT_POLICY, "ask", _matched, GOOD_ANSWERS),
    "a defaultdict policy read by subscript": (DEFAULTING, "ask", _by_subscript, GOOD_ANSWERS),
    # say_no(name, tool_input) binds these names, so the notebook's approver takes them.
    "approve called with the notebook's own parameter names": (
        DICT_POLICY,
        "ask",
        asking(lambda approve, b: approve(name=b.name, tool_input=b.input)),
        GOOD_ANSWERS,
    ),
    "approve called with its parameter names in another order": (
        DICT_POLICY,
        "ask",
        asking(lambda approve, b: approve(tool_input=b.input, name=b.name)),
        GOOD_ANSWERS,
    ),
    "tools called with a copy of the input by keyword": (
        DICT_POLICY,
        "ask",
        _calling(lambda impls, b: impls[b.name](**dict(b.input))),
        GOOD_ANSWERS,
    ),
    "approve given a copy of the input": (DICT_POLICY, "ask", asking(_asks_with_the_input_copied), GOOD_ANSWERS),
    "approve called through a tuple unpacked": (
        DICT_POLICY,
        "ask",
        asking(lambda approve, b: approve(*(b.name, b.input))),
        GOOD_ANSWERS,
    ),
}
