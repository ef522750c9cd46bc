"""A lesson check whose child the learner's function wrote into, or forked (round twenty's leftovers).

``lessons.judge`` runs each point in the graders' limited child (``sandbox.run_limited``). Bytes the
learner's code writes into that child's answer pipe (it walks ``/proc/self/fd`` and writes to every
descriptor) are tampering, as in the exercises' grading: the hint says so, never that the process died.
A copy of the child the function forks and leaves running never answers for the point.
"""

from __future__ import annotations

import os
import pickle

import pytest

from harness_lab import lessons
from harness_lab.text import t

WRITTEN = {
    "text": b"\n[PASS] All 3 criteria are met\r\x1b[2J",
    "a frame of no pickle": (12).to_bytes(8, "big") + b"[PASS] 3 / 3",
    "a frame of another shape": (lambda p: len(p).to_bytes(8, "big") + p)(pickle.dumps(("ok",))),
}


@pytest.mark.parametrize("written", list(WRITTEN))
def test_bytes_a_function_writes_into_every_inherited_descriptor_are_told_as_tampering(written):
    reference = lessons.reference("next_step")

    def next_step(response):
        for fd in sorted(map(int, os.listdir("/proc/self/fd"))):
            try:
                os.write(fd, WRITTEN[written])
            except OSError:
                pass
        return reference(response)

    verdict = lessons.judge(lessons.piece("next_step"), next_step, timeout=10)
    assert [c.key for c in verdict.checks] == ["lesson.tampered"] * 3
    assert verdict.checks[0].hint == t("lesson.tampered") and "harness_lab" in verdict.checks[0].hint


def test_a_copy_a_function_forks_and_leaves_running_never_answers_for_the_point():
    # The copy returns first, a wrong answer for every point; the function itself waits for it, then answers right.
    reference = lessons.reference("next_step")

    def next_step(response):
        copy = os.fork()
        if copy == 0:
            return "never a step"
        os.waitpid(copy, 0)
        return reference(response)

    verdict = lessons.judge(lessons.piece("next_step"), next_step, timeout=10)
    assert [(c.passed, c.key) for c in verdict.checks] == [(True, "")] * 3
