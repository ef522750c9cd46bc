"""Interleaved timing and the statistics every row reports.

These machines are noisy, so a number is only ever a ratio taken inside one repetition: each
repetition runs every contender once, in a rotated order, and each ratio pairs two timings from
the same repetition. The spread is reported beside the median, never a lone absolute time.
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from .contender import Outcome, Prepared


@dataclass(frozen=True)
class Spread:
    """Median with the quartiles and extremes of a sample."""

    median: float
    q1: float
    q3: float
    low: float
    high: float
    n: int

    @classmethod
    def of(cls, values: Sequence[float]) -> Spread:
        values = sorted(values)
        if len(values) == 1:
            v = values[0]
            return cls(v, v, v, v, v, 1)
        q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive")
        return cls(statistics.median(values), q1, q3, values[0], values[-1], len(values))

    def text(self, fmt: str = "{:.2f}") -> str:
        f = fmt.format
        return f"{f(self.median)} (IQR {f(self.q1)}–{f(self.q3)}, min–max {f(self.low)}–{f(self.high)}, n={self.n})"


class BrokenRun(AssertionError):
    """A contender finished with a different answer or turn count than the script demands."""


@dataclass
class Timings:
    """Seconds per run for each contender: wall clock (``perf_counter``, what the goals judge) and
    this process's CPU time (all its threads), which other processes' load on the machine cannot
    inflate, as a cross-check when the machine is busy."""

    wall: dict[str, list[float]]
    cpu: dict[str, list[float]]


def timed(prepared: Prepared) -> tuple[float, float, Outcome]:
    """Wall and CPU seconds of one run, and its outcome."""
    # Collect leftovers of the previous contender first, so its garbage is not billed to this one.
    gc.collect()
    cpu, start = time.process_time(), time.perf_counter()
    outcome = prepared()
    return time.perf_counter() - start, time.process_time() - cpu, outcome


def interleaved(
    setups: Mapping[str, Callable[[], Prepared]],
    reps: int,
    check: Callable[[str, Outcome], None],
    warmup: int = 1,
) -> Timings:
    """Seconds per run for each contender, ``reps`` repetitions, order rotated each repetition.

    ``setups[name]()`` builds a fresh run (untimed); ``check`` rejects a broken outcome, so a
    contender that skipped work cannot look fast.
    """
    names = list(setups)
    for _ in range(warmup):
        for name in names:
            check(name, setups[name]()())
    times = Timings({name: [] for name in names}, {name: [] for name in names})
    for rep in range(reps):
        shift = rep % len(names)
        for name in names[shift:] + names[:shift]:
            wall, cpu, outcome = timed(setups[name]())
            check(name, outcome)
            times.wall[name].append(wall)
            times.cpu[name].append(cpu)
    return times


def ratios(times: Mapping[str, list[float]], numerator: str, denominator: str) -> list[float]:
    """Per-repetition ratios: repetition i of one contender over repetition i of the other."""
    return [a / b for a, b in zip(times[numerator], times[denominator])]
