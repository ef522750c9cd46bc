"""What a limited run's Landlock domain costs: CPU per ``run_limited(lambda: 1)``, with and without it.

    .venv/bin/python -m benchmarks.limited_run              # 30 repetitions
    .venv/bin/python -m benchmarks.limited_run --runs 60

Each repetition runs the four ways once, in a rotated order: with the PID namespace the system gives
(root, or a user namespace) and with it refused, each with the job's domain (``landlock.py``) and
without it. A run's CPU is the caller's own and its reaped children's (the supervisor, the namespace's
init and the job), user and system, so a loaded machine's waits do not count. Run it in a process that
imported the judge, as a notebook's kernel has.
"""

from __future__ import annotations

import argparse
import resource
import sys

import harness_lab.grading.level1  # noqa: F401 (a kernel that graded has the judge's modules: a run forks them)
from harness_lab.grading import landlock, namespaces, run_limited

from .timing import Spread

WAYS = ("namespace", "namespace + Landlock", "no namespace", "no namespace + Landlock")


def _cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def one_run(way: str) -> float:
    """CPU seconds of one limited run done ``way``."""
    make, confine = namespaces.make, landlock.confine
    if way.startswith("no namespace"):
        namespaces.make = lambda: False
    if not way.endswith("Landlock"):
        landlock.confine = lambda: False
    try:
        before = _cpu()
        outcome = run_limited(lambda: 1)
        spent = _cpu() - before
    finally:
        namespaces.make, landlock.confine = make, confine
    if (outcome.status, outcome.value) != ("ok", 1):
        raise AssertionError(f"{way}: {outcome}")
    return spent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.limited_run", description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30, help="repetitions (default 30)")
    args = parser.parse_args(argv)
    for way in WAYS:  # warm the page cache and the lazy imports; not counted
        one_run(way)
    spent: dict[str, list[float]] = {way: [] for way in WAYS}
    for rep in range(args.runs):
        for way in WAYS[rep % len(WAYS) :] + WAYS[: rep % len(WAYS)]:
            spent[way].append(one_run(way))
    print(f"run_limited(lambda: 1), CPU ms per run, {args.runs} interleaved repetitions")
    for way in WAYS:
        print(f"  {way:25} {Spread.of([s * 1e3 for s in spent[way]]).text('{:.1f}')}")
    for without in WAYS[::2]:  # within each repetition, so the machine's drift over the run cancels out
        added = [(a - b) * 1e3 for a, b in zip(spent[f"{without} + Landlock"], spent[without], strict=True)]
        print(f"Landlock's share, {without}: {Spread.of(added).text('{:+.1f}')} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
