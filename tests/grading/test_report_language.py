"""A class report rewritten in another language (``--lang``) from the grades it recorded, not by grading again.

Each notebook is graded in its own edition's language, so ``--lang`` (the page's and the terminal's
language) changes no grade; a rerun with another ``--lang`` still graded the whole class again.
Only a notebook that names no edition (not JSON), of a learner whose other notebooks name none
either, is told in the instructor's language: that one is graded again.
"""

from __future__ import annotations

import csv
import io

from class_submissions import (
    Handed,
    breaking,
    english_solution,
    instructor_config,  # noqa: F401  # the record's key in a folder of the tests' own
    needs_sandbox,
    right,
)

from harness_lab.cli import main as cli_main
from harness_lab.text import speaking, t


def _grade(subs, report, language: str) -> str:
    out = io.StringIO()
    assert cli_main(["grade-class", str(subs), "--out", str(report), "--lang", language], out=out) == 0
    return out.getvalue()


@needs_sandbox
def test_a_rerun_in_another_language_writes_the_report_from_the_recorded_grades(tmp_path):
    subs, report = tmp_path / "subs", tmp_path / "report"
    right("level1").write(subs, "aki")  # the Japanese edition
    Handed("level1", english_solution("level1")).write(subs, "bob")
    (subs / "cho").mkdir()
    (subs / "cho" / "level2_missing_gate.ipynb").write_text("{ not json", encoding="utf-8")  # names no edition
    _grade(subs, report, "ja")
    before = {
        learner: (report / "feedback" / f"{learner}.txt").read_text(encoding="utf-8") for learner in ("aki", "bob")
    }
    out = _grade(subs, report, "en")
    with speaking("en"):  # only cho's line, told in the instructor's language, is graded again
        assert t("grade.class.done", total=3, seconds="@", graded=1, reused=2).split("@")[1] in out, out
        assert t("grade.class.title") in (report / "index.html").read_text(encoding="utf-8")
        unreadable = t("grade.nb.unreadable", error="@").split("@")[0]
    for learner, text in before.items():  # each in their edition's language, as before
        assert (report / "feedback" / f"{learner}.txt").read_text(encoding="utf-8") == text, learner
    with open(report / "grades.csv", encoding="utf-8-sig", newline="") as f:
        cho = next(r for r in csv.DictReader(f) if r["learner"] == "cho" and r["notebook"])
    assert cho["message"].startswith(unreadable), cho
    out = _grade(subs, report, "en")
    with speaking("en"):  # the same language again: nothing is graded
        assert t("grade.class.done", total=3, seconds="@", graded=0, reused=3).split("@")[1] in out, out


@needs_sandbox
def test_with_no_language_asked_the_report_speaks_the_edition_every_notebook_names(tmp_path, monkeypatch):
    monkeypatch.delenv("HARNESS_LAB_LANG", raising=False)
    subs = tmp_path / "subs"
    Handed("level1", english_solution("level1")).write(subs, "bob")
    Handed("level1", english_solution("level1")).write(subs, "eve")
    out = io.StringIO()
    assert cli_main(["grade-class", str(subs), "--out", str(tmp_path / "en")], out=out) == 0
    with speaking("en"):
        assert t("grade.class.done", total=2, seconds="@", graded=2, reused=0).split("@")[1] in out.getvalue()
        assert t("grade.class.title") in (tmp_path / "en" / "index.html").read_text(encoding="utf-8")
    right("level1").write(subs, "aki")  # a Japanese learner joins: the editions disagree, so Japanese
    out = io.StringIO()
    assert cli_main(["grade-class", str(subs), "--out", str(tmp_path / "en")], out=out) == 0
    with speaking("ja"):
        assert t("grade.class.done", total=3, seconds="@", graded=1, reused=2).split("@")[1] in out.getvalue()
        assert t("grade.class.title") in (tmp_path / "en" / "index.html").read_text(encoding="utf-8")


@needs_sandbox
def test_the_line_that_raised_is_told_in_the_pages_language_not_the_notebooks(tmp_path):
    # The error a grade keeps ends with the line that raised, in the words of the edition it was graded in: an
    # English page and grades.csv of a Japanese notebook read "…: invalid literal … （`int('x')` の行）" (round 22).
    subs, report = tmp_path / "subs", tmp_path / "report"
    breaking("level1", "int('x')\n", "error", "grade.nb.cell_raised").write(subs, "aki")
    _grade(subs, report, "en")
    with open(report / "grades.csv", encoding="utf-8-sig", newline="") as f:
        aki = next(r for r in csv.DictReader(f) if r["learner"] == "aki" and r["notebook"])
    with speaking("en"):
        error = "ValueError: invalid literal for int() with base 10: 'x'" + t("grade.raised_at_line", line="int('x')")
        assert aki["message"] == t("grade.nb.cell_raised", cell=2, error=error), aki
    with speaking("ja"):  # the learner's feedback, in their edition's words
        said = "ValueError: invalid literal for int() with base 10: 'x'" + t("grade.raised_at_line", line="int('x')")
        assert t("grade.nb.cell_raised", cell=2, error=said) in (report / "feedback" / "aki.txt").read_text("utf-8")
