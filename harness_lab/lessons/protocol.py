"""The event protocol a hand-written loop follows so the Stepper can step it (lesson 6).

Write the loop as a generator: ``yield turn(...)`` after each turn's tool results are in the
history, and end with ``return finished(...)`` or ``return stopped(...)``. These build the same
events the package's ``Run`` yields, so the Stepper, ``drive`` and the comparison table read a
learner's loop and the package's alike.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from ..events import CountedUsage, Finished, Stopped, Turn, Usage
from ..messages import field, text_of

__all__ = ["HandWritten", "drive", "finished", "stopped", "turn"]


def turn(number: int, response: Any, results: list) -> Turn:
    """Turn ``number`` is done: ``response`` asked for tools, ``results`` answered them."""
    return Turn(
        request_number=number,
        response=response,
        stop_reason=field(response, "stop_reason"),
        results=tuple(results),
        usage=Usage.of(field(response, "usage")),
    )


def finished(response: Any, turns: int, tokens_used: int = 0) -> Finished:
    """The model ended the run itself; its text is the answer. ``tokens_used`` is the loop's own count."""
    return Finished(
        text_of(field(response, "content") or []),
        field(response, "stop_reason"),
        turns,
        CountedUsage(input_tokens=tokens_used),
    )


def stopped(cause: str, message: str, turns: int, tokens_used: int = 0) -> Stopped:
    """The harness stopped the run: ``cause`` names the valve ("max_turns", ...), ``message`` the fallback."""
    return Stopped(cause, message, turns, CountedUsage(input_tokens=tokens_used))


def drive(gen: Generator) -> tuple[list, Finished | Stopped | Any]:
    """Run a loop generator to its end: (the events it yielded, the value it returned)."""
    events = []
    while True:
        try:
            events.append(next(gen))
        except StopIteration as end:
            return events, end.value


class HandWritten:
    """A hand-written loop, ready for the Stepper: ``Stepper(HandWritten(harness, client, tools, impls), prompt)``.

    ``loop(client, user_input, tools, tool_impls, approve)`` is the learner's generator function. The
    Stepper starts it with the prompt and steps it one ``yield`` at a time; it has no RunState, so the
    panel shows the conversation (no timeline or context tabs) and no gauges beyond the turn count.
    """

    valves: tuple = ()

    def __init__(self, loop: Any, client: Any, tools: list, tool_impls: dict, approve: Any = None) -> None:
        self.loop, self.client, self.tools, self.tool_impls, self.approve = loop, client, tools, tool_impls, approve

    def start(self, prompt: str) -> Generator:
        return self.loop(self.client, prompt, self.tools, self.tool_impls, self.approve)
