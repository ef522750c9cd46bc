"""Where a test run's time goes: each test's wall and CPU time, summed by folder and by cause.

    .venv/bin/python -m pytest -n 2 --dist loadfile -p benchmarks.suite_costs tests   # records, then
    .venv/bin/python -m benchmarks.suite_costs build/suite-costs                     # the tables

As a pytest plugin (``-p benchmarks.suite_costs``; xdist passes it to every worker) it appends one JSON
line per test to ``build/suite-costs/<worker>.jsonl`` (``HARNESS_LAB_SUITE_COSTS`` names another
folder): the test's wall time (setup, call and teardown, so a module fixture is billed to the test that
started it) and the CPU the worker used meanwhile, its own and that of the children it reaped (nbval and
grading hosts in a subprocess, limited runs' supervisors). A kernel forked by tests/kernel_forks is not
the worker's child, so its CPU shows as the test's wait: wall minus CPU is time the worker spent waiting,
on a kernel, a browser, a hub, a deadline or a sleep. A JUnit XML file (``--junitxml``) can be read
instead, for wall time only.
"""

from __future__ import annotations

import json
import os
import re
import resource
import sys
import time
import xml.etree.ElementTree as ElementTree
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDER = "HARNESS_LAB_SUITE_COSTS"
# A test file's cause: the first of these whose pattern its source holds (checked in this order, the
# costliest kind first). A file that starts kernels and also grades is billed to the first.
CAUSES = (
    ("browser", r"playwright|\bbrowser\b"),
    ("hub", r"jupyterhub"),
    ("notebook executions", r"NotebookClient|run_notebook|--nbval|nbconvert|nbval_runs"),
    ("kernels", r"KernelManager|start_new_kernel|kernel_client|jupyter_client"),
    ("class grading (sandboxed hosts)", r"grade_class|bwrap|hosted_grade|grade_files|grade_notebook"),
    ("limited runs (forks)", r"run_limited|check_piece|grade_level|check_level|lessons\.check|answers_"),
    ("subprocesses", r"subprocess\.|sys\.executable"),
)


def _cpu() -> tuple[float, float]:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    folder = Path(os.environ.get(FOLDER) or ROOT / "build" / "suite-costs")
    own, children = _cpu()
    started = time.perf_counter()
    yield
    wall = time.perf_counter() - started
    own_after, children_after = _cpu()
    folder.mkdir(parents=True, exist_ok=True)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    record = {"test": item.nodeid, "wall": wall, "cpu": own_after - own, "children": children_after - children}
    with open(folder / f"{worker}.jsonl", "a", encoding="utf-8") as out:
        out.write(json.dumps(record) + "\n")


def read(where: Path) -> list[dict]:
    """The records of a folder of ``*.jsonl`` files, or of a JUnit XML file (wall time only)."""
    if where.is_dir():
        return [json.loads(line) for path in sorted(where.glob("*.jsonl")) for line in path.read_text().splitlines()]
    records = []
    for case in ElementTree.parse(where).iter("testcase"):
        parts = case.get("classname", "").split(".")
        module = max((i for i, part in enumerate(parts) if part.startswith("test_")), default=len(parts) - 1)
        path = "/".join(parts[: module + 1])  # what follows the module is a test class
        records.append({"test": f"{path}.py::{case.get('name')}", "wall": float(case.get("time", 0))})
    return records


def file_of(test: str) -> str:
    return test.split("::")[0]


def cause_of(path: str, sources: dict[str, str]) -> str:
    if path not in sources:
        file = ROOT / path
        sources[path] = file.read_text(encoding="utf-8") if file.is_file() else ""
    return next((cause for cause, pattern in CAUSES if re.search(pattern, sources[path])), "in-process")


def table(records: list[dict], key, title: str) -> list[str]:
    sums: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0, 0.0])
    for record in records:
        row = sums[key(record)]
        row[0] += 1
        row[1] += record["wall"]
        row[2] += record.get("cpu", 0.0) + record.get("children", 0.0)
        row[3] += max(0.0, record["wall"] - record.get("cpu", 0.0) - record.get("children", 0.0))
    total = sum(row[1] for row in sums.values()) or 1.0
    timed = any("cpu" in record for record in records)  # a JUnit file has wall time only
    lines = [f"| {title} | tests | wall s | share | CPU s | waiting s |", "|---|---:|---:|---:|---:|---:|"]
    for name, (count, wall, cpu, waiting) in sorted(sums.items(), key=lambda item: -item[1][1]):
        spent = f"{cpu:.0f} | {waiting:.0f}" if timed else "— | —"
        lines.append(f"| {name} | {count} | {wall:.0f} | {wall / total:.0%} | {spent} |")
    return lines


def report(records: list[dict], slowest: int = 30) -> str:
    sources: dict[str, str] = {}

    def folder(record: dict) -> str:
        return "/".join(file_of(record["test"]).split("/")[:2])

    def cause(record: dict) -> str:
        return cause_of(file_of(record["test"]), sources)

    files: dict[str, list[dict]] = defaultdict(list)
    for record in records:
        files[file_of(record["test"])].append(record)
    lines = [*table(records, folder, "folder"), "", *table(records, cause, "cause"), ""]
    lines += [
        f"| file (the {slowest} slowest) | tests | wall s | CPU s | waiting s | cause |",
        "|---|---:|---:|---:|---:|---|",
    ]
    ranked = sorted(files.items(), key=lambda item: -sum(r["wall"] for r in item[1]))[:slowest]
    timed = any("cpu" in record for record in records)
    for path, rows in ranked:
        wall = sum(r["wall"] for r in rows)
        cpu = sum(r.get("cpu", 0.0) + r.get("children", 0.0) for r in rows)
        spent = f"{cpu:.1f} | {max(0.0, wall - cpu):.1f}" if timed else "— | —"
        lines.append(f"| {path} | {len(rows)} | {wall:.1f} | {spent} | {cause_of(path, sources)} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    where = Path(args[0]) if args else ROOT / "build" / "suite-costs"
    print(report(read(where)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
