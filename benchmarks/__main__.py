"""Run every benchmark, print each ratio with its spread, and rewrite docs/benchmarks.md and its plot.

    python -m benchmarks            # the full run (about three minutes on two cores)
    python -m benchmarks --quick    # fewer repetitions, for a quick look
    python -m benchmarks --no-write # print only; leave docs/ alone
    python -m benchmarks --skip nbval,imports

Profiles (pyinstrument) are taken only for a goal that was missed, after the timings, so
profiling never slows a measured run.
"""

from __future__ import annotations

import argparse
import sys
import time

from . import growth, import_time, nbval_suite, parallel_tools, profiling, side_by_side, tool_runner
from .report import Results, Row, printed, write
from .timing import Spread, ratios

PARTS = ("contenders", "parallel", "imports", "growth", "nbval")


def _reps(quick: bool) -> dict[str, int]:
    if quick:
        return {"contenders": 3, "parallel": 3, "imports": 3, "growth": 1, "nbval": 1}
    return {"contenders": 7, "parallel": 5, "imports": 5, "growth": 2, "nbval": 2}


def _ms(values: list[float]) -> str:
    return f"{Spread.of(values).median * 1e3:.1f} ms"


# (row name, numerator, denominator, goal) for the side-by-side contenders; None: report only.
CONTENDER_ROWS = [
    ("harness_lab (4 valves) / bare loop", "harness_lab", "bare", "<= 1.10"),
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
        rows.append(Row(
            name, Spread.of(ratios(times.wall, top, bottom)), goal,
            cpu=Spread.of(ratios(times.cpu, top, bottom)),
            context=f"{_ms(times.wall[top])} / {_ms(times.wall[bottom])} for {side_by_side.ROUNDS} rounds",
        ))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--no-write", action="store_true", help="print only; do not rewrite docs/")
    parser.add_argument("--skip", default="", help=f"comma-separated parts to skip: {', '.join(PARTS)}")
    args = parser.parse_args(argv)
    skip = {s.strip() for s in args.skip.split(",") if s.strip()}
    if skip - set(PARTS):
        parser.error(f"unknown parts: {', '.join(sorted(skip - set(PARTS)))}")
    reps = _reps(args.quick)
    started = time.perf_counter()

    def say(what: str) -> None:
        print(f"[{time.perf_counter() - started:6.1f} s] {what}", file=sys.stderr, flush=True)

    rows: list[Row] = []
    if "contenders" not in skip:
        say(f"contenders, {side_by_side.ROUNDS} rounds × {reps['contenders']} interleaved repetitions")
        rows += contender_rows(reps["contenders"])
    if "parallel" not in skip:
        say("parallel tools")
        rows.append(Row(f"parallel turn ({parallel_tools.CALLS} × 200 ms tools) / one call",
                        Spread.of(parallel_tools.ratios(reps["parallel"])), "<= 1.3"))
    import_heavy = []
    if "imports" not in skip:
        say("import time")
        imports = import_time.measure(reps["imports"])
        rows.append(Row("import harness_lab / import anthropic", import_time.summary(imports), "<= 1.2",
                        context=f"import anthropic {_ms(imports['anthropic'])}, "
                                f"import harness_lab {_ms(imports['harness_lab'])}"))
        rows.append(Row("import harness_lab + first tool call / import anthropic",
                        import_time.summary(imports, "first_call"),
                        context=f"import harness_lab and call one tool {_ms(imports['first_call'])} "
                                "(the first call imports jsonschema)"))
        import_heavy = import_time.extra_imports()
    if "nbval" not in skip:
        say("notebook suite under nbval")
        suite = nbval_suite.measure(reps["nbval"])
        if suite is None:
            rows.append(Row("nbval: lesson notebooks / empty notebooks", None,
                            note="skipped: no notebooks/*.ipynb committed yet"))
        else:
            rows.append(Row("nbval: lesson notebooks / empty notebooks",
                            Spread.of([a / b for a, b in zip(suite["lessons"], suite["empty"])]),
                            note=f"failing runs: {'; '.join(sorted(set(suite['failures'])))}" if suite["failures"] else "",
                            context=f"{len(nbval_suite.lesson_notebooks())} notebooks: lessons "
                                    f"{Spread.of(suite['lessons']).median:.1f} s, empty "
                                    f"{Spread.of(suite['empty']).median:.1f} s"))
    table, fits, within = {}, {}, []
    if "growth" not in skip:
        say(f"per-call cost at {', '.join(map(str, growth.LENGTHS))} rounds")
        per_call = growth.per_turn(reps["growth"])
        table = {n: {name: Spread.of(v) for name, v in g.items()} for n, g in per_call.items()}
        ns = list(table)
        fits = {name: growth.fit(ns, [table[n][name].median for n in ns]) for name in ("bare", "harness_lab")}
        within = growth.within_run(max(growth.LENGTHS), reps=max(3, reps["growth"]))

    profiles = _profiles([row for row in rows if row.met is False], say)
    mode = "quick" if args.quick else "full"
    settings = f"{mode} run, repetitions " + ", ".join(f"{k} {v}" for k, v in reps.items() if k not in skip)
    results = Results(rows, table, fits, within, profiles, import_heavy, settings)
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
            "top self time:\n" + profiling.as_text(ours["self"])
            + "\n\nharness_lab functions (emulator left out) by cumulative time:\n"
            + profiling.as_text(ours["package"])
            + "\n\nfor comparison, the bare loop's top self time:\n" + profiling.as_text(theirs["self"])
        )
    if "parallel" in blamed:
        say("profiling the parallel turn")
        hot = profiling.profile([parallel_tools.turn_seconds for _ in range(3)])
        profiles[f"the parallel turn, 3 runs (missed: {'; '.join(blamed['parallel'])})"] = (
            "top self time:\n" + profiling.as_text(hot["self"])
            + "\n\nharness_lab functions by cumulative time:\n" + profiling.as_text(hot["package"])
        )
    return profiles


if __name__ == "__main__":
    sys.exit(main())
