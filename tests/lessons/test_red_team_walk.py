"""The browser walk's pieces (answers_walk): each wrong piece gets × with its own cause's hint, each
right one passes."""

from __future__ import annotations

import pytest

from harness_lab import lessons
from tests.lessons.answers_walk import RIGHT_WALK, WRONG_WALK
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
