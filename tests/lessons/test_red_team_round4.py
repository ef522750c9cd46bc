"""Round four of the learner red team (answers_round4): each wrong piece gets × with its own cause's hint,
each right one in another style passes."""

from __future__ import annotations

import pytest

from harness_lab import lessons
from tests.lessons.answers6 import loaded
from tests.lessons.answers_round4 import RIGHT_ROUND4, RIGHT_RUN_AGENT_ROUND4, WRONG_ROUND4, WRONG_RUN_AGENT_ROUND4
from tests.lessons.test_capstone import at_point
from tests.lessons.test_red_team import _named


@pytest.fixture(autouse=True)
def workbook_here(tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_LAB_WORKBOOK", str(tmp_path / "my_harness.py"))


@pytest.mark.parametrize("name, wrong, point, key", WRONG_ROUND4, ids=[w[1].__name__ for w in WRONG_ROUND4])
def test_a_wrong_piece_gets_the_hint_of_its_own_cause(name, wrong, point, key):
    _named(lessons.judge(at_point(name, point), wrong), key)


@pytest.mark.parametrize(
    "source, point, key", WRONG_RUN_AGENT_ROUND4, ids=[w[2].rsplit(".", 1)[-1] for w in WRONG_RUN_AGENT_ROUND4]
)
def test_a_wrong_whole_harness_gets_the_hint_of_its_own_cause(source, point, key):
    _named(lessons.judge(at_point("run_agent", point, 6), loaded(source), timeout=5), key)


@pytest.mark.parametrize("name, right", RIGHT_ROUND4, ids=[r[1].__name__ for r in RIGHT_ROUND4])
def test_a_right_piece_in_another_style_passes(name, right):
    verdict = lessons.judge(lessons.piece(name), right)
    assert verdict.passed, verdict.text()


@pytest.mark.parametrize("source", RIGHT_RUN_AGENT_ROUND4)
def test_a_right_whole_harness_in_another_style_passes(source):
    verdict = lessons.judge(lessons.piece("run_agent", 6), loaded(source))
    assert verdict.passed, verdict.text()
