"""Exercise level 1's grader: right answers of every style pass, each wrong answer fails its criterion."""

from __future__ import annotations

import time

import pytest

from harness_lab.grading import check_level1, grade_level1
from harness_lab.text import t

from answers_level1 import DICT_POLICY, RIGHT, SAYS_FORBIDDEN, SAYS_NOTHING_WHY, WRONG, dict_runner, with_deny_message


@pytest.mark.parametrize("name", list(RIGHT))
def test_right_answers_pass(name):
    report = grade_level1(*RIGHT[name])
    assert report.failed() == [], report.text()
    assert report.text().splitlines()[-1].startswith("🎉")


@pytest.mark.parametrize("name", list(WRONG))
def test_each_wrong_answer_fails_only_its_criterion_with_its_hint(name):
    answer, criterion, key = WRONG[name]
    report = grade_level1(*answer)
    assert report.failed() == [criterion], report.text()
    check = report.checks[criterion - 1]
    assert check.key == key, check.hint
    assert check.line().startswith(f"❌ 基準{criterion}") and "ヒント" in check.line()


def test_every_criterion_has_a_wrong_answer_only_it_catches():
    assert {criterion for _, criterion, _ in WRONG.values()} == {1, 2, 3}


@pytest.mark.parametrize("text", SAYS_FORBIDDEN)
def test_a_deny_result_may_say_forbidden_in_many_ways(text):
    report = grade_level1(DICT_POLICY, "ask", with_deny_message(text))
    assert report.passed, report.text()


@pytest.mark.parametrize("text", SAYS_NOTHING_WHY)
def test_a_deny_result_that_does_not_say_why_fails_criterion_3(text):
    report = grade_level1(DICT_POLICY, "ask", with_deny_message(text))
    assert report.failed() == [3] and report.checks[2].key == "grade.l1.c3.deny_no_reason", report.text()


def test_a_missing_tool_use_id_is_named_not_a_traceback():
    answer, _, key = WRONG["tool_use_id written as id"]
    check = grade_level1(*answer).checks[2]
    assert check.hint == t(key, position=1) and "tool_use_id" in check.hint


def test_default_allow_passes_with_a_warning_and_safer_defaults_do_not_warn():
    warned = grade_level1(*RIGHT["function policy, default allow"])
    assert warned.passed and "⚠️" in warned.checks[0].line()
    assert "⚠️" not in grade_level1(DICT_POLICY, "ask", dict_runner).text()


def test_starter_objects_fail_every_criterion():
    def lesson_approval_only(content, tool_impls, approve):
        high_impact = {"write_file", "http_post", "delete_file"}
        results = []
        for block in content:
            if block.type != "tool_use":
                continue
            if block.name in high_impact and not approve(block.name, block.input):
                results.append({"type": "tool_result", "tool_use_id": block.id, "content": "拒否", "is_error": True})
                continue
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": str(tool_impls[block.name](block.input))})
        return results

    assert grade_level1({}, None, lesson_approval_only).failed() == [1, 2, 3]
    assert grade_level1({}, None, lambda content, impls, approve: []).failed() == [1, 2, 3]


def test_learner_exception_is_one_clean_line():
    def broken(content, tool_impls, approve):
        raise ValueError("まだ書いていません")

    report = grade_level1(DICT_POLICY, "ask", broken)
    assert report.failed() == [1, 2, 3]
    for check in report.checks:
        assert "ValueError: まだ書いていません" in check.line()
    assert "Traceback" not in report.text()


def test_an_endless_loop_fails_within_the_limit():
    def forever(content, tool_impls, approve):
        while True:
            pass

    started = time.monotonic()
    report = grade_level1(DICT_POLICY, "ask", forever, timeout=0.5)
    assert report.failed() == [1, 2, 3]
    assert "制限時間" in report.text()
    assert time.monotonic() - started < 10


def test_printing_learner_code_does_not_reach_the_feedback(capsys):
    def chatty(content, tool_impls, approve):
        print("デバッグ出力" * 1000)
        return dict_runner(content, tool_impls, approve)

    check_level1(DICT_POLICY, "ask", chatty)
    printed = capsys.readouterr().out
    assert "デバッグ出力" not in printed
    assert len(printed.splitlines()) == 4


def test_feedback_is_deterministic():
    assert grade_level1(*RIGHT["dict of tiers, default ask"]).text() == grade_level1(
        *RIGHT["dict of tiers, default ask"]
    ).text()
    wrong = WRONG["denied call with no tool_result"][0]
    assert grade_level1(*wrong).text() == grade_level1(*wrong).text()


def test_feedback_follows_the_catalog_language(monkeypatch):
    monkeypatch.setenv("HARNESS_LAB_LANG", "en")
    text = grade_level1(*WRONG["no default tier (KeyError)"][0]).text()
    assert "Criterion 1" in text and "Hint" in text and "基準" not in text
