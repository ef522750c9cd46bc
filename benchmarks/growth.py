"""How per-call cost grows with run length: 10 to 200 tool rounds, harness_lab beside the bare loop.

Every request resends the whole history, so one call's cost should be linear in the history it
carries: per-call cost over a run of N rounds is a + b·N (the total is quadratic). A harness that
rescanned all history in Python on each turn, or did something per pair of turns, would bend that
line upward, and its per-call cost over the bare loop's would climb with N.

Each run is timed in wall and CPU time with gc as normal, and again with gc disabled: Python's
cyclic collector scans every live object on a full collection, and a long history is many live
objects, so gc alone can bend both curves at long runs. ``verdict`` judges what harness_lab adds
to the bare loop's curve against fixed thresholds; ``within_run`` times each turn of one long run directly from the generator's events.
"""

from __future__ import annotations

import gc
import statistics
import time
from dataclasses import dataclass

from . import bare_loop, harness, workload
from .contender import Prepared, scripted_emulator
from .timing import Timings, interleaved, ratios

LENGTHS = (10, 25, 50, 100, 200)
QUICK_LENGTHS = (10, 25, 50)
CONTENDERS = ("bare", "harness_lab")
GC_OFF = " (gc off)"
# The physical limit bends too: the SDK and the emulator serialise the whole history on each call,
# and Python's cyclic gc scans it, so neither contender's per-call cost is a perfect line. The claim
# is about what harness_lab adds: its per-call cost may grow with run length at most this many times
# as fast as the bare loop's (fitted slopes) ...
SLOPE_BOUND = 1.15
# ... and at the longest run its per-call cost over the bare loop's stays at or under this.
RATIO_BOUND = 1.25


# Short runs are timed several to a sample, so that every sample carries about this many rounds of
# work: a lone 10-round run lasts little longer than the noise on it, and one more repetition would
# cost a ``gc.collect()`` that takes longer than the run (0.2 s on a busy two-core machine).
ROUNDS_PER_SAMPLE = 100


def runs_per_sample(rounds: int, per_sample: int = ROUNDS_PER_SAMPLE) -> int:
    return max(1, per_sample // rounds)


def _check(rounds: int):
    def check(name, outcome) -> None:
        if (outcome.text, outcome.rounds) != (workload.final_text(rounds), rounds):
            raise AssertionError(f"{name} at {rounds} rounds: {outcome}")

    return check


def _sample(name: str, prepare, rounds: int, count: int, gc_off: bool) -> Prepared:
    """``count`` fresh runs back to back, each checked, as one timed call."""
    runs = [prepare(rounds) for _ in range(count)]
    check = _check(rounds)

    def go():
        if gc_off:
            gc.disable()
        try:
            for run in runs:
                outcome = run()
                check(name, outcome)
            return outcome
        finally:
            gc.enable()

    return go


@dataclass
class Growth:
    """Seconds per model call for each run length, contender and clock, one value per sample;
    contenders with ``GC_OFF`` in their name ran with gc disabled. All four ran interleaved in the
    same repetitions."""

    per_call: dict[int, Timings]
    runs: dict[int, int]  # runs timed back to back in each sample, by length
    within_run: list[float]  # seconds of each turn of one long harness_lab run (median over a few runs)

    @property
    def lengths(self) -> list[int]:
        return list(self.per_call)

    def median(self, clock: str, name: str) -> list[float]:
        """The median per-call seconds at each length."""
        return [statistics.median(getattr(t, clock)[name]) for t in self.per_call.values()]

    def ratio(self, clock: str, top: str, bottom: str) -> list[float]:
        """The median of the per-repetition ratios at each length."""
        return [statistics.median(ratios(getattr(t, clock), top, bottom)) for t in self.per_call.values()]

    def fit(self, clock: str, name: str) -> tuple[float, float, float]:
        return fit(self.lengths, self.median(clock, name))


def measure(reps: int, lengths=LENGTHS, within_reps: int = 3, per_sample: int = ROUNDS_PER_SAMPLE) -> Growth:
    """Per-call seconds at each length, ``reps`` samples each, then the turns of the longest run."""
    per_call, runs = {}, {}
    for index, rounds in enumerate(lengths):
        runs[rounds] = count = runs_per_sample(rounds, per_sample)
        setups = {}
        for name, module in zip(CONTENDERS, (bare_loop, harness)):
            for label, gc_off in ((name, False), (name + GC_OFF, True)):
                setups[label] = lambda n=label, m=module, r=rounds, c=count, off=gc_off: _sample(
                    n, m.prepare, r, c, off
                )
        # Warm up before the first (shortest) length only: later lengths run on warm code.
        times = interleaved(setups, reps, _check(rounds), warmup=1 if index == 0 else 0)
        calls = count * (rounds + 1)
        per_call[rounds] = Timings(
            {name: [s / calls for s in seconds] for name, seconds in times.wall.items()},
            {name: [s / calls for s in seconds] for name, seconds in times.cpu.items()},
        )
    return Growth(per_call, runs, within_run(max(lengths), within_reps))


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


@dataclass(frozen=True)
class Claim:
    text: str
    met: bool
    evidence: str


def verdict(g: Growth) -> list[Claim]:
    """The growth section's claims, judged from the CPU-time medians (less exposed than wall time to
    other processes' load) against ``SLOPE_BOUND`` and ``RATIO_BOUND``; each with gc as normal and
    with gc off. The fits' R² goes into the evidence: how straight the lines are, not a verdict."""
    claims = []
    for suffix, how in (("", "with gc as normal"), (GC_OFF, "with gc disabled")):
        fits = {name: g.fit("cpu", name + suffix) for name in CONTENDERS}
        slope = fits["harness_lab"][1] / fits["bare"][1] if fits["bare"][1] > 0 else float("inf")
        claims.append(
            Claim(
                f"harness_lab's per-call CPU time grows with run length at most {SLOPE_BOUND}x as fast as "
                f"the bare loop's, {how}",
                slope <= SLOPE_BOUND,
                f"slope ratio {slope:.2f}; " + ", ".join(f"R² {name} {fit[2]:.3f}" for name, fit in fits.items()),
            )
        )
        longest = g.ratio("cpu", "harness_lab" + suffix, "bare" + suffix)[-1]
        claims.append(
            Claim(
                f"harness_lab / bare per-call CPU time at {g.lengths[-1]} rounds ≤ {RATIO_BOUND}, {how}",
                longest <= RATIO_BOUND,
                f"{longest:.2f}",
            )
        )
    return claims


def gc_share(g: Growth) -> dict[str, float]:
    """At the longest run, the share of per-call CPU time that disabling gc took away, per contender."""
    return {name: 1 - g.median("cpu", name + GC_OFF)[-1] / g.median("cpu", name)[-1] for name in CONTENDERS}


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
