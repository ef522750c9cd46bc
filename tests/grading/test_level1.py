"""Exercise level 1's grader: right answers of every style pass, each wrong answer fails its criterion."""

from __future__ import annotations

import functools

import pytest
from answers_level1 import (
    DICT_POLICY,
    GOOD_ANSWERS,
    HOSTILE,
    RIGHT,
    SAYS_A_PERSON_REFUSED,
    SAYS_FORBIDDEN,
    SAYS_NOTHING_WHY,
    WRONG,
    dict_runner,
    with_deny_message,
)

from harness_lab.grading import GradeFailed, check_level1, grade_level1, level1_options
from harness_lab.grading.level1 import ANSWER_OPTIONS, PROBE_TIERS, says_forbidden
from harness_lab.grading.report import Report
from harness_lab.text import t
from tests.safety_net import gives_up_after


# A named answer is graded once in this module, with the grader's defaults and in the default
# language, and every test that asks something of that same grading reads the one report: the named
# tests below looked again at answers the parametrized tests had just graded, the same way, and
# re-graded each (about a second apiece). The determinism and language tests still grade afresh.
@functools.cache
def right_report(name: str) -> Report:
    return grade_level1(*RIGHT[name])


@functools.cache
def wrong_report(name: str) -> Report:
    return grade_level1(*WRONG[name][0])


@pytest.mark.parametrize("name", list(RIGHT))
def test_right_answers_pass(name):
    report = right_report(name)
    assert report.failed() == [], report.text()
    assert report.text().splitlines()[-1].startswith("◎")


@pytest.mark.parametrize("name", list(WRONG))
def test_each_wrong_answer_fails_its_criterion_with_its_hint(name):
    _, expected = WRONG[name]
    report = wrong_report(name)
    assert {c.number: c.key for c in report.checks if not c.passed} == expected, report.text()
    for number in expected:
        line = report.checks[number - 1].line()
        assert line.startswith(f"× 不合格 基準{number}") and "ヒント" in line


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_answers_fail_each_criterion_at_its_limit(name):
    answer, expected = HOSTILE[name]
    # Only the endless loop meets the clock; the others end by themselves, and a limit they cannot
    # reach on a loaded machine keeps their test about the hint. The hint says which way each ended.
    limit = 0.5 if "grade.timeout" in expected.values() else 5.0
    with gives_up_after(10 * (3 * limit + 5), f"the grade of {name}"):
        report = grade_level1(*answer, timeout=limit)
    assert {c.number: c.key for c in report.checks if not c.passed} == expected, report.text()


def test_every_criterion_has_a_wrong_answer_only_it_catches():
    alone = {next(iter(expected)) for _, expected in WRONG.values() if len(expected) == 1}
    assert alone == {1, 2, 3}


def test_the_policy_probe_writes_tools_the_table_never_names():
    # the held-out class: behaviour on the table's tools matches, the data cannot say ask or allow
    hint = wrong_report("policy data without ask or allow (name -> tier)").checks[0].hint
    assert "POLICY を書き換えて" in hint and any(tool in hint for tool in ("get_time", "read_file", *PROBE_TIERS))


def test_a_tool_left_out_is_named_as_fallen_to_the_default_not_as_a_loop_that_stopped():
    report = wrong_report("a table tool left out of the policy")
    assert report.failed() == [1]
    assert report.checks[0].hint == t("grade.l1.c1.fell_to_default", tool="read_file", default="deny", expected="allow")


def test_the_apis_own_400_is_the_hint_for_a_history_it_rejects():
    for name, field in (
        ("an extra name field in tool_result", "tool_result.name: Extra inputs are not permitted"),
        ("is_error as a string", "tool_result.is_error: "),
    ):
        hint = wrong_report(name).checks[2].hint
        assert field in hint and "400" in hint, hint


@pytest.mark.parametrize("text", SAYS_FORBIDDEN)
def test_a_deny_result_may_say_a_rule_forbids_it_in_many_ways(text):
    assert says_forbidden(text.format(name="send_email"))
    report = grade_level1(DICT_POLICY, "ask", with_deny_message(text), GOOD_ANSWERS)
    assert report.passed, report.text()


@pytest.mark.parametrize("text", SAYS_NOTHING_WHY)
def test_a_deny_result_that_does_not_say_a_rule_forbids_it_fails_criterion_3(text):
    assert not says_forbidden(text.format(name="send_email"))
    report = grade_level1(DICT_POLICY, "ask", with_deny_message(text), GOOD_ANSWERS)
    assert report.failed() == [3] and report.checks[2].key == "grade.l1.c3.deny_no_reason", report.text()


@pytest.mark.parametrize("text", SAYS_A_PERSON_REFUSED)
def test_a_deny_result_that_says_a_person_refused_fails_criterion_3_with_its_own_hint(text):
    assert not says_forbidden(text.format(name="send_email"))
    report = grade_level1(DICT_POLICY, "ask", with_deny_message(text), GOOD_ANSWERS)
    assert report.failed() == [3] and report.checks[2].key == "grade.l1.c3.deny_blames_person", report.text()


def test_an_approval_that_fails_open_is_named():
    check = wrong_report("an error from approve taken for a yes").checks[1]
    assert check.hint == t("grade.l1.c2.fails_open", tool="write_file"), check.line()


def test_a_prefix_policy_is_told_to_look_tiers_up_by_exact_name():
    check = wrong_report("tiers looked up by name prefix").checks[0]
    assert "「get_」" in check.hint and "get_time" in check.hint, check.line()


@pytest.mark.parametrize(
    ("name", "handed"),
    [
        ("approve given the input as JSON text", '{"path": "notes.txt"'),
        ("approve given the block where the input goes", "ToolUseBlock("),
    ],
)
def test_an_approver_handed_no_dict_is_told_what_it_was_handed(name, handed):
    # the hint quotes the input it was asked about: not "{}", which reads as an empty input dict
    check = wrong_report(name).checks[1]
    assert handed in check.hint and "（{}）" not in check.hint, check.line()


def test_a_missing_tool_use_id_is_named_not_a_traceback():
    _, expected = WRONG["tool_use_id written as id"]
    check = wrong_report("tool_use_id written as id").checks[2]
    assert check.hint == t(expected[3], position=1) and "tool_use_id" in check.hint


def test_default_allow_passes_with_a_note_and_safer_defaults_do_not_get_one():
    warned = right_report("function policy, default allow")
    assert warned.passed and "△ 注意" in warned.checks[0].line()
    # the safer default: RIGHT's (DICT_POLICY, "ask", dict_runner, GOOD_ANSWERS), already graded
    assert "△" not in right_report("dict of tiers, default ask").text()


@pytest.mark.parametrize("blank", ["", " "])
def test_an_empty_default_tier_is_quoted_in_its_hint(blank):
    check = grade_level1(DICT_POLICY, blank, dict_runner, GOOD_ANSWERS).checks[0]
    assert check.hint == t("grade.l1.c1.no_default", value=repr(blank)), check.line()


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
            results.append(
                {"type": "tool_result", "tool_use_id": block.id, "content": str(tool_impls[block.name](**block.input))}
            )
        return results

    empty = {"step": None, "approval": None, "deny": None}
    assert grade_level1({}, None, lesson_approval_only, empty).failed() == [1, 2, 3]
    assert grade_level1({}, None, lambda content, impls, approve: [], empty).failed() == [1, 2, 3]


def test_learner_exception_is_one_clean_line():
    def broken(content, tool_impls, approve):
        raise ValueError("まだ書いていません")

    report = grade_level1(DICT_POLICY, "ask", broken, GOOD_ANSWERS)
    assert report.failed() == [1, 2, 3]
    for check in report.checks:
        assert "ValueError: まだ書いていません" in check.line()
    assert "Traceback" not in report.text()


def test_a_failing_grade_cell_prints_the_report_then_raises_one_short_line(capsys):
    answer, _ = WRONG["deny result that does not say why"]
    with pytest.raises(GradeFailed) as caught:
        check_level1(*answer)
    printed = capsys.readouterr().out
    assert len(printed.splitlines()) == 4 and "× 不合格 基準3" in printed
    message = str(caught.value)
    assert message == caught.value._render_traceback_()[0] == t("grade.failed", numbers="3")
    assert "\n" not in message and len(message) < 120


def test_a_passing_grade_cell_raises_nothing(capsys):
    check_level1(*RIGHT["dict of tiers, default ask"])
    assert capsys.readouterr().out.splitlines()[-1].startswith("◎")


def test_printing_learner_code_does_not_reach_the_feedback(capsys):
    def chatty(content, tool_impls, approve):
        print("デバッグ出力" * 1000)
        return dict_runner(content, tool_impls, approve)

    check_level1(DICT_POLICY, "ask", chatty, GOOD_ANSWERS)
    printed = capsys.readouterr().out
    assert "デバッグ出力" not in printed
    assert len(printed.splitlines()) == 4


def test_options_print_every_key(capsys):
    level1_options()
    listing = capsys.readouterr().out
    for question, options in ANSWER_OPTIONS.items():
        assert f'ANSWERS["{question}"]' in listing
        assert all(f"'{key}'" in listing for key in options)
        assert sum(options.values()) == 1  # exactly one right choice per question


def test_feedback_is_deterministic():
    assert (
        grade_level1(*RIGHT["dict of tiers, default ask"]).text()
        == grade_level1(*RIGHT["dict of tiers, default ask"]).text()
    )
    wrong = WRONG["denied call with no tool_result"][0]
    assert grade_level1(*wrong).text() == grade_level1(*wrong).text()


def test_feedback_follows_the_catalog_language_and_uses_no_emoji(monkeypatch):
    monkeypatch.setenv("HARNESS_LAB_LANG", "en")
    text = grade_level1(*WRONG["no default tier (KeyError)"][0]).text()
    assert "[FAIL] Criterion 1" in text and "Hint" in text and "基準" not in text
    assert "[PASS] Criterion 2" in text
    assert not any(mark in text for mark in ("✅", "❌", "⚠", "🎉"))
