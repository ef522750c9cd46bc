"""The event protocol a hand-written loop follows so the Stepper can step it (lesson 6).

Write the loop as a generator: ``yield turn(...)`` after each turn's tool results are in the
history, and end with ``return finished(...)`` or ``return stopped(...)``. These build the same
events the package's ``Run`` yields, so the Stepper, ``drive`` and the comparison table read a
learner's loop and the package's alike.
"""

from __future__ import annotations

from typing import Any, Generator

from ..events import Finished, Stopped, Turn, Usage
from ..messages import field, text_of

__all__ = ["drive", "finished", "stopped", "turn"]


def turn(number: int, response: Any, results: list) -> Turn:
    """Turn ``number`` is done: ``response`` asked for tools, ``results`` answered them."""
    return Turn(request_number=number, response=response, stop_reason=field(response, "stop_reason"),
                results=tuple(results), usage=Usage.of(field(response, "usage")))


def finished(response: Any, turns: int, tokens_used: int = 0) -> Finished:
    """The model ended the run itself; its text is the answer. ``tokens_used`` is the loop's own count."""
    return Finished(text_of(field(response, "content") or []), field(response, "stop_reason"), turns,
                    Usage(input_tokens=tokens_used))


def stopped(cause: str, message: str, turns: int, tokens_used: int = 0) -> Stopped:
    """The harness stopped the run: ``cause`` names the valve ("max_turns", ...), ``message`` the fallback."""
    return Stopped(cause, message, turns, Usage(input_tokens=tokens_used))


def drive(gen: Generator) -> tuple[list, Finished | Stopped | Any]:
    """Run a loop generator to its end: (the events it yielded, the value it returned)."""
    events = []
    while True:
        try:
            events.append(next(gen))
        except StopIteration as end:
            return events, end.value
