"""How per-turn cost grows with run length: 10 to 200 tool rounds, harness_lab beside the bare loop.

Every request resends the whole history, so one turn's cost should be linear in the history it
carries: per-turn cost over a run of N rounds is a + b·N (the total is quadratic). A harness that
rescanned all history in Python on each turn, or did something per pair of turns, would bend that
line upward. ``fit`` reports the straight line and how well it fits; ``within_run`` times each turn
of one long run directly from the generator's events.
"""

from __future__ import annotations

import statistics
import time

from . import bare_loop, harness, workload
from .contender import scripted_emulator
from .timing import interleaved

LENGTHS = (10, 25, 50, 100, 200)


def _check(rounds: int):
    def check(name, outcome) -> None:
        if (outcome.text, outcome.rounds) != (workload.final_text(rounds), rounds):
            raise AssertionError(f"{name} at {rounds} rounds: {outcome}")

    return check


def per_turn(reps: int, lengths=LENGTHS) -> dict[int, dict[str, list[float]]]:
    """Wall seconds per model call, for each run length and contender, interleaved within each length."""
    table = {}
    for index, rounds in enumerate(lengths):
        setups = {"bare": lambda r=rounds: bare_loop.prepare(r), "harness_lab": lambda r=rounds: harness.prepare(r)}
        # Warm up before the first (shortest) length only: later lengths run on warm code.
        times = interleaved(setups, reps, _check(rounds), warmup=1 if index == 0 else 0)
        table[rounds] = {name: [s / (rounds + 1) for s in seconds] for name, seconds in times.wall.items()}
    return table


def fit(xs: list[float], ys: list[float]) -> tuple[float, float, float]:
    """Least-squares line y = a + b·x and its R²."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    a = my - b * mx
    ss_res = sum((y - a - b * x) ** 2 for x, y in zip(xs, ys))
    ss_tot = sum((y - my) ** 2 for y in ys)
    return a, b, 1 - ss_res / ss_tot if ss_tot else 1.0


def within_run(rounds: int = 200, reps: int = 1) -> list[float]:
    """Seconds of each turn of a harness_lab run, in order (turn k carries k earlier rounds).

    With ``reps`` > 1, the median per turn over that many runs: one turn is short enough for a
    single scheduler hiccup to dwarf it.
    """
    from harness_lab.emulator import emulated_client

    runs = []
    for _ in range(reps):
        run = harness.make_run(emulated_client(scripted_emulator(rounds)), rounds)
        seconds, last = [], time.perf_counter()
        for _ in run.start(workload.PROMPT):
            now = time.perf_counter()
            seconds.append(now - last)
            last = now
        runs.append(seconds)
    return [statistics.median(turn) for turn in zip(*runs)]
