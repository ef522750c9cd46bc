"""The bridge between a graded child and the judge: messages both ways, and what the child cannot do.

The judge answers every message itself (so its log is its own), may end the child at once, and
ignores a link the child garbles; without ``os.fork`` the same graders run with the child in a
thread and still reach the same verdicts.
"""

from __future__ import annotations

import copy
import os
import socket

import answers_level1
import answers_level2
import pytest

from harness_lab.grading import grade_level1, grade_level2
from harness_lab.grading.bridge import Stop, ask, observe


def test_every_message_is_answered_by_the_judge_in_order():
    seen = []

    def answer(message):
        seen.append(message)
        return message[1] * 2

    outcome = observe(lambda: [ask(("double", n)) for n in range(5)], answer, timeout=5)
    assert outcome.status == "ok" and outcome.value == [0, 2, 4, 6, 8]
    assert seen == [("double", n) for n in range(5)]


def test_the_judge_can_end_the_child_at_once():
    def answer(message):
        raise Stop({"runaway": True})

    def job():
        ask(("first",))
        while True:  # never reached: the judge ended the child
            pass

    outcome = observe(job, answer, timeout=30)
    assert (outcome.status, outcome.value) == ("aborted", {"runaway": True})


def test_a_message_the_judge_cannot_read_is_an_exception_in_the_child_not_in_the_judge():
    def answer(message):
        return {"known": 1}[message[0]]

    def job():
        try:
            ask(("unknown",))
        except Exception as exc:
            return type(exc).__name__
        return "answered"

    assert observe(job, answer, timeout=5).value == "BridgeError"


def test_a_garbled_link_leaves_the_childs_own_answer_to_decide():
    def job():
        for fd in range(3, 64):
            try:
                kind = socket.socket(fileno=os.dup(fd))
            except OSError:
                continue
            kind.sendall(b"\xff" * 64)  # not a message: the judge stops listening to the link
            kind.detach()
        return "done"

    assert observe(job, lambda message: None, timeout=5).value == "done"


def test_objects_cannot_cross_to_the_judge():
    def job():
        try:
            ask(("object", object()))
        except Exception as exc:
            return type(exc).__name__
        return "sent"

    assert observe(job, lambda message: "read", timeout=5).value == "TypeError"


@pytest.mark.parametrize("name", ["dict of tiers, default ask", "function policy, default allow"])
def test_level1_grades_the_same_without_fork(monkeypatch, name):
    monkeypatch.delattr(os, "fork")
    right = answers_level1.RIGHT[name]
    before, bound = copy.deepcopy(right[0]), dict(right[2].__globals__)
    assert grade_level1(*right).passed
    # the probe's rewrite, in a thread of the caller, must not outlive the grading
    assert right[0] == before
    assert [k for k, v in bound.items() if right[2].__globals__.get(k) is not v] == []
    answer, expected = next(iter(answers_level1.WRONG.values()))
    report = grade_level1(*answer)
    assert {c.number: c.key for c in report.checks if not c.passed} == expected, report.text()


def test_level2_grades_the_same_without_fork(monkeypatch):
    monkeypatch.delattr(os, "fork")
    assert grade_level2(*answers_level2.RIGHT["check at the top, one runaway per gap"]).passed
    answer, expected = next(iter(answers_level2.WRONG.values()))
    report = grade_level2(*answer)
    assert {c.number: c.key for c in report.checks if not c.passed} == expected, report.text()


def test_without_fork_the_callers_process_is_left_as_it_was(monkeypatch):
    from harness_lab.grading.sandbox import abort

    monkeypatch.delattr(os, "fork")
    assert observe(lambda: ask(("x",)), lambda message: "answered", timeout=5).value == "answered"
    with pytest.raises(RuntimeError):
        ask(("after",))
    with pytest.raises(RuntimeError):
        abort(1)
