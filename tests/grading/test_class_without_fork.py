"""Grading a class where there is no fork (Windows): each notebook is graded in the command's own
process, one at a time, from a private copy, and its row is the one a forked worker gives."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from class_submissions import FILES, instructor_config, right, wrong  # noqa: F401  # the record's key

from harness_lab.grading.classroom import STATE_FILE, grade_class

WRONG_LEVEL2 = "misses the explicit stop condition"


def _leftovers() -> set[str]:
    return {p.name for p in Path(tempfile.gettempdir()).glob("harness-lab-grade-*")}


def test_without_fork_each_notebook_is_graded_here_from_a_private_copy(tmp_path, monkeypatch):
    subs = tmp_path / "subs"
    right("level1").write(subs, "aoi")
    slipped = wrong("level2", WRONG_LEVEL2)
    slipped.write(subs, "ren")
    (subs / "sora").mkdir()
    (subs / "sora" / FILES["level1"]).write_bytes(b"{ not a notebook")
    handed = {p: p.read_bytes() for p in subs.rglob("*.ipynb")}
    before = _leftovers()
    monkeypatch.delattr(os, "fork")

    result = grade_class(subs, tmp_path / STATE_FILE, unsandboxed=True, timeout=60)

    rows = {(r.learner, r.notebook): r for r in result.rows if r.notebook}
    assert rows["aoi", FILES["level1"]].grade.passed
    assert rows["aoi", FILES["level1"]].grade.path == f"aoi/{FILES['level1']}"
    failed = rows["ren", FILES["level2"]].grade
    assert failed.status == "ok" and not failed.passed
    keys = {c.number: c.key for r in failed.reports for c in r.checks if not c.passed}
    assert keys == slipped.failed
    broken = rows["sora", FILES["level1"]].grade
    assert (broken.status, broken.key, broken.exercise) == ("error", "grade.nb.unreadable", "level1")
    # graded from a copy in a folder of its own, which is gone; the handed-in files are as they were
    assert {p: p.read_bytes() for p in subs.rglob("*") if p.is_file()} == handed
    assert _leftovers() == before
    # a rerun grades nothing again: each row was recorded under the digest of the bytes it graded
    again = grade_class(subs, tmp_path / STATE_FILE, unsandboxed=True, timeout=60)
    assert again.graded == 0 and {(r.learner, r.notebook) for r in again.rows if r.notebook} == set(rows)
