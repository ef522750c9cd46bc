"""Exercise level 2's grader: right loops of every style pass, each wrong answer fails its criterion."""

from __future__ import annotations

import time

import pytest

import answers_level2 as answers
from harness_lab.grading import check_level2, grade_level2, level2_options
from harness_lab.grading.level2 import GAP_OPTIONS, RUNAWAY_OPTIONS

N = answers.MAX_TURNS


@pytest.mark.parametrize("name", list(answers.RIGHT))
def test_right_answers_pass(name):
    report = grade_level2(*answers.RIGHT[name], N)
    assert report.failed() == [], report.text()


@pytest.mark.parametrize("name", list(answers.WRONG))
def test_each_wrong_answer_fails_only_its_criterion_with_its_hint(name):
    answer, criterion, key = answers.WRONG[name]
    report = grade_level2(*answer, N, timeout=3.0)
    assert report.failed() == [criterion], report.text()
    check = report.checks[criterion - 1]
    assert check.key == key, check.hint
    assert "ヒント" in check.line()


def test_a_dropped_reassignment_is_named_as_lesson_4s_dead_loop():
    answer, _, _ = answers.WRONG["forgets to reassign response"]
    hint = grade_level2(*answer, N, timeout=3.0).checks[2].hint
    assert "ids must be unique" in hint and "再代入" in hint and "デッドループ" in hint


def test_every_criterion_has_a_wrong_answer_only_it_catches():
    assert {criterion for _, criterion, _ in answers.WRONG.values()} == {1, 2, 3}


@pytest.mark.parametrize("n", [2, 3, 7])
def test_the_cap_is_judged_for_the_learners_own_max_turns(monkeypatch, n):
    monkeypatch.setattr(answers, "MAX_TURNS", n)
    assert grade_level2(answers.GOOD_MISSING, answers.GOOD_RUNAWAYS, answers.top_of_body, n).passed
    report = grade_level2(answers.GOOD_MISSING, answers.GOOD_RUNAWAYS, answers.check_after_increment, n)
    assert report.failed() == [3] and f"MAX_TURNS={n}" in report.text()


def test_max_turns_disagreeing_with_the_loop_fails():
    # the loop uses MAX_TURNS = 4 but the learner hands in 6: the counts give it away
    report = grade_level2(answers.GOOD_MISSING, answers.GOOD_RUNAWAYS, answers.top_of_body, 6)
    assert report.failed() == [3]


@pytest.mark.parametrize("bad", [0, 1, 500, "8", True, None])
def test_unusable_max_turns_fails_criterion_3(bad):
    report = grade_level2(answers.GOOD_MISSING, answers.GOOD_RUNAWAYS, answers.top_of_body, bad)
    assert report.failed() == [3] and "MAX_TURNS" in report.checks[2].hint


def test_the_untouched_starter_fails_every_criterion():
    report = grade_level2(set(), set(), answers.no_cap, 8)
    assert report.failed() == [1, 2, 3]


def test_a_capless_loop_is_cut_off_quickly_by_the_scripted_model():
    started = time.monotonic()
    report = grade_level2(answers.GOOD_MISSING, answers.GOOD_RUNAWAYS, answers.no_cap, N, timeout=30)
    assert report.failed() == [3]
    assert time.monotonic() - started < 15


def test_distractors_and_truths_are_both_offered():
    assert any(GAP_OPTIONS.values()) and not all(GAP_OPTIONS.values())
    assert {None, "turns", "no_progress"} == set(RUNAWAY_OPTIONS.values())


def test_options_and_feedback_print_cleanly(capsys):
    level2_options()
    listing = capsys.readouterr().out
    for key in [*GAP_OPTIONS, *RUNAWAY_OPTIONS]:
        assert f"'{key}'" in listing
    check_level2(*answers.RIGHT["check at the top, sets"], N)
    lines = capsys.readouterr().out.splitlines()
    assert [line[:1] for line in lines[:3]] == ["✅"] * 3 and lines[3].startswith("🎉")


def test_feedback_is_deterministic():
    answer = answers.WRONG["turn check after the tools"][0]
    assert grade_level2(*answer, N).text() == grade_level2(*answer, N).text()
