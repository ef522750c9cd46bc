"""Grade a class: every learner's exercise notebooks under SUBMISSIONS/<learner>/ (lesson 6, 練習; issue 17).

The folder is the one ``deploy/jupyterhub/collect.sh`` fills: one folder per learner, one notebook
per exercise. Each notebook is graded as ``python -m harness_lab.grading`` grades it (its tagged
answer cells and the package's own grade code, in a fresh process, never its grade cell or stored
output), on a few long-lived grading hosts (``batch.py``, ``workers.py``), from a private copy in a
sandbox of its own (``isolation.py``; without one, only with ``unsandboxed=True``), so what an
answer cell writes or reads stays within that copy.

What is not a learner's notebook (a stray file, a symbolic link, a folder without notebooks) is
reported as a ``Problem``, never graded and never a crash; an exercise a learner did not hand in
becomes a "missing" row.

A rerun is cheap: ``REPORT/state.json`` keeps each grade with the SHA-256 of the bytes it was
graded from, the grader's version (a hash of this package's grading code), the language and the
time limit, and a notebook whose bytes, grader and language are unchanged is not graded again
(nor is a timeout, unless the new time limit is longer). The file is rewritten as grades arrive,
so an interrupted run resumes where it stopped.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..text import lang, t
from .batch import INFRASTRUCTURE, grade_tasks
from .isolation import Launch
from .notebook import EXERCISES, NOTEBOOK_TIMEOUT, NotebookGrade, answer_sources
from .runner import SandboxUnavailable
from .sandbox import describe_error

__all__ = [
    "ClassResult",
    "MAX_NOTEBOOK_BYTES",
    "Problem",
    "Row",
    "STATE_FILE",
    "grade_class",
    "grader_version",
]

STATE_FILE = "state.json"
MAX_NOTEBOOK_BYTES = 64 << 20  # an exercise notebook is ~50 KB; more than this is not one
ANSWER_CHARS = 4000  # how much of a learner's answer cells is kept for the report's samples
_SAVE_EVERY = 1.0  # seconds between rewrites of the state file while grades arrive
_FORMAT = 1


@dataclass(frozen=True)
class Problem:
    """A file or folder in SUBMISSIONS that was not graded, with the reason (``key``, ``text``)."""

    learner: str  # "" for something outside the learner folders
    name: str
    key: str
    text: str


@dataclass(frozen=True)
class Row:
    """One learner's verdict on one exercise: a graded notebook, or a "missing" exercise (``notebook`` "")."""

    learner: str
    notebook: str
    grade: NotebookGrade
    answer: str = ""  # the answer cells' source, for the report's sample answers
    reused: bool = False  # taken from the last run's record, not graded now


@dataclass(frozen=True)
class ClassResult:
    learners: tuple[str, ...]
    rows: tuple[Row, ...]
    problems: tuple[Problem, ...]
    version: str
    timeout: float
    seconds: float
    isolated: bool = True  # False: graded with --unsandboxed, and the report says so at its top

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
    unsandboxed: bool = False,
) -> ClassResult:
    """Grade every notebook under ``submissions``; ``on_row(row, done, total)`` hears each one.

    The record of grades is read from and written to ``state_path``. ``jobs`` workers grade in
    parallel (default: one per core); ``timeout`` is the limit per notebook in seconds. Without a
    working sandbox it raises ``SandboxUnavailable`` before any learner code runs, unless
    ``unsandboxed``.
    """
    started = time.monotonic()
    timeout = NOTEBOOK_TIMEOUT if timeout is None else timeout
    launch = Launch.choose(unsandboxed)
    if not unsandboxed and not launch.sandboxed and hasattr(os, "fork"):
        raise SandboxUnavailable(t("grade.sandbox.missing"))
    learners, found, problems = _scan(submissions)
    version = grader_version()
    record = _Record(state_path, version, timeout, on_note)
    rows: list[Row] = []
    tasks = []
    for learner, name in found:
        path = submissions / learner / name
        try:
            digest = hashlib.sha256(_read(path)).hexdigest()
        except OSError as exc:
            rows.append(Row(learner, name, _error(learner, name, "grade.nb.unreadable", error=describe_error(exc))))
            continue
        kept = record.reusable(learner, name, digest)
        if kept is not None:
            rows.append(kept)
        else:
            tasks.append((learner, name, str(path), digest))
    total = len(found)
    for done, row in enumerate(rows, 1):
        if on_row:
            on_row(row, done, total)
    try:
        everyone = [submissions / learner / name for learner, name in found]
        for row in _graded(tasks, timeout, jobs, record, launch, everyone):
            rows.append(row)
            if on_row:
                on_row(row, len(rows), total)
        record.keep_only({(r.learner, r.notebook) for r in rows})
    finally:
        record.save()  # an interrupted run keeps every grade it has
    rows += _missing(learners, rows)
    rows.sort(key=lambda r: (r.learner, r.grade.exercise or "\uffff", r.notebook))
    seconds = time.monotonic() - started
    return ClassResult(tuple(learners), tuple(rows), tuple(problems), version, timeout, seconds, launch.sandboxed)


# --- finding the notebooks ----------------------------------------------------------------------


def _scan(submissions: Path) -> tuple[list[str], list[tuple[str, str]], list[Problem]]:
    """(learners, (learner, notebook file) pairs, problems), all sorted by name.

    Hidden names (``.ipynb_checkpoints``, collect.sh's ``.name.part``) are skipped silently.
    """
    learners, found, problems = [], [], []
    for entry in _entries(submissions, "", problems):
        if not entry.is_dir(follow_symlinks=False):
            problems.append(Problem("", entry.name, "grade.class.outside", t("grade.class.outside", name=entry.name)))
            continue
        learner = entry.name
        learners.append(learner)
        notebooks = 0
        for item in _entries(Path(entry.path), learner, problems):
            problem = _not_gradable(item)
            if problem:
                problems.append(Problem(learner, item.name, problem[0], problem[1]))
            else:
                found.append((learner, item.name))
                notebooks += 1
        if notebooks == 0:
            problems.append(Problem(learner, "", "grade.class.no_notebooks", t("grade.class.no_notebooks")))
    return learners, found, problems


def _entries(folder: Path, learner: str, problems: list[Problem]) -> list[os.DirEntry]:
    try:
        with os.scandir(folder) as listing:
            return sorted((e for e in listing if not e.name.startswith(".")), key=lambda e: e.name)
    except OSError as exc:
        key = "grade.class.unreadable_folder"
        problems.append(Problem(learner, "", key, t(key, error=describe_error(exc))))
        return []


def _not_gradable(entry: os.DirEntry) -> tuple[str, str] | None:
    """(key, text) saying why ``entry`` is not graded, or None for a notebook to grade."""
    if not entry.name.endswith(".ipynb"):
        return "grade.class.not_notebook", t("grade.class.not_notebook", name=entry.name)
    try:
        info = entry.stat(follow_symlinks=False)
    except OSError as exc:
        return "grade.class.unreadable_folder", t("grade.class.unreadable_folder", error=describe_error(exc))
    if not stat.S_ISREG(info.st_mode):  # a link could point at anything the grader may read; a FIFO never ends
        return "grade.class.not_regular", t("grade.class.not_regular", name=entry.name)
    if info.st_size > MAX_NOTEBOOK_BYTES:
        return "grade.class.too_large", t(
            "grade.class.too_large", name=entry.name, mb=info.st_size >> 20, limit=MAX_NOTEBOOK_BYTES >> 20
        )
    return None


def _missing(learners: list[str], rows: list[Row]) -> list[Row]:
    handed = {(r.learner, r.grade.exercise) for r in rows}
    return [
        Row(
            learner,
            "",
            NotebookGrade(
                "", name, "missing", error=t("grade.class.missing", exercise=name), key="grade.class.missing"
            ),
        )
        for learner in learners
        for name in EXERCISES
        if (learner, name) not in handed
    ]


# --- grading --------------------------------------------------------------------------------------


def _graded(tasks: list[tuple], timeout: float, jobs: int | None, record: _Record, launch: Launch, everyone: list):
    """Grade ``tasks`` (``batch.py``); yield each Row as it ends."""
    if not tasks:
        return
    graded = grade_tasks(tasks, timeout=timeout, jobs=jobs, launch=launch, everyone=everyone, read=_read)
    for learner, name, digest, grade, data in graded:
        yield record.add(learner, name, digest, {**_plain(grade), "answer": _answer_text(data)})


def _read(path: Path) -> bytes:
    """A submitted file's bytes, never following a link planted since the scan, at most the size limit."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    with os.fdopen(fd, "rb") as f:
        data = f.read(MAX_NOTEBOOK_BYTES + 1)
    if len(data) > MAX_NOTEBOOK_BYTES:
        raise OSError(f"more than {MAX_NOTEBOOK_BYTES >> 20} MB")
    return data


def _answer_text(data: bytes) -> str:
    try:
        sources = answer_sources(json.loads(data.decode("utf-8")))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return ""
    text = "\n\n".join(s.strip("\n") for s in sources)
    return text if len(text) <= ANSWER_CHARS else text[:ANSWER_CHARS] + "\n…"


def _error(learner: str, name: str, key: str, status: str = "error", **values: Any) -> NotebookGrade:
    # a notebook's name tells its exercise when the grader could not (collect.sh names files so)
    exercise = next((ex for ex in EXERCISES if name.startswith(ex)), "")
    return NotebookGrade(f"{learner}/{name}", exercise, status, error=t(key, **values), key=key)


def _plain(grade: NotebookGrade) -> dict:
    return grade.as_plain()


def _from_plain(value: dict) -> NotebookGrade:
    return NotebookGrade.from_plain(value)


# --- the record of grades (resuming) -------------------------------------------------------------


class _Record:
    """REPORT/state.json: what was graded, from which bytes, by which grader, in which language."""

    def __init__(self, path: Path, version: str, timeout: float, on_note: Callable[[str], None] | None) -> None:
        self.path, self.version, self.timeout = path, version, timeout
        self.entries: dict[str, dict] = {}
        self.saved = time.monotonic()
        try:
            if path.exists():
                state = json.loads(path.read_text(encoding="utf-8"))
                if state.get("format") == _FORMAT and state.get("grader") == version and state.get("lang") == lang():
                    self.entries = dict(state["entries"])
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            if on_note:
                on_note(t("grade.class.state_unreadable", state=path, error=describe_error(exc)))

    def reusable(self, learner: str, name: str, digest: str) -> Row | None:
        entry = self.entries.get(f"{learner}/{name}")
        try:
            if entry is None or entry["sha256"] != digest:
                return None
            grade = _from_plain(entry["grade"])
            if grade.key in INFRASTRUCTURE:
                return None  # the grader's own failure, not a verdict on the notebook: try again
            if grade.status == "timeout" and self.timeout > entry["timeout"]:
                return None
            return Row(learner, name, grade, entry.get("answer", ""), reused=True)
        except (KeyError, TypeError, ValueError):
            return None

    def add(self, learner: str, name: str, digest: str, graded: dict) -> Row:
        answer = graded.pop("answer", "")
        grade = _from_plain(graded)
        self.entries[f"{learner}/{name}"] = {
            "sha256": digest,
            "timeout": self.timeout,
            "grade": graded,
            "answer": answer,
        }
        if time.monotonic() - self.saved >= _SAVE_EVERY:
            self.save()
        return Row(learner, name, grade, answer)

    def keep_only(self, present: set[tuple[str, str]]) -> None:
        """Forget notebooks no longer in the submissions (the record mirrors the folder)."""
        self.entries = {k: v for k, v in self.entries.items() if tuple(k.split("/", 1)) in present}

    def save(self) -> None:
        state = {"format": _FORMAT, "grader": self.version, "lang": lang(), "entries": self.entries}
        partial = self.path.with_name(self.path.name + ".part")
        partial.write_text(json.dumps(state, ensure_ascii=False, sort_keys=True), encoding="utf-8")
        os.replace(partial, self.path)  # a run killed mid-write leaves the last whole record
        self.saved = time.monotonic()
