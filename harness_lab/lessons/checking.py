"""Checking a piece the learner wrote in a lesson: one verdict per point, each with a hint.

A ``Piece`` is what a "write it yourself" cell asks for (``run_tools``, ``signature_of``, ...): its
points, and the reference the lesson goes on with until the learner's own version passes. Each
point's probe calls the learner's function on real SDK objects from the emulator, in a forked child
under a time limit (the graders' ``run_limited``), and answers None when the point is met or a
``Miss`` naming the hint. Nothing reads the learner's source: only what the function does counts.
The verdict is the exercises' own type (``grading.report.Report``, one ``Check`` per point); only its
lines differ: a lesson says 「○ できています」 where an exercise says 「○ 合格 基準1」.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from types import FunctionType, MethodType
from typing import Any

from ..grading.report import Check, Report
from ..grading.sandbox import run_limited
from ..grading.spies import Event, Recorder, miscalled, misuse_of
from ..text import lang, t

__all__ = [
    "Miss",
    "Piece",
    "Point",
    "generated",
    "interrupt_escapes",
    "judge",
    "notebook_approver",
    "point_lines",
    "raised",
    "slip",
    "spies_misused",
    "unwritten",
]

TODO_ERRORS = ("NotImplementedError",)  # what the TODO cell's placeholder raises
TODO = "lesson.todo"  # the key of a point whose probe met that placeholder

# An exception names a symptom; these name the rule behind it (the error stays in the hint). The first
# that matches wins, so the narrower patterns come first.
RULES = (
    # Another SDK's shape (OpenAI's choices, finish_reason, function.arguments) read from this API's objects.
    (
        re.compile(
            r"'(Message|ToolUseBlock)' object has no attribute '(choices|finish_reason|function|tool_calls|arguments)'"
        ),
        "lesson.rule.other_api",
    ),
    # A dict's methods (.get, .items) on an SDK object: the same rule as its subscript.
    (re.compile(r"'\w*Block' object has no attribute '(get|keys|items|values)'"), "lesson.rule.block_attributes"),
    (re.compile(r"'Message' object has no attribute '(get|keys|items|values)'"), "lesson.rule.message_attributes"),
    (
        re.compile(r"'(Usage|RefusalStopDetails)' object has no attribute '(get|keys|items|values)'"),
        "lesson.rule.sdk_fields",
    ),
    (re.compile(r"'(Redacted)?ThinkingBlock' object has no attribute 'text'"), "lesson.rule.first_not_text"),
    (re.compile(r"'(Text|Thinking|RedactedThinking)Block' object has no attribute"), "lesson.rule.text_block"),
    (re.compile(r"Block' object is not subscriptable"), "lesson.rule.block_attributes"),
    (re.compile(r"'Message' object is not subscriptable"), "lesson.rule.message_attributes"),
    (re.compile(r"'(Usage|RefusalStopDetails)' object is not subscriptable"), "lesson.rule.sdk_fields"),
    (re.compile(r"'Usage' object has no attribute"), "lesson.rule.usage"),
    (re.compile(r"'list' object has no attribute 'content'"), "lesson.rule.content_given"),
    (re.compile(r"'tuple' object has no attribute 'type'"), "lesson.rule.response_given"),
    # input() (or a read of sys.stdin) in a check: its child has no keyboard, and a harness waits for no one
    (
        re.compile(r"^(OSError: \[Errno 9\] Bad file descriptor|EOFError: EOF when reading a line)"),
        "lesson.rule.keyboard",
    ),
)
# Exceptions no one raises on purpose: a typo's, whatever the point was about (a denial, say) is not their cause.
SLIPS = (NameError, AttributeError)
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


def notebook_approver(rec: Recorder, log: Callable[..., Any]) -> Callable[..., Any]:
    """``log`` shaped as notebook 05's approver, ``approve(name, tool_input)``: a call that one refuses
    (the whole block, ``input=``, a third argument) is logged as its form and raises its TypeError."""

    def approve(*args: Any, **kwargs: Any) -> Any:
        if misuse := miscalled(args, kwargs):
            rec.events.append(Event("approve", misuse[0], "{}"))
            raise TypeError(misuse[1])
        return log(*args, **kwargs)

    return approve


def interrupt_escapes(run: Callable[[Callable[..., Any]], Any]) -> Miss | None:
    """Does Ctrl-C pressed while a tool runs reach the person? ``run(tool)`` calls the learner's function
    with ``tool``, which raises KeyboardInterrupt as the key does. ``except Exception`` lets it through;
    ``except BaseException`` or a bare ``except:`` makes a failed result of it, and the loop goes on."""

    def pressed(**_: Any) -> Any:
        raise KeyboardInterrupt

    try:
        run(pressed)
    except KeyboardInterrupt:
        return None
    except Exception:  # a cause of its own, which another point names
        return None
    return Miss("lesson.rule.interrupt_caught")


def spies_misused(rec: Recorder) -> Miss | None:
    """A spy tool given its input by position, or the approver called otherwise than ``approve(name, input)``:
    the notebook's own raise a TypeError there (or, for ``approve(input, name)``, ask about nothing a
    person can read), whatever the loop then made of it, so it is the cause of every point it reached."""
    if form := misuse_of(rec.events, "impl"):
        return Miss("lesson.l6.run_agent.impl_call", {"call": form})
    if form := misuse_of(rec.events, "approve"):
        return Miss("lesson.l6.run_agent.approve_call", {"call": form})
    return None


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


def judge(piece: Piece, fn: Any, timeout: float = 10.0) -> Report:
    """Run every probe of ``piece`` on ``fn``: one ``Check`` per point, as the exercises' criteria are.

    A probe that raises, hangs or crashes misses its point; ``point_lines`` shows the verdict. Here, in
    the learner's kernel, nothing of ``fn`` is read that could run its code outside the time limit: a
    callable object's ``__name__``, a metaclass's, may be a property that never returns.
    """
    if not callable(fn):
        wrong = Miss("lesson.not_callable", {"got": vars(type)["__name__"].__get__(type(fn))})
        return _report(piece, [wrong for _ in piece.points])
    # Only a plain function (or a method's) is read here: its name and code flags are the interpreter's own.
    plain = fn.__func__ if type(fn) is MethodType else fn
    plain = plain if type(plain) is FunctionType else None
    name = plain.__name__ if plain else None
    if plain and (inspect.iscoroutinefunction(plain) or inspect.isasyncgenfunction(plain)):  # its body never runs
        wrong = Miss("lesson.async_def", {"name": piece.name})
        return _report(piece, [wrong for _ in piece.points])
    misses: list[Miss | None] = []
    limit = timeout
    for point in piece.points:
        outcome = run_limited(lambda probe=point.probe: _sent(probe(fn)), limit)  # type: ignore[misc]  # mypy cannot type a lambda's default
        if outcome.status == "ok":
            misses.append(_received(outcome.value))
        elif outcome.status == "error" and outcome.error.startswith(TODO_ERRORS):
            misses.append(Miss(TODO))
        elif outcome.status == "error":
            misses.append(raised(outcome.error, piece, name))
        elif outcome.status == "aborted":  # a probe's own runaway detector (a scripted model) ended it
            misses.append(_received(outcome.value) or Miss("lesson.runaway"))
        elif outcome.status == "timeout":
            seconds = f"{limit:g}"
            misses.append(piece.stalled(fn, seconds) if piece.stalled else Miss("lesson.timeout", {"seconds": seconds}))
            limit = min(timeout, AFTER_A_TIMEOUT)
        elif outcome.status == "tampered":  # the sandbox's word for bytes the learner's code wrote into the pipe
            misses.append(Miss("lesson.tampered"))
        elif outcome.status == "memory":  # the child's own cap, not a crash: the hint names it
            misses.append(Miss("lesson.memory", {"mb": outcome.value}))
        else:
            misses.append(Miss("lesson.crashed"))
    return _report(piece, misses)


def _report(piece: Piece, misses: list[Miss | None]) -> Report:
    checks = []
    for number, (point, miss) in enumerate(zip(piece.points, misses), 1):
        title = t(point.title)
        checks.append(
            Check(number, title, True) if miss is None else Check(number, title, False, miss.hint(), key=miss.key)
        )
    return Report(piece.name, tuple(checks))


def unwritten(verdict: Report) -> bool:
    """Is every point still at the TODO cell's placeholder (nothing written yet)?"""
    return all(check.key == TODO for check in verdict.checks)


def point_lines(verdict: Report, show: str = "") -> list[str]:
    """A piece's verdict as the lesson prints it: one ○ / × line per point, each cause said once."""
    if unwritten(verdict):
        return [t("lesson.check.unwritten", name=verdict.exercise, show=show or f'lessons.show("{verdict.exercise}")')]
    lines, said = [], set()
    for check in verdict.checks:
        if check.passed:
            lines.append(t("lesson.check.met", title=check.title))
            continue
        hint = t("lesson.same_cause") if check.hint in said else check.hint
        lines.append(t("lesson.check.missed", title=check.title, hint=hint))
        said.add(check.hint)  # one cause, said once: the points after it point back to it
    return lines


def raised(error: str, piece: Piece | None = None, name: str | None = None) -> Miss:
    """The hint for an exception the learner's code raised: the rule it broke, when we know it (``name``: the
    learner's function's, to tell a call that did not fit its parameters)."""
    if piece is not None and piece.shape and name and _called_wrongly(error, name):
        return Miss("lesson.arguments", {"error": error, "shape": piece.shape})
    for pattern, key in (*(piece.rules if piece else ()), *RULES):
        if pattern.search(error):
            return Miss(key, {"error": error})
    return Miss("lesson.raised", {"error": error})


def slip(exc: BaseException, error: str) -> Miss | None:
    """The hint for an exception raised where a point wanted a result, when it was no choice of the learner's
    (a typo, a read of the keyboard): the rule it broke, not the point's own word for raising instead."""
    keyboard = raised(error).key == "lesson.rule.keyboard"
    return raised(error) if isinstance(exc, SLIPS) or keyboard else None


def generated(value: Any) -> Miss | None:
    """The hint for a piece that handed back a generator (a yield in its body) where it should return a value."""
    return Miss("lesson.rule.generator") if inspect.isgenerator(value) else None


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
