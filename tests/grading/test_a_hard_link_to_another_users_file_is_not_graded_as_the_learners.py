"""A learner's notebook that is a hard link to a file of someone else's: the instructor's solution, say.

Where the kernel lets a user hard-link a file they cannot read (``fs.protected_hardlinks`` 0; 1 here, so
root makes the link the learner could make there), ``level1_tiered_policy.ipynb`` in a learner's folder
may be the solution itself: a regular file of the instructor's, no link to follow. Both grading commands
read it with the instructor's rights and graded it 3/3 as the learner's. A file with more than one name
whose owner is not the owner of its folder is now refused: a usage line from ``harness-lab grade`` (exit
2), a row of its own from ``grade-class``. The caller's own hard links, and a learner's of their own
file, are graded as before. Refused too, whatever its link count: a file of the caller's or root's in
another user's folder (round twenty-two: the link left once the instructor removed the original), and a
classmate's file in a learner's folder (round twenty-three).
"""

from __future__ import annotations

import csv
import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from class_submissions import (
    FILES,
    instructor_config,  # noqa: F401  # the record's key in a folder of the tests' own
    needs_sandbox,
    right,
)

import harness_lab.grading.catalog  # noqa: F401 (the usage lines join the catalog)
from harness_lab.grading.class_command import grade_class_command
from harness_lab.grading.command import not_a_notebook
from harness_lab.text import CATALOG, speaking

ROOT = Path(__file__).resolve().parents[2]
SOLUTION = ROOT / "exercises" / "solutions" / FILES["level1"]
NOBODY = 65534

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="owners and link counts, as Linux has them"),
    pytest.mark.skipif(os.geteuid() != 0, reason="a learner's folder is made another user's (nobody), by root"),
]


@pytest.fixture
def solution(open_folder):
    """The instructor's copy of the solution, in a folder only the instructor may enter."""
    kept = open_folder / "instructor" / SOLUTION.name
    kept.parent.mkdir(mode=0o700)
    shutil.copy(SOLUTION, kept)
    return kept


def _learners_folder(subs: Path, name: str) -> Path:
    folder = subs / name
    folder.mkdir(parents=True)
    os.chown(folder, NOBODY, NOBODY)
    return folder


def _grade(path: Path) -> subprocess.CompletedProcess:
    command = [sys.executable, "-P", "-m", "harness_lab.grading", "--lang", "en", str(path)]
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(path.parent)}
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)


def test_grade_refuses_a_learners_hard_link_to_the_solution(solution, open_folder):
    handed = _learners_folder(open_folder, "dan") / SOLUTION.name
    os.link(solution, handed)
    done = _grade(handed)
    # was exit 0 and "[PASS] All 3 criteria are met": the instructor's solution, graded as dan's
    assert done.returncode == 2, done
    assert "criteria" not in done.stdout
    assert CATALOG["grade.nb.usage.others_file"][1].format(path=handed, owner="root") in done.stderr


@needs_sandbox
def test_grade_class_gives_the_hard_link_a_row_of_its_own_and_classmates_their_grades(solution, open_folder):
    subs, report = open_folder / "subs", open_folder / "report"
    os.link(solution, _learners_folder(subs, "dan") / SOLUTION.name)
    erin = right("level1").write(subs, "erin")  # a learner's hard link to her own file is hers
    os.chown(erin, NOBODY, NOBODY)
    os.chown(erin.parent, NOBODY, NOBODY)
    os.link(erin, erin.parent / "copy.ipynb")
    with speaking("en"):
        grade_class_command(subs, report, jobs=1, stdout=io.StringIO(), stderr=io.StringIO())
    rows = {
        r["learner"]: r
        for r in csv.DictReader((report / "grades.csv").open(encoding="utf-8-sig"))
        if r["exercise"] == "level1"
    }
    # was dan 3/3, status ok: the solution read with the instructor's rights
    assert (rows["dan"]["status"], rows["dan"]["hint_keys"], rows["dan"]["score"]) == (
        "error",
        "grade.nb.others_file",
        "0",
    )
    assert "root" in rows["dan"]["message"]
    assert (rows["erin"]["status"], rows["erin"]["score"]) == ("ok", "3")


def test_the_callers_own_hard_links_are_still_graded(solution):
    mine = solution.parent / "also.ipynb"
    os.link(solution, mine)
    with speaking("en"):
        assert not_a_notebook(str(mine)) is None
        assert not_a_notebook(str(solution)) is None


def test_a_hard_link_whose_original_the_instructor_removed_is_still_refused(solution, open_folder):
    # Round twenty-one's leftover: with the original gone the link count is back to 1, so the file was
    # taken for dan's own, read with the instructor's rights and graded "[PASS] All 3 criteria are met".
    subs, report = open_folder / "subs", open_folder / "report"
    handed = _learners_folder(subs, "dan") / SOLUTION.name
    os.link(solution, handed)
    solution.unlink()
    assert handed.stat().st_nlink == 1
    done = _grade(handed)
    assert done.returncode == 2, done
    assert "criteria" not in done.stdout
    assert CATALOG["grade.nb.usage.others_file"][1].format(path=handed, owner="root") in done.stderr
    with speaking("en"):
        grade_class_command(subs, report, jobs=1, stdout=io.StringIO(), stderr=io.StringIO())
    rows = [r for r in csv.DictReader((report / "grades.csv").open(encoding="utf-8-sig")) if r["exercise"] == "level1"]
    assert [(r["learner"], r["status"], r["hint_keys"], r["score"]) for r in rows] == [
        ("dan", "error", "grade.nb.others_file", "0")
    ]


def test_a_learners_own_file_in_a_folder_of_the_graders_or_roots_is_still_theirs(open_folder):
    # A folder made for each learner by root or the instructor, written through a group: the learner's file
    # there has one name and its owner is not the folder's, which is how such a class hands in.
    handed = right("level1").write(open_folder / "subs", "erin")
    os.chown(handed, NOBODY, NOBODY)
    assert handed.parent.stat().st_uid == os.geteuid() == 0
    with speaking("en"):
        assert not_a_notebook(str(handed)) is None


CLASSMATE = 65533  # a uid of no user here: a classmate's, as the file's owner shows it


@needs_sandbox
def test_a_classmates_file_with_one_name_in_a_learners_folder_is_refused(open_folder):
    # Round twenty-two's leftover: where fs.protected_hardlinks is 0, dan hard-links ann's saved notebook into
    # his folder; once Jupyter saves ann's notebook anew (a new file), the link is his file's only name, still
    # ann's. Both commands graded it as dan's: 3/3 for an answer he never wrote.
    subs, report = open_folder / "subs", open_folder / "report"
    ann = right("level1").write(subs, "ann")
    os.chown(ann.parent, CLASSMATE, CLASSMATE)
    os.chown(ann, CLASSMATE, CLASSMATE)
    handed = _learners_folder(subs, "dan") / SOLUTION.name
    os.link(ann, handed)
    ann.unlink()
    shutil.copy(handed, ann)  # ann's own copy, saved anew
    os.chown(ann, CLASSMATE, CLASSMATE)
    assert (handed.stat().st_nlink, handed.stat().st_uid) == (1, CLASSMATE)
    with speaking("en"):
        assert not_a_notebook(str(handed)) == CATALOG["grade.nb.usage.others_file"][1].format(
            path=handed, owner=CLASSMATE
        )
        grade_class_command(subs, report, jobs=1, stdout=io.StringIO(), stderr=io.StringIO())
    rows = [r for r in csv.DictReader((report / "grades.csv").open(encoding="utf-8-sig")) if r["exercise"] == "level1"]
    assert [(r["learner"], r["status"], r["hint_keys"], r["score"]) for r in rows] == [
        ("ann", "ok", "", "3"),
        ("dan", "error", "grade.nb.others_file", "0"),
    ]
