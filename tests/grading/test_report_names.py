"""File names a learner chooses reach the class report escaped (red team round six, item 2).

A notebook too large to grade is refused by its size, and its row names the file; a file that is
not a notebook is listed with its name. Both names came straight from the submissions folder into
``feedback/<learner>.txt`` and ``grades.csv``: an escape sequence there clears the instructor's
terminal or sets its clipboard when the feedback is printed, and a newline starts a line of the
name's own, a fake verdict among the real ones.
"""

from __future__ import annotations

import csv
import io

from class_submissions import FILES, instructor_config  # noqa: F401

from harness_lab.grading.class_command import grade_class_command
from harness_lab.grading.class_report import page
from harness_lab.grading.classroom import ClassResult, Problem, Row
from harness_lab.grading.notebook import NotebookGrade
from harness_lab.grading.notebook_file import MAX_NOTEBOOK_BYTES
from harness_lab.grading.report import Check, Report
from harness_lab.text import speaking, t

FAKE = "\x1b[2J\x1b[H\x1b]52;c;ZWNobyBwd25lZA==\x07\r\n[PASS] all criteria met\x1b[8m"
FAKE_SECTION = "\n== level2_missing_gate.ipynb (level2) ==\n[PASS] Criterion 3: all good\n"


def test_the_names_of_a_notebook_too_large_and_of_a_file_not_graded_reach_the_report_escaped(tmp_path):
    subs, report = tmp_path / "subs", tmp_path / "report"
    folder = subs / "mal"
    folder.mkdir(parents=True)
    with open(folder / FILES["level1"].replace(".ipynb", FAKE + ".ipynb"), "wb") as huge:
        huge.truncate(MAX_NOTEBOOK_BYTES + (1 << 20))  # sparse: refused by its size, never read
    (folder / f"x{FAKE_SECTION}.txt").write_text("", encoding="utf-8")
    with speaking("en"):  # nothing is graded: no learner code runs, with or without a sandbox
        code = grade_class_command(subs, report, unsandboxed=True, stdout=io.StringIO(), stderr=io.StringIO())
    assert code == 0
    feedback = (report / "feedback" / "mal.txt").read_text(encoding="utf-8")
    table = (report / "grades.csv").read_text(encoding="utf-8-sig")
    for text in (feedback, table):
        assert not any(c in text for c in "\x1b\x07"), repr(text)
    assert "\\x1b[2J" in feedback and "\\r\\n[PASS] all criteria met" in feedback, feedback
    lines = feedback.splitlines()
    assert not [line for line in lines if line.startswith((t("grade.mark.pass"), "== level2"))], feedback
    row = next(r for r in csv.DictReader(io.StringIO(table, newline="")) if r["learner"] == "mal" and r["notebook"])
    assert row["hint_keys"] == "grade.class.too_large", row
    assert not any(c in row["notebook"] + row["message"] for c in "\r\n"), row


def test_a_notebook_named_in_capitals_is_still_its_exercises_notebook(tmp_path):
    # An LMS download or a file system may change a name's case: Level1_Tiered_Policy.IPYNB was
    # listed as "not a notebook" and its learner as having handed in nothing.
    subs, report = tmp_path / "subs", tmp_path / "report"
    folder = subs / "kim"
    folder.mkdir(parents=True)
    with open(folder / FILES["level1"].replace("level1", "Level1").replace(".ipynb", ".IPYNB"), "wb") as huge:
        huge.truncate(MAX_NOTEBOOK_BYTES + (1 << 20))  # refused by its size: no learner code runs
    with speaking("en"):
        code = grade_class_command(subs, report, unsandboxed=True, stdout=io.StringIO(), stderr=io.StringIO())
    assert code == 0
    table = (report / "grades.csv").read_text(encoding="utf-8-sig")
    rows = [r for r in csv.DictReader(io.StringIO(table, newline="")) if r["learner"] == "kim"]
    graded = [r for r in rows if r["notebook"]]
    assert [(r["exercise"], r["hint_keys"]) for r in graded] == [("level1", "grade.class.too_large")], rows
    assert "grade.class.not_notebook" not in table
    feedback = (report / "feedback" / "kim.txt").read_text(encoding="utf-8")
    refused = [line for line in feedback.splitlines() if "IPYNB" in line and "MB" in line]
    with speaking("en"):
        assert refused and refused[0].startswith(t("grade.mark.fail")), feedback  # marked as the other failures


def test_names_and_sample_answers_in_the_html_report_show_their_bidi_and_escape_characters():
    # The page html-escaped learner text but let a right-to-left override through: a learner named
    # "mal\u202egnp.exe" read as another name, and the sample answer shown for a hint could display
    # other code than it holds (Trojan Source). Every learner text on the page is now shown escaped.
    name, notebook = "mal\u202eann", "level1_tiered_policy\u2066.ipynb"
    answer = 'ALLOWED = "read_file"  # \u202e; "delete_file" + \u2066\x1b[8m'
    check = Check(1, "title", False, "a hint", "", "grade.l1.c1.wrong_tier")
    grade = NotebookGrade(f"{name}/{notebook}", "level1", "ok", (Report("level1", (check,)),))
    failed = NotebookGrade(f"{name}/x.ipynb", "level2", "error", error="boom", key="grade.nb.crashed")
    rows = (Row(name, notebook, grade, answer=answer), Row(name, "x\u202e.ipynb", failed))
    problems = (Problem.of(name, "notes\u202etxt.ipynb", "grade.class.not_notebook", name="notes\u202etxt.ipynb"),)
    with speaking("en"):
        html = page(ClassResult((name,), rows, problems, "v", 60.0, 1.0))
    assert not any(c in html for c in "\u202e\u2066\x1b"), [line for line in html.splitlines() if "mal" in line]
    assert "mal\\u202eann" in html and "\\u202e; &quot;delete_file&quot;" in html


def test_a_newline_in_a_name_is_shown_on_the_page_as_in_grades_csv():
    # "judy\nPASS" read "judy PASS" on the page and "judy\\nPASS" in grades.csv and the feedback:
    # the instructor could not match the two.
    name = "judy\nPASS"
    check = Check(1, "title", False, "a hint", "", "grade.l1.c1.wrong_tier")
    grade = NotebookGrade(f"{name}/level1_tiered_policy.ipynb", "level1", "ok", (Report("level1", (check,)),))
    failed = NotebookGrade(f"{name}/x.ipynb", "level2", "error", error="boom", key="grade.nb.crashed")
    rows = (Row(name, "level1_tiered_policy.ipynb", grade, answer="x = 1"), Row(name, "x\n.ipynb", failed))
    problems = (Problem.of(name, "notes\n.txt", "grade.class.not_notebook", name="notes\n.txt"),)
    with speaking("en"):
        html = page(ClassResult((name,), rows, problems, "v", 60.0, 1.0))
    for raw in ("judy\nPASS", "x\n.ipynb", "notes\n.txt"):
        assert raw not in html, raw
    assert html.count("judy\\nPASS") == 3  # the failures, the sample, the files not graded


def test_a_report_with_no_criterion_met_says_so_in_words():
    failing = Check(1, "title", False, "a hint", "", "grade.l1.c1.wrong_tier")
    for language in ("ja", "en"):
        with speaking(language):
            none = Report("level1", (failing, failing)).text().splitlines()[-1]
            some = Report("level1", (failing, Check(2, "t", True, "", "", ""))).text().splitlines()[-1]
            assert none == t("grade.none_passed", total=2) and some == t("grade.some_passed", score=1, total=2)
    assert "0つ" not in none and "0 of" not in none
