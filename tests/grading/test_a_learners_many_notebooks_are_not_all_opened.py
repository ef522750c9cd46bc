"""A learner folder of many notebooks costs the grading command no more than a few (round fifteen).

``grade-class`` reads each notebook a learner hands in (8 MB at most) several times in its own process,
outside any limit: to tell which exercise it claims, its edition, its hash, and to send it to a grading
host. Hard links cost a learner no disk, so one 8 MB notebook linked 200 times in their folder held
1.8 GB of the command's memory and took minutes before a classmate was graded. Now at most
``NOTEBOOKS_READ`` of a folder's notebooks are opened, those named after an exercise first; the rest
are files not graded, named as such.
"""

from __future__ import annotations

import csv
import io
import json
import os

from class_submissions import FILES

from harness_lab.grading.class_command import grade_class_command
from harness_lab.grading.classroom import NOTEBOOKS_READ
from harness_lab.grading.notebook_file import MAX_NOTEBOOK_BYTES
from harness_lab.text import speaking, t

LINKS = 3 * NOTEBOOKS_READ


def test_only_a_few_of_a_folders_hard_linked_notebooks_are_opened_each_exercises_first(tmp_path):
    subs, report = tmp_path / "subs", tmp_path / "report"
    folder = subs / "mal"
    folder.mkdir(parents=True)
    (folder / "a000.ipynb").write_text(json.dumps({"cells": [], "metadata": {}}), encoding="utf-8")
    for i in range(1, LINKS):
        os.link(folder / "a000.ipynb", folder / f"a{i:03d}.ipynb")
    # Named after an exercise: opened before the others (refused by their size, so no learner code runs).
    # level1's copies are many and their names shorter than level2's one file: they crowd none of it out.
    with open(folder / FILES["level1"], "wb") as huge:
        huge.truncate(MAX_NOTEBOOK_BYTES + (1 << 20))
    for i in range(1, 2 * NOTEBOOKS_READ + 1):
        os.link(folder / FILES["level1"], folder / FILES["level1"].replace(".ipynb", f" ({i}).ipynb"))
    os.link(folder / FILES["level1"], folder / FILES["level2"].replace(".ipynb", " (100).ipynb"))
    with speaking("en"):
        code = grade_class_command(subs, report, unsandboxed=True, stdout=io.StringIO(), stderr=io.StringIO())
    unopened = []  # the feedback speaks the learner's edition, and these notebooks name none
    for language in ("ja", "en"):
        with speaking(language):
            unopened.append(t("grade.class.too_many_notebooks", name="{name}", limit=str(NOTEBOOKS_READ)))
    assert code == 0
    table = (report / "grades.csv").read_text(encoding="utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(table, newline="")))
    for exercise in ("level1", "level2"):
        assert [r["hint_keys"] for r in rows if r["exercise"] == exercise] == ["grade.class.too_large"], rows
    feedback = (report / "feedback" / "mal.txt").read_text(encoding="utf-8")
    said = [line for line in feedback.splitlines() if line.endswith(tuple(u.split("{name}")[1] for u in unopened))]
    assert len(said) == (LINKS - NOTEBOOKS_READ) + (2 * NOTEBOOKS_READ + 1 - NOTEBOOKS_READ), feedback
    assert not any(line.startswith((FILES["level1"] + " ", "level2")) for line in said), said
    graded = [r for r in rows if r["notebook"]]
    assert len(graded) == NOTEBOOKS_READ + 2, graded
