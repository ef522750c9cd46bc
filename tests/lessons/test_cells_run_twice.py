"""A learner runs a demo cell again (to see it once more, or after changing a line): neither that run nor
any cell after it raises what a straight run from the top (the notebook's stored outputs) does not. A cell that appended to the lesson's history twice sent a second
tool_result for one call (lesson 01), and a folder made twice raised FileExistsError (lesson 03)."""

from __future__ import annotations

import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from dev import NOT_FOR_TESTS

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted(
    p.relative_to(ROOT).as_posix()
    for p in [*ROOT.glob("notebooks/0*.ipynb"), *ROOT.glob("notebooks/en/0*.ipynb")]
    + [*ROOT.glob("exercises/*.ipynb"), *ROOT.glob("exercises/en/*.ipynb")]
)


def _error(cell: nbformat.NotebookNode) -> str | None:
    found = next((o for o in cell.outputs if o.output_type == "error"), None)
    return None if found is None else f"{found.ename}: {found.evalue}"[:300]


def _each_cell_twice(path: str, workdir: Path) -> list[tuple[str, str | None, str | None, str | None]]:
    """Each code cell's first line, its stored error (``ename: evalue``; a cell stored unrun, an exercise's
    TODO, may raise anything) and the errors of its first and its second run, the notebook run top to bottom
    with every code cell run twice in a row, in one fresh kernel."""
    cells = [c for c in nbformat.read(ROOT / path, as_version=4).cells if c.cell_type == "code"]
    twice = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c.source) for c in cells for _ in (1, 2)])
    env = {k: v for k, v in os.environ.items() if k not in NOT_FOR_TESTS}
    env.pop("HARNESS_LAB_LANG", None)
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)  # nbclient starts the kernel with this process's environment
    try:
        where = {"metadata": {"path": str(workdir)}}
        NotebookClient(twice, timeout=300, kernel_name="python3", allow_errors=True, resources=where).execute()
    finally:
        os.environ.clear()
        os.environ.update(saved)
    runs = twice.cells
    return [
        (
            c.source.splitlines()[0],
            _error(c) if c.execution_count else "stored unrun",
            _error(runs[2 * i]),
            _error(runs[2 * i + 1]),
        )
        for i, c in enumerate(cells)
    ]


@pytest.mark.parametrize("path", NOTEBOOKS)
def test_cells_run_twice_raise_nothing_a_straight_run_does_not(path, tmp_path):
    runs = _each_cell_twice(path, tmp_path)
    walls = [(line, first, second) for line, stored, first, second in runs if stored is None and (first or second)]
    assert walls == [], walls
