"""The grading commands an exercise notebook's intro gives work where a learner runs the course.

The intro pointed at ``.venv/bin/python``, which only a checkout has: a hub learner or a pip user has no
``.venv``. Each command it now gives is run as a learner would: the new cell's two lines in IPython,
beside a saved copy of the notebook, and ``harness-lab grade`` from a home laid out as the hub gives it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
EXERCISES = sorted(p for p in (ROOT / "exercises").rglob("*.ipynb") if "solutions" not in p.parts)
CELL = re.compile(r'`import sys` .*?`(!"\{sys\.executable\}" [^`]+)`', re.DOTALL)
TERMINAL = re.compile(r"`(harness-lab grade [^`*]+)`")


def _intro(path: Path) -> str:
    return next(c.source for c in nbformat.read(path, as_version=4).cells if "sys.executable" in c.source)


def _graded(done: subprocess.CompletedProcess, name: str) -> None:
    # the grader's report: a header naming the notebook (the starter meets no criterion, so no pass)
    assert f"== {name}" in done.stdout, done.stdout + done.stderr


@pytest.mark.parametrize("path", EXERCISES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_intros_grading_commands_run_without_a_checkout(path, tmp_path):
    intro = _intro(path)
    home = tmp_path / "a learner's home"  # a space: the cell quotes the kernel's Python
    (home / path.relative_to(ROOT)).parent.mkdir(parents=True)
    shutil.copy(path, home / path.relative_to(ROOT))
    cell = "import sys\n" + CELL.search(intro).group(1)
    done = subprocess.run(
        [sys.executable, "-m", "IPython", "--quick", "--no-banner", "-c", cell],
        cwd=home / path.relative_to(ROOT).parent,
        capture_output=True,
        text=True,
        timeout=300,
    )
    _graded(done, path.name)
    command = TERMINAL.search(intro).group(1).split()
    assert command[:2] == ["harness-lab", "grade"]
    done = subprocess.run(  # the course venv's harness-lab is `python -m harness_lab`
        [sys.executable, "-m", "harness_lab", *command[1:]], cwd=home, capture_output=True, text=True, timeout=300
    )
    _graded(done, str(path.relative_to(ROOT)))
