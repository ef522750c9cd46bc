"""An exercise's grade cell after an answer cell raised, in a real kernel: it says which cell raised and
fails, instead of grading the answer that cell left behind (a SyntaxError runs nothing, so the name still
holds the earlier, perhaps passing, answer, and the grade cell said "all passed" while
``harness-lab grade`` failed the same file)."""

from __future__ import annotations

import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from dev import NOT_FOR_TESTS
from harness_lab.grading import catalog  # noqa: F401  (the graders' strings)
from harness_lab.text import CATALOG
from tests.lessons.notebook_runner import output_text

SOLUTIONS = Path(__file__).resolve().parents[2] / "exercises" / "solutions"
BROKEN = {  # an answer cell as a learner breaks it, a closing bracket or a colon lost
    "level1_tiered_policy.ipynb": ("POLICY", 'POLICY = {"read_file": "allow"\n'),
    "level2_missing_gate.ipynb": ("MISSING", 'MISSING = {"explicit_stop": ["unbounded_turns"]\n'),
}


def _run(notebook: nbformat.NotebookNode, folder: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in NOT_FOR_TESTS}
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)  # nbclient starts the kernel with this process's environment
    try:
        client = NotebookClient(notebook, timeout=120, kernel_name="python3", allow_errors=True)
        client.execute(cwd=str(folder))
    finally:
        os.environ.clear()
        os.environ.update(saved)


def _text(cell: nbformat.NotebookNode) -> str:
    return output_text(cell) + "".join(o.get("evalue", "") for o in cell.outputs if o.output_type == "error")


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_a_grade_cell_after_an_answer_cell_raised_names_that_cell_and_fails(tmp_path, name):
    notebook = nbformat.read(SOLUTIONS / name, as_version=4)
    grade = next(c for c in notebook.cells if "grade" in c.metadata.get("tags", []))
    variable, broken = BROKEN[name]
    # the whole right notebook, then the answer cell broken, then the grade cell again
    notebook.cells += [nbformat.v4.new_code_cell(broken), nbformat.v4.new_code_cell(grade.source)]
    _run(notebook, tmp_path)
    first, after = _text(notebook.cells[notebook.cells.index(grade)]), _text(notebook.cells[-1])
    passed = CATALOG["grade.all_passed"][0].split("{")[0]
    assert passed in first, first  # the right answers passed
    said = CATALOG["grade.cell_failed"][0].format(name=variable, error="SyntaxError")
    assert said in after and passed not in after, after
