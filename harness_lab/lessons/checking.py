"""Checking a piece the learner wrote in a lesson: one verdict per point, each with a hint.

A ``Piece`` is what a "write it yourself" cell asks for (``run_tools``, ``signature_of``, ...): its
points, and the reference the lesson goes on with until the learner's own version passes. Each
point's probe calls the learner's function on real SDK objects from the emulator, in a forked child
under a time limit (the graders' ``run_limited``), and answers None when the point is met or a
``Miss`` naming the hint. Nothing reads the learner's source: only what the function does counts.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..grading.sandbox import run_limited
from ..text import lang, t

__all__ = ["Miss", "Piece", "Point", "Verdict", "judge", "raised"]

TODO_ERRORS = ("NotImplementedError",)  # what the TODO cell's placeholder raises

# An exception names a symptom; these name the rule behind it (the error stays in the hint). The first
# that matches wins, so the narrower patterns come first.
RULES = (
    (re.compile(r"'(Redacted)?ThinkingBlock' object has no attribute 'text'"), "lesson.rule.first_not_text"),
    (re.compile(r"'(Text|Thinking|RedactedThinking)Block' object has no attribute"), "lesson.rule.text_block"),
    (re.compile(r"Block' object is not subscriptable"), "lesson.rule.block_attributes"),
    (re.compile(r"'Message' object is not subscriptable"), "lesson.rule.message_attributes"),
    (re.compile(r"'Usage' object has no attribute"), "lesson.rule.usage"),
    (re.compile(r"'list' object has no attribute 'content'"), "lesson.rule.content_given"),
    (re.compile(r"'tuple' object has no attribute 'type'"), "lesson.rule.response_given"),
)
# After a point runs out of time, the points after it get this long: a loop that never ends would
# otherwise keep the learner waiting the whole limit once per point.
AFTER_A_TIMEOUT = 2.0


@dataclass(frozen=True)
class Miss:
    """A point not met: the catalog key of the hint that names the cause, and its values."""

    key: str
    values: dict = field(default_factory=dict)

    def hint(self) -> str:
        return t(self.key, **self.values)


@dataclass(frozen=True)
class Point:
    title: str  # catalog key
    probe: Callable[[Callable], Miss | None]  # runs in the child


@dataclass(frozen=True)
class Piece:
    name: str
    lesson: int
    points: tuple[Point, ...]
    japanese: Callable  # the reference, as the Japanese lesson writes it
    hint: str = ""  # catalog key of the steps ``lessons.hint(name)`` shows
    shape: str = ""  # how the lesson calls it, for an argument mismatch: "run_tools(content, impls)"
    rules: tuple = ()  # (pattern, catalog key) for exceptions only this piece can meet, tried first
    stalled: Callable[[Callable, str], Miss] | None = None  # the hint for a point that ran out of time
    english: Callable | None = None  # its English twin, where the reference says something when it runs

    @property
    def reference(self) -> Callable:
        """The reference in the kernel's language: the English twin in an English notebook, if it has one."""
        return self.english if self.english is not None and lang() == "en" else self.japanese


@dataclass(frozen=True)
class Verdict:
    piece: Piece
    misses: tuple  # one per point: None (met) or a Miss
    unwritten: bool = False
    show: str = ""  # how to read the reference: lessons.show(...)

    @property
    def passed(self) -> bool:
        return not self.unwritten and all(m is None for m in self.misses)

    def lines(self) -> list[str]:
        if self.unwritten:
            show = self.show or f'lessons.show("{self.piece.name}")'
            return [t("lesson.check.unwritten", name=self.piece.name, show=show)]
        lines, said = [], set()
        for point, miss in zip(self.piece.points, self.misses):
            if miss is None:
                lines.append(t("lesson.check.met", title=t(point.title)))
                continue
            hint = miss.hint()
            lines.append(
                t("lesson.check.missed", title=t(point.title), hint=t("lesson.same_cause") if hint in said else hint)
            )
            said.add(hint)  # one cause, said once: the points after it point back to it
        return lines


def judge(piece: Piece, fn: Any, timeout: float = 10.0, show: str = "") -> Verdict:
    """Run every probe of ``piece`` on ``fn``; a probe that raises, hangs or crashes misses its point."""
    if not callable(fn):
        return Verdict(
            piece, tuple(Miss("lesson.not_callable", {"got": type(fn).__name__}) for _ in piece.points), show=show
        )
    misses, todo, limit = [], 0, timeout
    for point in piece.points:
        outcome = run_limited(lambda probe=point.probe: _sent(probe(fn)), limit)  # type: ignore[misc]  # mypy cannot type a lambda's default
        if outcome.status == "ok":
            misses.append(_received(outcome.value))
        elif outcome.status == "error" and outcome.error.startswith(TODO_ERRORS):
            todo += 1
            misses.append(Miss("lesson.todo"))
        elif outcome.status == "error":
            misses.append(raised(outcome.error, piece, fn))
        elif outcome.status == "aborted":  # a probe's own runaway detector (a scripted model) ended it
            misses.append(_received(outcome.value) or Miss("lesson.runaway"))
        elif outcome.status == "timeout":
            seconds = f"{limit:g}"
            misses.append(piece.stalled(fn, seconds) if piece.stalled else Miss("lesson.timeout", {"seconds": seconds}))
            limit = min(timeout, AFTER_A_TIMEOUT)
        else:
            misses.append(Miss("lesson.crashed"))
    return Verdict(piece, tuple(misses), unwritten=todo == len(piece.points), show=show)


def raised(error: str, piece: Piece | None = None, fn: Any = None) -> Miss:
    """The hint for an exception the learner's code raised: the rule it broke, when we know it."""
    name = getattr(fn, "__name__", None)
    if piece is not None and piece.shape and name and _called_wrongly(error, name):
        return Miss("lesson.arguments", {"error": error, "shape": piece.shape})
    for pattern, key in (*(piece.rules if piece else ()), *RULES):
        if pattern.search(error):
            return Miss(key, {"error": error})
    return Miss("lesson.raised", {"error": error})


def _called_wrongly(error: str, name: str) -> bool:
    """Did calling the learner's function itself fail, its parameters not fitting the lesson's call?"""
    return re.match(rf"TypeError: {re.escape(name)}\(\) (takes|missing|got an unexpected keyword)", error) is not None


def _sent(miss: Miss | None) -> tuple | None:
    """A miss as plain values: the child's answer may carry nothing but (the sandbox refuses objects)."""
    return None if miss is None else (miss.key, {k: str(v) for k, v in miss.values.items()})


def _received(value: object) -> Miss | None:
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], str) and isinstance(value[1], dict):
        return Miss(value[0], value[1])
    return None
