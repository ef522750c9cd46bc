"""Spy tools and a spy approver that write down what the learner's code did (lesson 6 exercises).

Graders judge behaviour: which tool ran, with which input, and whether the human was asked first.
One ``Recorder`` per scenario keeps a single ordered log, so "asked before it ran" is a comparison
of two positions in that log. A spy tool takes its input by keyword, as the notebooks' tools do
(``impl(**tool_input)``): a call by position is logged as its form and raises their TypeError. The
recorder's approver reads a question however it was put, ``approve(name, input)`` or ``approve(block)``.
A learner may tidy a path before using it (``./notes.txt``); the log keeps the file it names, so the
same call compares equal however its path is spelled.

A grader keeps its recorders on its own side of ``bridge.observe``: ``Spies`` holds them by tag and
answers the job's messages, and ``remote_tools`` / ``remote_approver`` build, inside the job, the
proxies the learner's code calls. What a proxy sends is the call as logged, so the log is written
by the grader, in order, and nothing the learner's code does in its own process can rewrite it.

The level-1 exercise's approver (``remote_approver``) is stricter than the lessons' spy approver: it is
the notebook's ``approve(name, tool_input)``, so a call the notebook's own approver would refuse (other
keywords, the whole block, a third argument) raises the same TypeError here, after the call's form is
logged for the hint. Lesson 6's checks wrap theirs the same way (``lessons.checking.notebook_approver``).
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .bridge import ask
from .sandbox import plain

__all__ = [
    "SWAPPED",
    "Event",
    "Recorder",
    "Spies",
    "canonical",
    "impl_miscalled",
    "logged",
    "miscalled",
    "misuse_of",
    "remote_approver",
    "remote_tools",
]


def canonical(value: Any) -> str:
    """A tool input as canonical JSON, so equal inputs compare equal whatever their key order."""
    try:
        return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return repr(value)


def logged(given: Mapping) -> str:
    """A tool input as the log keeps it: canonical JSON, each ``path`` reduced to the file it names."""
    return canonical(_tidy(given))


def _tidy(given: Mapping) -> dict:
    return {k: posixpath.normpath(v) if k == "path" and isinstance(v, str) and v else v for k, v in given.items()}


@dataclass(frozen=True)
class Event:
    kind: str  # "impl" (a tool ran) or "approve" (the human was asked)
    name: str
    input: str  # as ``logged`` gives it


class Recorder:
    """The ordered log of one scenario, and factories for the spies that fill it."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def tool(self, name: str, output: Any) -> Callable[..., Any]:
        def spy(*args: Any, **kwargs: Any) -> Any:
            if misuse := impl_miscalled(name, args, kwargs):  # as the notebooks' tools, which take keywords
                self.events.append(Event("impl", misuse[0], "{}"))
                raise TypeError(misuse[1])
            self.events.append(Event("impl", name, logged(kwargs)))
            return output

        spy.__name__ = name
        return spy

    def tools(self, outputs: Mapping[str, Any]) -> dict[str, Callable[..., Any]]:
        return {name: self.tool(name, out) for name, out in outputs.items()}

    def approver(self, decide: Callable[[str, dict], bool]) -> Callable[..., bool]:
        """An approval callback: logs the question, answers ``decide(name, input)`` as a bool.

        ``decide`` sees the input as logged (its path tidied), so it judges the file, not the spelling.
        """

        def approve(*args: Any, **kwargs: Any) -> bool:
            name, given = _question(args, kwargs)
            self.events.append(Event("approve", name, _heard(given)))
            return bool(decide(name, _tidy(given) if isinstance(given, Mapping) else {}))

        return approve

    def ran(self, name: str | None = None) -> list[Event]:
        return [e for e in self.events if e.kind == "impl" and (name is None or e.name == name)]

    def asked(self, name: str | None = None) -> list[Event]:
        return [e for e in self.events if e.kind == "approve" and (name is None or e.name == name)]

    def asked_before_ran(self, name: str, input: dict) -> bool:
        """True when the first run of ``name(input)`` comes after a question about it."""
        key = logged(input)
        asked_at = ran_at = None
        for i, e in enumerate(self.events):
            if e.name == name and e.input == key:
                if e.kind == "approve" and asked_at is None:
                    asked_at = i
                if e.kind == "impl" and ran_at is None:
                    ran_at = i
        return asked_at is not None and (ran_at is None or asked_at < ran_at)


Decide = Callable[[str, str], bool]  # (tool name, input as logged) -> approve?


class Spies:
    """The grader's side of an observed job: a recorder per tag, and the answer to each message.

    ``("impl", tag, name, given)`` is a tool call (answered with the tool's output),
    ``("approve", tag, name, given)`` a question to the human (answered with the recorder's
    ``decide``), ``("http", tag, ...)`` a request to the model served under ``tag``.
    """

    def __init__(self, outputs: Mapping[str, Any]) -> None:
        self.outputs = dict(outputs)
        self.recorders: dict[str, Recorder] = {}
        self._decide: dict[str, Decide] = {}
        self._http: dict[str, Callable[..., tuple]] = {}

    def recorder(self, tag: str, decide: Decide = lambda name, given: False) -> Recorder:
        self.recorders[tag], self._decide[tag] = Recorder(), decide
        return self.recorders[tag]

    def model(self, tag: str, answer: Callable[..., tuple]) -> None:
        """Serve ``("http", tag, ...)`` with ``answer`` (see ``bridge.serve_http``)."""
        self._http[tag] = answer

    def answer(self, message: tuple) -> Any:
        kind, tag, *rest = message
        if kind == "http":
            return self._http[tag](*rest)
        name, given = (plain(x) for x in rest)
        rec = self.recorders[tag]
        rec.events.append(Event(kind, name, given))
        if kind == "impl":
            return self.outputs.get(name, "")
        return bool(self._decide[tag](name, given))


def remote_tools(tag: str, names: Iterable[str]) -> dict[str, Callable[..., Any]]:
    """Inside an observed job: spy tools whose calls the grader logs under ``tag`` and answers.

    They are the exercises' tools, ``impl(**tool_input)``: the input by keyword. A call by position,
    which the notebook's own tools refuse, is logged as its form (``impl_miscalled``) and raises the same
    TypeError, so a runner that passes ``block.input`` whole fails here as it does in the notebook."""

    def make(name: str) -> Callable[..., Any]:
        def spy(*args: Any, **kwargs: Any) -> Any:
            if misuse := impl_miscalled(name, args, kwargs):
                form, error = misuse
                ask(("impl", tag, form, "{}"))
                raise TypeError(error)
            return ask(("impl", tag, name, logged(kwargs)))

        spy.__name__ = name
        return spy

    return {name: make(name) for name in names}


def remote_approver(tag: str) -> Callable[..., bool]:
    """Inside an observed job: the approval callback the exercise gives, ``approve(name, input)``; the grader
    logs the question and decides. Called otherwise, the call's form is logged and a TypeError raised."""

    def approve(*args: Any, **kwargs: Any) -> bool:
        if misuse := miscalled(args, kwargs):
            form, error = misuse
            ask(("approve", tag, form, "{}"))
            raise TypeError(error)
        name, given = _question(args, kwargs)
        return ask(("approve", tag, plain(name), _heard(given)))

    return approve


# The name a question is logged under when the approver got (input, name): no tool is called so.
SWAPPED = "approve(input, name)"


def _approve(name: Any, tool_input: Any) -> None:
    """The notebooks' approver's signature: binding a call to it raises the TypeError theirs would."""


_approve.__qualname__ = "approve"  # the name Python's error gives, as the notebook's own


def miscalled(args: tuple, kwargs: dict) -> tuple[str, str] | None:
    """(the call's form, as a hint quotes it, and the TypeError ``approve(name, tool_input)`` raises for it),
    or None for a call Python binds to it (two arguments by position, or by those names)."""
    try:
        _approve(*args, **kwargs)
    except TypeError as exc:
        shown = ["block" if len(args) == 1 and hasattr(args[0], "name") else "…" for _ in args]
        return f"approve({', '.join([*shown, *(f'{key}=…' for key in kwargs)])})", str(exc)
    return None


def impl_miscalled(name: str, args: tuple, kwargs: dict) -> tuple[str, str] | None:
    """(the call's form, as a hint quotes it, and the TypeError ``impl(**tool_input)`` raises for it),
    or None for a call by keywords alone."""
    if not args:
        return None
    shown = ["block" if hasattr(a, "input") else "{…}" if isinstance(a, Mapping) else "…" for a in args]
    form = f"{name}({', '.join([*shown, *(f'{key}=…' for key in kwargs)])})"
    given = "1 was" if len(args) == 1 else f"{len(args)} were"
    return form, f"{name}() takes 0 positional arguments but {given} given"


def misuse_of(events: Iterable[Event], kind: str | None = None) -> str | None:
    """The form of the first call (of ``kind``, or either) logged as ``miscalled`` or ``impl_miscalled``
    found it, or None: a form has parentheses, a tool's name never does."""
    return next((e.name for e in events if "(" in e.name and kind in (None, e.kind)), None)


def _question(args: tuple, kwargs: dict) -> tuple[str, Any]:
    """Read (tool name, input) from however the learner called the approver; an input that is no dict
    is kept as it came (``json.dumps(block.input)``, the block), for the hint to show what was passed."""
    first = args[0] if args else kwargs.get("name", kwargs.get("tool_name", kwargs.get("block")))
    if isinstance(first, Mapping) and "name" not in first and len(args) > 1 and isinstance(args[1], str):
        return SWAPPED, {}
    if isinstance(first, str):
        given = args[1] if len(args) > 1 else kwargs.get("input", kwargs.get("tool_input", {}))
        return first, dict(given) if isinstance(given, Mapping) else given
    # a whole tool_use block (SDK object or dict)
    name = first.get("name") if isinstance(first, Mapping) else getattr(first, "name", "")
    given = first.get("input") if isinstance(first, Mapping) else getattr(first, "input", {})
    return str(name or ""), dict(given) if isinstance(given, Mapping) else given


def _heard(given: Any) -> str:
    """A question's input as the log keeps it: ``logged`` for a dict, else its repr (a string of JSON shows
    its quotes), so a hint quoting it says what the approver was handed."""
    return logged(given) if isinstance(given, Mapping) else plain(repr(given), 200)
