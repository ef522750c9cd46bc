"""Grade a class: every learner's exercise notebooks under SUBMISSIONS/<learner>/ (lesson 6, 練習; issue 17).

The folder is the one ``deploy/jupyterhub/collect.sh`` fills: one folder per learner, one notebook
per exercise. Each notebook is graded as ``python -m harness_lab.grading`` grades it (its tagged
answer cells and the package's own grade code, in a fresh process, never its grade cell or stored
output), on a few long-lived grading hosts (``batch.py``, ``workers.py``), from a private copy in a
sandbox of its own (``isolation.py``; without one, only with ``unsandboxed=True``), so what an
answer cell writes or reads stays within that copy.

What is not a learner's notebook (a stray file, a symbolic link, a folder without notebooks) is
reported as a ``Problem``, never graded and never a crash (a file's name in its text, and in the row of a
notebook too large to read, has its control characters escaped); an exercise not handed in is a "missing" row. A notebook handed in but not graded (too large, unreadable) is an error
row of the exercise its file name tells, never "missing": the learner did hand it in.

A rerun is cheap: ``REPORT/state.json`` (``record.py``) keeps each grade with the SHA-256 of the
bytes it was graded from, signed with the instructor's key, and a notebook whose bytes and grader are
unchanged is not graded again (nor is a timeout, unless the new time limit is longer), whatever ``--lang``.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import suppress
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..terminal import visible
from ..text import speaking, t
from .batch import grade_tasks
from .class_changes import Change
from .isolation import Launch
from .look_alike import look_alike, shown
from .notebook import EXERCISES, NOTEBOOK_TIMEOUT, NotebookGrade, answer_sources, exercise_named, exercise_of
from .notebook_code import edition_of, edition_or, learners_language
from .notebook_file import MAX_NOTEBOOK_BYTES, OthersFile, TooLarge, read_notebook
from .processes import keep_private
from .record import Record, record_key
from .runner import SandboxUnavailable
from .same_file import same_files
from .sandbox import describe_error

__all__ = ["ClassResult", "MAX_NOTEBOOK_BYTES", "Problem", "Row", "STATE_FILE", "grade_class", "grader_version"]

STATE_FILE = "state.json"
# Notebooks of a learner's folder opened at all: each is read (8 MB at most), parsed and sent to a host by the
# command itself, outside any limit, and hard links cost a learner no disk (200 held 1.8 GB of its memory).
NOTEBOOKS_READ = 5  # of those named after each exercise, and of those named after none
ANSWER_CHARS = 4000  # how much of a learner's answer cells is kept for the report's samples


@dataclass(frozen=True)
class Problem:
    """A file or folder in SUBMISSIONS that was not graded, with the reason: the catalog entry ``key``
    formatted with ``values``, in the language spoken when it is read (``text``): the instructor's on
    the page, the learner's in their feedback."""

    learner: str  # "" for something outside the learner folders
    name: str
    key: str
    values: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of(cls, learner: str, name: str, key: str, /, **values: str) -> Problem:
        return cls(learner, name, key, tuple(sorted(values.items())))

    @property
    def text(self) -> str:
        return t(self.key, **dict(self.values))


@dataclass(frozen=True)
class Row:
    """One learner's verdict on one exercise: a graded notebook, or a "missing" exercise (``notebook`` "")."""

    learner: str
    notebook: str
    grade: NotebookGrade
    answer: str = ""  # the answer cells' source, for the report's sample answers
    reused: bool = False  # taken from the last run's record, not graded now
    edition: str = ""  # "ja" or "en", the edition the notebook is from; "" when not handed in or not JSON


@dataclass(frozen=True)
class ClassResult:
    learners: tuple[str, ...]
    rows: tuple[Row, ...]
    problems: tuple[Problem, ...]
    version: str
    timeout: float
    seconds: float
    notes: tuple[str, ...] = ()  # what the run noticed about its record and report folder, for the report
    isolated: bool = True  # False: graded with --unsandboxed, and the report says so at its top
    changes: tuple[Change, ...] | None = None  # since the last run's gradebook; None: there was none

    @property
    def graded(self) -> int:
        return sum(1 for r in self.rows if r.notebook and not r.reused)

    @property
    def reused(self) -> int:
        return sum(1 for r in self.rows if r.reused)


def grader_version() -> str:
    """A hash of the grading code's source: a grade recorded by other code is graded again."""
    digest = hashlib.sha256()
    here = Path(__file__).resolve().parent
    for path in sorted(here.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def grade_class(
    submissions: Path,
    state_path: Path,
    *,
    jobs: int | None = None,
    timeout: float | None = None,
    on_row: Callable[[Row, int, int], None] | None = None,
    on_note: Callable[[str], None] | None = None,
    key: bytes | bytearray | None = None,
    unsandboxed: bool = False,
) -> ClassResult:
    """Grade every notebook under ``submissions``; ``on_row(row, done, total)`` hears each one. The record
    of grades is read from and written to ``state_path``, its entries signed with ``key`` (default: the
    instructor's, ``record.record_key``). ``jobs`` workers grade in parallel (default: one per core); ``timeout``
    is the limit per notebook in seconds. ``on_note`` hears each thing noticed about the record (also kept
    in ``ClassResult.notes``). Without a working sandbox it raises ``SandboxUnavailable`` before any
    learner code runs, unless ``unsandboxed``."""
    started = time.monotonic()
    timeout = NOTEBOOK_TIMEOUT if timeout is None else timeout
    keep_private()  # learner code run as this user (unsandboxed, no namespace) reads a dumpable one's /proc/PID/environ
    launch = Launch.choose(unsandboxed)
    if not unsandboxed and not launch.sandboxed and hasattr(os, "fork"):
        raise SandboxUnavailable(t("grade.sandbox.missing"))
    notes: list[str] = []

    def note(text: str) -> None:
        notes.append(text)
        if on_note:
            on_note(text)

    learners, found, problems = _scan(submissions)
    found, crowded = _few_per_learner(found)
    found, copies = _one_graded_per_exercise(submissions, found)
    problems += crowded
    problems += copies
    for entries in same_files(submissions, found):  # a hard link: one notebook, graded for each learner
        note(t("grade.class.same_file", files=", ".join(visible(f"{w}/{n}") for w, n in entries)))
    for names in look_alike(learners):  # a folder named like a classmate's: two rows the reader takes for one
        note(t("grade.class.look_alike", names=", ".join(shown(name) for name in names)))
    version = grader_version()
    record = Record(state_path, version, timeout, record_key(note) if key is None else key, note)
    rows: list[Row] = []
    tasks = []
    read = {}  # (digest, edition) of each notebook: the record holds no edition, its bytes tell it
    editions: dict[str, list[str]] = {}  # each learner's, for a grade of a notebook that names none (batch.py)
    for learner, name in found:
        with suppress(OSError):  # a notebook that cannot be read gets its row from the batch
            data = read_notebook(submissions / learner / name)
            read[learner, name] = hashlib.sha256(data).hexdigest(), edition_or(data, "")
            editions.setdefault(learner, []).append(read[learner, name][1])
    spoken = {who: learners_language(editions.get(who, []), record.lang) for who in learners}
    for learner, name in found:
        digest, edition = read.get((learner, name), ("", ""))
        kept = record.reusable(learner, name, digest, edition or spoken[learner]) if digest else None
        if kept is not None:
            rows.append(Row(learner, name, kept[0], kept[1], reused=True, edition=edition))
        else:
            tasks.append((learner, name, str(submissions / learner / name), digest))
    total = len(found)
    for done, row in enumerate(rows, 1):
        if on_row:
            on_row(row, done, total)
    try:
        graded = grade_tasks(
            tasks,
            timeout=timeout,
            jobs=jobs,
            launch=launch,
            everyone=[submissions / who / name for who, name in found],
            read=read_notebook,
            unreadable=_unreadable,
            language=record.lang,  # the instructor's: for a file whose bytes name no edition
        )
        for row in _rows(graded if tasks else (), record, spoken):
            rows.append(row)
            if on_row:
                on_row(row, len(rows), total)
        record.keep_only({(r.learner, r.notebook) for r in rows})
    finally:
        record.save()  # an interrupted run keeps every grade it has
        record.close()
    rows, extra = _one_per_exercise(rows)
    problems += extra
    rows += _missing(learners, rows)
    rows.sort(key=lambda r: (r.learner, r.grade.exercise or "\uffff", r.notebook))
    seconds = time.monotonic() - started
    found_by = (version, timeout, seconds, tuple(notes), launch.sandboxed)
    return ClassResult(tuple(learners), tuple(rows), tuple(problems), *found_by)


# --- finding the notebooks ----------------------------------------------------------------------


def _scan(submissions: Path) -> tuple[list[str], list[tuple[str, str]], list[Problem]]:
    """(learners, (learner, notebook file) pairs, problems), all sorted by name; hidden names
    (``.ipynb_checkpoints``, collect.sh's ``.name.part``) are skipped silently."""
    learners: list[str] = []
    found: list[tuple[str, str]] = []
    problems: list[Problem] = []
    for entry in _entries(submissions, "", problems):
        if not entry.is_dir(follow_symlinks=False):
            problems.append(Problem.of("", entry.name, "grade.class.outside", name=visible(entry.name)))
            continue
        learner = entry.name
        learners.append(learner)
        notebooks = 0
        for item in _entries(Path(entry.path), learner, problems):
            problem = _not_gradable(item)
            if problem:
                problems.append(Problem.of(learner, item.name, problem[0], **problem[1]))
            else:
                found.append((learner, item.name))
                notebooks += 1
        if notebooks == 0:
            problems.append(Problem.of(learner, "", "grade.class.no_notebooks"))
    return learners, found, problems


def handed_editions(submissions: Path) -> set[str]:
    """The editions the class's notebooks name: grade-class speaks theirs when they agree and nobody chose."""
    editions = set()
    for learner, name in _few_per_learner(_scan(submissions)[1])[0]:
        with suppress(OSError):  # the grading reports it
            editions.add(edition_or(read_notebook(submissions / learner / name), ""))
    return editions - {""}


def _entries(folder: Path, learner: str, problems: list[Problem]) -> list[os.DirEntry]:
    try:
        with os.scandir(folder) as listing:
            return sorted((e for e in listing if not e.name.startswith(".")), key=lambda e: e.name)
    except OSError as exc:
        problems.append(Problem.of(learner, "", "grade.class.unreadable_folder", error=describe_error(exc)))
        return []


def _not_gradable(entry: os.DirEntry) -> tuple[str, dict[str, str]] | None:
    """(key, values) saying why ``entry`` is not graded, or None for a notebook to grade."""
    if not entry.name.lower().endswith(".ipynb"):  # an LMS or a file system may change the case
        return "grade.class.not_notebook", {"name": visible(entry.name)}
    try:
        info = entry.stat(follow_symlinks=False)
    except OSError as exc:
        return "grade.class.unreadable_folder", {"error": describe_error(exc)}
    if not stat.S_ISREG(info.st_mode):  # a link could point at anything the grader may read; a FIFO never ends
        return "grade.class.not_regular", {"name": visible(entry.name)}
    return None  # a notebook too large to grade is still handed in: it gets its row when read


def _one_per_exercise(rows: list[Row]) -> tuple[list[Row], list[Problem]]:
    """One row per learner and exercise, so a gradebook that sums never counts an exercise twice (an
    LMS download's ``level1_tiered_policy (1).ipynb`` beside the first): of the files whose name tells
    the exercise, the shortest name is kept (collect.sh's, with no copy's suffix); the others are
    files not graded."""
    kept: dict[tuple[str, str], Row] = {}
    for row in sorted(
        rows, key=lambda r: (exercise_named(r.notebook) != r.grade.exercise, len(r.notebook), r.notebook)
    ):
        slot = (row.learner, row.grade.exercise)
        if row.grade.exercise in EXERCISES and slot in kept:
            continue
        kept[slot if row.grade.exercise in EXERCISES else (row.learner, row.notebook)] = row
    chosen = set(map(id, kept.values()))
    problems = [
        Problem.of(
            r.learner,
            r.notebook,
            "grade.class.duplicate",
            name=visible(r.notebook),
            exercise=r.grade.exercise,
            kept=visible(kept[(r.learner, r.grade.exercise)].notebook),
        )
        for r in rows
        if id(r) not in chosen
    ]
    return [r for r in rows if id(r) in chosen], problems


def _few_per_learner(found: list[tuple[str, str]]) -> tuple[list[tuple[str, str]], list[Problem]]:
    """A learner's ``NOTEBOOKS_READ`` likeliest notebooks of each exercise (``_likeliest``); the rest are never opened."""
    opened: dict[tuple[str, str], int] = {}
    kept, problems = set(), []
    for learner, name in sorted(found, key=_likeliest):
        kind = (learner, exercise_named(name))  # copies of one exercise never crowd out the other's
        opened[kind] = opened.get(kind, 0) + 1
        if opened[kind] <= NOTEBOOKS_READ:
            kept.add((learner, name))
        else:
            values = {"name": visible(name), "limit": str(NOTEBOOKS_READ)}
            problems.append(Problem.of(learner, name, "grade.class.too_many_notebooks", **values))
    return [entry for entry in found if entry in kept], problems


def _likeliest(entry: tuple[str, str]) -> tuple:
    """A learner's notebooks, the likeliest exercise first: a name that tells one (collect.sh's), the shortest."""
    return (entry[0], not exercise_named(entry[1]), len(entry[1]), entry[1])


def _one_graded_per_exercise(submissions: Path, found: list[tuple[str, str]]) -> tuple[list, list[Problem]]:
    """Only the file ``_one_per_exercise`` keeps of those that claim one exercise is graded, the others never
    run: one learner's fifty hanging copies cost the class the time limit twice each (beside others, alone)."""
    claims = {entry: _claimed(submissions / entry[0] / entry[1]) for entry in found}
    kept: dict[tuple[str, str], str] = {}
    for learner, name in sorted(found, key=_likeliest):
        if claims[learner, name]:
            kept.setdefault((learner, claims[learner, name]), name)
    graded, problems = [], []
    for learner, name in found:
        exercise = claims[learner, name]
        if (first := kept.get((learner, exercise), name)) == name:
            graded.append((learner, name))
        else:
            values = {"name": visible(name), "exercise": exercise, "kept": visible(first)}
            problems.append(Problem.of(learner, name, "grade.class.duplicate", **values))
    return graded, problems


def _claimed(path: Path) -> str:
    """The exercise a notebook's file name tells, else the one its metadata or grade cell names (read, never run)."""
    if exercise_named(path.name):
        return exercise_named(path.name)
    try:
        notebook = json.loads(read_notebook(path).decode("utf-8"))
        exercise = exercise_of(notebook, [c for c in notebook["cells"] if c.get("cell_type") == "code"], path)
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return ""
    return exercise.name if exercise else ""


def _missing(learners: list[str], rows: list[Row]) -> list[Row]:
    handed = {(r.learner, r.grade.exercise) for r in rows}
    return [
        Row(
            learner,
            "",
            NotebookGrade.failed("", name, "missing", "grade.class.missing", exercise=name),
        )
        for learner in learners
        for name in EXERCISES
        if (learner, name) not in handed
    ]


# --- grading --------------------------------------------------------------------------------------


def _rows(graded: Iterable[tuple], record: Record, spoken: dict[str, str]) -> Iterator[Row]:
    """Each Row of what ``batch.grade_tasks`` graded, recorded as it ends; ``spoken``: each learner's language."""
    for learner, name, digest, grade, data in graded:
        answer, edition = _parsed(data)
        named = exercise_named(name)
        if not grade.exercise:  # the grader could not tell (an unreadable notebook): the file's name does
            grade = replace(grade, exercise=named)
        elif named and grade.exercise != named:  # one exercise's answers under another's name: one row each
            with speaking(edition or spoken[learner]):  # the learner's feedback, as the grade it replaces
                grade = _error(learner, name, "grade.class.other_exercise", named=named, held=grade.exercise)
        kept = record.add(learner, name, digest, grade.as_plain(), answer, edition or spoken[learner])
        yield Row(learner, name, kept, answer, edition=edition)


def _parsed(data: bytes) -> tuple[str, str]:
    """(the answer cells' text, the edition) of a notebook's bytes; ("", "") for bytes that are not JSON."""
    try:
        notebook = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return "", ""
    text = "\n\n".join(s.strip("\n") for s in answer_sources(notebook))
    return (text if len(text) <= ANSWER_CHARS else text[:ANSWER_CHARS] + "\n…"), edition_of(notebook)


def _error(learner: str, notebook: str, key: str, /, status: str = "error", **values: Any) -> NotebookGrade:
    return NotebookGrade.failed(f"{learner}/{notebook}", exercise_named(notebook), status, key, **values)


def _unreadable(learner: str, notebook: str, exc: OSError) -> NotebookGrade:
    """The error row of a handed-in notebook that ``read_notebook`` could not read, or refused (too large, another's)."""
    if isinstance(exc, (TooLarge, OthersFile)):
        return _error(learner, notebook, exc.key, **exc.values)
    return _error(learner, notebook, "grade.nb.unreadable", error=describe_error(exc))
