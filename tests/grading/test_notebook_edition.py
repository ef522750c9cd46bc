"""A notebook whose metadata lost its edition is of the edition its setup cell says.

An English notebook passed through an editor or an LMS that dropped ``harness_lab.lang`` was taken
for Japanese: its learner's feedback came in Japanese although the setup cell, which every kernel
runs, says ``hl.use_language("en")``. The grader reads that call (never running the cell).
"""

from __future__ import annotations

import csv
import io
import re

from class_submissions import (
    Handed,
    answer_cells,
    english_solution,
    instructor_config,  # noqa: F401  # the record's key in a folder of the tests' own
    needs_sandbox,
    solution,
)

from harness_lab.cli import main as cli_main

JAPANESE = re.compile("[\u3040-\u30ff\u3400-\u9fff]")


def _lost_its_edition(notebook):
    del notebook.metadata["harness_lab"]["lang"]
    answer = answer_cells(notebook)[-1]
    answer.source = answer.source.replace('"error_result"', '"drop"')  # a wrong answer: a hint to read
    return Handed("level1", notebook)


@needs_sandbox
def test_a_notebook_without_its_edition_in_metadata_is_told_in_its_setup_cells_language(tmp_path):
    subs, report = tmp_path / "subs", tmp_path / "report"
    _lost_its_edition(english_solution("level1")).write(subs, "carol")
    _lost_its_edition(solution("level1")).write(subs, "daiki")
    assert cli_main(["grade-class", str(subs), "--out", str(report), "--lang", "ja"], out=io.StringIO()) == 0
    carol = (report / "feedback" / "carol.txt").read_text(encoding="utf-8")
    assert "ANSWERS" in carol and not JAPANESE.search(carol), carol
    daiki = (report / "feedback" / "daiki.txt").read_text(encoding="utf-8")
    assert "ANSWERS" in daiki and JAPANESE.search(daiki), daiki
    with open(report / "grades.csv", encoding="utf-8-sig", newline="") as f:
        editions = {r["learner"]: r["edition"] for r in csv.DictReader(f) if r["notebook"]}
    assert editions == {"carol": "en", "daiki": "ja"}
