"""Some of the tests, this tree beside a base revision: the run's wall time and CPU, as ratios.

    .venv/bin/python -m benchmarks.suite_time --base main tests/lessons/test_notebook_02.py
    .venv/bin/python -m benchmarks.suite_time --base f859128 --reps 3 -n 2 tests/reliability

The base revision's files are unpacked (``git archive``) into a temporary folder. Each repetition runs
pytest once in each tree, in a rotated order, with the options of the whole run (``dev.py``'s
``ORDER``, or ``-n`` workers) and its offline environment; a run is timed in wall time and in the CPU
of every process it waited for (``RUSAGE_CHILDREN``: pytest, its workers and what they started and
reaped; the kernels tests/kernel_forks forks are not among them). A ratio pairs the two trees' runs of
one repetition, so the machine's drift cancels out; on a loaded machine read the CPU ratio. A run whose
tests fail is reported, not timed.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import dev

from .limited_run_cost import unpack
from .timing import Spread

ROOT = Path(__file__).resolve().parent.parent


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed_run(tree: Path, tests: list[str], workers: str) -> tuple[float, float, str]:
    """Wall and CPU seconds of one pytest run of ``tests`` in ``tree``, and its last line."""
    order = ("-n", workers, "--dist", "loadfile") if workers else dev.ORDER
    command = [sys.executable, "-m", "pytest", "-q", "--color=no", "-p", "no:cacheprovider", *order, *tests]
    env = {**dev.OFFLINE, "PYTHONPATH": str(tree), "HARNESS_LAB_WORKBOOK": str(tree / "build" / "wb" / "my_harness.py")}
    cpu, started = _children_cpu(), time.perf_counter()
    done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    last = (done.stdout.strip().splitlines() or ["(no output)"])[-1]
    if done.returncode != 0:
        raise RuntimeError(f"{tree}: pytest failed: {done.stdout[-3000:]}{done.stderr[-2000:]}")
    return wall, _children_cpu() - cpu, last


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.suite_time", description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the git revision to compare this tree with")
    parser.add_argument("--reps", type=int, default=3, help="repetitions (default 3)")
    parser.add_argument("-n", dest="workers", default="", help="pytest workers (default: the whole run's)")
    parser.add_argument("tests", nargs="+", help="test files, folders or node ids, as from the root")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="suite-time-base-") as folder:
        trees = {"base": unpack(args.base, folder), "this tree": ROOT}
        seen: dict[str, list[tuple[float, float]]] = {name: [] for name in trees}
        names = list(trees)
        for rep in range(args.reps):
            for name in names[rep % 2 :] + names[: rep % 2]:
                wall, cpu, last = timed_run(trees[name], args.tests, args.workers)
                seen[name].append((wall, cpu))
                print(f"  rep {rep + 1} {name:9}: wall {wall:6.1f} s, CPU {cpu:6.1f} s  ({last})", flush=True)
    print(f"{' '.join(args.tests)} against {args.base}: {args.reps} repetitions, this tree / base")
    for index, figure in enumerate(("wall", "CPU")):
        paired = [a[index] / b[index] for a, b in zip(seen["this tree"], seen["base"], strict=True)]
        print(f"  {figure}: {Spread.of(paired).text()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
