"""A notebook reopened the next day: the kernel restarted, the learner runs the setup cells at the top and
then one cell further down, skipping the cells above it. That cell either runs or says in one line which
cell to run (a demo's ``s``, ``client``, ``history``; a helper the notebook defines), never a NameError's
traceback. A NameError of the learner's own (a typo in a function they wrote) keeps its traceback."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from dev import NOT_FOR_TESTS, lab_environment
from harness_lab.text import CATALOG
from tests.lessons.notebook_runner import cell_errors

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted(
    p.relative_to(ROOT).as_posix()
    for p in [*ROOT.glob("notebooks/0*.ipynb"), *ROOT.glob("notebooks/en/0*.ipynb"), *ROOT.glob("exercises/*.ipynb")]
    + [*ROOT.glob("exercises/en/*.ipynb")]
)
# After the setup cells: what they bound is kept; after each cell, all it bound is forgotten again, as a
# restart would (the modules it imported stay loaded, which a cell never sees).
KEEP = "_KEPT = set(globals())"
FORGET = 'for _name in [n for n in globals() if n not in _KEPT and not n.startswith("_")]:\n    del globals()[_name]'


def _setup(cells: list[nbformat.NotebookNode]) -> int:
    """How many code cells at the top set the notebook up: the tagged ones, or up to the one choosing the language."""
    tagged = [i for i, c in enumerate(cells) if "setup" in c.metadata.get("tags", [])]
    if tagged:
        return max(tagged) + 1
    return next(i for i, c in enumerate(cells) if "use_language(" in c.source) + 1


def _run(sources: list[str], *, lab: bool = False) -> list[nbformat.NotebookNode | None]:
    """``lab``: the kernel started as ``python3 dev.py lab`` starts its kernels."""
    return cell_errors(sources, env=lab_environment({}) if lab else None)


@pytest.mark.parametrize("path", NOTEBOOKS)
def test_a_cell_run_after_only_the_setup_cells_runs_or_names_the_cell_to_run(path):
    cells = [c for c in nbformat.read(ROOT / path, as_version=4).cells if c.cell_type == "code"]
    first = _setup(cells)
    later = [c.source for c in cells[first:]]
    errors = _run([*(c.source for c in cells[:first]), KEEP, *(s for source in later for s in (source, FORGET))])
    assert errors[: first + 1] == [None] * (first + 1), errors[: first + 1]
    column = 1 if "/en/" in path else 0
    walls = [
        (source.splitlines()[0], error.ename, error.evalue, error.traceback[-1][-300:])
        for source, error in zip(later, errors[first + 1 :: 2], strict=True)
        if error is not None and error.traceback != _hint(error, column)
    ]
    assert walls == [], walls
    assert all(e is None for e in errors[first + 2 :: 2])  # each forgetting ran


def _hint(error: nbformat.NotebookNode, column: int) -> list[str]:
    """The one line a NameError for a name some cell defines is shown as (the catalog says which cell)."""
    name = re.fullmatch(r"name '(\w+)' is not defined", error.evalue)
    if error.ename != "NameError" or name is None:
        return []
    lines = [
        CATALOG[key][column].format(name=name[1])
        for key in ("cell.unrun_written", "cell.unrun_setup", "cell.unrun_above")
    ]
    return next(([line] for line in lines if error.traceback == [line]), [])


def test_a_helper_the_notebook_defines_names_the_cell_to_run_and_a_function_of_the_learners_own_keeps_its_traceback():
    cells = {
        "setup": 'import harness_lab as hl\nfrom harness_lab import lessons\nhl.use_language("en")',
        "helper": "def try_send(history):\n    return client.messages.create(messages=history)",
        "helper called": "try_send([])",  # lesson 01's helper, its client cell not run
        "lambda": "CASES = {'spinning': lambda: [read_file]}\nCASES['spinning']()",
        "comprehension": "[b.type for b in response.content]",
        "own": "def ask_twice():\n    return client\n\nask_twice()",  # the learner's own function
        "nobody": "clientt",
    }
    errors = dict(zip(cells, _run(list(cells.values())), strict=True))
    line = CATALOG["cell.unrun_above"][1].format
    written = CATALOG["cell.unrun_written"][1].format
    assert errors["helper called"].traceback == [line(name="client")], errors["helper called"]
    assert errors["lambda"].traceback == [written(name="read_file")], errors["lambda"]
    assert errors["comprehension"].traceback == [line(name="response")], errors["comprehension"]
    for name in ("own", "nobody"):
        assert errors[name].ename == "NameError" and len(errors[name].traceback) > 1, errors[name]
    assert "ask_twice" in "".join(errors["own"].traceback)
    assert errors["setup"] is errors["helper"] is None


def test_a_kernel_of_the_course_lab_names_the_cell_to_run_even_before_the_setup_cells():
    # The next day: the kernel restarted and the learner runs lesson 01's `s.step()` alone. Nothing chose
    # the notebook's language yet, so the line is said in each; the startup leaves no name behind.
    errors = _run(["s.step()", "clientt", 'assert {"harness_lab", "cell_runs"}.isdisjoint(dir()), dir()'], lab=True)
    both = "\n".join(CATALOG["cell.unrun_above"][column].format(name="s") for column in (0, 1))
    assert errors[0] is not None and errors[0].traceback == [both], errors[0]
    assert errors[1].ename == "NameError" and len(errors[1].traceback) > 1, errors[1]
    assert errors[2] is None, errors[2]


def test_a_plain_python_in_the_course_labs_terminal_starts_without_a_traceback():
    # The lab's terminals inherit its environment, so a learner's `python` there reads the startup file too.
    env = lab_environment({k: v for k, v in os.environ.items() if k not in NOT_FOR_TESTS})
    done = subprocess.run([sys.executable, "-i"], input="print(6 * 7)\n", env=env, capture_output=True, text=True)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.stdout.strip().startswith("42"), done.stdout
