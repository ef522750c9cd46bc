"""What a level-2 loop counted as a turn, when it did not stop after exactly N tool turns against a model
that calls one tool per response (``miscounted``); when it stopped early, the hint names what it counted
only when more runs tell it apart.

Counting the response's content blocks moves with what a response holds: the same model with no text
(fewer blocks) lets it run more turns, one with five calls a response (more blocks) fewer. A count of two
a turn, as the history's messages (``len(messages)``) grow, moves with neither; given a higher
``MAX_TURNS`` it stops where the messages the last request carried (one plus two a turn) reach it, where
a count of three a turn stops far short of it.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from .level2_scene import never_ending, run_scene
from .sandbox import JobResult

__all__ = ["counted_per_lap", "miscounted"]


def miscounted(learner: Callable[[], tuple], n: int, seen: dict, timeout: float) -> str:
    """The hint's key for a loop that did not stop after exactly ``n`` tool turns and ``n + 1`` requests,
    against a model that never stops and calls one tool a response."""
    rounds, calls = seen["rounds"], seen["calls"]
    if (rounds, calls) == (n - 1, n):
        return "grade.l2.c3.one_early"
    if (rounds, calls) == (n, n):
        return "grade.l2.c3.results_unsent"
    if (rounds, calls) == (n + 1, n + 2):  # > where >= belongs: one lap past the limit
        return "grade.l2.c3.one_too_many"
    if (rounds, calls) == (0, 1):  # left at the first tool_use: read as no tool call
        return "grade.l2.c3.no_tools_ran"
    if 0 < rounds < n - 1 and calls == rounds + 1:  # more than one a response
        return counted_per_lap(learner, n, seen, timeout)
    if rounds > n + 1 and calls == rounds + 1:  # a clean stop at a limit of its own
        return _limit_of_its_own(learner, n, rounds, timeout)
    return "grade.l2.c3.counts"


def counted_per_lap(learner: Callable[[], tuple], n: int, seen: dict, timeout: float) -> str:
    """The hint's key for a loop that stopped after ``seen["rounds"]`` tool turns, short of ``n``."""
    rounds = seen["rounds"]
    quiet = _counts(run_scene(learner, n, never_ending(n, lambda k: 1, quiet=True), timeout))
    wide = _counts(run_scene(learner, n, never_ending(n, lambda k: 5), timeout))
    if "rounds" not in quiet or "rounds" not in wide:
        return "grade.l2.c3.counts_more"
    if quiet["rounds"] > rounds or wide["rounds"] < rounds:
        return "grade.l2.c3.counts_content"
    if quiet["rounds"] != rounds or wide["rounds"] != rounds or not hasattr(os, "fork"):
        return "grade.l2.c3.counts_more"  # without a fork, MAX_TURNS is not changed in the learner's kernel
    cap = n + 7
    capped = _counts(run_scene(learner, n, never_ending(cap, lambda k: 1), timeout, cap=cap))
    if "held" in capped and cap <= capped["held"] <= cap + 2:
        return "grade.l2.c3.counts_messages"
    return "grade.l2.c3.counts_more"


def _limit_of_its_own(learner: Callable[[], tuple], n: int, rounds: int, timeout: float) -> str:
    """The hint's key for a loop that stopped cleanly after ``rounds`` tool turns, more than ``n``: run again
    with MAX_TURNS one higher, the same count says the limit does not follow MAX_TURNS at all (a number, a
    copy set in the function, a value read from an environment variable); a count that moved, or a MAX_TURNS
    that could not be changed, leaves only that it is not MAX_TURNS."""
    if not hasattr(os, "fork"):  # the child would be a thread of the learner's kernel: change nothing there
        return "grade.l2.c3.other_limit"
    again = _counts(run_scene(learner, n, never_ending(n + 1, lambda k: 1), timeout, cap=n + 1))
    return "grade.l2.c3.fixed_limit" if again.get("rounds") == rounds else "grade.l2.c3.other_limit"


def _counts(outcome: JobResult) -> dict:
    """A run's counts when the loop stopped by itself; a run that raised, hung or was cut off tells nothing."""
    return outcome.value if outcome.status == "ok" and isinstance(outcome.value, dict) else {}
