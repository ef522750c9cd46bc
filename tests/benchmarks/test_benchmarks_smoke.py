"""The benchmark must never time a broken run: each contender finishes the same short script alike.

No speed is asserted here (these machines are too noisy); only that every contender did the
scripted work, that the script notices when a contender does not, that the timed notebooks stay
offline, and that the report renders whatever parts were skipped. The one bound on a time, for the
parallel turn, is five times wider than the turn needs and only tells concurrent tools from serial.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import __main__ as driver
from benchmarks import bare_loop, growth, parallel_tools, profiling, report, side_by_side, workload
from benchmarks.contender import Outcome, scripted_emulator
from benchmarks.timing import Spread, Timings, interleaved, ratios
from harness_lab.emulator import emulated_client

# Looked for, not imported: every pytest worker collects this file, and importing pydantic-ai there would
# leave its 24 MB in each worker (benchmarks/pydantic_agent.py imports it only when a contender is built).
for _name, _extra in (("pydantic_ai", "pydantic-ai-slim[anthropic]"), ("pyinstrument", "pyinstrument")):
    if importlib.util.find_spec(_name) is None:
        pytest.skip(f"the bench extra ({_extra}) is not installed", allow_module_level=True)

ROUNDS = 3
ROOT = Path(__file__).resolve().parents[2]


def test_collecting_this_file_loads_no_bench_extra():
    # Every pytest worker imports this file, and a fork costs more the larger the process it copies.
    code = "import sys, tests.benchmarks.test_benchmarks_smoke; print(sorted({'pydantic_ai', 'pyinstrument'} & set(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize("name", list(side_by_side.contenders(ROUNDS)))
def test_each_contender_does_the_scripted_work(name):
    outcome = side_by_side.contenders(ROUNDS)[name]()()
    assert outcome == Outcome(workload.final_text(ROUNDS), ROUNDS, ROUNDS + 1)


def test_all_contenders_agree_with_each_other():
    outcomes = {name: setup()() for name, setup in side_by_side.contenders(ROUNDS).items()}
    assert len(set(outcomes.values())) == 1, outcomes


def test_the_script_notices_wrong_tool_results():
    # A loop that answers every call with the wrong value must not reach the final answer.
    def wrong(**_):
        return "???"

    emulator = scripted_emulator(ROUNDS)
    text, rounds = bare_loop.run_conversation(
        emulated_client(emulator), workload.PROMPT, workload.TOOL_DEFINITIONS, {"add": wrong, "echo": wrong}
    )
    assert text != workload.final_text(ROUNDS)
    assert rounds == 1


def test_checker_rejects_a_short_run():
    check = side_by_side.checker(ROUNDS)
    with pytest.raises(AssertionError):
        check("short", Outcome(workload.final_text(ROUNDS), ROUNDS - 1, ROUNDS))


def test_interleaved_runs_every_contender_each_repetition():
    calls = []

    def setup(name):
        def prepared():
            calls.append(name)
            return Outcome(name, 0, 0)

        return lambda: prepared

    times = interleaved({"a": setup("a"), "b": setup("b")}, reps=3, check=lambda n, o: None, warmup=0)
    assert [len(v) for v in times.wall.values()] == [3, 3] == [len(v) for v in times.cpu.values()]
    assert calls == ["a", "b", "b", "a", "a", "b"]  # rotated order
    assert len(ratios(times.wall, "a", "b")) == 3


def test_spread_quartiles():
    s = Spread.of([5.0, 1.0, 3.0, 2.0, 4.0])
    assert (s.median, s.q1, s.q3, s.low, s.high, s.n) == (3.0, 2.0, 4.0, 1.0, 5.0, 5)


def test_parallel_turn_runs_eight_naps():
    # One turn of eight 200 ms tools; its own check raises if any result is missing or out of order.
    # Not a speed goal: the upper bound is far above one call and far below the 1.6 s of eight in a row,
    # so it only tells concurrent from serial.
    assert parallel_tools.SLEEP < parallel_tools.turn_seconds() < 1.0


def test_dict_history_variant_sends_plain_dicts():
    def assistant_block_types(plain_history):
        client = emulated_client(scripted_emulator(ROUNDS))
        create, seen = client.messages.create, []

        def recording(**request):
            seen.append({type(b) for m in request["messages"] if m["role"] == "assistant" for b in m["content"]})
            return create(**request)

        client.messages.create = recording
        bare_loop.run_conversation(
            client, workload.PROMPT, workload.TOOL_DEFINITIONS, workload.TOOL_FUNCTIONS, plain_history
        )
        return set().union(*seen)

    assert assistant_block_types(plain_history=True) == {dict}
    assert dict not in assistant_block_types(plain_history=False)  # the article's loop keeps SDK objects


def test_the_thinking_off_variant_gets_no_thinking_blocks_and_the_default_does():
    def reply_starts(**variant):
        client = emulated_client(scripted_emulator(ROUNDS))
        create, seen = client.messages.create, set()

        def recording(**request):
            response = create(**request)
            seen.add(response.content[0].type)
            return response

        client.messages.create = recording
        bare_loop.run_conversation(
            client, workload.PROMPT, workload.TOOL_DEFINITIONS, workload.TOOL_FUNCTIONS, **variant
        )
        return seen

    assert reply_starts(thinking={"type": "disabled"}) == {"tool_use", "text"}
    assert reply_starts() == {"thinking"}  # the default model thinks when nothing is said


def test_nbval_suite_runs_without_the_api_key(tmp_path):
    # A key in the shell that starts the benchmarks must not reach the timed notebooks, or they would
    # call live Claude. The probe notebook's one cell fails if the kernel sees either variable.
    probe = tmp_path / "probe.ipynb"
    probe.write_text(
        json.dumps(
            {
                "cells": [
                    {
                        "cell_type": "code",
                        "execution_count": None,
                        "metadata": {},
                        "outputs": [],
                        "source": [
                            "import os\n",
                            "assert not {'ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL'} & set(os.environ)",
                        ],
                    }
                ],
                "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
                "nbformat": 4,
                "nbformat_minor": 5,
            }
        ),
        encoding="utf-8",
    )
    child = (
        "import sys; from pathlib import Path; from benchmarks import nbval_suite; failures = []; "
        "nbval_suite.suite_seconds([Path(sys.argv[1])], failures); print(failures)"
    )
    env = {**os.environ, "ANTHROPIC_API_KEY": "not-a-real-key", "ANTHROPIC_BASE_URL": "http://127.0.0.1:9"}
    done = subprocess.run(
        [sys.executable, "-c", child, str(probe)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_growth_fit_recovers_a_line():
    a, b, r2 = growth.fit([10, 25, 50, 100, 200], [1 + 2 * x for x in (10, 25, 50, 100, 200)])
    assert (round(a, 6), round(b, 6), round(r2, 6)) == (1.0, 2.0, 1.0)


def test_within_run_times_every_model_call():
    assert len(growth.within_run(ROUNDS)) == ROUNDS + 1


def test_profile_names_harness_frames():
    from benchmarks import harness

    hot = profiling.profile(harness.prepare(ROUNDS))
    assert any("harness_lab/loop.py" in h.where for h in hot["package"])


def test_growth_measures_four_series_interleaved():
    g = growth.measure(reps=1, lengths=(2, 4), within_reps=1, per_sample=4)
    assert g.runs == {2: 2, 4: 1}
    names = {*growth.CONTENDERS, *(n + growth.GC_OFF for n in growth.CONTENDERS)}
    for t in g.per_call.values():
        assert set(t.wall) == set(t.cpu) == names
        assert all(len(v) == 1 and min(v) > 0 for v in [*t.wall.values(), *t.cpu.values()])
    assert len(g.within_run) == 4 + 1
    assert len(growth.verdict(g)) == 4


def _growth(
    per_call_ms: dict[int, float], harness_at: dict | None = None, harness_extra_ms: float = 0.0
) -> growth.Growth:
    """Growth data of a given per-call shape (same for both clocks and for gc off), three samples a length;
    harness_lab costs the same, times ``harness_at[n]`` at length n, plus ``harness_extra_ms`` a call."""

    def series(ms):
        return [ms / 1e3 * f for f in (0.98, 1.0, 1.02)]

    per_call = {}
    for n, ms in per_call_ms.items():
        harness_ms = ms * (harness_at or {}).get(n, 1.0) + harness_extra_ms
        values = {"bare": series(ms), "harness_lab": series(harness_ms)}
        values.update({k + growth.GC_OFF: v for k, v in values.items()})
        per_call[n] = Timings(dict(values), dict(values))
    return growth.Growth(per_call, dict.fromkeys(per_call, 1), [0.001 * (1 + k / 10) for k in range(11)])


def test_verdict_is_computed_from_the_data():
    line = {n: 1 + 0.04 * n for n in growth.LENGTHS}
    assert [c.met for c in growth.verdict(_growth(line))] == [True, True, True, True]
    # The physical limit bends at long runs: harness_lab is not blamed for what the bare loop does too.
    both_bent = growth.verdict(_growth({**line, 200: 2 * line[200]}))
    assert [c.met for c in both_bent] == [True, True, True, True]
    # harness_lab alone bending: its slope and its ratio at the longest run both give it away.
    harness_bent = _growth(line, harness_at={200: 2.0})
    assert [c.met for c in growth.verdict(harness_bent)] == [False, False, False, False]
    # A constant extra cost per call (a fixed overhead) is no growth at all.
    fixed = _growth(line, harness_extra_ms=0.3)
    assert [c.met for c in growth.verdict(fixed)] == [True, True, True, True]


MEASURED = [report.Row("x / y", Spread.of([1.0, 1.2, 1.1]), "<= 1.10"), report.Row("skipped row", None, note="why")]


@pytest.mark.parametrize("rows", [MEASURED, MEASURED[1:], []], ids=["measured", "only-skipped-rows", "no-rows"])
@pytest.mark.parametrize("with_growth", [True, False], ids=["growth", "growth-skipped"])
def test_report_renders_table_and_plot(tmp_path, rows, with_growth):
    # Every --skip combination leaves the report some subset of rows, with or without the growth data.
    results = report.Results(rows, _growth({10: 1.4, 20: 1.8, 50: 3.0}) if with_growth else None, settings="test")
    text = report.markdown(results, "hand-written write-up")
    assert ("| x / y | 1.10 |" in text and "| met |" in text) == (rows == MEASURED)
    assert ("| skipped row | skipped |" in text) == bool(rows)
    assert ("Verdict" in text) == with_growth
    page = tmp_path / "page.md"
    page.write_text(text, encoding="utf-8")
    assert report.hand_written(page) == "hand-written write-up"  # a rewrite keeps the write-up
    assert report.printed(results)
    path = tmp_path / "plot.png"
    report.plot(results, path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_skipping_growth_still_writes_the_page_and_plot(tmp_path):
    # The driver end to end with only the parallel part measured: no growth data at all.
    skip = set(driver.PARTS) - {"parallel"}
    results = driver.measure(skip, driver.plan(quick=True), say=lambda _: None)
    assert results.growth is None and [r.name for r in results.rows] == [
        f"parallel turn ({parallel_tools.CALLS} × 200 ms tools) / one call"
    ]
    assert "Not measured in this run" in report.markdown(results)
    report.plot(results, tmp_path / "plot.png")
    assert (tmp_path / "plot.png").stat().st_size > 0


def test_the_import_timing_children_run():
    # Each child runs a statement against this tree's package: a renamed API breaks it at once.
    from benchmarks import import_time

    assert import_time.import_seconds(import_time.FIRST_CALL) > 0


def test_the_limited_run_timing_runs_each_way(capsys):
    # A run that did not answer 1 raises: a cost measured on a broken run would mean nothing.
    from benchmarks import limited_run

    assert limited_run.main(["--runs", "1"]) == 0
    printed = capsys.readouterr().out.splitlines()[1:5]
    assert [line[2:27].rstrip() for line in printed] == list(limited_run.WAYS)
