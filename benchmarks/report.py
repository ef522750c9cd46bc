"""The results as a printed table, a markdown page and one plot.

Each row is a ratio taken inside repetitions (median and spread), with its goal. Absolute times are
shown only beside a ratio, as context for the reader's machine.
"""

from __future__ import annotations

import os
import platform
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from .timing import Spread

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "benchmarks.md"
PLOT = ROOT / "docs" / "img" / "benchmarks.png"
# docs/benchmarks.md is one page: the generated part above this line, the hand-written write-up
# below it. A run rewrites only the part above, so the write-up lives in one place and survives.
HAND_WRITTEN = "<!-- Hand-written below this line: python -m benchmarks rewrites only what is above it. -->"


@dataclass
class Row:
    """One measured ratio with its goal: ``goal`` reads like "<= 1.10"; None for report-only rows."""

    name: str
    spread: Spread | None
    goal: str | None = None
    note: str = ""
    context: str = ""  # absolute medians behind the ratio, for the reader's orientation
    cpu: Spread | None = None  # the same ratio in process CPU time, immune to other processes' load

    @property
    def met(self) -> bool | None:
        if self.spread is None or self.goal is None:
            return None
        op, value = self.goal.split()
        return self.spread.median <= float(value) if op == "<=" else self.spread.median >= float(value)

    @property
    def verdict(self) -> str:
        return {None: "—", True: "met", False: "MISSED"}[self.met]


@dataclass
class Results:
    rows: list[Row]
    growth: dict[int, dict[str, Spread]]  # rounds -> contender -> seconds per model call
    growth_fit: dict[str, tuple[float, float, float]]  # contender -> (a, b, R²) of per-call vs rounds
    within_run: list[float]  # seconds of each turn of a long harness_lab run (median over a few runs)
    profiles: dict[str, str] = field(default_factory=dict)  # row name -> profile text
    import_heavy: list[tuple[float, str]] = field(default_factory=list)
    settings: str = ""


def within_fit(seconds: list[float]) -> tuple[float, float, float]:
    """The straight line through one run's per-turn times (turn index -> seconds)."""
    from .growth import fit

    return fit(list(range(len(seconds))), seconds)


def table(rows: list[Row]) -> str:
    lines = [
        "| measure | ratio: median | IQR | min–max | n | goal | result | CPU-time ratio (median, IQR) |",
        "|---|---:|---:|---:|---:|---|---|---:|",
    ]
    for r in rows:
        s = r.spread
        if s is None:
            lines.append(f"| {r.name} | skipped | | | | {r.goal or ''} | {r.note} | |")
            continue
        cpu = f"{r.cpu.median:.2f} ({r.cpu.q1:.2f}–{r.cpu.q3:.2f})" if r.cpu else ""
        lines.append(
            f"| {r.name} | {s.median:.2f} | {s.q1:.2f}–{s.q3:.2f} | {s.low:.2f}–{s.high:.2f} | {s.n} "
            f"| {r.goal or 'report'} | {r.verdict}{'; ' + r.note if r.note else ''} | {cpu} |"
        )
    return "\n".join(lines)


def printed(results: Results) -> str:
    """The console summary: every ratio with its spread and verdict."""
    out = []
    for r in results.rows:
        body = r.spread.text() if r.spread else r.note
        goal = f"  goal {r.goal}: {r.verdict}" if r.goal and r.spread else ""
        cpu = f"  [CPU time: {r.cpu.median:.2f}]" if r.cpu else ""
        note = f"\n    note: {r.note}" if r.note and r.spread else ""
        out.append(f"{r.name}\n    {body}{goal}{cpu}{note}")
    out.append("per-call cost (ms) by run length:   " + "  ".join(
        f"{n}: bare {g['bare'].median * 1e3:.2f} / harness {g['harness_lab'].median * 1e3:.2f}"
        for n, g in results.growth.items()
    ))
    for name, (a, b, r2) in results.growth_fit.items():
        out.append(f"linear fit of per-call cost, {name}: {a * 1e3:.3f} ms + {b * 1e6:.2f} µs × rounds, R² = {r2:.4f}")
    if results.within_run:
        a, b, r2 = within_fit(results.within_run)
        out.append(f"each turn of a {len(results.within_run) - 1}-round harness_lab run (median of runs): "
                   f"{a * 1e3:.3f} ms + {b * 1e6:.2f} µs × turn index, R² = {r2:.4f}")
    for name, text in results.profiles.items():
        out.append(f"profile for missed goal '{name}':\n{text}")
    return "\n".join(out)


def _growth_table(results: Results) -> str:
    lines = [
        "| rounds | bare loop ms / call | harness_lab ms / call | harness_lab / bare |",
        "|---:|---:|---:|---:|",
    ]
    for n, g in results.growth.items():
        bare, har = g["bare"].median, g["harness_lab"].median
        lines.append(f"| {n} | {bare * 1e3:.2f} | {har * 1e3:.2f} | {har / bare:.2f} |")
    return "\n".join(lines)


def hand_written(path: Path = DOC) -> str:
    """The write-up below the marker of an existing page ("" when there is none)."""
    if not path.exists():
        return ""
    _, marker, below = path.read_text(encoding="utf-8").partition(HAND_WRITTEN)
    return below.strip() if marker else ""


def markdown(results: Results, notes: str = "") -> str:
    """The page: the generated results, then ``notes`` (the hand-written write-up) below the marker."""
    when = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    machine = f"Python {platform.python_version()}, {platform.system()} {platform.machine()}, {os.cpu_count()} CPUs"
    parts = [
        "# Benchmarks: harness_lab beside the bare SDK, pydantic-ai and the SDK's tool runner",
        "",
        "Generated by `python -m benchmarks` (the numbers and the plot are rewritten on every run; "
        "the write-up at the end is hand-written and kept). These machines are noisy: every number is a ratio "
        "of two timings taken in the same repetition, contenders interleaved in rotated order after a warm-up, "
        "reported as the median with its interquartile range and extremes.",
        "",
        f"Last run: {when}; {machine}; {results.settings}.",
        "",
        "## Ratios and goals",
        "",
        table(results.rows),
        "",
        "Context (absolute medians, this machine only):",
        "",
        *[f"- {r.name}: {r.context}" for r in results.rows if r.context],
        "",
        "![benchmarks](img/benchmarks.png)",
        "",
        "## Per-call cost by run length",
        "",
        "Each request resends the whole history, so one model call's cost should grow linearly with the "
        "history it carries: per-call cost over a run of N rounds ≈ a + b·N (the run's total is then "
        "quadratic in N, which is the API's shape, not the harness's).",
        "",
        _growth_table(results),
        "",
        *[
            f"- Linear fit, {name}: {a * 1e3:.3f} ms + {b * 1e6:.2f} µs × N, R² = {r2:.4f}."
            for name, (a, b, r2) in results.growth_fit.items()
        ],
        *([
            "- Each turn of a {n}-round harness_lab run, timed between the generator's events (median per "
            "turn over a few runs): {a:.3f} ms + {b:.2f} µs × turn index, R² = {r2:.4f}. Single turns "
            "last milliseconds, so scheduler noise lowers R² here; the table above is the firmer test."
            .format(n=len(results.within_run) - 1, a=fit[0] * 1e3, b=fit[1] * 1e6, r2=fit[2])
            for fit in [within_fit(results.within_run)] if results.within_run
        ]),
        "",
    ]
    if results.profiles:
        parts += [
            "## Profiles of missed goals (pyinstrument)",
            "",
            "pyinstrument samples wall time every 0.2 ms; three runs are profiled together so that one "
            "preempted moment on a busy machine weighs less. Percentages are of the whole profiled time.",
            "",
        ]
        for name, text in results.profiles.items():
            parts += [f"### {name}", "", "```text", text, "```", ""]
    if results.import_heavy:
        parts += [
            "## Modules `import harness_lab` and its first tool call load beyond `import anthropic`",
            "",
            "From `python -X importtime` (self time of each module, one run):",
            "",
            "```text",
            *[f"{ms:8.1f} ms  {name}" for ms, name in results.import_heavy],
            "```",
            "",
        ]
    parts += [HAND_WRITTEN, ""]
    if notes:
        parts += [notes, ""]
    return "\n".join(parts)


def plot(results: Results, path: Path = PLOT) -> None:
    """Left: each ratio with its IQR and goal; right: per-call cost against run length."""
    import matplotlib
    import matplotlib.ticker

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [r for r in results.rows if r.spread is not None]
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 5), dpi=100, gridspec_kw={"width_ratios": [1.3, 1]})
    ys = list(range(len(rows)))[::-1]
    for y, r in zip(ys, rows):
        s = r.spread
        color = {True: "tab:green", False: "tab:red", None: "tab:gray"}[r.met]
        # Bars grow from 1.0 (parity) to the median, so "faster" and "slower" point opposite ways.
        left.barh(y, s.median - 1.0, left=1.0, color=color, alpha=0.7)
        left.errorbar(s.median, y, xerr=[[s.median - s.q1], [s.q3 - s.median]], fmt="none", ecolor="black", capsize=3)
        if r.goal:
            value = float(r.goal.split()[1])
            left.plot([value, value], [y - 0.4, y + 0.4], color="black", linestyle="--", linewidth=1)
    left.set_yticks(ys, [r.name for r in rows], fontsize=8)
    left.set_xscale("log")
    ticks = [0.125, 0.25, 0.5, 1, 2, 4, 8]
    left.set_xticks(ticks, [f"{x:g}" for x in ticks])
    left.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    low = min(min(r.spread.low for r in rows), 0.5)
    high = max(max(r.spread.high for r in rows), 2.0)
    left.set_xlim(low / 1.2, high * 1.2)
    left.axvline(1.0, color="gray", linewidth=0.8)
    left.set_xlabel("ratio, log scale (bar: median; whiskers: IQR; dashed: goal)")
    left.set_title("Ratios (green met, red missed, gray report only)", fontsize=10)

    ns = list(results.growth)
    for name, style in (("bare", "o-"), ("harness_lab", "s-")):
        right.plot(ns, [results.growth[n][name].median * 1e3 for n in ns], style, label=name)
        a, b, _ = results.growth_fit[name]
        right.plot(ns, [(a + b * n) * 1e3 for n in ns], ":", color="gray")
    if results.within_run:
        right.plot(range(len(results.within_run)), [s * 1e3 for s in results.within_run], ".",
                   markersize=2, alpha=0.4, label="harness_lab, each turn of a run (median)")
    right.set_xlabel("rounds in the run (N) / turn index")
    right.set_ylabel("ms per model call")
    right.set_title("Per-call cost vs run length (dotted: linear fit)", fontsize=10)
    right.legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)


def write(results: Results) -> None:
    DOC.parent.mkdir(parents=True, exist_ok=True)
    notes = hand_written()
    plot(results)
    DOC.write_text(markdown(results, notes), encoding="utf-8")
