"""What a run knows about itself (lessons 3-6): the history and the counters the valves read.

The lesson keeps these as local variables of ``runAgent`` (``messages``, ``turns``, ``tokensUsed``,
``lastSignature``). Gathering them in one object lets a valve be a pure check of the state, lets a
notebook inspect a run between turns, and lets a stopped run resume where it left off.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .events import Usage

__all__ = ["RunState"]


@dataclass
class RunState:
    """The mutable state of one run; the loop is the only writer."""

    messages: list = field(default_factory=list)  # the history, plain dicts, always valid to resend
    turns: int = 0  # laps done: tool rounds, and pause_turn resends (the lesson's ``turns``)
    model_calls: int = 0  # requests that got a response
    usage: Usage = field(default_factory=Usage)  # running total of every model call
    turn_usage: list = field(default_factory=list)  # one Usage per model call, in order
    signatures: list = field(default_factory=list)  # one per tool round (see valves.progress.signature_of)
    last_response: Any = None  # the latest response, as the client returned it
    pending: Any = None  # a response received but not yet acted on (held over by a stop)
    pending_user: list = field(default_factory=list)  # steering texts for after the next tool results
    model: str = ""  # the model id, for price tables
