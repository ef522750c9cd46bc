"""The results as a printed table, a markdown page and one plot.

Each row is a ratio taken inside repetitions (median and spread), with its goal. Absolute times are
shown only beside a ratio, as context for the reader's machine.
"""

from __future__ import annotations

import os
import platform
import statistics
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from .growth import CONTENDERS, GC_OFF, Growth, fit, gc_share, verdict
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
    ratio: bool = True  # False: a difference in the unit its name gives, left out of the ratio plot

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
    growth: Growth | None = None  # None when the growth measure was skipped
    profiles: dict[str, str] = field(default_factory=dict)  # row name -> profile text
    import_heavy: list[tuple[float, str]] = field(default_factory=list)
    settings: str = ""


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


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.2f}"


def _fit_text(a: float, b: float, r2: float, x: str = "N") -> str:
    return f"{a * 1e3:.3f} ms + {b * 1e6:.2f} µs × {x}, R² = {r2:.4f}"


# (label, clock, contender suffix) of the three series the growth measure keeps per contender.
SERIES = (("wall", "wall", ""), ("CPU", "cpu", ""), ("CPU, gc off", "cpu", GC_OFF))


def _claims(g: Growth) -> list[str]:
    lines = [f"{'met' if c.met else 'NOT MET'}: {c.text} ({c.evidence})" for c in verdict(g)]
    share = gc_share(g)
    lines.append(
        f"gc's share of per-call CPU time at {g.lengths[-1]} rounds (1 − gc off / gc as normal): "
        + ", ".join(f"{name} {v:.0%}" for name, v in share.items())
    )
    return lines


def within_fit(seconds: list[float]) -> tuple[float, float, float]:
    """The straight line through one run's per-turn times (turn index -> seconds)."""
    return fit(list(range(len(seconds))), seconds)


def _within_text(g: Growth) -> str:
    return (
        f"Each turn of a {len(g.within_run) - 1}-round harness_lab run, wall time between the generator's "
        f"events (median per turn over a few runs): {_fit_text(*within_fit(g.within_run), x='turn index')}"
    )


def printed(results: Results) -> str:
    """The console summary: the run's settings, every ratio with its spread and verdict, the growth verdict."""
    out = [results.settings] if results.settings else []
    for r in results.rows:
        body = r.spread.text() if r.spread else r.note
        goal = f"  goal {r.goal}: {r.verdict}" if r.goal and r.spread else ""
        cpu = f"  [CPU time: {r.cpu.median:.2f}]" if r.cpu else ""
        note = f"\n    note: {r.note}" if r.note and r.spread else ""
        out.append(f"{r.name}\n    {body}{goal}{cpu}{note}")
    g = results.growth
    if g is None:
        out.append("per-call cost by run length: skipped")
    else:
        out.append("per-call cost by run length, ms per call (bare / harness_lab):")
        for n, t in g.per_call.items():
            out.append(
                f"  {n:>3} rounds, {len(t.wall['bare'])} samples × {g.runs[n]} runs: "
                + "; ".join(
                    f"{label} {_ms(statistics.median(getattr(t, clock)['bare' + suffix]))} / "
                    f"{_ms(statistics.median(getattr(t, clock)['harness_lab' + suffix]))}"
                    for label, clock, suffix in SERIES
                )
            )
        for label, clock, suffix in SERIES:
            for name in CONTENDERS:
                out.append(f"  linear fit, {label}, {name}: {_fit_text(*g.fit(clock, name + suffix))}")
        out += [f"  {line}" for line in _claims(g)]
        out.append(f"  {_within_text(g)}")
    for name, text in results.profiles.items():
        out.append(f"profile for missed goal '{name}':\n{text}")
    return "\n".join(out)


def _growth_section(g: Growth | None) -> list[str]:
    if g is None:
        return ["Not measured in this run (`--skip growth`).", ""]
    header = (
        "| rounds | samples × runs | "
        + " | ".join(f"{label}: {name} ms" for label, _, _ in SERIES for name in CONTENDERS)
        + " | CPU: harness_lab / bare | CPU, gc off: harness_lab / bare |"
    )
    lines = [header, "|" + "---:|" * (2 + 2 * len(SERIES) + 2)]
    cpu_ratio = dict(zip(g.lengths, g.ratio("cpu", "harness_lab", "bare")))
    off_ratio = dict(zip(g.lengths, g.ratio("cpu", "harness_lab" + GC_OFF, "bare" + GC_OFF)))
    for n, t in g.per_call.items():
        cells = [
            _ms(statistics.median(getattr(t, clock)[name + suffix]))
            for _, clock, suffix in SERIES
            for name in CONTENDERS
        ]
        lines.append(
            f"| {n} | {len(t.wall['bare'])} × {g.runs[n]} | {' | '.join(cells)} "
            f"| {cpu_ratio[n]:.2f} | {off_ratio[n]:.2f} |"
        )
    fits = ["| series | contender | per-call cost ≈ a + b·N |", "|---|---|---|"]
    for label, clock, suffix in SERIES:
        for name in CONTENDERS:
            fits.append(f"| {label} | {name} | {_fit_text(*g.fit(clock, name + suffix))} |")
    return [
        "Each request resends the whole history, so one model call's cost should grow linearly with the "
        "history it carries: per-call cost over a run of N rounds ≈ a + b·N (the run's total is then "
        "quadratic in N, which is the API's shape, not the harness's). Every run is timed in wall and CPU "
        "time with gc as normal, and again with gc disabled, all four interleaved in the same repetitions; "
        "a sample of a short length times several runs back to back. Medians per call:",
        "",
        *lines,
        "",
        *fits,
        "",
        "Verdict, computed from the CPU-time medians (less exposed than wall time to other processes' load) "
        "against fixed thresholds (`benchmarks/growth.py`):",
        "",
        *[f"- {line}." for line in _claims(g)],
        "",
        f"{_within_text(g)}. Single turns last milliseconds, so scheduler "
        "noise lowers R² here; the table above is the firmer test.",
        "",
    ]


def hand_written(path: Path = DOC) -> str:
    """The write-up below the marker of an existing page ("" when there is none)."""
    if not path.exists():
        return ""
    _, marker, below = path.read_text(encoding="utf-8").partition(HAND_WRITTEN)
    return below.strip() if marker else ""


def markdown(results: Results, notes: str = "") -> str:
    """The page: the generated results, then ``notes`` (the hand-written write-up) below the marker."""
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
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
        table(results.rows) if results.rows else "No ratio measured in this run: their parts were skipped.",
        "",
        *_context(results.rows),
        "![benchmarks](img/benchmarks.png)",
        "",
        "## Per-call cost by run length",
        "",
        *_growth_section(results.growth),
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


def _context(rows: list[Row]) -> list[str]:
    lines = [f"- {r.name}: {r.context}" for r in rows if r.context]
    return ["Context (absolute medians, this machine only):", "", *lines, ""] if lines else []


def _ratio_panel(ax, rows: list[Row]) -> None:
    import matplotlib.ticker

    ax.set_title("Ratios (green met, red missed, gray report only)", fontsize=10)
    if not rows:
        ax.text(0.5, 0.5, "no ratio measured in this run", ha="center", va="center", transform=ax.transAxes)
        ax.set_axis_off()
        return
    ys = list(range(len(rows)))[::-1]
    for y, r in zip(ys, rows):
        s = r.spread
        color = {True: "tab:green", False: "tab:red", None: "tab:gray"}[r.met]
        # Bars grow from 1.0 (parity) to the median, so "faster" and "slower" point opposite ways.
        ax.barh(y, s.median - 1.0, left=1.0, color=color, alpha=0.7)
        ax.errorbar(s.median, y, xerr=[[s.median - s.q1], [s.q3 - s.median]], fmt="none", ecolor="black", capsize=3)
        if r.goal:
            value = float(r.goal.split()[1])
            ax.plot([value, value], [y - 0.4, y + 0.4], color="black", linestyle="--", linewidth=1)
    ax.set_yticks(ys, [r.name for r in rows], fontsize=8)
    ax.set_xscale("log")
    ticks = [0.125, 0.25, 0.5, 1, 2, 4, 8]
    ax.set_xticks(ticks, [f"{x:g}" for x in ticks])
    ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    low = min(min(r.spread.low for r in rows), 0.5)
    high = max(max(r.spread.high for r in rows), 2.0)
    ax.set_xlim(low / 1.2, high * 1.2)
    ax.axvline(1.0, color="gray", linewidth=0.8)
    ax.set_xlabel("ratio, log scale (bar: median; whiskers: IQR; dashed: goal)")


def _growth_panel(ax, g: Growth | None) -> None:
    ax.set_title("Per-call CPU time vs run length (dotted: linear fit)", fontsize=10)
    if g is None:
        ax.text(0.5, 0.5, "growth not measured in this run", ha="center", va="center", transform=ax.transAxes)
        ax.set_axis_off()
        return
    ns = g.lengths
    for name, color, marker in (("bare", "tab:blue", "o"), ("harness_lab", "tab:orange", "s")):
        ax.plot(ns, [s * 1e3 for s in g.median("cpu", name)], marker=marker, color=color, label=name)
        ax.plot(
            ns,
            [s * 1e3 for s in g.median("cpu", name + GC_OFF)],
            marker=marker,
            color=color,
            linestyle="--",
            alpha=0.6,
            label=f"{name}, gc disabled",
        )
        a, b, _ = g.fit("cpu", name)
        ax.plot(ns, [(a + b * n) * 1e3 for n in ns], ":", color="gray")
    ax.plot(
        range(len(g.within_run)),
        [s * 1e3 for s in g.within_run],
        ".",
        color="tab:orange",
        markersize=2,
        alpha=0.4,
        label="harness_lab, each turn of a run (wall, median)",
    )
    ax.set_xlabel("rounds in the run (N) / turn index")
    ax.set_ylabel("ms per model call")
    ax.legend(fontsize=8)


def plot(results: Results, path: Path = PLOT) -> None:
    """Left: each ratio with its IQR and goal; right: per-call CPU time against run length."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 5), dpi=100, gridspec_kw={"width_ratios": [1.3, 1]})
    _ratio_panel(left, [r for r in results.rows if r.spread is not None and r.ratio])
    _growth_panel(right, results.growth)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)


def write(results: Results) -> None:
    DOC.parent.mkdir(parents=True, exist_ok=True)
    notes = hand_written()
    plot(results)
    DOC.write_text(markdown(results, notes), encoding="utf-8")
