"""The class summary counts every notebook handed in under one outcome, so the instructor sees what to do next.

It told how many met every criterion, timed out and erred, but not how many were graded and failed a
criterion: a class of 14 notebooks read "8 passed, 1 timed out, 2 errors", and the 3 learners who most
need the hints were in no number of the line the terminal and the page start with.
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from harness_lab.grading.class_report import page, summary
from harness_lab.grading.classroom import ClassResult, Problem, Row, _scan
from harness_lab.grading.notebook import CHECK_TIMEOUT, NotebookGrade
from harness_lab.grading.report import Check, Report
from harness_lab.text import speaking, t

COUNTS = {
    "en": r"notebooks: (\d+)\. Meeting every criterion: (\d+), failing a criterion: (\d+), timed out: (\d+), errors: (\d+)",
    "ja": r"ノートブック (\d+) 冊: すべての基準を満たした (\d+) 冊、満たしていない基準のある (\d+) 冊、タイムアウト (\d+) 冊、エラー (\d+) 冊",
}
SKIPPED = {"en": r"files not graded: (\d+)", "ja": r"採点しなかったファイル (\d+) 件"}


def _row(learner: str, status: str, *passed: bool) -> Row:
    notebook = "level1_tiered_policy.ipynb"
    checks = tuple(Check(n, "title", ok, "" if ok else "hint", "", "" if ok else "k") for n, ok in enumerate(passed, 1))
    reports = (Report("level1", checks),) if status == "ok" else ()
    grade = NotebookGrade(f"{learner}/{notebook}", "level1", status, reports, error="" if status == "ok" else "why")
    return Row(learner, notebook, grade, edition="en")


def _class() -> ClassResult:
    rows = (
        _row("ann", "ok", True, True, True),
        _row("bea", "ok", True, False, True),
        _row("cy", "ok", False, False, False),
        _row("dee", "timeout"),
        _row("eve", "error"),
    )
    return ClassResult(tuple(r.learner for r in rows), rows, (), "v", 60.0, 1.0)


@pytest.mark.parametrize("language", ["ja", "en"])
def test_the_summary_counts_the_notebooks_that_failed_a_criterion(language):
    with speaking(language):
        line = summary(_class())
        shown = page(_class())
    notebooks, passed, failed, timeouts, errors = map(int, re.search(COUNTS[language], line).groups())
    assert (notebooks, passed, failed, timeouts, errors) == (5, 1, 2, 1, 1), line
    assert passed + failed + timeouts + errors == notebooks  # every notebook under one outcome
    assert line in shown  # the page starts with the same line


@pytest.mark.parametrize("language", ["ja", "en"])
def test_a_learner_folder_with_nothing_in_it_is_not_a_file_not_graded(tmp_path, language):
    # alice handed in level 1; bob's folder was empty. The summary said "files not graded: 1" for bob's
    # folder note, though no file exists, beside "not handed in" for his two exercises.
    submissions = tmp_path / "subs"
    (submissions / "alice").mkdir(parents=True)
    (submissions / "bob").mkdir()
    (submissions / "alice" / "level1_tiered_policy.ipynb").write_text("{}", encoding="utf-8")
    (submissions / "alice" / "notes.txt").write_text("memo", encoding="utf-8")
    learners, _, problems = _scan(submissions)
    with speaking(language):
        line = summary(ClassResult(tuple(learners), (), tuple(problems), "v", 60.0, 1.0))
        shown = page(ClassResult(tuple(learners), (), tuple(problems), "v", 60.0, 1.0))
        listed = t("grade.class.no_notebooks")
    assert int(re.search(SKIPPED[language], line).group(1)) == 1, line  # alice's notes.txt only
    assert listed in shown  # the page still says what is in bob's folder


def test_a_learner_folder_that_cannot_be_read_counts_as_a_file_not_graded(tmp_path):
    # It may hold any number of notebooks, and the instructor has to open it: it stays in the count.
    problems = (Problem.of("bob", "", "grade.class.unreadable_folder", error="Permission denied"),)
    with speaking("en"):
        line = summary(ClassResult(("bob",), (), problems, "v", 60.0, 1.0))
    assert int(re.search(SKIPPED["en"], line).group(1)) == 1, line


@pytest.mark.parametrize("language", ["ja", "en"])
def test_the_page_names_the_time_limit_by_which_a_check_fails_its_criterion(language):
    # A notebook whose loop hangs in one check fails that criterion (hint: the time limit), and "timed out"
    # counts only notebooks stopped as a whole: the page said only "time limit 60 s per notebook".
    for timeout in (60.0, 2.0):
        result = replace(_class(), timeout=timeout)
        with speaking(language):
            footer = re.search(r'<p class="footer">(.*?)</p>', page(result)).group(1)
        limits = [float(n) for n in re.findall(r"(\d+(?:\.\d+)?) (?:秒|s)", footer)]
        assert limits == [timeout, min(CHECK_TIMEOUT, timeout)], footer
