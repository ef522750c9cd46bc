"""The capstone at the end of notebook 05 (issue 28.7): the learner wires a tool of their own, http_post
with a policy (ALLOWED_HOSTS) and the approval valve, into their harness as ``my_agent``, and it is
judged on scenarios the notebook does not show. Those scenarios live in
``harness_lab/lessons/capstone.py``; here each wrong wiring a learner may write meets them and gets the
hint for its own cause, the right one passes, and the notebook never shows the look-alike addresses."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from harness_lab import lessons
from harness_lab.lessons.capstone import LOOKALIKES
from tests.lessons.answers6 import loaded
from tests.lessons.answers_capstone import RIGHT_MY_AGENT, RIGHT_MY_AGENT_WRAPPED, WRONG_MY_AGENT
from tests.lessons.answers_capstone_round_20 import RIGHT_MY_AGENT_ROUND_20, WRONG_MY_AGENT_ROUND_20
from tests.lessons.answers_counts_and_flags import RIGHT_MY_AGENT_COUNTS, WRONG_MY_AGENT_COUNTS
from tests.lessons.answers_misreadings import RIGHT_MY_AGENT_MISREAD, WRONG_MY_AGENT_MISREAD
from tests.lessons.answers_round_21_harness import (
    MISSED_MY_AGENT_ROUND_21,
    RIGHT_MY_AGENT_ROUND_21,
    WRONG_MY_AGENT_ROUND_21,
)

NOTEBOOK_SOURCE = Path(__file__).resolve().parents[2] / "notebooks" / "src" / "05_full_harness.py"


def at_point(name: str, point: int, lesson: int | None = None) -> lessons.Piece:
    """The piece with only its point ``point`` (1-based): each probe runs on its own, so this is faster."""
    whole = lessons.piece(name, lesson)
    return dataclasses.replace(whole, points=(whole.points[point - 1],))


WRONG = (
    WRONG_MY_AGENT + WRONG_MY_AGENT_MISREAD + WRONG_MY_AGENT_COUNTS + WRONG_MY_AGENT_ROUND_20 + WRONG_MY_AGENT_ROUND_21
)


@pytest.mark.parametrize(
    "source",
    [
        RIGHT_MY_AGENT,
        RIGHT_MY_AGENT_WRAPPED,
        *RIGHT_MY_AGENT_MISREAD,
        *RIGHT_MY_AGENT_COUNTS,
        *RIGHT_MY_AGENT_ROUND_20,
        *RIGHT_MY_AGENT_ROUND_21,
    ],
)
def test_the_right_wiring_passes_every_hidden_scenario(source):
    verdict = lessons.judge(lessons.piece("my_agent"), loaded(source, "my_agent"))
    assert verdict.passed, verdict.text()


@pytest.mark.parametrize("source, point, key", WRONG, ids=[f"{w[2].rsplit('.', 1)[-1]}-{w[1]}" for w in WRONG])
def test_each_wrong_wiring_gets_the_hint_that_names_its_cause(source, point, key):
    verdict = lessons.judge(at_point("my_agent", point), loaded(source, "my_agent"))
    miss = verdict.checks[0]
    assert not miss.passed and miss.key == key, (miss, verdict.text())


@pytest.mark.parametrize("source, missed", MISSED_MY_AGENT_ROUND_21)
def test_a_wrong_wiring_names_its_own_cause_on_every_point_it_misses(source, missed):
    verdict = lessons.judge(lessons.piece("my_agent"), loaded(source, "my_agent"))
    assert {c.number: c.key for c in verdict.checks if not c.passed} == missed, verdict.text()


def test_the_notebook_does_not_show_the_hidden_addresses():
    text = NOTEBOOK_SOURCE.read_text(encoding="utf-8")
    assert "my_agent" in text and not any(url in text for url in LOOKALIKES) and "evil" not in text
