"""The lessons' hands-on part (layer 5, beside ``grading``): check what the learner wrote, keep it, use it.

In a notebook, after a "write it yourself" cell::

    from harness_lab import lessons
    run_tools = lessons.check("run_tools", run_tools)   # a verdict per point; returns what to use next

prints one line per point (○, or × with a hint that names the cause) and returns the learner's
function once it passes (and writes it into ``my_harness.py``), else the reference, so the lesson
always goes on; ``lessons.show(name)`` prints the reference, ``lessons.hint(name)`` the steps. A later
notebook picks the learner's pieces up with ``lessons.use("run_tools")``. ``lessons.compare(guess,
actual)`` checks a prediction made before a counting moment, and keeps the answer back until there
is a guess.

The learner's loop is ``run_agent`` from the first lesson to the last: the bare loop of lesson 2, then
in lesson 6 the same loop with its four valves (``lesson=6`` picks that check); the workbook keeps
the newer one. Lesson 7 (notebook 06, the 2026 API) adds ``stop_message``.
"""

from __future__ import annotations

import inspect
import re
import unicodedata
from collections.abc import Callable
from typing import Any

from ..cell_runs import failed_definition, watch
from ..grading.report import GradeInterrupted, print_lines
from ..text import lang, t
from . import catalog, catalog2, catalog5, catalog6, catalog7, said_catalog, thinking_catalog  # noqa: F401  # the layer's strings, before any module uses them
from .capstone import MY_AGENT
from .checking import Miss, Piece, Point, judge, point_lines, unwritten
from .confinement import READ_FILE
from .english_pieces import twin as english_twin
from .lesson2 import RUN_TOOLS
from .lesson2_loop import RUN_AGENT
from .lesson3 import NEXT_STEP
from .lesson4 import SIGNATURE_OF
from .lesson5 import RUN_TOOL_USES
from .lesson6 import RUN_AGENT_WITH_VALVES
from .lesson7 import STOP_MESSAGE
from .protocol import HandWritten, drive, finished, stopped, turn
from .workbook import Workbook, WorkbookError, one_line, workbook

__all__ = [
    "ALL",
    "HandWritten",
    "Miss",
    "PIECES",
    "Piece",
    "Point",
    "Workbook",
    "check",
    "compare",
    "drive",
    "finished",
    "guessed",
    "hint",
    "judge",
    "piece",
    "point_lines",
    "reference",
    "show",
    "stopped",
    "turn",
    "unwritten",
    "use",
    "workbook",
]

ALL: tuple[Piece, ...] = (
    RUN_TOOLS,
    RUN_AGENT,
    NEXT_STEP,
    SIGNATURE_OF,
    RUN_TOOL_USES,
    READ_FILE,
    RUN_AGENT_WITH_VALVES,
    MY_AGENT,
    STOP_MESSAGE,
)
# By name, the latest lesson's piece: what a finished workbook defines under that name.
PIECES: dict[str, Piece] = {p.name: p for p in sorted(ALL, key=lambda p: p.lesson)}
watch(PIECES)  # in a kernel: which definition cells raised, so a check does not judge the earlier definition


def piece(name: str, lesson: int | None = None) -> Piece:
    """The piece ``name`` (of ``lesson``, when two lessons write that name; else the first)."""
    found = [p for p in ALL if p.name == name and (lesson is None or p.lesson == lesson)]
    if not found:
        known = ", ".join(dict.fromkeys(p.name for p in ALL))
        raise KeyError(
            t("lesson.unknown_piece", name=name if lesson is None else f"{name} (lesson={lesson})", known=known)
        )
    return found[0]


def _say(*lines: str) -> None:
    """Print a check's or a prediction's report, each line wrapping under its own text after its mark
    (``print_lines``); a line may carry a learner's error message over several lines."""
    print_lines("\n".join(lines).split("\n"))


def _call(what: str, wanted: Piece) -> str:
    """How to ask for a piece by name: ``lessons.show("run_agent", lesson=6)`` when it is not the first of its name."""
    first = next(p for p in ALL if p.name == wanted.name)
    return f'lessons.{what}("{wanted.name}"' + (")" if first is wanted else f", lesson={wanted.lesson})")


def check(name: str, fn: Any, *, lesson: int | None = None, timeout: float = 10.0) -> Callable:
    """Judge the learner's ``fn`` for piece ``name``; print the verdict; return what to use next."""
    wanted = piece(name, lesson)
    shown = _call("show", wanted)
    failed = failed_definition(name)
    # The learner's cell raised, and fn is what the name kept (or what a check handed back since): the
    # earlier definition, not what they wrote.
    if failed is not None and (fn is failed[1] or fn is wanted.reference):
        _say(t("lesson.check.cell_failed", name=name, error=failed[0], show=shown))
        return wanted.reference
    if fn is wanted.reference:  # the check ran again on what it handed back, after a miss as after a TODO
        _say(t("lesson.check.reference_again", name=name, show=shown))
        return fn
    try:
        verdict = judge(wanted, fn, timeout)
    except KeyboardInterrupt:  # one line, not a traceback through the time limit's machinery
        raise GradeInterrupted(t("lesson.check.interrupted", name=name)) from None
    lines = point_lines(verdict, shown)
    if verdict.passed:
        problem = workbook().save(name, wanted.lesson, fn, pieces=PIECES)
        lines.append(t("lesson.check.saved", name=name, path=workbook().path.name) if problem is None else problem)
    elif not unwritten(verdict):
        lines.append(t("lesson.check.go_on_with_reference", name=name, show=shown))
    _say(*lines)
    return fn if verdict.passed else wanted.reference


def use(name: str, *, lesson: int | None = None) -> Callable:
    """The piece the following cells run: the learner's own from ``my_harness.py`` when it is there."""
    wanted = piece(name, lesson) if lesson is not None else PIECES.get(name) or piece(name)
    book, shown = workbook(), _call("show", wanted)
    try:
        module, held = book.load(), book.pieces().get(name)
    except WorkbookError as exc:  # it names the file and the line itself
        print(t("lesson.use.unreadable", error=str(exc), show=shown))
        return wanted.reference
    except Exception as exc:  # the learner edited the file and broke it: say where, go on
        print(t("lesson.use.broken", path=book.path.name, error=one_line(exc), show=shown))
        return wanted.reference
    mine = getattr(module, name, None) if module is not None else None
    if held is not None and held[0] < wanted.lesson:  # lesson 2's run_agent, where lesson 6's is wanted
        print(t("lesson.use.earlier", name=name, path=book.path.name, lesson=held[0], show=shown))
        return wanted.reference
    if callable(mine) and all(mine not in (p.japanese, p.english) for p in ALL):  # the file fills gaps with references
        print(t("lesson.use.mine", name=name, path=book.path.name))
        return mine
    print(t("lesson.use.reference", name=name, path=book.path.name, show=shown))
    return wanted.reference


def reference(name: str, *, lesson: int | None = None) -> Callable:
    return piece(name, lesson).reference


def show(name: str, *, lesson: int | None = None) -> None:
    """Print the reference of piece ``name`` (its comments are written for that lesson's reader, in the
    kernel's language: an English kernel reads its English twin)."""
    wanted = piece(name, lesson)
    print(inspect.getsource(english_twin(wanted) if lang() == "en" else wanted.reference))


def hint(name: str, *, lesson: int | None = None) -> None:
    """Print the steps for writing piece ``name``: a hint the learner opens, not the answer."""
    wanted = piece(name, lesson)
    print(t(wanted.hint) if wanted.hint else t("lesson.hint.none", name=name, show=_call("show", wanted)))


def guessed(guess: dict) -> bool:
    """Whether the learner wrote down any prediction: what would give the answer away waits for one."""
    return isinstance(guess, dict) and any(value is not None for value in guess.values())


# The course numbers its valves (弁1-弁4, lesson 6); a guess may name one either way.
_VALVE_NUMBERS = {"max_turns": 1, "token_budget": 2, "no_progress": 3, "approval": 4}


_COUNTED = re.compile(r"(\d+)(?:回|ターン|件|個|トークン|times?|turns?|requests?|tokens?)?")


def _same(guess: Any, actual: Any) -> bool:
    """A guess matches by meaning: "400" or "3回" for a count, "弁1" or "valve 1" for max_turns."""
    if guess == actual:
        return True
    if not isinstance(guess, str):
        return False
    said = unicodedata.normalize("NFKC", "".join(guess.split())).lower()  # ３ is 3
    if isinstance(actual, int) and not isinstance(actual, bool):
        counted = _COUNTED.fullmatch(said.replace(",", ""))  # "3回", "2ターン", "3 requests"
        return counted is not None and counted[1] == str(actual)
    number = _VALVE_NUMBERS.get(actual) if isinstance(actual, str) else None
    return said == str(actual).lower() or (number is not None and said in (f"弁{number}", f"valve{number}"))


def compare(guess: dict, actual: dict, row: str | None = None) -> bool:
    """A prediction against what happened, one line per number; True when every guess was right.

    A number with no guess stays hidden: the answer is shown once there is a prediction to check.
    ``row`` picks one row of a table of predictions (``MY_GUESS[row]``): a row the learner deleted or
    renamed is named, and its answer kept back, where ``MY_GUESS[row]`` would raise a bare KeyError.
    """
    if row is not None:
        table = guess if isinstance(guess, dict) else {}
        if row not in table:
            _say(t("lesson.predict.no_row", row=row, rows=t("lesson.predict.joiner").join(map(str, table)) or "-"))
            return False
        guess = table[row]
    said = guess if isinstance(guess, dict) else {}
    # A guess cleared to "" (or spaces) is no guess: the answer stays hidden, as for None.
    said = {what: v for what, v in said.items() if not (isinstance(v, str) and not v.strip())}
    if all(said.get(what) is None for what in actual):
        _say(t("lesson.predict.all_blank", whats=t("lesson.predict.joiner").join(actual)))
        return False
    lines, right = [], True
    for what, value in actual.items():
        if said.get(what) is None:
            lines.append(t("lesson.predict.blank", what=what))
            right = False
        elif _same(said[what], value):
            lines.append(t("lesson.predict.right", what=what, actual=value))
        else:
            lines.append(t("lesson.predict.wrong", what=what, guess=said[what], actual=value))
            right = False
    _say(*lines)
    return right
