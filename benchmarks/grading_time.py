"""How long the README's grading command takes on one exercise notebook (issue 12's goal: under 3 s).

    .venv/bin/python -m benchmarks.grading_time            # 5 runs per notebook
    .venv/bin/python -m benchmarks.grading_time --runs 9

Each run is the command a learner types, ``python -m harness_lab.grading NOTEBOOK``, in a fresh
interpreter: start-up, ``import harness_lab`` (most of the time: the anthropic SDK), the answer
cells and every criterion's forked checks. It is timed on a reference solution (every check runs to
the end) and on an untouched starter. Beside the wall-clock median, the children's CPU seconds show
how much of a slow run was this machine's other load rather than the command.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOAL_SECONDS = 3.0
NOTEBOOKS = (
    "exercises/solutions/level1_tiered_policy.ipynb",
    "exercises/solutions/level2_missing_gate.ipynb",
    "exercises/level1_tiered_policy.ipynb",
    "exercises/level2_missing_gate.ipynb",
)


def one_run(notebook: str) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds of the command and its children, exit code) for one grading."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "harness_lab.grading", notebook],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.grading_time", description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per notebook (default 5)")
    args = parser.parse_args(argv)
    one_run(NOTEBOOKS[0])  # warm the file cache and the .pyc files; not counted
    print(f"python -m harness_lab.grading NOTEBOOK, {args.runs} runs each (goal: median under {GOAL_SECONDS:g} s)")
    missed = False
    for notebook in NOTEBOOKS:
        runs = [one_run(notebook) for _ in range(args.runs)]
        walls = sorted(wall for wall, _, _ in runs)
        median = statistics.median(walls)
        cpu = statistics.median(c for _, c, _ in runs)
        codes = sorted({code for _, _, code in runs})
        missed |= median >= GOAL_SECONDS
        print(
            f"  {notebook:50} median {median:5.2f} s  (min {walls[0]:.2f}, max {walls[-1]:.2f})"
            f"  CPU {cpu:4.2f} s  exit {','.join(map(str, codes))}"
        )
    print("goal " + ("missed" if missed else "met"))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
