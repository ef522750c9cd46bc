"""A rerun of grade-class says what changed since the last run: the last run's gradebook is kept beside the
new one, the page lists whose grade moved (at most SHOWN rows, the rest counted), and the command's last
lines name every file an instructor opens."""

from __future__ import annotations

import csv
import io

from class_submissions import (
    instructor_config,  # noqa: F401  # the record's key in a folder of the tests' own
    needs_sandbox,
    right,
    wrong,
)

from harness_lab.grading.class_changes import SHOWN, Change, changes
from harness_lab.grading.class_command import grade_class_command
from harness_lab.grading.class_report import page
from harness_lab.grading.classroom import ClassResult
from harness_lab.text import t


def _book(*rows: tuple[str, str, str, str]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(["learner", "exercise", "notebook", "score", "max_score", "status"])
    writer.writerows(
        [(learner, exercise, f"{exercise}.ipynb", score, "3", status) for learner, exercise, score, status in rows]
    )
    return buffer.getvalue()


def test_only_the_grades_that_moved_are_changes_and_a_renamed_learner_is_one_gone_and_one_new():
    before = _book(("ann", "level1", "1", "ok"), ("bob", "level1", "3", "ok"), ("cy", "level1", "0", "missing"))
    after = _book(("ann", "level1", "3", "ok"), ("bob", "level1", "3", "ok"), ("cyrus", "level1", "0", "missing"))
    assert changes(before.encode("utf-8-sig"), after) == [
        Change("ann", "level1", ("ok", "1", "3"), ("ok", "3", "3")),
        Change("cy", "level1", ("missing", "0", "3"), None),
        Change("cyrus", "level1", None, ("missing", "0", "3")),
    ]
    assert changes(b"\0not a gradebook", after) == [Change("ann", "level1", None, ("ok", "3", "3"))] + [
        Change(who, "level1", None, grade)
        for who, grade in (("bob", ("ok", "3", "3")), ("cyrus", ("missing", "0", "3")))
    ]


def test_the_page_lists_at_most_so_many_changes_and_counts_the_rest():
    moved = tuple(Change(f"learner{n:04}", "level1", ("ok", "1", "3"), ("ok", "3", "3")) for n in range(SHOWN + 7))
    shown = page(ClassResult((), (), (), "v", 60.0, 1.0, changes=moved))
    assert shown.count("<td>learner") == SHOWN and "learner0000" in shown and f"learner{SHOWN:04}" not in shown
    more = t("grade.class.changed_more", count=7, previous="grades.previous.csv", current="grades.csv")
    assert more in shown
    assert t("grade.class.changed_first") in page(ClassResult((), (), (), "v", 60.0, 1.0))


@needs_sandbox
def test_a_rerun_keeps_the_last_gradebook_and_says_whose_grade_changed(tmp_path):
    subs, report = tmp_path / "subs", tmp_path / "report"
    wrong("level1", "deny result that does not say why").write(subs, "ann")
    right("level1").write(subs, "bob")
    out = io.StringIO()
    assert grade_class_command(subs, report, stdout=out, stderr=io.StringIO()) == 0
    for name in ("index.html", "grades.csv", "feedback"):  # the last lines name what an instructor opens
        assert str(report / name) in out.getvalue()
    first = (report / "grades.csv").read_bytes()
    assert t("grade.class.changed_first") in (report / "index.html").read_text(encoding="utf-8")
    right("level1").write(subs, "ann")  # ann fixed her answer; cy handed in late
    right("level1").write(subs, "cy")
    out = io.StringIO()
    assert grade_class_command(subs, report, stdout=out, stderr=io.StringIO()) == 0
    assert (report / "grades.previous.csv").read_bytes() == first
    shown = (report / "index.html").read_text(encoding="utf-8")
    section = shown.split(t("grade.class.changed_title"), 1)[1].split("</table>", 1)[0]
    assert "<td>ann</td>" in section and "<td>cy</td>" in section and "<td>bob</td>" not in section, section
    # ann level1, and cy's two rows (level1 graded, level2 not handed in), which the last run had not
    assert t("grade.class.written.previous", path=report / "grades.previous.csv", count=3) in out.getvalue()
