"""The class page is in the instructor's language, whatever edition a learner handed in.

A Japanese page (``--lang ja``) quoted an English-edition learner's hints and errors in English: a grade
keeps only the text its learner read, so the page told "Nothing says what happens to turns or cost..."
among Japanese headings. A hint or an error whose catalog entry takes no values is told anew in the
page's language; one that quotes the learner's code (a value) stays as the learner read it, since the
grade does not keep the values (``class_report._in_page_language``).
"""

from __future__ import annotations

import html

import pytest

from harness_lab.grading.class_report import feedback, page
from harness_lab.grading.classroom import ClassResult, Row
from harness_lab.grading.notebook import NotebookGrade
from harness_lab.grading.report import Check, Report
from harness_lab.text import speaking, t

OTHER = {"ja": "en", "en": "ja"}


def _class(edition: str) -> ClassResult:
    """One learner of ``edition``: a level 2 notebook failing a hint without values and one with, and a level 1
    notebook that erred; every text as the learner read it."""
    with speaking(edition):
        checks = (
            Check.fail(1, "title", "grade.l2.c1.no_stop_condition"),
            Check.fail(2, "title", "grade.l1.c1.no_default", value="None"),
        )
        graded = NotebookGrade("kai/level2_missing_gate.ipynb", "level2", "ok", (Report("level2", checks),))
        erred = NotebookGrade(
            "kai/level1_tiered_policy.ipynb",
            "level1",
            "error",
            error=t("grade.nb.no_answer_cells"),
            key="grade.nb.no_answer_cells",
        )
    rows = (
        Row("kai", "level1_tiered_policy.ipynb", erred, edition=edition),
        Row("kai", "level2_missing_gate.ipynb", graded, edition=edition),
    )
    return ClassResult(("kai",), rows, (), "v", 60.0, 1.0)


@pytest.mark.parametrize("instructor", ["ja", "en"])
def test_the_page_tells_another_editions_hints_and_errors_in_the_instructors_language(instructor):
    learner = OTHER[instructor]
    result = _class(learner)
    with speaking(instructor):
        shown = html.unescape(page(result))
    for key in ("grade.l2.c1.no_stop_condition", "grade.nb.no_answer_cells"):
        with speaking(instructor):
            assert t(key) in shown, key
        with speaking(learner):
            assert t(key) not in shown, key


@pytest.mark.parametrize("instructor", ["ja", "en"])
def test_a_hint_quoting_the_learners_code_stays_as_the_learner_read_it(instructor):
    learner = OTHER[instructor]
    with speaking(instructor):
        shown = html.unescape(page(_class(learner)))
    with speaking(learner):
        assert t("grade.l1.c1.no_default", value="None") in shown


@pytest.mark.parametrize("instructor", ["ja", "en"])
def test_the_learners_feedback_stays_in_their_edition_whatever_the_page_speaks(instructor):
    learner = OTHER[instructor]
    with speaking(instructor):
        told = feedback(_class(learner), "kai")
    with speaking(learner):
        assert t("grade.l2.c1.no_stop_condition") in told and t("grade.nb.no_answer_cells") in told
    with speaking(instructor):
        assert t("grade.l2.c1.no_stop_condition") not in told
