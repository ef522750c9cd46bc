"""The benchmark must never time a broken run: each contender finishes the same short script alike.

No timing is asserted here (these machines are too noisy); only that every contender did the
scripted work, that the script notices when a contender does not, and that the report renders.
"""

from __future__ import annotations

import pytest

pytest.importorskip("pydantic_ai", reason="the bench extra (pydantic-ai-slim[anthropic]) is not installed")
pytest.importorskip("pyinstrument", reason="the bench extra (pyinstrument) is not installed")

from benchmarks import bare_loop, growth, parallel_tools, profiling, report, side_by_side, workload  # noqa: E402
from benchmarks.contender import Outcome, scripted_emulator  # noqa: E402
from benchmarks.timing import Spread, interleaved, ratios  # noqa: E402
from harness_lab.emulator import emulated_client  # noqa: E402

ROUNDS = 3


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
    assert parallel_tools.turn_seconds() > parallel_tools.SLEEP


def test_growth_fit_recovers_a_line():
    a, b, r2 = growth.fit([10, 25, 50, 100, 200], [1 + 2 * x for x in (10, 25, 50, 100, 200)])
    assert (round(a, 6), round(b, 6), round(r2, 6)) == (1.0, 2.0, 1.0)


def test_within_run_times_every_model_call():
    assert len(growth.within_run(ROUNDS)) == ROUNDS + 1


def test_profile_names_harness_frames():
    from benchmarks import harness

    hot = profiling.profile(harness.prepare(ROUNDS))
    assert any("harness_lab/loop.py" in h.where for h in hot["package"])


def test_report_renders_table_and_plot(tmp_path):
    rows = [report.Row("x / y", Spread.of([1.0, 1.2, 1.1]), "<= 1.10"), report.Row("skipped row", None, note="why")]
    spread = Spread.of([0.001, 0.002])
    results = report.Results(
        rows, {10: {"bare": spread, "harness_lab": spread}, 20: {"bare": spread, "harness_lab": spread}},
        {"bare": (0.001, 0.0, 1.0), "harness_lab": (0.001, 0.0, 1.0)}, [0.001, 0.002], settings="test",
    )
    text = report.markdown(results, "hand-written write-up")
    assert "| x / y | 1.10 |" in text and "| met |" in text and "skipped" in text
    page = tmp_path / "page.md"
    page.write_text(text, encoding="utf-8")
    assert report.hand_written(page) == "hand-written write-up"  # a rewrite keeps the write-up
    path = tmp_path / "plot.png"
    report.plot(results, path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
