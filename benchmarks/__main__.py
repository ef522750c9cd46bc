"""Run every benchmark, print each ratio with its spread, and rewrite docs/benchmarks.md and its plot.

    python -m benchmarks            # the full run (about three minutes on two cores)
    python -m benchmarks --quick    # a quick look: fewer repetitions, one lesson notebook, runs up to 50 rounds
    python -m benchmarks --no-write # print only; leave docs/ alone
    python -m benchmarks --skip nbval,imports

Profiles (pyinstrument) are taken only for a goal that was missed, after the timings, so
profiling never slows a measured run.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass

from . import growth, import_time, nbval_suite, parallel_tools, profiling, side_by_side, tool_runner
from .report import Results, Row, printed, write
from .timing import Spread, ratios

PARTS = ("contenders", "parallel", "imports", "growth", "nbval")


@dataclass(frozen=True)
class Plan:
    """How much of each part a run measures."""

    mode: str
    reps: dict[str, int]
    growth_lengths: tuple[int, ...]
    nbval_notebooks: int | None  # None: every committed lesson
    import_listing: bool  # the extra `python -X importtime` children behind the module listing


def plan(quick: bool) -> Plan:
    if quick:
        return Plan(
            "quick",
            {"contenders": 3, "parallel": 3, "imports": 2, "growth": 2, "nbval": 1},
            growth.QUICK_LENGTHS,
            1,
            False,
        )
    return Plan(
        "full", {"contenders": 7, "parallel": 5, "imports": 5, "growth": 3, "nbval": 2}, growth.LENGTHS, None, True
    )


def _ms(values: list[float]) -> str:
    return f"{Spread.of(values).median * 1e3:.1f} ms"


# (row name, numerator, denominator, goal) for the side-by-side contenders; None: report only.
CONTENDER_ROWS = [
    ("harness_lab (4 valves) / bare loop", "harness_lab", "bare", "<= 1.15"),
    # The article's loop keeps SDK objects, which the SDK serialises more slowly than harness_lab's
    # dicts; these rows show how much of the margin above is that format alone. Report only: the
    # goal is judged against the article's loop, which is what learners write.
    ("harness_lab / bare loop (dict history)", "harness_lab", "bare_dicts", None),
    ("bare loop (dict history) / bare loop", "bare_dicts", "bare", None),
    # What the default model's thinking costs offline (issue 22): signed thinking blocks in every
    # reply and the round-trip checks on every request, against the same loop with thinking off.
    ("bare loop / bare loop (thinking off)", "bare", "bare_no_thinking", None),
    ("pydantic-ai (streamed) / harness_lab", "pydantic_ai_stream", "harness_lab", ">= 2.0"),
    ("pydantic-ai (agent.run) / harness_lab", "pydantic_ai_run", "harness_lab", ">= 2.0"),
    ("tool_runner (thread=False) / harness_lab", "tool_runner", "harness_lab", ">= 1.0"),
    # Not like with like (it sends only the new turn), so labelled and without a goal.
    ("tool_runner (beta thread, sends only new turns) / harness_lab", "tool_runner_threaded", "harness_lab", None),
    ("emulator share of the bare loop", "emulator", "bare", None),
]


def contender_rows(reps: int) -> list[Row]:
    why_not_threaded = tool_runner.threaded_unsupported()
    times = side_by_side.measure(reps, threaded=why_not_threaded is None)
    rows = []
    for name, top, bottom, goal in CONTENDER_ROWS:
        if top not in times.wall:
            rows.append(Row(name, None, goal, note=f"skipped: {why_not_threaded}"))
            continue
        rows.append(
            Row(
                name,
                Spread.of(ratios(times.wall, top, bottom)),
                goal,
                cpu=Spread.of(ratios(times.cpu, top, bottom)),
                context=f"{_ms(times.wall[top])} / {_ms(times.wall[bottom])} for {side_by_side.ROUNDS} rounds",
            )
        )
        if top == "harness_lab" and bottom == "bare":
            rows.append(overhead_row(times.wall, times.cpu))
    return rows


def overhead_row(wall: dict[str, list[float]], cpu: dict[str, list[float]]) -> Row:
    """What harness_lab adds to each turn of the bare loop, in ms: the goal's second half (under 1 ms).

    A ratio hides how much a turn costs; a model call takes seconds live, so a millisecond is the
    scale on which the harness's own work would start to show."""

    def per_turn(times: dict[str, list[float]]) -> list[float]:
        return [(a - b) * 1e3 / side_by_side.ROUNDS for a, b in zip(times["harness_lab"], times["bare"])]

    return Row(
        "harness_lab per-turn overhead over the bare loop, ms",
        Spread.of(per_turn(wall)),
        "<= 1.0",
        cpu=Spread.of(per_turn(cpu)),
        ratio=False,
        context=f"(harness_lab − bare loop) / {side_by_side.ROUNDS} turns, in the same repetition",
    )


def nbval_row(reps: int, notebooks: int | None) -> Row:
    lessons = nbval_suite.lesson_notebooks()
    every = len(lessons)
    lessons = lessons[:notebooks]
    name = "nbval: lesson notebooks / empty notebooks"
    if notebooks is not None:
        name = f"nbval (quick: {len(lessons)} of {every} lessons, {', '.join(p.stem for p in lessons)}) / as many empty"
    suite = nbval_suite.measure(reps, lessons)
    if suite is None:
        return Row(name, None, note="skipped: no notebooks/*.ipynb committed yet")
    failures = "; ".join(sorted(set(suite["failures"])))
    return Row(
        name,
        Spread.of([a / b for a, b in zip(suite["lessons"], suite["empty"])]),
        note=f"failing runs: {failures}" if failures else "",
        context=f"{len(lessons)} notebooks: lessons {Spread.of(suite['lessons']).median:.1f} s, "
        f"empty {Spread.of(suite['empty']).median:.1f} s",
    )


def measure(skip: set[str], how: Plan, say) -> Results:
    """Every part not in ``skip``, as much of it as ``how`` says."""
    reps = how.reps
    rows: list[Row] = []
    if "contenders" not in skip:
        say(f"contenders, {side_by_side.ROUNDS} rounds × {reps['contenders']} interleaved repetitions")
        rows += contender_rows(reps["contenders"])
    if "parallel" not in skip:
        say("parallel tools")
        rows.append(
            Row(
                f"parallel turn ({parallel_tools.CALLS} × 200 ms tools) / one call",
                Spread.of(parallel_tools.ratios(reps["parallel"])),
                "<= 1.3",
            )
        )
    import_heavy = []
    if "imports" not in skip:
        say("import time")
        imports = import_time.measure(reps["imports"])
        rows.append(
            Row(
                "import harness_lab / import anthropic",
                import_time.summary(imports),
                "<= 1.2",
                context=f"import anthropic {_ms(imports['anthropic'])}, "
                f"import harness_lab {_ms(imports['harness_lab'])}",
            )
        )
        rows.append(
            Row(
                "import harness_lab + first tool call / import anthropic",
                import_time.summary(imports, "first_call"),
                context=f"import harness_lab and call one tool {_ms(imports['first_call'])} "
                "(an input that fits a plain schema is checked without importing jsonschema)",
            )
        )
        if how.import_listing:
            import_heavy = import_time.extra_imports()
    if "nbval" not in skip:
        say("notebook suite under nbval")
        rows.append(nbval_row(reps["nbval"], how.nbval_notebooks))
    grown = None
    if "growth" not in skip:
        say(f"per-call cost at {', '.join(map(str, how.growth_lengths))} rounds")
        grown = growth.measure(reps["growth"], how.growth_lengths)

    profiles = _profiles([row for row in rows if row.met is False], say)
    ran = [k for k in PARTS if k not in skip]
    settings = [f"{how.mode} run", "repetitions " + (", ".join(f"{k} {reps[k]}" for k in ran) or "none, all skipped")]
    if "growth" in ran:
        settings.append(f"growth up to {max(how.growth_lengths)} rounds, short runs several to a sample")
    if "nbval" in ran and how.nbval_notebooks is not None:
        settings.append(f"nbval on {how.nbval_notebooks} of {len(nbval_suite.lesson_notebooks())} lesson notebooks")
    if "imports" in ran and not how.import_listing:
        settings.append("imports without the module listing")
    return Results(rows, grown, profiles, import_heavy, "; ".join(settings))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="fewer repetitions, one lesson notebook, growth up to 50 rounds"
    )
    parser.add_argument("--no-write", action="store_true", help="print only; do not rewrite docs/")
    parser.add_argument("--skip", default="", help=f"comma-separated parts to skip: {', '.join(PARTS)}")
    args = parser.parse_args(argv)
    skip = {s.strip() for s in args.skip.split(",") if s.strip()}
    if skip - set(PARTS):
        parser.error(f"unknown parts: {', '.join(sorted(skip - set(PARTS)))}")
    started = time.perf_counter()

    def say(what: str) -> None:
        print(f"[{time.perf_counter() - started:6.1f} s] {what}", file=sys.stderr, flush=True)

    results = measure(skip, plan(args.quick), say)
    print(printed(results))
    if not args.no_write:
        write(results)
        say("wrote docs/benchmarks.md and docs/img/benchmarks.png")
    say("done")
    return 0


def _profiles(missed: list[Row], say) -> dict[str, str]:
    """pyinstrument profiles of what a missed goal blames: the harness run (with the bare loop's
    beside it, to show what only the harness spends time on) or the parallel turn."""
    from . import bare_loop, harness

    blamed: dict[str, list[str]] = {}
    for row in missed:
        if row.name.startswith(("harness_lab", "pydantic-ai", "tool_runner")):
            blamed.setdefault("harness", []).append(row.name)
        elif row.name.startswith("parallel"):
            blamed.setdefault("parallel", []).append(row.name)
    profiles = {}
    n = side_by_side.ROUNDS
    if "harness" in blamed:
        say("profiling harness_lab and the bare loop")
        ours = profiling.profile([harness.prepare(n) for _ in range(3)])
        theirs = profiling.profile([bare_loop.prepare(n) for _ in range(3)])
        profiles[f"harness_lab, 3 runs of {n} rounds (missed: {'; '.join(blamed['harness'])})"] = (
            "top self time:\n"
            + profiling.as_text(ours["self"])
            + "\n\nharness_lab functions (emulator left out) by cumulative time:\n"
            + profiling.as_text(ours["package"])
            + "\n\nfor comparison, the bare loop's top self time:\n"
            + profiling.as_text(theirs["self"])
        )
    if "parallel" in blamed:
        say("profiling the parallel turn")
        hot = profiling.profile([parallel_tools.turn_seconds for _ in range(3)])
        profiles[f"the parallel turn, 3 runs (missed: {'; '.join(blamed['parallel'])})"] = (
            "top self time:\n"
            + profiling.as_text(hot["self"])
            + "\n\nharness_lab functions by cumulative time:\n"
            + profiling.as_text(hot["package"])
        )
    return profiles


if __name__ == "__main__":
    sys.exit(main())
