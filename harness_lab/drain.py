"""Driving a run to its end in one call: ``drain(run.start(...))``, or ``run(...)`` for the whole thing.

A notebook steps the generator one turn at a time; a script, a test or the terminal demo wants the
outcome. ``drain`` answers each approval request with ``approve`` (none: deny, failing closed).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass
from typing import Any

from . import checks
from .events import ApprovalRequest, Decision, Finished, Stopped, Usage
from .messages import Message
from .valves import Valve

__all__ = ["Outcome", "drain", "run"]


@dataclass(frozen=True)
class Outcome:
    """What ``run()`` hands back: the answer (or the stop), the counters and the history."""

    text: str
    stop: Finished | Stopped
    turns: int
    usage: Usage
    messages: list[Message]
    turn_usage: tuple[Usage, ...] = ()  # one Usage per model request, for the token-burn plot


def run(
    client: Any,
    prompt: str,
    tools: Any = (),
    valves: Iterable[Valve] = (),
    approve: Callable[[ApprovalRequest], Any] | None = None,
    on_event: Callable[[Any], None] | None = None,
    **options: Any,
) -> Outcome:
    """Run the harness to its end, answering approval requests with ``approve`` (fails closed)."""
    from .loop import Run  # here, not above: ``drain`` alone never loads the SDK (see harness_lab/__init__.py)

    known = [name for name in inspect.signature(Run).parameters if name not in ("client", "tools", "valves")]
    harness = Run(client, tools, valves, **checks.options(options, known))
    end = drain(harness.start(prompt), checks.approver(approve), on_event)
    return Outcome(end.text, end, end.turns, end.usage, list(harness.messages), tuple(harness.state.turn_usage))


def drain(
    gen: Generator[Any, Any, Any],
    approve: Callable[[ApprovalRequest], Any] | None = None,
    on_event: Callable[[Any], None] | None = None,
) -> Finished | Stopped:
    """Step a ``Run`` generator to its last event; ``approve(request) -> Decision | bool`` answers asks."""
    event = next(gen)
    while not isinstance(event, (Finished, Stopped)):
        try:
            if on_event is not None:
                on_event(event)
            answer = None
            if isinstance(event, ApprovalRequest):
                answer = Decision(False) if approve is None else Decision.from_approver(approve, event)
            event = gen.send(answer)
        except KeyboardInterrupt:  # Ctrl-C in our own code (at the approval prompt, say): stop cleanly
            event = gen.throw(KeyboardInterrupt())
    if on_event is not None:
        on_event(event)
    gen.close()
    return event
