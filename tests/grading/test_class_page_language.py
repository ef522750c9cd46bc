"""The class page and grades.csv are in the instructor's language, whatever edition a learner handed in.

A Japanese page (``--lang ja``) quoted an English-edition learner's hints and errors in English: a grade
kept only the text its learner read, so the page told "Nothing says what happens to turns or cost..."
among Japanese headings, and a hint or error that quotes the learner's code (a value) stayed in the
learner's language even once the rest was told anew. A grade now keeps each hint's key and values, so every
hint and error is told again in the instructor's language (``report.retold``), the values as the learner's
grade showed them: filled in as text, cut as a hint cuts them, never read as fields.
"""

from __future__ import annotations

import html
import json

import pytest

from harness_lab.grading.class_report import feedback, gradebook, page
from harness_lab.grading.classroom import ClassResult, Row
from harness_lab.grading.level1_scene import _answer
from harness_lab.grading.notebook import NotebookGrade
from harness_lab.grading.redact import Redactor
from harness_lab.grading.report import QUOTED, Check, Report
from harness_lab.scrub import REDACTED
from harness_lab.text import Phrase, speaking, t

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
def test_a_hint_or_error_quoting_the_learners_code_is_told_in_the_instructors_language_values_intact(instructor):
    learner = OTHER[instructor]
    result = _quoting(learner)
    with speaking(instructor):
        shown, table = html.unescape(page(result)), gradebook(result)
    for key, values in QUOTED_HINTS:
        with speaking(instructor):
            assert t(key, **values) in shown, key
        with speaking(learner):
            assert t(key, **values) not in shown, key
    with speaking(instructor):  # grades.csv's message column
        assert t("grade.nb.cell_raised", cell=2, error="ValueError: まだ途中 (not yet)") in table
    with speaking(learner):
        assert t("grade.nb.cell_raised", cell=2, error="ValueError: まだ途中 (not yet)") not in table


QUOTED_HINTS = (
    ("grade.l1.c1.no_default", {"value": "None"}),
    ("grade.l2.c1.not_missing", {"option": "approval", "desc": Phrase("grade.l2.gap.approval")}),
    ("grade.nb.cell_raised", {"cell": 2, "error": "ValueError: まだ途中 (not yet)"}),
)


def _quoting(edition: str, values: dict | None = None) -> ClassResult:
    """One learner of ``edition`` whose level 2 notebook failed two hints that quote values and whose level 1
    notebook raised in an answer cell, as its grading host sends them (plain values) and a class record reads
    them back; ``values`` in place of the first hint's."""
    with speaking(edition):
        checks = (
            Check.fail(1, "title", "grade.l1.c1.no_default", **(values or {"value": "None"})),
            Check.fail(2, "title", "grade.l2.c1.not_missing", option="approval", desc=Phrase("grade.l2.gap.approval")),
        )
        graded = NotebookGrade("kai/level2_missing_gate.ipynb", "level2", "ok", (Report("level2", checks),))
        path = "kai/level1_tiered_policy.ipynb"
        erred = NotebookGrade.failed(
            path, "level1", "error", "grade.nb.cell_raised", cell=2, error="ValueError: まだ途中 (not yet)"
        )
    read = [NotebookGrade.from_plain(json.loads(json.dumps(grade.as_plain()))) for grade in (erred, graded)]
    rows = (
        Row("kai", "level1_tiered_policy.ipynb", read[0], edition=edition),
        Row("kai", "level2_missing_gate.ipynb", read[1], edition=edition),
    )
    return ClassResult(("kai",), rows, (), "v", 60.0, 1.0)


@pytest.mark.parametrize(
    "value",
    ["{0.__class__}", "{value}", "{0:>99999999}", "%s", "x" * 10_000_000],
    ids=["field", "name", "spec", "percent", "10MB"],
)
def test_a_learners_value_is_shown_as_text_cut_as_its_hint_cut_it_never_read_as_a_field(value):
    result = _quoting("en", {"value": value})
    with speaking("en"):
        told = result.rows[1].grade.reports[0].checks[0].hint
    with speaking("ja"):
        shown = html.unescape(page(result))
        expected = t("grade.l1.c1.no_default", value=told.removeprefix("DEFAULT_TIER is ").partition(". Decide")[0])
    assert len(told) < QUOTED + 200
    assert expected in shown, expected[:200]


@pytest.mark.parametrize("odd", [{"__class__": "x"}, ["a", "b"], None, 10**5000], ids=["dict", "list", "none", "huge"])
def test_values_of_a_shape_no_grader_sends_leave_the_hint_as_its_learner_read_it(odd):
    # a grading host's answer is plain values of any shape: one the learner's code reached may send these
    with speaking("en"):
        check = Check.fail(1, "title", "grade.l1.c1.no_default", value="None")
        grade = NotebookGrade("kai/level1_tiered_policy.ipynb", "level1", "ok", (Report("level1", (check,)),))
    plain = grade.as_plain()
    plain["reports"][0]["checks"][0][6] = {"value": odd}
    read = NotebookGrade.from_plain(plain)
    json.dumps(read.as_plain())  # as the class record writes it: a number JSON cannot write stopped the class
    result = ClassResult(("kai",), (Row("kai", "level1_tiered_policy.ipynb", read, edition="en"),), (), "v", 60.0, 1.0)
    with speaking("ja"):
        assert check.hint in html.unescape(page(result))


@pytest.mark.parametrize("instructor", ["ja", "en"])
def test_a_grade_recorded_before_grades_kept_values_is_still_read_its_quoting_hints_as_the_learner_read_them(
    instructor,
):
    learner = OTHER[instructor]
    with speaking(learner):
        checks = (
            Check.fail(1, "title", "grade.l2.c1.no_stop_condition"),
            Check.fail(2, "title", "grade.l1.c1.no_default", value="None"),
        )
    grade = NotebookGrade("kai/level2_missing_gate.ipynb", "level2", "ok", (Report("level2", checks),))
    plain = grade.as_plain()
    del plain["values"]  # as a record's entry was written before
    for check in plain["reports"][0]["checks"]:
        del check[6:]
    row = Row("kai", "level2_missing_gate.ipynb", NotebookGrade.from_plain(plain), edition=learner)
    with speaking(instructor):
        shown = html.unescape(page(ClassResult(("kai",), (row,), (), "v", 60.0, 1.0)))
        assert t("grade.l2.c1.no_stop_condition") in shown
    with speaking(learner):
        assert t("grade.l1.c1.no_default", value="None") in shown


def test_a_secret_cut_from_a_hint_is_cut_from_the_values_it_is_told_again_from():
    secret = "hunter2-correct-horse-battery"
    with speaking("en"):
        check = Check.fail(1, "title", "grade.l1.c1.no_default", value=f"'{secret}'")
        grade = NotebookGrade("kai/level1_tiered_policy.ipynb", "level1", "ok", (Report("level1", (check,)),))
    cleaned = Redactor(secrets=[secret]).grade(grade)
    row = Row("kai", "level1_tiered_policy.ipynb", cleaned, edition="en")
    with speaking("ja"):
        shown = html.unescape(page(ClassResult(("kai",), (row,), (), "v", 60.0, 1.0)))
        assert t("grade.l1.c1.no_default", value=f"'{REDACTED}'") in shown
    assert secret not in shown


@pytest.mark.parametrize("instructor", ["ja", "en"])
def test_the_learners_feedback_stays_in_their_edition_whatever_the_page_speaks(instructor):
    learner = OTHER[instructor]
    with speaking(instructor):
        told = feedback(_class(learner), "kai")
    with speaking(learner):
        assert t("grade.l2.c1.no_stop_condition") in told and t("grade.nb.no_answer_cells") in told
    with speaking(instructor):
        assert t("grade.l2.c1.no_stop_condition") not in told


@pytest.mark.parametrize("instructor", ["ja", "en"])
def test_an_answer_options_description_a_hint_quotes_follows_the_instructors_language(instructor):
    # level 1's ANSWERS hints quote the option's description from the catalog: it was formatted in the learner's
    # language before the hint was, so a retold hint would have carried it in the learner's words
    learner = OTHER[instructor]
    with speaking(learner):
        key, values = _answer({"step": ("after_tool", "'after_tool'")}, "step")
        check = Check.fail(2, "title", key, **values)
    grade = NotebookGrade("kai/level1_tiered_policy.ipynb", "level1", "ok", (Report("level1", (check,)),))
    row = Row("kai", "level1_tiered_policy.ipynb", NotebookGrade.from_plain(grade.as_plain()), edition=learner)
    with speaking(instructor):
        shown = html.unescape(page(ClassResult(("kai",), (row,), (), "v", 60.0, 1.0)))
        assert t(key, option="after_tool", desc=t("grade.l1.opt.step.after_tool")) in shown
