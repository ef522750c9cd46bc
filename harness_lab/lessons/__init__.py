"""The lessons' hands-on part (layer 5, beside ``grading``): check what the learner wrote, keep it, use it.

In a notebook, after a "write it yourself" cell::

    from harness_lab import lessons
    run_tools = lessons.check("run_tools", run_tools)   # a verdict per point; returns what to use next

prints one line per point (○, or × with a hint that names the cause) and returns the learner's
function once it passes (and writes it into ``my_harness.py``), else the reference, so the lesson
always goes on. A later notebook picks the learner's pieces up with ``lessons.use("run_tools")``.
``lessons.compare(guess, actual)`` checks a prediction made before a counting moment.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from ..text import t
from . import catalog  # noqa: F401  # the layer's strings, before any module uses them
from .checking import Miss, Piece, Point, Verdict, judge
from .lesson2 import RUN_AGENT, RUN_TOOLS
from .lesson3 import NEXT_STEP
from .lesson4 import SIGNATURE_OF
from .lesson5 import RUN_TOOL_USES
from .lesson6 import READ_FILE, RUN_AGENT_WITH_VALVES
from .protocol import HandWritten, drive, finished, stopped, turn
from .workbook import Workbook, workbook

__all__ = [
    "HandWritten",
    "Miss",
    "PIECES",
    "Piece",
    "Point",
    "Verdict",
    "Workbook",
    "check",
    "compare",
    "drive",
    "finished",
    "judge",
    "reference",
    "show",
    "stopped",
    "turn",
    "use",
    "workbook",
]

PIECES: dict[str, Piece] = {
    p.name: p for p in (RUN_TOOLS, RUN_AGENT, NEXT_STEP, SIGNATURE_OF, RUN_TOOL_USES, READ_FILE, RUN_AGENT_WITH_VALVES)
}


def _piece(name: str) -> Piece:
    if name not in PIECES:
        raise KeyError(t("lesson.unknown_piece", name=name, known=", ".join(PIECES)))
    return PIECES[name]


def check(name: str, fn: Any, *, timeout: float = 10.0) -> Callable:
    """Judge the learner's ``fn`` for piece ``name``; print the verdict; return what to use next."""
    piece = _piece(name)
    if fn is piece.reference:  # the check ran again on what it handed back: nothing written yet
        print(t("lesson.check.unwritten", name=name))
        return fn
    verdict = judge(piece, fn, timeout)
    lines = verdict.lines()
    if verdict.passed:
        saved = workbook().save(name, piece.lesson, fn, pieces=PIECES)
        lines.append(
            t("lesson.check.saved", name=name, path=workbook().path.name)
            if saved
            else t("lesson.check.not_saved", name=name)
        )
    elif not verdict.unwritten:
        lines.append(t("lesson.check.go_on_with_reference", name=name))
    print("\n".join(lines))
    return fn if verdict.passed else piece.reference


def use(name: str) -> Callable:
    """The piece the following cells run: the learner's own from ``my_harness.py`` when it is there."""
    piece, book = _piece(name), workbook()
    try:
        module = book.load()
    except Exception as exc:  # the learner edited the file and broke it: say where, go on
        print(t("lesson.use.broken", path=book.path.name, error=f"{type(exc).__name__}: {exc}"))
        return piece.reference
    mine = getattr(module, name, None) if module is not None else None
    if callable(mine) and mine is not piece.reference:  # the file fills unwritten pieces with references
        print(t("lesson.use.mine", name=name, path=book.path.name))
        return mine
    print(t("lesson.use.reference", name=name, path=book.path.name))
    return piece.reference


def reference(name: str) -> Callable:
    return _piece(name).reference


def show(name: str) -> None:
    """Print the reference of piece ``name`` (its comments are written for that lesson's reader)."""
    print(inspect.getsource(_piece(name).reference))


def compare(guess: dict, actual: dict) -> bool:
    """A prediction against what happened, one line per number; True when every guess was right."""
    lines, right = [], True
    for what, value in actual.items():
        said = guess.get(what) if isinstance(guess, dict) else None
        if said is None:
            lines.append(t("lesson.predict.blank", what=what, actual=value))
            right = False
        elif said == value:
            lines.append(t("lesson.predict.right", what=what, actual=value))
        else:
            lines.append(t("lesson.predict.wrong", what=what, guess=said, actual=value))
            right = False
    print("\n".join(lines))
    return right
