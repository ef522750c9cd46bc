"""Grade an exercise notebook file from its answer cells, in a fresh process (lesson 6, 練習).

A notebook's own grade cell proves nothing to anyone but its author: the learner can edit it, and
a stored output is whatever was saved. So the grading command never runs that cell and never reads
an output. It reads the cells the starters tag ``setup`` and ``answer`` (the TODO cells and the
cells they need) and hands them to the package's own grader (``EXERCISES``), which judges from a
process where no learner code ever runs: each of its time-limited children runs the cells afresh,
then the calls the grader watches from the other side of ``bridge.observe``. So an answer cell that
rewrites the grader's modules, or writes a verdict of its own into a pipe, changes only a child
whose word counts for nothing but the learner's own output. The whole notebook runs under one time
and memory limit, and each criterion under its own (see ``sandbox.py``), so a hanging or crashing
notebook is that notebook's "timeout" or "error", never the caller's.

``grade_notebook(path)`` grades a file here; the grading commands (``command.py``, ``classroom.py``)
run it in a grading host instead (``runner.py``), through ``grade_call`` and ``hosted_grade``: the
notebook's bytes go in, the grade comes back as plain values (``NotebookGrade.as_plain``).
"""

from __future__ import annotations

import builtins
import importlib
import json
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..text import lang, speaking, t
from .answer_run import TooDeep, TooSlow, UnderWay, cells_deadline, run_cell, watching_stops
from .notebook_code import name_notes
from .processes import keep_private
from .report import Check, Kept, Report, flat, kept, kept_from, plain_values
from .runner import Call
from .sandbox import GRACE, MEMORY_LIMIT, JobResult, describe_error, run_limited

__all__ = [
    "CHECK_TIMEOUT",
    "EXERCISES",
    "Exercise",
    "NOTEBOOK_TIMEOUT",
    "NotebookGrade",
    "answer_sources",
    "exercise_named",
    "exercise_of",
    "grade_call",
    "grade_in_folder",
    "grade_notebook",
    "hosted_grade",
]

NOTEBOOK_TIMEOUT = 60.0  # seconds for a whole notebook: its answer cells and every criterion
CELLS_TIMEOUT = 10.0  # seconds for its answer cells, which only define names: a loop there is a hang
CHECK_TIMEOUT = 5.0  # seconds for each limited run inside the graders
RUN_TAGS = ("setup", "answer")
GRADE_TAG = "grade"


@dataclass(frozen=True)
class Exercise:
    """An exercise's canonical grade code: the names its answer cells define, and its grader.

    ``judge`` names the function (``module:function`` in this package) that judges; ``grader()`` imports
    it, and ``grader()(learner, timeout=...)`` calls ``learner()`` in each child for the objects, in
    ``names`` order. It is imported only where a notebook is judged (a grading host imports it before
    any learner code runs), so the class command's own process never loads the SDK the judges drive.
    """

    name: str
    names: tuple[str, ...]
    judge: str
    criteria: tuple[str, ...] = ()  # catalog keys of the criteria's titles, in order (a class report's columns)

    def grader(self) -> Callable[..., Report]:
        module, function = self.judge.split(":")
        return getattr(importlib.import_module(module, __package__), function)


EXERCISES = {
    "level1": Exercise(
        "level1",
        ("POLICY", "DEFAULT_TIER", "run_tool_uses", "ANSWERS"),
        ".level1:grade_level1_from",
        ("grade.l1.c1.title", "grade.l1.c2.title", "grade.l1.c3.title"),
    ),
    "level2": Exercise(
        "level2",
        ("MISSING", "run_agent", "MAX_TURNS"),
        ".level2:grade_level2_from",
        ("grade.l2.c1.title", "grade.l2.c2.title", "grade.l2.c3.title"),
    ),
}


@dataclass(frozen=True)
class NotebookGrade:
    """The verdict on one notebook file.

    ``status``: "ok" (the graders ran: see ``reports``), "timeout" or "error" (``error`` is the one
    line to show, ``key`` its catalog entry, ``values`` what filled it: ``report.kept``).
    """

    path: str
    exercise: str
    status: str
    reports: tuple[Report, ...] = ()
    error: str = ""
    key: str = ""
    notes: tuple[str, ...] = field(default=())
    values: tuple[tuple[str, Kept], ...] = ()

    @classmethod
    def failed(cls, path: str, exercise: str, status: str, key: str, /, **values: object) -> NotebookGrade:
        """A grade with no verdict: the one line of the catalog entry ``key``, its values kept beside it."""
        shown = flat(values)
        return cls(path, exercise, status, error=t(key, **shown), key=key, values=kept(shown))

    @property
    def passed(self) -> bool:
        return self.status == "ok" and all(r.passed for r in self.reports)

    def text(self) -> str:
        lines = [t("grade.nb.header", path=self.path, exercise=self.exercise or "?")]
        lines += [r.text() for r in self.reports] if self.status == "ok" else [self.error]
        return "\n".join(lines + list(self.notes))

    def as_plain(self) -> dict:
        """The grade as plain values (what a grading host sends back, what a class record stores)."""
        reports = [{"exercise": r.exercise, "checks": [_plain(c) for c in r.checks]} for r in self.reports]
        values = {"path": self.path, "exercise": self.exercise, "status": self.status, "error": self.error}
        return values | {
            "key": self.key,
            "notes": list(self.notes),
            "reports": reports,
            "values": plain_values(self.values),
        }

    @classmethod
    def from_plain(cls, value: dict) -> NotebookGrade:
        """A grade back from ``as_plain``'s values (raises KeyError, TypeError or ValueError for others); one
        made before grades kept their hints' values has none (``kept_from``)."""
        reports = tuple(Report(r["exercise"], tuple(map(_check, r["checks"]))) for r in value["reports"])
        fields = (value["path"], value["exercise"], value["status"])
        told = kept_from(value.get("values", {}))
        return cls(*fields, reports, value["error"], value["key"], tuple(value["notes"]), told)


def _plain(check: Check) -> list:
    fields = [check.number, check.title, check.passed, check.hint, check.warning, check.key]
    return [*fields, plain_values(check.values)]


def _check(plain: list) -> Check:
    """A check back from ``_plain`` (or from its first six fields alone, as grades were kept before values)."""
    number, title, passed, hint, warning, key = plain[:6]
    return Check(number, title, passed, hint, warning, key, kept_from(plain[6] if len(plain) > 6 else {}))


def grade_notebook(
    path: str | os.PathLike, *, timeout: float = NOTEBOOK_TIMEOUT, check_timeout: float = CHECK_TIMEOUT
) -> NotebookGrade:
    """Grade one exercise notebook file; never raises for what the file holds."""
    shown = str(path)
    try:
        notebook = json.loads(Path(path).read_text(encoding="utf-8"))
        cells = [c for c in notebook["cells"] if c.get("cell_type") == "code"]
        sources = [(n, _source(c)) for n, c in enumerate(cells, 1) if set(_tags(c)) & set(RUN_TAGS)]
        exercise = exercise_of(notebook, cells, Path(path))
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
        # RecursionError: JSON nested deeper than the parser's recursion limit
        return _failed(shown, "", "error", "grade.nb.unreadable", error=describe_error(exc))
    if exercise is None:
        return _failed(shown, "", "error", "grade.nb.unknown_exercise")
    if not any(set(_tags(c)) & {"answer"} for c in cells):
        return _failed(shown, exercise.name, "error", "grade.nb.no_answer_cells")
    folder = str(Path(path).resolve().parent)
    keep_private()  # the answer pipe's read end, here, must not be reopened for writing from below
    outcome = run_limited(lambda: _run(exercise, sources, folder, check_timeout), timeout, memory=2 * MEMORY_LIMIT)
    grade = _graded(shown, exercise.name, outcome, timeout)
    said = [grade.error, *(c.hint for r in grade.reports for c in r.checks if not c.passed)]
    others = [_source(c) for c in cells if not set(_tags(c)) & set(RUN_TAGS)]
    return replace(grade, notes=name_notes(said, [source for _, source in sources], others))


def _failed(path: str, exercise: str, status: str, key: str, **values: Any) -> NotebookGrade:
    return NotebookGrade.failed(path, exercise, status, key, **values)


def _source(cell: dict) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def answer_sources(notebook: Any) -> list[str]:
    """The sources of a notebook's code cells tagged ``answer``, in order; [] for what is not a notebook."""
    try:
        cells = [c for c in notebook["cells"] if c.get("cell_type") == "code"]
        return [_source(c) for c in cells if "answer" in _tags(c)]
    except (KeyError, TypeError, AttributeError):
        return []


def _tags(cell: dict) -> list[str]:
    tags = cell.get("metadata", {}).get("tags", [])
    return [tag for tag in tags if isinstance(tag, str)] if isinstance(tags, list) else []


def exercise_of(notebook: dict, cells: list[dict], path: Path) -> Exercise | None:
    """Which exercise: the notebook's metadata, else its grade cell's call, else its file name."""
    meta = notebook.get("metadata", {}).get("harness_lab", {})
    if isinstance(meta, dict) and meta.get("exercise") in EXERCISES:
        return EXERCISES[meta["exercise"]]
    for cell in cells:
        if GRADE_TAG in _tags(cell):
            for name in EXERCISES:
                if f"check_{name}" in _source(cell):
                    return EXERCISES[name]
    return EXERCISES.get(exercise_named(path.name))


def exercise_named(name: str) -> str:
    """The exercise a notebook's file name tells (collect.sh names files so; an LMS may capitalise), or ""."""
    return next((ex for ex in EXERCISES if name.lower().startswith(ex)), "")


def _run(exercise: Exercise, sources: list[tuple[int, str]], folder: str, check_timeout: float) -> tuple:
    """In the forked child, which runs no learner code itself: try the answer cells once in a child
    of their own, then let the canonical grader run them again in each of its children."""
    grade = exercise.grader()  # imported before any learner code runs, should the host not have it yet
    under_way = UnderWay()
    # the stop watch looks past the cells' own timer (a cell still running then cannot hear it), not their kill
    with watching_stops(under_way, CELLS_TIMEOUT + 0.5) as stops:
        tried = run_limited(lambda: _tried(exercise, sources, folder, under_way), CELLS_TIMEOUT + 1)
    if tried.status == "timeout":  # stuck where the cells' own timer could not end it
        return (_late(under_way, stops.stopped), under_way.last(), CELLS_TIMEOUT)
    if tried.status == "crashed" and under_way.pipe_cut():  # no answer could come back
        return ("pipe_cut", under_way.pipe_cut())
    if tried.status != "ok":
        return ("tried", tried.status, tried.error, tried.value)
    if not _honest(tried.value):  # the cells wrote an answer of their own into the pipe
        return ("tampered",)
    if tried.value[0] != "ok":
        return tried.value
    # each child runs the cells before the criterion's calls: their time is added to its limit
    allowance = min(CELLS_TIMEOUT, 2 * tried.value[1] + 0.5)
    report = grade(lambda: _objects(exercise, sources, folder), timeout=check_timeout + allowance)
    return ("ok", [_plain(c) for c in report.checks])


def _honest(value: Any) -> bool:
    """Is ``value`` a summary ``_tried`` sends (the only thing the grader reads from that child)?"""
    shapes = {
        "ok": (float,),
        "cell_timeout": (int, float),
        "cell_recursion": (int, float),
        "cell": (int, str),
        "undefined": (str,),
        "deep": (int,),
    }
    return (
        type(value) is tuple and bool(value) and value[0] in shapes and tuple(map(type, value[1:])) == shapes[value[0]]
    )


def _tried(exercise: Exercise, sources: list[tuple[int, str]], folder: str, under_way: UnderWay) -> tuple:
    """In a child: run the cells; ("ok", seconds taken) or why they cannot be graded."""
    started = time.monotonic()
    under_way.begun()
    namespace = _namespace(folder)
    with cells_deadline(CELLS_TIMEOUT, under_way) as late:
        for number, source in sources:
            under_way.now(number)
            try:
                run_cell(source, f"<answer cell {number}>", namespace)
            except TooDeep:
                return ("deep", number)
            except MemoryError:
                raise  # the limited run's own handler names the memory cap
            except TooSlow:
                return (_late(under_way), number, late.seconds)
            except BaseException as exc:  # SystemExit from a cell included
                return ("cell", number, describe_error(exc))
            finally:
                under_way.after(number)
    missing = [name for name in exercise.names if name not in namespace]
    if missing:
        return ("undefined", missing[0])
    return ("ok", time.monotonic() - started)


def _late(under_way: UnderWay, stopped: bool = False) -> str:
    """Why the answer cells ran out of time: their process stopped by a signal, a function calling itself, or a loop."""
    if stopped:
        return "cell_stopped"
    return "cell_recursion" if under_way.recursing() else "cell_timeout"


def _objects(exercise: Exercise, sources: list[tuple[int, str]], folder: str) -> tuple:
    """In a grader's child: the cells run again, the exercise's names picked out."""
    namespace = _namespace(folder)
    with cells_deadline(CELLS_TIMEOUT):
        for number, source in sources:
            run_cell(source, f"<answer cell {number}>", namespace)
    return tuple(namespace[name] for name in exercise.names)


def _namespace(folder: str) -> dict[str, Any]:
    if hasattr(os, "fork"):  # a process of its own (the thread fallback shares the caller's)
        os.chdir(folder)  # as a kernel started for this notebook would be
        sys.path.insert(0, folder)
    return {"__name__": "__main__", "__builtins__": builtins}


def _graded(path: str, exercise: str, outcome: JobResult, timeout: float) -> NotebookGrade:
    if outcome.status == "timeout":
        return _failed(path, exercise, "timeout", "grade.nb.timeout", seconds=f"{timeout:g}")
    if outcome.status == "memory":
        return _failed(path, exercise, "error", "grade.nb.memory", mb=outcome.value)
    if outcome.status == "folder":
        mb, entries = outcome.value
        return _failed(path, exercise, "error", "grade.nb.folder_full", mb=mb, entries=entries)
    if outcome.status == "error":
        return _failed(path, exercise, "error", "grade.raised", error=outcome.error)
    if outcome.status == "tampered":  # bytes written to the answer pipe by the cells themselves
        return _failed(path, exercise, "error", "grade.nb.tampered")
    if outcome.status != "ok":
        return _failed(path, exercise, "error", "grade.nb.crashed")
    kind, *rest = outcome.value
    if kind == "tampered":
        return _failed(path, exercise, "error", "grade.nb.tampered")
    if kind == "tried":
        status, error, value = rest
        return _graded(path, exercise, JobResult(status, value=value, error=error), timeout)
    if kind in ("cell_timeout", "cell_recursion", "cell_stopped"):
        number, seconds = rest
        return _failed(path, exercise, "timeout", f"grade.nb.{kind}", cell=number, seconds=f"{seconds:g}")
    if kind == "cell":
        number, error = rest
        return _failed(path, exercise, "error", "grade.nb.cell_raised", cell=number, error=error)
    if kind == "undefined":
        return _failed(path, exercise, "error", "grade.nb.undefined", name=rest[0])
    if kind == "pipe_cut":
        return _failed(path, exercise, "error", "grade.nb.pipe_cut", cell=rest[0])
    if kind == "deep":
        return _failed(path, exercise, "error", "grade.nb.cell_too_deep", cell=rest[0])
    report = Report(exercise, tuple(map(_check, rest[0])))
    return NotebookGrade(path, exercise, "ok", (report,))


# --- grading in a grading host (runner.py) ---------------------------------------------------------

GRADE_TARGET = "harness_lab.grading.notebook:grade_in_folder"


def grade_in_folder(folder: str, name: str, timeout: float, check_timeout: float, language: str) -> dict:
    """In a grading host's limited child: grade the notebook ``name`` in ``folder`` in ``language``, as plain values."""
    with speaking(language):
        return grade_notebook(Path(folder) / name, timeout=timeout, check_timeout=check_timeout).as_plain()


def grade_call(
    name: str, data: bytes, timeout: float, check_timeout: float = CHECK_TIMEOUT, language: str = ""
) -> Call:
    """The host call that grades the notebook ``data`` under the file name ``name``, in ``language``.

    The language goes with the call (default: the one in use here, ``lang()``): a host's
    environment carries ``HARNESS_LAB_LANG`` at most, never a notebook's edition or ``speaking``'s.
    """
    arguments = (name, timeout, check_timeout, language or lang())
    # the host's own limit comes after the notebook's (grade_notebook answers by timeout + GRACE)
    return Call(GRADE_TARGET, {name: data}, arguments, timeout + 3 * GRACE, 3 * MEMORY_LIMIT)


def hosted_grade(shown: str, name: str, outcome: JobResult, timeout: float) -> NotebookGrade:
    """The grade a host's ``grade_call`` came back with, shown as ``shown``.

    The host's own limited child parses the notebook and runs the judge: when it times out, runs out
    of memory or is killed (learner code can reach it, not the host) that is the notebook's verdict;
    a call the host could not run at all is the grader's failure.
    """
    if outcome.status == "ok":
        try:
            return replace(NotebookGrade.from_plain(outcome.value), path=shown)
        except (KeyError, TypeError, ValueError):
            outcome = JobResult("unavailable", error="unreadable grade")
    exercise = exercise_named(name)
    if outcome.status in ("timeout", "memory", "folder", "crashed", "tampered"):
        return _graded(shown, exercise, outcome, timeout)
    return _failed(shown, exercise, "error", "grade.class.internal", error=outcome.error or outcome.status)
