"""``import harness_lab`` against ``import anthropic`` alone, each in a fresh interpreter.

The time is taken inside the child around the import statement, so interpreter start-up (the same
for both, and larger than either import) does not dilute the ratio. Children alternate A, B, A, B.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from .timing import Spread

ROOT = Path(__file__).resolve().parent.parent  # the children import this tree's harness_lab
_CHILD = "import time; s = time.perf_counter(); import {module}; print(time.perf_counter() - s)"
# This child pays the import and a first tool call (whose plain input is checked without jsonschema).
FIRST_CALL = (
    "harness_lab, harness_lab.tools; harness_lab.tools.run_tool(harness_lab.tool(lambda x: x, name='same'), {'x': 1})"
)


def import_seconds(module: str) -> float:
    out = subprocess.run(
        [sys.executable, "-c", _CHILD.format(module=module)], capture_output=True, text=True, check=True, cwd=ROOT
    )
    return float(out.stdout.strip().splitlines()[-1])


def measure(reps: int) -> dict[str, list[float]]:
    """Seconds per import, children alternating; ``first_call`` adds harness_lab's first tool call."""
    times: dict[str, list[float]] = {"harness_lab": [], "anthropic": [], "first_call": []}
    import_seconds("harness_lab")  # warm the OS file cache and the .pyc files
    import_seconds("anthropic")
    for _ in range(reps):
        for module, statement in (
            ("harness_lab", "harness_lab"),
            ("anthropic", "anthropic"),
            ("first_call", FIRST_CALL),
        ):
            times[module].append(import_seconds(statement))
    return times


def _importtime(module: str) -> dict[str, float]:
    """Module name -> self ms (its own body, not its imports), from ``python -X importtime``."""
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", f"import {module}"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    rows = {}
    for line in out.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            rows[parts[2].strip()] = int(parts[0].split(":")[-1]) / 1000
    return rows


def extra_imports(top: int = 12, statement: str = FIRST_CALL) -> list[tuple[float, str]]:
    """The slowest modules ``import harness_lab`` and its first tool call load beyond ``import anthropic``.

    Ranked by self time, so a package is not blamed for what its submodules (or anthropic) cost.
    """
    ours, theirs = _importtime(statement), _importtime("anthropic")
    extra = [(ms, name) for name, ms in ours.items() if name not in theirs]
    return sorted(extra, reverse=True)[:top]


def summary(times: dict[str, list[float]], top: str = "harness_lab") -> Spread:
    return Spread.of([a / b for a, b in zip(times[top], times["anthropic"])])
