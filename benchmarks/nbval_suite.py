"""The notebook suite under nbval against as many empty notebooks: what the lessons cost to check.

Both run with the exact command and environment dev.py uses for the notebooks, in a fresh pytest
process. An "empty" notebook holds one ``pass`` cell, so its kernel starts and runs a cell like a
lesson's does: the ratio is the lessons' own work over nbval's fixed cost per notebook.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

import dev  # the test command's offline environment, defined once there

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"

_EMPTY = """{
 "cells": [{"cell_type": "code", "execution_count": null, "metadata": {}, "outputs": [], "source": ["pass"]}],
 "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
 "nbformat": 4, "nbformat_minor": 5
}
"""


def lesson_notebooks() -> list[Path]:
    return sorted(NOTEBOOKS.glob("*.ipynb"))


def suite_seconds(paths: list[Path], failures: list[str]) -> float:
    """Seconds for one suite run; a failing run is still timed, its summary line kept in ``failures``.

    The run gets dev.py's offline environment: with ANTHROPIC_API_KEY set, the lessons would
    otherwise call live Claude while being timed.
    """
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "--color=no",
        "-p",
        "no:cacheprovider",
        "--nbval",
        "--nbval-current-env",
        "--nbval-sanitize-with",
        str(NOTEBOOKS / "sanitize.cfg"),
        *map(str, paths),
    ]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=dev.OFFLINE, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        lines = done.stdout.strip().splitlines()
        failures.append(lines[-1] if lines else f"pytest exited {done.returncode}")
    return seconds


def measure(reps: int, lessons: list[Path] | None = None) -> dict[str, list] | None:
    """Seconds per suite run of ``lessons`` (all committed lessons by default) and as many empty
    notebooks, alternating; None when there is no notebook to run.

    ``failures`` lists the summary line of every failing run: the ratio is then only indicative.
    """
    lessons = lesson_notebooks() if lessons is None else lessons
    if not lessons:
        return None
    with tempfile.TemporaryDirectory(prefix="nbval-empty-") as tmp:
        empties = []
        for i in range(len(lessons)):
            path = Path(tmp) / f"empty_{i:02d}.ipynb"
            path.write_text(_EMPTY, encoding="utf-8")
            empties.append(path)
        times: dict[str, list] = {"lessons": [], "empty": [], "failures": []}
        for _ in range(reps):
            times["lessons"].append(suite_seconds(lessons, times["failures"]))
            times["empty"].append(suite_seconds(empties, times["failures"]))
    return times
