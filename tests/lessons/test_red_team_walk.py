"""The browser walk's pieces (answers_walk): each wrong piece gets × with its own cause's hint, each
right one passes."""

from __future__ import annotations

import pytest

from harness_lab import lessons
from tests.lessons.answers6 import loaded
from tests.lessons.answers_walk import RIGHT_RUN_AGENT_WALK, RIGHT_WALK, WRONG_WALK
from tests.lessons.test_capstone import at_point
from tests.lessons.test_red_team import _named


@pytest.fixture(autouse=True)
def workbook_here(tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_LAB_WORKBOOK", str(tmp_path / "my_harness.py"))


@pytest.mark.parametrize("name, wrong, point, key", WRONG_WALK, ids=[w[1].__name__ for w in WRONG_WALK])
def test_a_wrong_piece_gets_the_hint_of_its_own_cause(name, wrong, point, key):
    _named(lessons.judge(at_point(name, point), wrong), key)


@pytest.mark.parametrize("name, right", RIGHT_WALK, ids=[r[1].__name__ for r in RIGHT_WALK])
def test_a_right_piece_passes(name, right):
    verdict = lessons.judge(lessons.piece(name), right)
    assert verdict.passed, verdict.text()


@pytest.mark.parametrize("point", (4, 6, 7))  # valve 2 counts what this loop sent; valve 4 reads the results
@pytest.mark.parametrize("source", RIGHT_RUN_AGENT_WALK)
def test_a_right_whole_harness_has_its_results_read_where_the_api_reads_them(source, point):
    verdict = lessons.judge(at_point("run_agent", point, 6), loaded(source), timeout=5)
    assert verdict.passed, verdict.text()
