"""What the loop yields, one small frozen value at a time (lessons 2-6).

A turn is the loop's unit: one model call plus the tools it asked for. The generator yields a
``Turn`` after each one, an ``ApprovalRequest`` when a call needs a human, and ends with a
``Finished`` or a ``Stopped``. The UI layer renders these; the core only builds them.
"""

from __future__ import annotations

import reprlib
from dataclasses import dataclass, field
from typing import Any

from .errors import describe
from .messages import Block, Message, tool_calls
from .messages import field as _field
from .terminal import compact
from .text import t

__all__ = [
    "ApprovalRequest",
    "CountedUsage",
    "Decision",
    "Event",
    "Finished",
    "Stopped",
    "TIERS",
    "Turn",
    "Usage",
    "allow",
    "deny",
]


# What ``usage.inference_geo`` says on a model older than the parameter (Haiku 4.5, Opus 4.5).
_NOT_AVAILABLE = "not_available"


@dataclass(frozen=True)
class Usage:
    """Token counts in the API's own words; ``total`` is what the token budget counts.

    ``speed`` and ``inference_geo`` are what the API reports next to the counts (``"fast"`` and
    ``"us"`` bill at a premium; ``"not_available"``, a model without the parameter, bills as
    global); a sum of usages that ran differently says ``"mixed"``. ``cache_write_1h_input_tokens`` is
    the part of the cache writes made for an hour (``cache_creation.ephemeral_1h_input_tokens``): the
    same tokens, billed at 2x input where a 5-minute write bills at 1.25x. ``web_search_requests`` counts
    the web searches the API ran for the request (``server_tool_use``): no tokens, but each is billed.
    """

    input_tokens: int = 0
    output_tokens: int = 0
    cache_creation_input_tokens: int = 0
    cache_read_input_tokens: int = 0
    speed: str = "standard"
    inference_geo: str = "global"
    cache_write_1h_input_tokens: int = 0
    web_search_requests: int = 0

    @classmethod
    def of(cls, usage: Any) -> Usage:
        """Read an SDK ``Usage`` object or a usage dict; missing or null fields count as 0.

        A reply that compacted its context lists ``iterations``, and its top-level counts are only the
        part after the summary (0 on a paused compaction, live): the bill is the iterations' sum (the
        compaction page, "Understanding usage"), so that is what this counts.
        """
        if usage is None:
            return cls()
        iterations = _field(usage, "iterations")
        parts = list(iterations) if isinstance(iterations, (list, tuple)) and iterations else [usage]

        def count(name: str, within: str | None = None) -> int:
            return sum(int(_field(_field(part, within) if within else part, name) or 0) for part in parts)

        return cls(
            count("input_tokens"),
            count("output_tokens"),
            count("cache_creation_input_tokens"),
            count("cache_read_input_tokens"),
            str(_field(usage, "speed") or "standard"),
            str(_field(usage, "inference_geo") or "global"),
            count("ephemeral_1h_input_tokens", "cache_creation"),
            # Only the top level says which server tools ran: an iteration of a compacted reply has no such field.
            int(_field(_field(usage, "server_tool_use"), "web_search_requests") or 0),
        )

    @property
    def prompt_tokens(self) -> int:
        """Whole prompt size: uncached input plus cache writes plus cache reads."""
        return self.input_tokens + self.cache_creation_input_tokens + self.cache_read_input_tokens

    @property
    def total(self) -> int:
        return self.prompt_tokens + self.output_tokens

    def __add__(self, other: Usage) -> Usage:
        # An empty usage (the start of a sum) takes on the other's labels.
        if not other.total:
            speed, geo = self.speed, self.inference_geo
        elif not self.total:
            speed, geo = other.speed, other.inference_geo
        else:
            speed = self.speed if self.speed == other.speed else "mixed"
            mine, theirs = self.inference_geo, other.inference_geo
            # A model without the ``inference_geo`` parameter is billed as global: it takes on the other
            # part's label instead of making the sum mixed.
            if _NOT_AVAILABLE in (mine, theirs):
                geo = theirs if mine == _NOT_AVAILABLE else mine
            else:
                geo = mine if mine == theirs else "mixed"
        return Usage(
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
            self.cache_creation_input_tokens + other.cache_creation_input_tokens,
            self.cache_read_input_tokens + other.cache_read_input_tokens,
            speed,
            geo,
            self.cache_write_1h_input_tokens + other.cache_write_1h_input_tokens,
            self.web_search_requests + other.web_search_requests,
        )


@dataclass(frozen=True)
class CountedUsage(Usage):
    """A total a hand-written loop kept itself (lesson 6's ``tokensUsed``), in ``input_tokens``: one
    number, shown as that total. An API usage may have input alone too (a refusal before any output)."""


# A call's tier under a policy (lesson 6's exercise), in rising strictness: where rules overlap,
# the strictest wins.
TIERS = ("allow", "ask", "deny")


@dataclass(frozen=True)
class Decision:
    """A human's (or a policy's) answer for one tool_use id."""

    allowed: bool
    reason: str = ""

    def __post_init__(self) -> None:
        # Decision("deny") would be truthy: only a real bool may decide whether a tool runs.
        if not isinstance(self.allowed, bool):
            raise TypeError(t("usage.decision", got=reprlib.repr(self.allowed)))
        if not isinstance(self.reason, str):
            raise TypeError(t("usage.decision_reason", got=reprlib.repr(self.reason)))

    @classmethod
    def coerce(cls, answer: Any) -> Decision:
        """Turn whatever a caller sent into a decision, failing closed.

        ``True``/"allow"/"y"/"yes" (or a ``Decision`` that allows) allow; anything else, ``None``
        from a plain ``next()`` included, denies. An answer that is neither a yes nor a plain no
        (``1``, ``"ok"``, ``allow`` without the parentheses) denies with a reason saying so, so the
        learner sees why their approver said no.
        """
        if isinstance(answer, Decision):
            return answer if answer.allowed is True else cls(False, answer.reason)
        word = answer.strip().lower() if isinstance(answer, str) else None
        if answer is True or word in {"allow", "y", "yes"}:
            return cls(True)
        if answer is None or answer is False or word in {"deny", "n", "no"}:
            return cls(False)
        shown = (
            f"<function {answer.__name__}>"
            if callable(answer) and hasattr(answer, "__name__")
            else reprlib.repr(answer)
        )
        return cls(False, t("result.approver_odd", answer=shown))

    @classmethod
    def from_approver(cls, approver: Any, request: ApprovalRequest) -> Decision:
        """What ``approver(request)`` answers, as a decision; an approver that raises denies.

        The one place an approver's failure is handled: the call it was asked about does not run.
        """
        try:
            return cls.coerce(approver(request))
        except Exception as exc:
            return cls(False, t("result.approver_failed", error=describe(exc)))


def allow() -> Decision:
    return Decision(True)


def deny(reason: str = "") -> Decision:
    return Decision(False, reason)


@dataclass(frozen=True)
class ApprovalRequest:
    """The loop is paused before running a call the policy marked ``ask``.

    Answer with ``gen.send(allow())`` or ``gen.send(deny("why"))``; a plain ``next(gen)`` denies.
    """

    request_number: int  # the model request whose response made this call
    tool_use_id: str
    name: str
    input: dict[str, Any]

    def __str__(self) -> str:
        return t("event.approval", turn=self.request_number, call=f"{self.name}({compact(self.input)})")


@dataclass(frozen=True)
class Turn:
    """One finished turn: the model's response, the tool results sent back, and the gauges."""

    request_number: int  # k for the k-th model request of the run; ``state.turns`` counts finished tool turns
    response: Any  # the SDK's Message, as the client returned it
    stop_reason: str | None
    results: tuple[Block, ...] = ()  # tool_result dicts, in call order
    usage: Usage = Usage()  # this turn's model call
    total: Usage = Usage()  # running total after this turn
    signature: str = ""
    readings: dict[str, str] = field(default_factory=dict)  # valve name -> short reading, e.g. "3/8"

    def __str__(self) -> str:
        calls = ", ".join(
            f"{c['name']}({compact(c['input'])})" for c in tool_calls(_field(self.response, "content") or [])
        )
        errors = sum(1 for r in self.results if r.get("is_error"))
        return t(
            "event.turn",
            number=self.request_number,
            stop_reason=self.stop_reason,
            calls=calls or "-",
            results=len(self.results),
            errors=errors,
            tokens=self.usage.total,
        )


@dataclass(frozen=True)
class Finished:
    """The model ended the run itself: ``end_turn``, ``stop_sequence``, or a ``tool_use`` reply that called
    no tool (nothing to run, so nothing to send back)."""

    text: str
    stop_reason: str
    turns: int
    usage: Usage
    messages: tuple[Message, ...] = ()

    def __str__(self) -> str:
        return t(
            "event.finished", stop_reason=self.stop_reason, turns=self.turns, tokens=self.usage.total, text=self.text
        )


@dataclass(frozen=True)
class Stopped:
    """The harness ended the run: a valve fired, the API failed, or the model stopped abnormally.

    ``cause`` names what stopped it: a valve's name ("max_turns", "token_budget", "no_progress", or
    your own valve's), or "api_error", "interrupted", "max_tokens", "refusal",
    "model_context_window_exceeded"; ``reason`` is the learner-facing message from the catalog.
    ``messages`` is always valid to send again.
    """

    cause: str
    reason: str
    turns: int
    usage: Usage
    messages: tuple[Message, ...] = ()
    text: str = ""

    def __str__(self) -> str:
        return t("event.stopped", valve=self.cause, turns=self.turns, tokens=self.usage.total, reason=self.reason)


# What a run's generator yields (and, last, returns).
Event = Turn | ApprovalRequest | Finished | Stopped
