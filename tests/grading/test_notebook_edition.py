"""A notebook whose metadata lost its edition is of the edition its setup cell says.

An English notebook passed through an editor or an LMS that dropped ``harness_lab.lang`` was taken
for Japanese: its learner's feedback came in Japanese although the setup cell, which every kernel
runs, says ``hl.use_language("en")``. The grader reads that call (never running the cell).
"""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import sys

import nbformat
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


def test_a_huge_setup_cell_costs_the_grading_command_no_parse(tmp_path):
    # The edition is read in grade-class's own process, outside any limit, four times per notebook:
    # a setup cell of 7 MB of "x=1" lines made ast.parse take 4.3 GB there (and 24 s each time).
    # It is read from a few small cells only; this one names no language the grader can trust.
    cell = {
        "cell_type": "code",
        "metadata": {"tags": ["setup"]},
        "source": "hl.use_language(LANG)\n" + "x=1\n" * (7 << 18),
    }
    path = tmp_path / "level1_tiered_policy.ipynb"
    path.write_text(json.dumps({"cells": [cell], "metadata": {}}), encoding="utf-8")
    code = (
        "import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30)); "
        "from harness_lab.grading.notebook_code import edition_or; "
        f"print(edition_or(open({str(path)!r}, 'rb').read(), ''))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert (done.returncode, done.stdout.strip()) == (0, "ja"), done.stderr[-500:]


@needs_sandbox
def test_a_cell_nested_past_the_parsers_limit_stops_no_class(tmp_path):
    # A cell grading never runs (untagged) read for its use_language call: Python 3.11's parser says
    # "too complex" with a MemoryError, at 4 KB of brackets and signs, and that ended grade-class with
    # a traceback before any classmate was graded. It names no edition; its notebook is Japanese.
    subs, report = tmp_path / "subs", tmp_path / "report"
    nested = solution("level1")
    del nested.metadata["harness_lab"]["lang"]
    for cell in nested.cells:  # the setup cell's call deleted: the cell below is the one read
        cell.source = cell.source.replace('hl.use_language("ja")', "")
    nested.cells.append(nbformat.v4.new_code_cell('hl.use_language("en")\nx = ' + "(" * 199 + "-" * 3700 + "1"))
    Handed("level1", nested).write(subs, "mal")
    _lost_its_edition(english_solution("level1")).write(subs, "carol")
    assert cli_main(["grade-class", str(subs), "--out", str(report), "--lang", "ja"], out=io.StringIO()) == 0
    with open(report / "grades.csv", encoding="utf-8-sig", newline="") as f:
        rows = {r["learner"]: (r["score"], r["edition"]) for r in csv.DictReader(f) if r["notebook"]}
    assert rows == {"carol": ("2", "en"), "mal": ("3", "ja")}, rows
