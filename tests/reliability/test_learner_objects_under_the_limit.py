"""Issue 12's limits: learner objects (a POLICY whose __len__ sleeps, an endless MISSING generator, objects whose
__eq__, __hash__ or __str__ never return) are touched only under the grader's time limit.
"""

from __future__ import annotations

import os
import time

import pytest

from harness_lab.grading import grade_level1, grade_level2
from tests.reliability.test_grader_limits import (
    ANSWERS,
    DEFAULT_TIER,
    MAX_TURNS,
    MISSING,
    NET,
    POLICY,
    SLACK,
    good_run_agent,
    good_run_tool_uses,
    result,
)
from tests.safety_net import gives_up_after

# --- issue 12's limits ------------------------------------------------------------------------
SLOW = 3600.0  # a learner method that takes this long: a grader that calls it outside the limit meets the net


# The criteria these objects leave alone must still pass within the limit: 0.5 s was once too short
# for a right criterion 1 on a 2-core machine busy with a browser and two grading hosts.
OBJECT_LIMIT = 2.0


def _slow(*args, **kwargs):
    time.sleep(SLOW)


class SlowPolicy(dict):
    """A POLICY whose ``__len__`` (and iteration, comparison, repr) takes half a minute."""

    __len__ = __iter__ = __eq__ = __repr__ = __bool__ = _slow
    __hash__ = None


class SlowStr(str):
    """A tier string whose ``__eq__``, ``__hash__`` and ``__str__`` take half a minute."""

    __eq__ = __ne__ = __hash__ = __str__ = __repr__ = _slow


class SlowInt(int):
    __eq__ = __ne__ = __hash__ = __repr__ = __index__ = _slow


class SlowKey:
    """A dict key that hashes fine once (so the dict can be built) but never compares or prints."""

    def __hash__(self):
        return 1

    __eq__ = __str__ = __repr__ = _slow


def endless_gaps():
    while True:
        yield "stop_condition"


def sleepy_gaps():
    yield "stop_condition"
    time.sleep(SLOW)


def slow_tier_of(name):
    return POLICY.get(name, SlowStr("ask"))


def slow_default_runner(content, tool_impls, approve):
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        tier = slow_tier_of(block.name)
        if tier == "deny":
            results.append(result(block, f"{block.name} はポリシーで禁止されています", True))
        elif tier == "ask" and not approve(block.name, block.input):
            results.append(result(block, "ユーザーが拒否しました", True))
        else:
            try:
                results.append(result(block, str(tool_impls[block.name](**block.input))))
            except Exception as err:
                results.append(result(block, f"ツールの実行に失敗しました: {err}", True))
    return results


LEARNER_OBJECTS = {
    "POLICY whose __len__ sleeps": (
        lambda: grade_level1(SlowPolicy(POLICY), DEFAULT_TIER, good_run_tool_uses, ANSWERS, timeout=OBJECT_LIMIT),
        {1: "grade.timeout", 2: "grade.timeout"},  # criterion 2 reads it too: did a yes rewrite the policy?
    ),
    "DEFAULT_TIER whose __eq__ and __hash__ sleep": (
        lambda: grade_level1(POLICY, SlowStr("ask"), slow_default_runner, ANSWERS, timeout=OBJECT_LIMIT),
        {1: "grade.timeout"},
    ),
    "an ANSWERS value whose __str__ sleeps": (
        lambda: grade_level1(
            POLICY, DEFAULT_TIER, good_run_tool_uses, {**ANSWERS, "step": SlowKey()}, timeout=OBJECT_LIMIT
        ),
        {2: "grade.timeout"},
    ),
    "an endless MISSING generator": (
        lambda: grade_level2(endless_gaps(), good_run_agent, MAX_TURNS, timeout=OBJECT_LIMIT),
        {1: "grade.l2.endless", 2: "grade.l2.endless"},
    ),
    "a MISSING generator that sleeps": (
        lambda: grade_level2(sleepy_gaps(), good_run_agent, MAX_TURNS, timeout=OBJECT_LIMIT),
        {1: "grade.timeout", 2: "grade.timeout"},
    ),
    "a MISSING key whose __eq__ and __str__ sleep": (
        lambda: grade_level2({SlowKey(): "endless_turns"}, good_run_agent, MAX_TURNS, timeout=OBJECT_LIMIT),
        {1: "grade.timeout", 2: "grade.timeout"},
    ),
    "MAX_TURNS whose __eq__ and __repr__ sleep": (
        lambda: grade_level2(MISSING, good_run_agent, SlowInt(3), timeout=OBJECT_LIMIT),
        {3: "grade.timeout"},
    ),
}


@pytest.mark.parametrize("name", list(LEARNER_OBJECTS))
def test_learner_objects_are_touched_only_under_the_time_limit(name):
    grade, expected = LEARNER_OBJECTS[name]
    with gives_up_after(NET * (5 * OBJECT_LIMIT + SLACK), f"the grade of {name}"):
        report = grade()
    assert {c.number: c.key for c in report.checks if not c.passed} == expected, report.text()


# --- the lessons' checks, whose kernel side is the learner's own kernel (round fifteen) -----------------
class _Recorded(type):
    """A metaclass whose classes' ``__name__`` is a property: it records the process that read it."""

    @property
    def __name__(cls):
        READ_IN.append(os.getpid())
        return "run_tools"


READ_IN: list[int] = []  # the processes that ran one of these objects' properties (a child's list is its own)


class _Raising:
    def __call__(self, *args, **kwargs):
        raise TypeError("not as the lesson calls it")

    @property
    def __name__(self):  # read to tell a call that did not fit the lesson's parameters
        READ_IN.append(os.getpid())
        return "run_tools"


class _Endless:
    def __call__(self, *args, **kwargs):
        while True:
            pass

    @property
    def __class__(self):  # read by ``inspect`` to tell a generator function, for a loop that ran out of time
        READ_IN.append(os.getpid())
        return _Endless


class _NotCallable(metaclass=_Recorded):
    pass


@pytest.mark.parametrize(
    ("piece", "learner"),
    [(("run_tools", None), _Raising()), (("run_agent", 6), _Endless()), (("run_tools", None), _NotCallable())],
    ids=["name-of-a-callable", "class-of-a-loop-out-of-time", "name-of-a-metaclass"],
)
def test_a_lesson_check_runs_none_of_the_learners_code_in_the_kernel(piece, learner):
    # In the kernel, outside the time limit, a property like these that never returned hung the check cell.
    from harness_lab import lessons
    from harness_lab.lessons.checking import judge

    READ_IN.clear()
    verdict = judge(lessons.piece(*piece), learner, timeout=1.0)
    assert not verdict.passed
    assert os.getpid() not in READ_IN
