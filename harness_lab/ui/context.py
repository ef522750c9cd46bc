"""The context gauge: what filled each request's context window (lesson 4: the whole history is re-sent).

Every model request carries the tool definitions, the system prompt and the whole history, so its
input grows turn by turn. ``context_rows(run)`` splits each request's input into what filled it —
system, tool definitions, user text, assistant text, thinking blocks sent back, tool_use,
tool_result, and the framing every request and message costs — and adds the response's output,
thinking included (the window holds a request and its response; thinking is billed as output).
How much of the input was read from the prompt cache, and how much written to it, is kept apart.

The split uses the emulator's own token estimate and nothing else: each part is what the estimate
adds for that part alone (``estimate_request`` of a request holding only it, less the same request
without it), and the framing is what remains of the whole request's estimate. So the parts always
sum to ``estimate_request(request).total``, whatever the estimate's rules are. On the emulator that
total is the request's real usage; on live Claude the parts are scaled to the real usage, and the
row says it is an estimate.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..emulator.models import CONTEXT_WINDOW, context_window
from ..emulator.tokens import estimate_request, stripped_before
from ..events import Usage
from ..messages import block_dict
from ..text import t

__all__ = [
    "ContextRow",
    "PARTS",
    "context_rows",
    "request_of",
    "split_request",
]

# In the order the API reads a request (tools, system, then messages), framing last.
PARTS = (
    "tools",
    "system",
    "user_text",
    "assistant_text",
    "thinking",
    "tool_use",
    "tool_result",
    "other",
    "framing",
)
THINKING_BLOCKS = ("thinking", "redacted_thinking")

_EMPTY: dict = {"messages": []}


def _alone(request_part: dict) -> int:
    """What the estimate adds for this part alone, over a request with nothing in it."""
    return estimate_request({**_EMPTY, **request_part}).total - estimate_request(_EMPTY).total


def _block_part(role: str, block: Any) -> str:
    kind = block.get("type") if isinstance(block, dict) else "text"
    if kind == "text":  # a mid-conversation system message's text is instructions, like the system prompt's
        return {"assistant": "assistant_text", "system": "system"}.get(role, "user_text")
    if kind in THINKING_BLOCKS:
        return "thinking"
    return kind if kind in ("tool_use", "tool_result") else "other"


def _block_tokens(role: str, block: Any) -> int:
    one = estimate_request({"messages": [{"role": role, "content": [block]}]}).total
    none = estimate_request({"messages": [{"role": role, "content": []}]}).total
    return one - none


def split_request(request: dict) -> dict[str, int]:
    """Input tokens of one Messages request by what filled them; the values sum to its estimate."""
    parts = dict.fromkeys(PARTS, 0)
    if request.get("tools"):
        parts["tools"] = _alone({"tools": request["tools"]})
    if request.get("system"):
        parts["system"] = _alone({"system": request["system"]})
    stripped = stripped_before(request)  # older thinking a last-turn-only model does not read
    for index, message in enumerate(request.get("messages") or ()):
        role, content = message.get("role", "user"), message.get("content")
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        for block in content or ():
            block = block if isinstance(block, (dict, str)) else block_dict(block)
            part = _block_part(role, block)
            if not (part == "thinking" and index < stripped):
                parts[part] += _block_tokens(role, block)
    parts["framing"] = estimate_request(request).total - sum(parts.values())
    return parts


def request_of(run: Any, number: int) -> dict:
    """Request ``number`` (1-based) of ``run`` as it went out: its messages then, its tools and system."""
    state = run.state
    if not 1 <= number <= len(state.sent):
        raise ValueError(t("ui.context.not_sent", number=number, sent=len(state.sent)))
    return {**run.request(), "messages": state.messages[: state.sent[number - 1]]}


@dataclass(frozen=True)
class ContextRow:
    """One model request: its input split by part, its cache use, its response's output, the window."""

    request_number: int
    parts: dict = field(default_factory=dict)  # PARTS -> tokens; sums to ``total``
    total: int = 0  # input tokens, cached or not
    window: int = CONTEXT_WINDOW
    cache_read: int = 0
    cache_write: int = 0
    estimated: bool = False  # the parts were scaled to a live request's real usage
    output: int = 0  # the response's output tokens, thinking included

    @property
    def used(self) -> int:
        """What this request and its response held in the context window."""
        return self.total + self.output

    @property
    def share(self) -> float:
        """How much of the context window this request and its response filled (0.0 to 1.0 and beyond)."""
        return self.used / self.window


def _scaled(parts: dict[str, int], total: int) -> dict[str, int]:
    """``parts`` in proportion, as whole tokens that add up to ``total`` (largest remainders first)."""
    whole = sum(parts.values())
    exact = {k: v * total / whole for k, v in parts.items()}
    scaled = {k: int(v) for k, v in exact.items()}
    for k in sorted(exact, key=lambda k: (scaled[k] - exact[k], PARTS.index(k)))[: total - sum(scaled.values())]:
        scaled[k] += 1
    return scaled


def context_rows(run: Any, window: int | None = None) -> list[ContextRow]:
    """One row per model request of ``run``, in order, against ``window`` (by default the run's model's)."""
    window = window or context_window(getattr(run.state, "model", None))
    rows = []
    for number, usage in enumerate(run.state.turn_usage, start=1):
        usage = usage if isinstance(usage, Usage) else Usage.of(usage)
        parts = split_request(request_of(run, number))
        estimate, real = sum(parts.values()), usage.prompt_tokens
        estimated = real > 0 and real != estimate
        if estimated:
            parts = _scaled(parts, real)
        rows.append(
            ContextRow(
                number,
                parts,
                real or estimate,
                window,
                usage.cache_read_input_tokens,
                usage.cache_creation_input_tokens,
                estimated,
                usage.output_tokens,
            )
        )
    return rows
