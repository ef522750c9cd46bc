"""The class summary counts every notebook handed in under one outcome, so the instructor sees what to do next.

It told how many met every criterion, timed out and erred, but not how many were graded and failed a
criterion: a class of 14 notebooks read "8 passed, 1 timed out, 2 errors", and the 3 learners who most
need the hints were in no number of the line the terminal and the page start with.
"""

from __future__ import annotations

import re

import pytest

from harness_lab.grading.class_report import page, summary
from harness_lab.grading.classroom import ClassResult, Row
from harness_lab.grading.notebook import NotebookGrade
from harness_lab.grading.report import Check, Report
from harness_lab.text import speaking

COUNTS = {
    "en": r"notebooks: (\d+)\. Meeting every criterion: (\d+), failing a criterion: (\d+), timed out: (\d+), errors: (\d+)",
    "ja": r"ノートブック (\d+) 冊: すべての基準を満たした (\d+) 冊、満たしていない基準のある (\d+) 冊、タイムアウト (\d+) 冊、エラー (\d+) 冊",
}


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
