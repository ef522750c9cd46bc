"""How fast ``harness-lab grade-class`` grades a class (issue 17's goal: 100 notebooks in under 2 minutes).

    .venv/bin/python -m benchmarks.grade_class                 # 100 notebooks, the default --timeout 60
    .venv/bin/python -m benchmarks.grade_class --count 40 --timeout 10 --jobs 1
    .venv/bin/python -m benchmarks.grade_class --unsandboxed   # the same class without the bubblewrap sandbox

It writes a class into a temporary folder, two notebooks per learner (level 1 and level 2), from the
course's own notebooks and answer batteries (``tests/grading/class_submissions.py``): in every 20,
8 right answers, 6 of the batteries' wrong answers, 3 tampered ones (grade cell rewritten, a solved
output pasted in, ``check_levelN`` redefined), 1 that hangs and 2 that crash (an exit, a process
killing itself, one killing the process grading it, which where Landlock scopes the cells' signals is
refused and graded as written). It grades the class with the command an
instructor types, checks that every row says what it must, and prints the seconds, notebooks per
second, the CPU the command used and the load average around the run (the machine is shared), then
times a rerun, in which every notebook is unchanged and none is graded again.

A hang in an answer cell costs the cells' own limit (10 s, ``grading.notebook.CELLS_TIMEOUT``) on one
worker, or the notebook's limit when that is shorter: about (hangs x that) / workers seconds on top
of the rest.
"""

from __future__ import annotations

import argparse
import csv
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from harness_lab.grading.notebook import CELLS_TIMEOUT, NOTEBOOK_TIMEOUT

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "grading"))  # the batteries and the class builder live with the tests

import class_submissions as hand_in  # noqa: E402

GOAL_SECONDS = 120.0
GOAL_COUNT = 100
# One kind per notebook, repeated every 20: (kind, how many of the 20)
MIX = (("right", 8), ("wrong", 6), ("tampered", 3), ("hang", 1), ("crash", 2))


def kinds() -> list[str]:
    """The 20 kinds in an order that spreads hangs and crashes through the class."""
    pool = dict(MIX)
    order = []
    while any(pool.values()):
        for kind, _ in MIX:
            if pool[kind]:
                order.append(kind)
                pool[kind] -= 1
    return order


def build(submissions: Path, count: int, timeout: float) -> dict[tuple[str, str], hand_in.Handed]:
    """Write ``count`` notebooks; (learner, file) -> the row grading must give."""
    order = kinds()
    wrong_names = {ex: list(hand_in.BATTERIES[ex].WRONG) for ex in hand_in.FILES}
    tampers = (hand_in.grade_cell_rewritten, hand_in.output_forged, hand_in.checker_redefined)
    crashes = (hand_in.exiting, hand_in.killing_itself, hand_in.killing_the_grader)
    expected = {}
    used = {"wrong": 0, "tampered": 0, "crash": 0}
    for i in range(count):
        exercise = ("level1", "level2")[i % 2]
        learner = f"learner{i // 2 + 1:03d}"
        kind = order[i % len(order)]
        names = wrong_names[exercise]
        if kind == "right":
            handed = hand_in.right(exercise)
        elif kind == "wrong":
            handed = hand_in.wrong(exercise, names[used["wrong"] % len(names)])
        elif kind == "tampered":
            n = used["tampered"]
            handed = tampers[n % len(tampers)](exercise, names[(n * 7) % len(names)])
        elif kind == "hang":
            key = "grade.nb.cell_timeout" if timeout > CELLS_TIMEOUT + 2 else "grade.nb.timeout"
            handed = hand_in.hanging(exercise, key)
        else:
            handed = crashes[used["crash"] % len(crashes)](exercise)
        used[kind] = used.get(kind, 0) + 1
        expected[learner, handed.write(submissions, learner).name] = handed
    return expected


def grade(
    submissions: Path, report: Path, timeout: float, jobs: int | None, unsandboxed: bool = False
) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds of the command and its children, exit code)."""
    script = Path(sys.executable).parent / "harness-lab"
    program = [str(script)] if script.exists() else [sys.executable, "-m", "harness_lab.cli"]
    args = [*program, "grade-class", str(submissions), "--out", str(report), "--timeout", f"{timeout:g}"]
    if jobs:
        args += ["--jobs", str(jobs)]
    if unsandboxed:
        args.append("--unsandboxed")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        args, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        print(done.stderr, file=sys.stderr)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done.returncode


def mismatches(report: Path, expected: dict) -> list[str]:
    with open(report / "grades.csv", encoding="utf-8-sig", newline="") as f:
        rows = {(r["learner"], r["notebook"]): r for r in csv.DictReader(f) if r["notebook"]}
    wrong = []
    for key, handed in sorted(expected.items()):
        row = rows.get(key)
        got = (row["status"], row["hint_keys"]) if row else ("absent", "")
        if got != (handed.status, handed.hint_keys()):
            wrong.append(f"{'/'.join(key)}: {got} != {(handed.status, handed.hint_keys())}")
    return wrong


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.grade_class", description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=GOAL_COUNT, help="notebooks in the class (default 100)")
    parser.add_argument(
        "--timeout",
        type=float,
        default=NOTEBOOK_TIMEOUT,
        help=f"grade-class --timeout (default {NOTEBOOK_TIMEOUT:g}, the command's own)",
    )
    parser.add_argument("--jobs", type=int, default=None, help="grade-class --jobs (default: one per core)")
    parser.add_argument("--unsandboxed", action="store_true", help="grade-class --unsandboxed (no bubblewrap)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="grade-class-bench-") as folder:
        submissions, report = Path(folder) / "submissions", Path(folder) / "report"
        expected = build(submissions, args.count, args.timeout)
        counts = {kind: sum(1 for k in (kinds() * args.count)[: args.count] if k == kind) for kind, _ in MIX}
        print(
            f"harness-lab grade-class: {args.count} notebooks ({', '.join(f'{n} {k}' for k, n in counts.items())}),"
            f" --timeout {args.timeout:g}, {os.cpu_count()} cores, jobs {args.jobs or 'default'},"
            f" {'without' if args.unsandboxed else 'in'} the sandbox"
        )
        print(f"  load average before: {load()}")
        wall, cpu, code = grade(submissions, report, args.timeout, args.jobs, args.unsandboxed)
        print(f"  load average after:  {load()}")
        wrong = mismatches(report, expected) if code == 0 else ["the command failed"]
        print(
            f"  graded {args.count} in {wall:.1f} s = {args.count / wall:.2f} notebooks/s"
            f"  (CPU {cpu:.1f} s; goal for {GOAL_COUNT}: under {GOAL_SECONDS:g} s)"
        )
        rerun, _, _ = grade(submissions, report, args.timeout, args.jobs, args.unsandboxed)
        print(f"  rerun, nothing changed: {rerun:.1f} s")
        for line in wrong:
            print(f"  MISMATCH {line}")
        print("  every row as expected" if not wrong else f"  {len(wrong)} rows not as expected")
    met = wall * GOAL_COUNT / args.count < GOAL_SECONDS
    return 0 if met and not wrong else 1


if __name__ == "__main__":
    sys.exit(main())
