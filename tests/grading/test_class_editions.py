"""A class graded in both editions: each learner reads feedback in their notebook's edition, the page is in the
instructor's language, a mixed class says who used which.
"""

from __future__ import annotations

import io
import re

import pytest
from class_submissions import (
    FILES,
    Handed,
    english_solution,
    instructor_config,  # noqa: F401  # the record's key in a folder of the tests' own
    needs_sandbox,
    right,
    solution,
    wrong,
)
from test_classroom import read_csv

from harness_lab.cli import main as cli_main
from harness_lab.grading.class_command import grade_class_command
from harness_lab.grading.classroom import STATE_FILE, grade_class
from harness_lab.text import speaking, t

pytestmark = needs_sandbox


def _in_english(handed: Handed) -> Handed:
    """The same answer handed in on the English edition's notebook (what its metadata says)."""
    handed.notebook.metadata["harness_lab"]["lang"] = "en"
    handed.edition = "en"
    return handed


@pytest.mark.parametrize("instructor", ["ja", "en"])
def test_each_learner_reads_feedback_in_their_notebooks_edition_and_the_page_in_lang(tmp_path, monkeypatch, instructor):
    monkeypatch.setenv("HARNESS_LAB_LANG", "ja" if instructor == "en" else "en")  # --lang wins over it
    subs, report = tmp_path / "subs", tmp_path / "report"
    name = "misses the explicit stop condition"
    wrong("level2", name).write(subs, "aki")  # the Japanese edition
    Handed("level1", english_solution("level1")).write(subs, "bob")
    _in_english(wrong("level2", name)).write(subs, "bob")
    for learner in ("aki", "bob"):
        (subs / learner / "notes.txt").write_text("x", encoding="utf-8")
    cli_main(["grade-class", str(subs), "--out", str(report), "--lang", instructor], out=io.StringIO())
    for learner, edition in (("aki", "ja"), ("bob", "en")):
        text = (report / "feedback" / f"{learner}.txt").read_text(encoding="utf-8")
        with speaking(edition):
            hint = t("grade.l2.c1.no_stop_condition")
            said = [
                t("grade.class.feedback_title", learner=learner),
                f"{t('grade.mark.fail')} {t('grade.criterion', number=1)}: {t('grade.l2.c1.title')}",
                f"{t('grade.hint')}: {hint}",
                t("grade.some_passed", score=2, total=3),
                t("grade.class.not_notebook", name="notes.txt"),
            ]
            said += [] if learner == "bob" else [t("grade.class.missing", exercise="level1")]
        assert [line for line in said if line not in text] == [], (learner, text)
    page = (report / "index.html").read_text(encoding="utf-8")
    with speaking(instructor):
        assert f'<html lang="{instructor}">' in page and t("grade.class.title") in page
        assert t("grade.l2.c1.title") in page  # the criteria's titles are the instructor's
        assert t("grade.class.not_notebook", name="notes.txt") in page
    assert list(read_csv(report)[0])[:3] == ["learner", "exercise", "notebook"]
    rows = {(r["learner"], r["exercise"]): r for r in read_csv(report)}
    assert rows["aki", "level1"]["message"] == with_language(instructor, "grade.class.missing", exercise="level1")


JAPANESE = re.compile("[\u3040-\u30ff\u3400-\u9fff]")


def test_a_notebook_that_names_no_edition_is_told_in_its_learners_language(tmp_path):
    # Too large to read, or no JSON: the file names no edition, and its line came in --lang's words
    # inside an otherwise English (or Japanese) feedback file.
    subs, report = tmp_path / "subs", tmp_path / "report"
    Handed("level1", english_solution("level1")).write(subs, "carol")
    (subs / "carol" / "level2_missing_gate.ipynb").write_text("{ not json", encoding="utf-8")
    right("level1").write(subs, "daiki")  # the Japanese edition
    (subs / "daiki" / "level2_missing_gate.ipynb").write_bytes(b" " * (9 << 20))
    for instructor in ("ja", "en"):
        cli_main(["grade-class", str(subs), "--out", str(report), "--lang", instructor], out=io.StringIO())
        carol = (report / "feedback" / "carol.txt").read_text(encoding="utf-8")
        assert not JAPANESE.search(carol), (instructor, carol)
        daiki = (report / "feedback" / "daiki.txt").read_text(encoding="utf-8")
        line = next(line for line in daiki.splitlines() if "level2_missing_gate.ipynb" in line and "MB" in line)
        assert JAPANESE.search(line), (instructor, line)


def with_language(code: str, key: str, **values: str) -> str:
    with speaking(code):
        return t(key, **values)


def test_a_class_mixing_the_editions_says_which_each_learner_used(tmp_path):
    subs, report = tmp_path / "subs", tmp_path / "report"
    right("level1").write(subs, "aki")
    Handed("level1", english_solution("level1")).write(subs, "bob")
    Handed("level2", english_solution("level2")).write(subs, "bob")
    assert grade_class_command(subs, report, jobs=1, stdout=io.StringIO(), stderr=io.StringIO()) == 0
    rows = read_csv(report)
    assert [(r["learner"], r["exercise"], r["status"], r["score"], r["edition"]) for r in rows] == [
        ("aki", "level1", "ok", "3", "ja"),
        ("aki", "level2", "missing", "0", ""),
        ("bob", "level1", "ok", "3", "en"),
        ("bob", "level2", "ok", "3", "en"),
    ]
    editions = (report / "index.html").read_text(encoding="utf-8").split(f"<h2>{t('grade.class.editions_title')}</h2>")
    shown = editions[1].split("<h2>")[0]
    assert f"<td>aki</td><td>{t('grade.class.edition.ja')}</td>" in shown
    assert f"<td>bob</td><td>{t('grade.class.edition.en')}</td>" in shown
    # a rerun takes the grades from the record, and the edition from the bytes again
    Handed("level2", solution("level2")).write(subs, "bob")  # bob hands in the Japanese level2 too
    result = grade_class(subs, report / STATE_FILE)
    assert [(r.learner, r.notebook, r.reused, r.edition) for r in result.rows if r.notebook] == [
        ("aki", FILES["level1"], True, "ja"),
        ("bob", FILES["level1"], True, "en"),
        ("bob", FILES["level2"], False, "ja"),
    ]
