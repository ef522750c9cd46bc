"""Run a lesson notebook as a learner would: some "write it yourself" cells filled in, in a folder of
their own (where ``my_harness.py`` is kept), from a working directory that is not notebooks/.

A TODO cell carries the tags ``todo`` and ``piece:<name>``; ``fill`` maps a piece's name to the code
the learner typed there. ``guess`` is what the learner writes into every blank of every prediction
(``MY_GUESS = {...: None}``), so the compare cells show the numbers.
"""

from __future__ import annotations

import os
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from dev import NOT_FOR_TESTS

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"


def piece_of(cell) -> str | None:
    for tag in cell.get("metadata", {}).get("tags", []):
        if tag.startswith("piece:"):
            return tag.removeprefix("piece:")
    return None


def todo_cells(nb) -> dict[str, int]:
    """piece name -> index of its TODO cell."""
    return {
        piece: i
        for i, cell in enumerate(nb.cells)
        if "todo" in cell.get("metadata", {}).get("tags", []) and (piece := piece_of(cell))
    }


def stored(name: str):
    """notebooks/<name>.ipynb as shipped, with its stored outputs. Strict nbval (dev.py's notebook suite)
    re-executes every shipped lesson and fails on any output that differs from the stored one, so a
    claim read here holds of a fresh run without this suite executing the notebook once more."""
    return nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)


def run_notebook(
    name: str,
    workdir: Path,
    fill: dict[str, str] | None = None,
    timeout: int = 120,
    guess: object = None,
    edits: dict[str, str] | None = None,
):
    """Execute notebooks/<name>.ipynb with the TODO cells in ``fill`` replaced; the executed notebook.

    ``edits`` maps a piece of code-cell text to what the learner turned it into (before ``guess``)."""
    nb = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    cells = todo_cells(nb)
    for piece, source in (fill or {}).items():
        nb.cells[cells[piece]].source = source
    for old, new in (edits or {}).items():
        edited = [cell for cell in nb.cells if cell.cell_type == "code" and old in cell.source]
        assert edited, f"no code cell holds {old!r}"
        for cell in edited:
            cell.source = cell.source.replace(old, new)
    for cell in nb.cells:
        if guess is not None and cell.cell_type == "code" and "MY_GUESS = " in cell.source:
            cell.source = cell.source.replace(": None", f": {guess!r}")
    for cell in nb.cells:
        cell.outputs = [] if cell.cell_type == "code" else cell.get("outputs")
    env = {k: v for k, v in os.environ.items() if k not in NOT_FOR_TESTS}
    env["HARNESS_LAB_WORKBOOK"] = str(workdir / "my_harness.py")
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)  # nbclient starts the kernel with this process's environment
    try:
        NotebookClient(
            nb,
            timeout=timeout,
            kernel_name="python3",
            allow_errors=False,
            resources={"metadata": {"path": str(workdir)}},
        ).execute()
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return nb


def output_text(cell) -> str:
    parts = []
    for out in cell.get("outputs", []):
        parts.append(str(out.get("text", "")))
        data = out.get("data", {})
        if "text/plain" in data:
            parts.append("".join(data["text/plain"]))
    return "".join(parts)


def check_output(nb, piece: str) -> str:
    """What the check cell right after ``piece``'s TODO cell printed."""
    return output_text(nb.cells[todo_cells(nb)[piece] + 1])


def cell_errors(sources: list[str], *, env: dict[str, str] | None = None, timeout: int = 300) -> list:
    """Each cell's error output (None for a cell that raised nothing), run in order in one fresh kernel
    started with this process's environment less the tests' own settings and a chosen language, plus ``env``."""
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])
    kernel_env = {k: v for k, v in os.environ.items() if k not in NOT_FOR_TESTS}
    kernel_env.pop("HARNESS_LAB_LANG", None)
    kernel_env.pop("PYTHONSTARTUP", None)
    kernel_env.update(env or {})
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(kernel_env)  # nbclient starts the kernel with this process's environment
    try:
        NotebookClient(notebook, timeout=timeout, kernel_name="python3", allow_errors=True).execute()
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return [next((o for o in cell.outputs if o.output_type == "error"), None) for cell in notebook.cells]
