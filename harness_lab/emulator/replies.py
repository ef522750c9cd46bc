"""What the scripted model says: small builders for one reply (lessons 2-3).

A ``Reply`` is the model's side of one round trip before the emulator dresses it as a full Message:
its content blocks (tool_use blocks still without ids, which the emulator derives from the request)
and, optionally, an explicit ``stop_reason``. Without one, the stop reason follows from the content:
``tool_use`` when it calls a tool, else ``end_turn`` — exactly how the real API reports it.

On a thinking model the emulator adds the thinking itself (thinking.py); ``think("...")`` puts a
thinking block exactly where a script wants one (between two calls, say), and ``redacted()`` a
``redacted_thinking`` block. Their signatures and data are the emulator's to mint.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = [
    "Reply",
    "STOP_REASONS",
    "as_reply",
    "call",
    "redacted",
    "reply",
    "say",
    "think",
]

STOP_REASONS = (
    "end_turn",
    "max_tokens",
    "stop_sequence",
    "tool_use",
    "pause_turn",
    "refusal",
    "model_context_window_exceeded",
)


@dataclass(frozen=True)
class Reply:
    """One scripted model turn: content blocks plus the optional stop fields."""

    content: tuple = ()
    stop_reason: str | None = None
    stop_sequence: str | None = None
    stop_details: dict | None = None

    @property
    def final_stop_reason(self) -> str:
        if self.stop_reason is not None:
            return self.stop_reason
        return "tool_use" if any(b["type"] == "tool_use" for b in self.content) else "end_turn"


def say(text: str) -> Reply:
    """A text reply that ends the turn (``say("")`` is an ``end_turn`` with no text block)."""
    return Reply(({"type": "text", "text": text},) if text else ())


def call(name: str, /, **input: Any) -> Reply:
    """A reply that calls one tool; ``name`` is positional so a tool may take a ``name`` argument."""
    return Reply(({"type": "tool_use", "name": name, "input": input},))


def think(summary: str) -> Reply:
    """A thinking block with this summary (shown when the request asks for ``display: "summarized"``)."""
    return Reply(({"type": "thinking", "thinking": summary},))


def redacted() -> Reply:
    """A ``redacted_thinking`` block: thinking the API encrypted; it goes back unchanged like any other."""
    return Reply(({"type": "redacted_thinking"},))


def reply(
    *parts: Any,
    stop_reason: str | None = None,
    stop_sequence: str | None = None,
    stop_details: dict | None = None,
) -> Reply:
    """Join parts (strings become text blocks, replies contribute their blocks) into one reply.

    ``reply("調べます", call("get_time"), call("read_file", path="a.txt"))`` is text followed by two
    parallel calls. The stop fields override what the parts would imply.
    """
    if stop_reason is not None and stop_reason not in STOP_REASONS:
        raise ValueError(f"unknown stop_reason {stop_reason!r}; use one of {', '.join(STOP_REASONS)}")
    blocks: list[dict] = []
    for part in parts:
        if isinstance(part, str):
            if part:
                blocks.append({"type": "text", "text": part})
        elif isinstance(part, Reply):
            blocks.extend(part.content)
        elif isinstance(part, dict) and "type" in part:
            blocks.append(dict(part))
        else:
            raise TypeError(f"a reply part must be a str, a Reply or a block dict, not {type(part).__name__}")
    if stop_reason == "stop_sequence" and stop_sequence is None:
        raise ValueError('stop_reason="stop_sequence" needs stop_sequence="..." (which one fired)')
    return Reply(tuple(blocks), stop_reason, stop_sequence, stop_details)


def as_reply(value: Any) -> Reply:
    """What a policy function may return: a ``Reply``, or a plain string meaning ``say(string)``."""
    if isinstance(value, Reply):
        return value
    if isinstance(value, str):
        return say(value)
    raise TypeError(f"a script must produce a Reply (use say/call/reply), not {type(value).__name__}")
