"""A notebook hard-linked into another learner's folder: one file handed in by two learners (grade-class).

A link is a regular file like any other in the folder, with the classmate's bytes: each learner got
the grade of the one notebook and nothing said so. Now the run's notes, on the page and on stderr,
name the files that are one file (the same ``st_dev`` and ``st_ino``); each is still graded, as who
made the link cannot be told.
"""

from __future__ import annotations

import html
import io
import os
from pathlib import Path

from class_submissions import (
    FILES,
    instructor_config,  # noqa: F401  # the record's key in a folder of the tests' own
    needs_sandbox,
    right,
)

from harness_lab.grading.class_command import grade_class_command
from harness_lab.text import speaking, t

pytestmark = needs_sandbox


def _grade(subs: Path, report: Path) -> str:
    stderr = io.StringIO()
    with speaking("en"):
        grade_class_command(subs, report, jobs=1, stdout=io.StringIO(), stderr=stderr)
    return stderr.getvalue()


def test_a_notebook_hard_linked_into_another_learners_folder_is_named_as_one_file(tmp_path):
    subs, report = tmp_path / "subs", tmp_path / "report"
    alice = right("level1").write(subs, "alice")
    (subs / "bob").mkdir()
    os.link(alice, subs / "bob" / FILES["level1"])
    right("level1").write(subs, "carol")  # the same bytes in a file of carol's own: not named
    told = _grade(subs, report)
    with speaking("en"):
        note = t("grade.class.same_file", files=f"alice/{FILES['level1']}, bob/{FILES['level1']}")
    # was nothing: alice's and bob's rows each said 3 of 3, and nothing told that they were one file
    assert note in told
    assert html.escape(note) in (report / "index.html").read_text(encoding="utf-8")
    assert "carol/" not in told
