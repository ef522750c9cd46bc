"""How a learner's lesson-6 loop (or the package's ``Run``) ended on a scripted model, and what it cost: the
record ``diagnosis`` compares and ``budget_count`` reads valve 2's count from."""

from __future__ import annotations

from dataclasses import dataclass, field

from .checking import Miss

__all__ = ["Ending"]


@dataclass
class Ending:
    """How a loop ended on a script, and what it cost."""

    cause: str  # a valve's name, another stop's cause, or "finish"
    requests: int
    rounds: int  # requests after which tools ran
    text: str = ""
    reported: int | None = None  # the loop's own tokens_used, as it handed it back
    told_turns: int | None = None  # the turns its end value says it took
    labels: list = field(default_factory=list)  # the turn number each yielded turn carries, in order
    usage: list = field(default_factory=list)  # (input, output) of each response, in order
    cached: list = field(default_factory=list)  # the cache writes and reads of each response, in order
    written: list = field(default_factory=list)  # the cache writes alone of each response, in order
    calls: list = field(default_factory=list)  # the tool calls of each response, as text
    miss: Miss | None = None  # the loop broke the protocol (not a generator, no end value)
    whole: bool = True  # every response went back as its assistant message, block for block
    asked: list = field(default_factory=list)  # the max_tokens each request asked for, in order
    counted_prompts: int = 0  # the count_tokens requests it made (a prompt's size, no tokens used)
