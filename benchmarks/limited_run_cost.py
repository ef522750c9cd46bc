"""One limited run's cost, this tree beside a base revision: wall time and CPU, with a bare fork for scale.

    .venv/bin/python -m benchmarks.limited_run_cost --base main          # 9 repetitions, two caller sizes
    .venv/bin/python -m benchmarks.limited_run_cost --base c5795b7 --reps 15 --grow 0,150

The base revision's files are unpacked (``git archive``) into a temporary folder. Each repetition starts
one fresh process per tree and caller size, in a rotated order; the process imports its own tree's judge
(as a test worker or a kernel that graded has), grows by ``--grow`` MB of Python objects (a pytest worker
is about 200 MB), then times ``run_limited(lambda: 1)`` a few times after a warm-up, and a bare fork
(fork, ``_exit``, wait) as many times. Its figures are medians: wall time, and CPU, its own and its reaped
children's (the supervisor, the namespace's init and the job), user and system. A ratio pairs the two
trees' figures of one repetition and size, so the machine's drift over the run cancels out; on a loaded
machine the CPU ratio is the one to read.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from .timing import Spread

ROOT = Path(__file__).resolve().parent.parent
FIGURES = ("wall", "cpu", "caller_cpu", "bare_wall", "bare_cpu")
# Run in a fresh interpreter whose path starts at one tree: it imports that tree's package, not this one's.
MEASURE = """
import json, os, resource, statistics, sys, time
import harness_lab.grading.level1
from harness_lab.grading import run_limited
grow, runs = int(sys.argv[1]), int(sys.argv[2])
ballast = [{"key": str(i), "value": [i, i + 1]} for i in range(grow * 1024 * 1024 // 400)]
def cpu(who):
    used = resource.getrusage(who)
    return used.ru_utime + used.ru_stime
def bare():
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
def timed(call):
    own, children, start = cpu(resource.RUSAGE_SELF), cpu(resource.RUSAGE_CHILDREN), time.perf_counter()
    call()
    wall = time.perf_counter() - start
    mine = cpu(resource.RUSAGE_SELF) - own
    return wall * 1e3, (mine + cpu(resource.RUSAGE_CHILDREN) - children) * 1e3, mine * 1e3
for _ in range(3):
    run_limited(lambda: 1)
    bare()
figures = {name: [] for name in ("wall", "cpu", "caller_cpu", "bare_wall", "bare_cpu")}
for _ in range(runs):
    outcome = []
    wall, spent, mine = timed(lambda: outcome.append(run_limited(lambda: 1)))
    assert (outcome[0].status, outcome[0].value) == ("ok", 1), outcome
    figures["wall"].append(wall); figures["cpu"].append(spent); figures["caller_cpu"].append(mine)
    wall, spent, _ = timed(bare)
    figures["bare_wall"].append(wall); figures["bare_cpu"].append(spent)
rss = next(int(line.split()[1]) >> 10 for line in open("/proc/self/status") if line.startswith("VmRSS"))
print(json.dumps({"rss": rss, "where": harness_lab.__file__, **{k: statistics.median(v) for k, v in figures.items()}}))
"""


def measure(tree: Path, grow: int, runs: int) -> dict:
    """Medians of ``runs`` limited runs and bare forks in a fresh process of ``tree``'s package, grown by ``grow`` MB."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    env.pop("ANTHROPIC_API_KEY", None)
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, str(grow), str(runs)],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{tree}: {done.stderr.strip()[-2000:]}")
    figures = json.loads(done.stdout)
    if not figures["where"].startswith(str(tree)):  # the other tree's package answered: the comparison would lie
        raise RuntimeError(f"{tree} imported {figures['where']}")
    return figures


def unpack(revision: str, into: str) -> Path:
    archive = subprocess.run(["git", "archive", revision], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", into], input=archive, check=True)
    return Path(into)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.limited_run_cost", description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the git revision to compare this tree with")
    parser.add_argument("--reps", type=int, default=9, help="repetitions (default 9)")
    parser.add_argument("--runs", type=int, default=15, help="limited runs per process (default 15)")
    parser.add_argument("--grow", default="0,150", help="MB of Python objects each caller holds (default 0,150)")
    args = parser.parse_args(argv)
    sizes = [int(size) for size in args.grow.split(",")]
    with tempfile.TemporaryDirectory(prefix="limited-run-base-") as folder:
        trees = {"base": unpack(args.base, folder), "this tree": ROOT}
        ways = [(name, size) for size in sizes for name in trees]
        seen: dict[tuple[str, int], list[dict]] = {way: [] for way in ways}
        for rep in range(args.reps):
            for name, size in ways[rep % len(ways) :] + ways[: rep % len(ways)]:
                seen[name, size].append(measure(trees[name], size, args.runs))
    print(
        f"run_limited(lambda: 1) against {args.base}: {args.reps} repetitions of {args.runs} runs, ms (median of medians)"
    )
    for size in sizes:
        for name in trees:
            rows = seen[name, size]
            rss = sorted(row["rss"] for row in rows)[len(rows) // 2]
            print(
                f"  {name:9} caller {rss:4d} MB: "
                + ", ".join(f"{figure} {Spread.of([row[figure] for row in rows]).median:.1f}" for figure in FIGURES)
            )
        for figure in ("wall", "cpu", "caller_cpu"):
            paired = [a[figure] / b[figure] for a, b in zip(seen["this tree", size], seen["base", size], strict=True)]
            print(f"  +{size} MB, this tree / base, {figure}: {Spread.of(paired).text()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
