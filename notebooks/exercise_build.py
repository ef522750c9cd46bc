"""An exercise source becomes two notebooks: the learner's starter and the executed solution.

An exercise's source (``exercises/src/NAME.py``, its notebook metadata naming the exercise) holds
each TODO cell twice, side by side: the starter's version, tagged ``starter``, then the solved one,
tagged ``solution``; both carry ``answer``. The starter (``exercises/NAME.ipynb``) keeps the first,
the solution (``exercises/solutions/NAME.ipynb``) the second; neither keeps those two tags.

The tags the grading command reads (``python -m harness_lab.grading``, see
``harness_lab/grading/notebook.py``) are the source's own: ``setup`` on the cells the answers need,
``answer`` on the TODO cells, ``grade`` on the grade cell; the metadata names the exercise.

The solution is executed and must pass. The starter is executed without its grade cell (every
other cell must run cleanly) and ships with that cell, its try-it cells (``try``) and the cells
printing the graders' choices (``options``) unrun and empty: what the unedited TODO code or the
grader prints would read, to a learner opening the file, as an answer of their own.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path

import nbformat

from notebooks.editions import EditionError, shown

STARTER, SOLUTION = "starter", "solution"
GRADE_TAG = "grade"
UNRUN = {GRADE_TAG, "try", "options"}  # left unrun and empty in a starter

Execute = Callable[[nbformat.NotebookNode, Path], nbformat.NotebookNode]


def tags(cell: nbformat.NotebookNode) -> list[str]:
    return list(cell.metadata.get("tags", []))


def check_variants(nb: nbformat.NotebookNode, source: Path) -> None:
    """Each ``starter`` cell is an answer cell followed by its ``solution`` cell, with the same other tags."""
    for number, cell in enumerate(nb.cells, start=1):
        where = f"{shown(source)} cell {number}"
        if {STARTER, SOLUTION} & set(tags(cell)) and "answer" not in tags(cell):
            raise EditionError(f"{where}: a starter or solution cell must be tagged answer too")
        following = nb.cells[number] if number < len(nb.cells) else None
        if STARTER in tags(cell) and (
            following is None or SOLUTION not in tags(following) or _base(following) != _base(cell)
        ):
            raise EditionError(f"{where}: a starter cell must be followed by its solution cell, with the same tags")
        if SOLUTION in tags(cell) and (number == 1 or STARTER not in tags(nb.cells[number - 2])):
            raise EditionError(f"{where}: a solution cell must follow its starter cell")


def _base(cell: nbformat.NotebookNode) -> list[str]:
    return sorted(set(tags(cell)) - {STARTER, SOLUTION})


def variant(nb: nbformat.NotebookNode, keep: str) -> nbformat.NotebookNode:
    """The starter (``keep="starter"``) or the solution: the other's cells out, both tags dropped, and
    cell ids numbered the same in both (``l1-01``...)."""
    drop = SOLUTION if keep == STARTER else STARTER
    out = copy.deepcopy(nb)
    out.cells = [c for c in out.cells if drop not in tags(c)]
    prefix = "l" + str(nb.metadata["harness_lab"]["exercise"]).removeprefix("level")
    for number, cell in enumerate(out.cells, start=1):
        cell.id = f"{prefix}-{number:02d}"
        if keep in tags(cell):
            cell.metadata["tags"] = [t for t in tags(cell) if t != keep]
    return out


def targets(source: Path) -> tuple[Path, Path]:
    """(starter, solution) of ``exercises/src/[en/]NAME.py``."""
    english = source.parent.name == "en"
    exercises = source.parent.parent.parent if english else source.parent.parent
    edition = Path("en") if english else Path()
    name = f"{source.stem}.ipynb"
    return exercises / edition / name, exercises / "solutions" / edition / name


def grade_output(nb: nbformat.NotebookNode) -> str:
    [graded] = [c for c in nb.cells if GRADE_TAG in tags(c)]
    # The report is a display (text and the HTML that wraps it), a failed grade's one line a stream.
    return "".join(o.get("text", "") or o.get("data", {}).get("text/plain", "") for o in graded.outputs)


def build_exercise(source: Path, nb: nbformat.NotebookNode, passed: str, execute: Execute) -> None:
    """Write the starter and the solution; refuse (EditionError) when the solution does not print ``passed``
    or a starter cell other than the grade cell raises."""
    check_variants(nb, source)
    starter_path, solution_path = targets(source)
    solution_path.parent.mkdir(parents=True, exist_ok=True)
    starter_path.parent.mkdir(parents=True, exist_ok=True)
    solution = execute(variant(nb, SOLUTION), solution_path.parent)
    if passed not in grade_output(solution):
        raise EditionError(f"{shown(source)}: the solution does not pass: {grade_output(solution)!r}")
    starter = variant(nb, STARTER)
    runnable = copy.deepcopy(starter)
    runnable.cells = [c for c in runnable.cells if GRADE_TAG not in tags(c)]
    ran = execute(runnable, starter_path.parent)
    raised = [c.id for c in ran.cells for o in c.get("outputs", []) if o.output_type == "error"]
    if raised:
        raise EditionError(f"{shown(source)}: starter cells raised: {', '.join(raised)}")
    unrun = {c.id for c in starter.cells if UNRUN & set(tags(c))}
    by_id = {c.id: c for c in ran.cells if c.id not in unrun}
    starter.cells = [by_id.get(c.id, c) for c in starter.cells]
    for cell in starter.cells:
        if cell.id in unrun:
            cell.outputs, cell.execution_count = [], None
    starter.metadata = solution.metadata
    nbformat.validate(starter)
    nbformat.write(solution, solution_path)
    nbformat.write(starter, starter_path)
    print(f"built {shown(starter_path)} and {shown(solution_path)}")
