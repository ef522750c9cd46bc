"""A lesson check that stops the learner's function at its own time or memory limit says which limit it hit.

Each point runs in the graders' limited child (``sandbox.run_limited``) under a time and a memory limit. A
function that ran past the memory limit was told "The check's process died (too much memory, say)", as if
it had crashed; one that ran past the time limit was asked "Does a loop never end?" whatever it did. The
hint now names the limit and its size, and says what the learner can do.
"""

from __future__ import annotations

import time

import pytest

from harness_lab import lessons
from harness_lab.grading.sandbox import MEMORY_LIMIT
from harness_lab.text import speaking, t


@pytest.mark.parametrize("language", ["ja", "en"])
def test_a_function_past_the_checks_memory_limit_is_told_the_limit_not_a_crash(language):
    def next_step(response):
        history = []
        while True:  # a history that keeps growing, 1 GB at a time
            history.append([response] * (1 << 27))

    with speaking(language):
        verdict = lessons.judge(lessons.piece("next_step"), next_step, timeout=20)
        expected = t("lesson.memory", mb=MEMORY_LIMIT >> 20)
    assert [c.key for c in verdict.checks] == ["lesson.memory"] * len(verdict.checks), verdict.text()
    assert verdict.checks[0].hint == expected
    assert str(MEMORY_LIMIT >> 20) in expected


@pytest.mark.parametrize("language", ["ja", "en"])
def test_a_function_past_the_checks_time_limit_is_told_the_time_limit_and_how_to_find_where_it_stuck(language):
    def next_step(response):
        time.sleep(60)  # no loop at all: the hint must not guess one

    with speaking(language):
        verdict = lessons.judge(lessons.piece("next_step"), next_step, timeout=1)
        limit = {"ja": "制限時間（1 秒）", "en": "time limit (1 s)"}[language]
        interrupt = {"ja": "■（カーネルの中断）", "en": "■ (interrupt the kernel)"}[language]
    assert verdict.checks[0].key == "lesson.timeout", verdict.text()
    assert limit in verdict.checks[0].hint and interrupt in verdict.checks[0].hint
