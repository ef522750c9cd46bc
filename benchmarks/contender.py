"""What every contender hands back, so the driver can time them alike and check they did the work."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from harness_lab.emulator import Emulator

from . import workload


@dataclass(frozen=True)
class Outcome:
    """The visible result of one run: the final answer, tool rounds seen by the contender, model calls."""

    text: str
    rounds: int
    model_calls: int


# A contender's setup returns a zero-argument function: setup (clients, agents) stays out of the timing.
Prepared = Callable[[], Outcome]


def scripted_emulator(rounds: int) -> Emulator:
    """A fresh emulator running the shared workload, so no contender inherits another's request log."""
    return Emulator(workload.policy(rounds))
