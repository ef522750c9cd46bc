"""A class's hand-ins, built from the course's own notebooks and answer batteries (issue 17).

Each builder returns an exercise notebook as a learner would hand it in, with the verdict grading
must reach: a reference solution; a starter whose answer cells hold one of the batteries' wrong
answers (``answers_level1.WRONG``, ``answers_level2.WRONG``, with the criteria and hint keys they
must get); a solution that hangs, exits, or kills its own process or the process grading it; and
tampered copies that try to pass without solving (the grade cell rewritten, a solved output
pasted in, ``check_levelN`` redefined in an answer cell).

A wrong answer goes in as the battery module's whole source (so its helpers come along) followed
by the line that picks the answer, in the first answer cell; the other answer cells are emptied.
``tests/grading/test_classroom.py`` and ``benchmarks/grade_class.py`` both build classes from these.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path

import answers_level1
import answers_level2
import nbformat
import pytest

import harness_lab.grading  # noqa: F401  # adds the graders' strings to the catalog
from harness_lab.grading.isolation import find_bwrap
from harness_lab.text import CATALOG

ROOT = Path(__file__).resolve().parents[2]
EXERCISES = ROOT / "exercises"
FILES = {"level1": "level1_tiered_policy.ipynb", "level2": "level2_missing_gate.ipynb"}
BATTERIES = {"level1": answers_level1, "level2": answers_level2}
NAMES = {"level1": "POLICY, DEFAULT_TIER, run_tool_uses, ANSWERS", "level2": "MISSING, run_agent, MAX_TURNS"}
ALL_PASSED = CATALOG["grade.all_passed"][0].format(total=3)
# grade-class refuses to run learner code without bubblewrap's sandbox: so do the tests that use it
needs_sandbox = pytest.mark.skipif(
    find_bwrap() is None, reason="bubblewrap is missing (apt-get install bubblewrap; .ci/run does)"
)

# Answer-cell code that ends the notebook's grading process in each way a learner's code can.
HANG = "while True:\n    pass\n"
EXIT = "import os\nos._exit(1)\n"
KILL_SELF = "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n"
# Every process above the answer cells, from the top down: the grading command, its workers and
# the processes grading this notebook. In the sandbox the cells see only their own notebook's
# processes and the host, which takes no signal from inside: the notebook crashes, nothing else.
KILL_GRADER = (
    "import os, signal\n"
    "def _parent_of(pid):\n"
    "    with open(f'/proc/{pid}/stat') as f:\n"
    "        return int(f.read().rsplit(')', 1)[1].split()[1])\n"
    "above, pid = [], _parent_of(os.getpid())\n"
    "while pid > 1:\n"
    "    above.append(pid)\n"
    "    pid = _parent_of(pid)\n"
    "for pid in reversed(above + [1]):\n"
    "    try:\n"
    "        os.kill(pid, signal.SIGKILL)\n"
    "    except OSError:\n"
    "        pass\n"
)


@dataclass
class Handed:
    """A notebook to hand in, and the row grading must give it."""

    exercise: str
    notebook: nbformat.NotebookNode
    status: str = "ok"
    failed: dict[int, str] = field(default_factory=dict)  # criterion -> hint key (status "ok")
    key: str = ""  # the notebook's one key when status is not "ok"

    def hint_keys(self) -> str:
        return " ".join(self.failed[n] for n in sorted(self.failed)) if self.status == "ok" else self.key

    def write(self, submissions: Path, learner: str, name: str | None = None) -> Path:
        folder = submissions / learner
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / (name or FILES[self.exercise])
        nbformat.write(self.notebook, path)
        return path


def read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(path, as_version=4)


def solution(exercise: str) -> nbformat.NotebookNode:
    return read(EXERCISES / "solutions" / FILES[exercise])


def starter(exercise: str) -> nbformat.NotebookNode:
    return read(EXERCISES / FILES[exercise])


def answer_cells(nb: nbformat.NotebookNode) -> list:
    return [c for c in nb.cells if c.cell_type == "code" and "answer" in c.metadata.get("tags", [])]


def grade_cell(nb: nbformat.NotebookNode):
    return next(c for c in nb.cells if "grade" in c.metadata.get("tags", []))


def right(exercise: str) -> Handed:
    return Handed(exercise, solution(exercise))


def wrong(exercise: str, name: str) -> Handed:
    """The starter with the battery's wrong answer ``name`` in its answer cells."""
    battery = BATTERIES[exercise]
    _, expected = battery.WRONG[name]
    nb = starter(exercise)
    cells = answer_cells(nb)
    source = Path(battery.__file__).read_text(encoding="utf-8")
    cells[0].source = f"{source}\n{NAMES[exercise]} = WRONG[{name!r}][0]\n"
    for cell in cells[1:]:
        cell.source = ""
    return Handed(exercise, nb, failed=dict(expected))


def breaking(exercise: str, code: str, status: str, key: str) -> Handed:
    """The solution with ``code`` added to its first answer cell."""
    nb = solution(exercise)
    answer_cells(nb)[0].source += "\n" + code
    return Handed(exercise, nb, status=status, key=key)


def hanging(exercise: str, key: str = "grade.nb.timeout") -> Handed:
    """An answer cell that never ends: the notebook's limit stops it ("grade.nb.timeout") when that is
    shorter than the cells' own limit, else the cells' limit does ("grade.nb.cell_timeout")."""
    return breaking(exercise, HANG, "timeout", key)


def exiting(exercise: str) -> Handed:
    return breaking(exercise, EXIT, "error", "grade.nb.crashed")


def killing_itself(exercise: str) -> Handed:
    return breaking(exercise, KILL_SELF, "error", "grade.nb.crashed")


def killing_the_grader(exercise: str) -> Handed:
    return breaking(exercise, KILL_GRADER, "error", "grade.nb.crashed")


def grade_cell_rewritten(exercise: str, name: str) -> Handed:
    handed = wrong(exercise, name)
    grade_cell(handed.notebook).source = f'print("""{ALL_PASSED}""")'
    return handed


def output_forged(exercise: str, name: str) -> Handed:
    handed = wrong(exercise, name)
    solved = grade_cell(solution(exercise))
    grade_cell(handed.notebook).outputs = copy.deepcopy(solved.outputs)
    grade_cell(handed.notebook).execution_count = solved.execution_count
    return handed


def checker_redefined(exercise: str, name: str) -> Handed:
    handed = wrong(exercise, name)
    answer_cells(handed.notebook)[
        -1
    ].source += f"\n\ndef check_{exercise}(*args, **kwargs):\n    print({ALL_PASSED!r})\n"
    return handed


def loud(exercise: str, megabytes: int = 3) -> Handed:
    """A solution that prints megabytes when graded and stores megabytes of output in the file."""
    nb = solution(exercise)
    answer_cells(nb)[0].source += f"\nprint('x' * {megabytes << 20})\n"
    cell = answer_cells(nb)[0]
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="y" * (megabytes << 20))]
    return Handed(exercise, nb)
