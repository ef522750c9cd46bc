"""Argument checks for the harness's public entry points: bad input fails at the door, clearly.

A mistake caught where it is made (``Run(client, valves=MaxTurns)``, ``steer("")``, a prompt with a
lone surrogate) costs one readable error; caught mid-run it would cost a traceback from deep in the
loop, or a history that can never be sent again. Each check returns the value it accepted.
"""

from __future__ import annotations

import argparse
import math
import reprlib
from collections.abc import Iterable
from typing import Any, TypeVar

from .steps import STEPS
from .text import t

_T = TypeVar("_T")

__all__ = [
    "approver",
    "client",
    "instruction",
    "max_tokens",
    "options",
    "prompt",
    "seconds",
    "text",
    "valves",
    "whole_number",
]

# What a newcomer reaches for as a keyword of run(), and the valve that does it.
VALVE_FOR = {
    "max_turns": "hl.MaxTurns({})",
    "turns": "hl.MaxTurns({})",
    "max_iterations": "hl.MaxTurns({})",
    "token_budget": "hl.TokenBudget({})",
    "budget": "hl.TokenBudget({})",
    "max_total_tokens": "hl.TokenBudget({})",
    "no_progress": "hl.NoProgress()",
    "approval": "hl.Approval()",
    "policy": "hl.Approval(policy=...)",
}


def whole_number(value: Any, what: str, minimum: int) -> int:
    """``value`` if it is an int (not a bool) of at least ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(t("usage.whole_number", what=what, minimum=minimum, got=reprlib.repr(value)))
    return value


def max_tokens(value: Any) -> int:
    """One response's cap; the message points at the valve newcomers confuse it with."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(t("usage.max_tokens", got=reprlib.repr(value)))
    return value


def model(value: Any) -> Any:
    """A model id as the API takes it (a string), or None for the course's default; any other type would
    only come back as a 400 on the first request."""
    if value is not None and not isinstance(value, str):
        raise TypeError(t("usage.model", got=reprlib.repr(value)))
    return value


def client(value: Any) -> Any:
    if not hasattr(getattr(value, "messages", None), "create"):
        raise TypeError(t("usage.client", got=reprlib.repr(value)))
    return value


def valves(value: Iterable[_T]) -> list[_T]:
    """The valves as a list, each checked now rather than failing (or never firing) mid-run."""
    if hasattr(value, "step") or not isinstance(value, Iterable) or isinstance(value, (str, dict)):
        raise TypeError(t("usage.valves", got=reprlib.repr(value)))
    found: list[Any] = list(value)  # each is checked for what a valve has, below
    for valve in found:
        if isinstance(valve, type):
            raise TypeError(t("usage.valve_class", name=valve.__name__))
        if not all(hasattr(valve, a) for a in ("name", "step", "check", "reading")):
            raise TypeError(t("usage.valve", got=reprlib.repr(valve)))
        if valve.step not in STEPS:  # a misspelt step would be a valve that silently never runs
            raise ValueError(
                t("usage.valve_step", name=valve.name, step=reprlib.repr(valve.step), steps=", ".join(STEPS))
            )
    return found


def options(given: dict[str, Any], known: Iterable[str]) -> dict[str, Any]:
    """``run()``'s extra keywords, refused by name: a limit on turns or tokens is a valve, not an option."""
    known = list(known)
    for name, value in given.items():
        if name not in known:
            valve = VALVE_FOR.get(name)
            hint = t("usage.option_valve", valve=valve.format(reprlib.repr(value))) if valve else ""
            raise TypeError(t("usage.option", name=name, known=", ".join(known), hint=hint).rstrip())
    return given


def prompt(value: Any) -> Any:
    if (isinstance(value, str) and value.strip()) or (isinstance(value, list) and value):
        return _encodable(value)
    error = ValueError if isinstance(value, (str, list)) else TypeError
    raise error(t("usage.prompt", got=reprlib.repr(value)))


def instruction(value: Any) -> str:
    if isinstance(value, str) and value.strip():
        return _encodable(value)
    raise ValueError(t("usage.steer", got=reprlib.repr(value)))


def text(value: Any, what: str) -> str:
    """A string the history may hold (valid UTF-8)."""
    if not isinstance(value, str):
        raise TypeError(t("usage.text", what=what, got=reprlib.repr(value)))
    return _encodable(value)


def approver(value: Any) -> Any:
    if value is not None and not callable(value):
        raise TypeError(t("usage.approve", got=reprlib.repr(value)))
    return value


def seconds(text: str) -> float:
    """A command line's time limit (argparse's ``type=``): a positive, finite number of seconds.

    Shared by ``harness-lab grade`` and ``python -m harness_lab.grading``: ``nan`` passed float() and
    reached the grader as a traceback, and ``0`` or ``-5`` as a timeout blamed on the learner's answer.
    """
    try:
        value = float(text)
    except ValueError:  # else argparse says "invalid seconds value"
        value = math.nan
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(t("usage.seconds", text=text))
    return value


def _encodable(value: _T) -> _T:
    """``value`` if every string in it is valid UTF-8 (no lone surrogate).

    A lone surrogate (from a terminal's undecodable bytes, say) cannot be sent as JSON: kept in the
    history, it would make this request and every later one fail, so it is refused here.
    """
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError as exc:
                shown = reprlib.repr(item[max(exc.start - 10, 0) : exc.end + 10])
                raise ValueError(t("usage.not_utf8", got=shown)) from None
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return value
