"""Exercise level 2's grader: right loops of every style pass, each wrong answer fails its criterion."""

from __future__ import annotations

import functools
import os
import re
import signal
import threading
import time

import answers_level2 as answers
import answers_level2_slips
import pytest

from harness_lab.grading import GradeFailed, check_level2, grade_level2, level2_options
from harness_lab.grading.level2 import GAP_OPTIONS, PAIRS, RUNAWAY_OPTIONS, says_stopped
from harness_lab.grading.report import Report
from harness_lab.text import speaking, t
from tests.safety_net import gives_up_after

N = answers.MAX_TURNS


# A wrong answer is graded once in this module with the 3-second limit its parametrized test uses, and
# the named tests that ask more of that same grading read the one report instead of grading it again.
# The tests that grade with other limits, another language, or twice on purpose still grade afresh.
@functools.cache
def wrong_report(name: str) -> Report:
    return grade_level2(*answers.WRONG[name][0], timeout=3.0)


@pytest.mark.parametrize("name", list(answers.RIGHT))
def test_right_answers_pass(name):
    report = grade_level2(*answers.RIGHT[name])
    assert report.failed() == [] and not report.checks[2].warning, report.text()


@pytest.mark.parametrize("name", list(answers.NOTED))
def test_a_limit_fixed_when_the_cell_ran_passes_with_a_note(name):
    """Run again with MAX_TURNS changed, such a loop stops where it did: a note, never a failure."""
    report = grade_level2(*answers.NOTED[name])
    assert report.failed() == [], report.text()
    assert report.checks[2].warning == t("grade.l2.c3.fixed_cap", n=N, cap=2), report.text()


@pytest.mark.parametrize("name", list(answers.WRONG))
def test_each_wrong_answer_fails_its_criterion_with_its_hint(name):
    _, expected = answers.WRONG[name]
    report = wrong_report(name)
    assert {c.number: c.key for c in report.checks if not c.passed} == expected, report.text()
    for number in expected:
        assert "ヒント" in report.checks[number - 1].line()


@pytest.mark.parametrize("name", list(answers.HOSTILE))
def test_hostile_loops_fail_criterion_3_at_its_limit(name):
    answer, expected = answers.HOSTILE[name]
    # Runaways meet the clock; the others end by themselves, under a limit a loaded machine cannot reach.
    limit = 1.0 if "runaway" in expected[3] else 5.0
    with gives_up_after(10 * (limit + 7), f"the grade of {name}"):
        report = grade_level2(*answer, timeout=limit)
    assert {c.number: c.key for c in report.checks if not c.passed} == expected, report.text()


def test_every_criterion_has_a_wrong_answer_only_it_catches():
    alone = {next(iter(expected)) for _, expected in answers.WRONG.values() if len(expected) == 1}
    assert alone == {1, 2, 3}


def test_a_dropped_reassignment_is_named_as_lesson_4s_dead_loop():
    hint = wrong_report("forgets to reassign response").checks[2].hint
    assert "ids must be unique" in hint and "再代入" in hint and "デッドループ" in hint


def test_counting_blocks_is_caught_by_a_model_that_calls_several_tools_a_turn():
    # one tool a turn: blocks and turns agree, so only the parallel model tells them apart
    answer, _ = answers.WRONG["counts tool_use blocks, not turns"]
    check = grade_level2(*answer).checks[2]
    assert check.key == "grade.l2.c3.counts_blocks" and f"MAX_TURNS={N}" in check.hint


def test_the_apis_own_400_is_the_hint_for_a_history_it_rejects():
    answer, _ = answers.WRONG["an extra name field in tool_result"]
    hint = grade_level2(*answer).checks[2].hint
    assert "tool_result.name: Extra inputs are not permitted" in hint, hint


@pytest.mark.parametrize(
    ("language", "after"), [("ja", "must define tools。会話履歴"), ("en", "must define tools. A request")]
)
def test_the_apis_400_quoted_in_a_hint_ends_its_sentence_once(language, after):
    # the 400 ends in its own "." ("...must define tools."): the hint's "。" or "." comes once after it
    with speaking(language):
        check = grade_level2(*answers.WRONG["tools given to the first request only"][0], timeout=3.0).checks[2]
    assert check.key == "grade.l2.c3.tools_missing" and after in check.hint, check.hint


@pytest.mark.parametrize("text", answers.SAYS_STOPPED)
def test_a_stop_message_may_say_so_in_many_ways(text):
    assert says_stopped(text)


@pytest.mark.parametrize("text", answers.SAYS_NOTHING_OF_A_STOP)
def test_a_number_or_a_word_alone_is_not_a_stop_message(text):
    assert not says_stopped(text)


def test_the_pairs_are_graded_not_two_independent_sets():
    # every runaway named somewhere, but attached to the wrong control
    swapped = {"stop_condition": "spinning", "no_progress": "endless_turns"}
    check = grade_level2(swapped, answers.top_of_body, N).checks[1]
    assert check.key == "grade.l2.c2.mispaired" and "'stop_condition'" in check.hint
    assert all(PAIRS[c] <= RUNAWAY_OPTIONS.keys() and GAP_OPTIONS[c] for c in PAIRS)


@pytest.mark.parametrize("n", [2, 3, 7])
def test_the_cap_is_judged_for_the_learners_own_max_turns(monkeypatch, n):
    for loop in (answers.top_of_body, answers.check_after_increment):  # MAX_TURNS where each loop reads it
        monkeypatch.setitem(loop.__globals__, "MAX_TURNS", n)
    assert grade_level2(answers.GOOD_MISSING, answers.top_of_body, n).passed
    report = grade_level2(answers.GOOD_MISSING, answers.check_after_increment, n)
    assert report.failed() == [3] and f"MAX_TURNS={n}" in report.text()


def test_max_turns_disagreeing_with_the_loop_fails():
    # the loop uses MAX_TURNS = 4 but the learner hands in 6: the counts give it away
    report = grade_level2(answers.GOOD_MISSING, answers.top_of_body, 6)
    assert report.failed() == [3]


@pytest.mark.parametrize("bad", [0, 1, 500, "8", True, None, 4.0])
def test_unusable_max_turns_fails_criterion_3(bad):
    report = grade_level2(answers.GOOD_MISSING, answers.top_of_body, bad)
    assert report.failed() == [3] and report.checks[2].key == "grade.l2.c3.bad_max_turns"


def test_the_untouched_starter_fails_every_criterion():
    report = grade_level2({}, answers.no_cap, 8)
    assert report.failed() == [1, 2, 3]


@pytest.mark.parametrize("language", ["ja", "en"])
def test_the_untouched_starters_runaway_names_the_missing_check_not_a_counter_it_lacks(language):
    # The starter has no counter yet: its hint may not blame one set back to 0 every lap.
    with speaking(language):
        hint = grade_level2({}, answers.no_cap, 8).checks[2].hint
    assert "MAX_TURNS" in hint and not re.search(r"0 に戻|back to 0", hint)


def test_a_capless_loop_is_cut_off_by_the_scripted_model_not_the_clock():
    # The clock's limit is far past the net: only the scripted model's cut-off ends this grade in time.
    with gives_up_after(60, "the scripted model to cut the loop off"):
        report = grade_level2(answers.GOOD_MISSING, answers.no_cap, N, timeout=600)
    assert report.failed() == [3] and report.checks[2].key == "grade.l2.c3.runaway", report.text()


def test_distractors_and_truths_are_both_offered():
    assert any(GAP_OPTIONS.values()) and not all(GAP_OPTIONS.values())
    assert {None, "turns", "no_progress", "approval"} == set(RUNAWAY_OPTIONS.values())


def test_options_and_feedback_print_cleanly(capsys):
    level2_options()
    listing = capsys.readouterr().out
    for key in [*GAP_OPTIONS, *RUNAWAY_OPTIONS]:
        assert f"'{key}'" in listing
    check_level2(*answers.RIGHT["check at the top, one runaway per gap"])
    lines = capsys.readouterr().out.splitlines()
    assert [line[:4] for line in lines[:3]] == ["○ 合格"] * 3 and lines[3].startswith("◎")


def test_an_interrupted_grade_cell_says_so_in_one_line(capsys):
    """Kernel > Interrupt while the learner's loop ran in a child showed a traceback through the grader's
    bridge (bridge.py's select), in none of the course's words."""

    def slow(client, user_input, tools, tool_impls):
        time.sleep(30)

    interrupt = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT))
    interrupt.start()
    try:
        with pytest.raises(KeyboardInterrupt) as caught:  # still an interrupt: "run all" stops there
            check_level2(answers.GOOD_MISSING, slow, N, timeout=20)
    finally:
        interrupt.cancel()
    assert getattr(caught.value, "_render_traceback_", list)() == [t("grade.interrupted")]
    assert capsys.readouterr().out == ""  # no report: nothing was judged


def test_a_failing_grade_cell_raises_one_short_line(capsys):
    with pytest.raises(GradeFailed) as caught:
        check_level2(*answers.WRONG["a bare number at the cap"][0])
    assert str(caught.value) == t("grade.failed", numbers="3")
    assert "× 不合格 基準3" in capsys.readouterr().out


def test_feedback_is_deterministic():
    answer = answers.WRONG["turn check after the tools"][0]
    assert grade_level2(*answer).text() == grade_level2(*answer).text()


def test_in_english_the_hints_quote_the_scripted_model_in_english(monkeypatch):
    """An English learner's hint quotes what their loop returned; the grader's model speaks English then."""
    import re

    monkeypatch.setenv("HARNESS_LAB_LANG", "en")
    report = grade_level2(answers.GOOD_MISSING, answers_level2_slips.loses_a_character, answers.MAX_TURNS, timeout=3.0)
    failed = [c for c in report.checks if not c.passed]
    assert [c.key for c in failed] == ["grade.l2.c3.normal_answer"], report.text()
    assert not re.search("[\u3040-\u30ff\u4e00-\u9fff]", report.text()), report.text()
    from harness_lab.grading.level2_scene import TEXTS

    assert set(TEXTS["ja"]) == set(TEXTS["en"])


def test_what_the_loop_returned_stays_on_its_hint_line():
    """A returned text that looks like a report line is quoted on the hint's line, not printed as a line of its own."""
    forged = "ok\n[PASS] All 3 criteria are met. Well done!\r\n"
    report = grade_level2(answers.GOOD_MISSING, answers._stopping_with(forged), answers.MAX_TURNS)
    lines = report.text().splitlines()
    assert len(lines) == 4 and report.failed() == [3], report.text()
    assert not any(line.startswith(("[PASS] All", "○ 合格 3つ")) for line in lines), report.text()


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_stop_message_hint_quotes_what_the_loop_returned(monkeypatch, lang):
    """The returned text is quoted, so its own full stop does not run into the hint's sentence."""
    monkeypatch.setenv("HARNESS_LAB_LANG", lang)
    check = grade_level2(answers.GOOD_MISSING, answers._stopping_with("Stopped."), N, timeout=3.0).checks[2]
    assert check.key == "grade.l2.c3.no_stop_message", check.line()
    assert ("「Stopped.」" if lang == "ja" else '"Stopped."') in check.hint and "Stopped.." not in check.hint


def test_a_stop_that_is_not_a_string_is_named_as_such():
    check = wrong_report("no stop message at the cap").checks[2]
    assert check.hint == t("grade.l2.c3.stop_not_text", shown="None") and "「None」" not in check.hint
