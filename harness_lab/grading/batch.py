"""How a class's notebooks are run: on a pool of grading hosts, each notebook in a sandbox of its own (issue 24).

``classroom.grade_class`` finds the notebooks and keeps the record; this module grades the ones it
hands over. Each notebook's bytes are read here, with ``O_NOFOLLOW`` and the size cap, and sent to
a grading host (``workers.Pool``), which grades them from a private copy: in the sandbox, its own
namespaces with the notebook as the only file of the learner's there is (``namespaces.py``); with
``--unsandboxed``, a temporary folder of its own. What comes back is cleaned
(``redact.Redactor``): no control character reaches the report, and, without the sandbox (which
keeps both out of learner code's reach), no value of the caller's environment and no run of a
classmate's answer cells.

A host that died or never answered is the grader's failure (``INFRASTRUCTURE``): the row says so,
never that the answer was wrong, and the next run grades that notebook again. Each notebook is
graded in its own edition's language (``notebook_code.py``: the learner reads the feedback in the
language of the notebook they worked in), whatever language the instructor reads the report in.
A notebook that ran out of time while others were graded beside it is graded again at the end,
alone (``TIMED_OUT``). So is one whose call changed its host's limits or scheduling
(``host.state``): its outcome is void and the host replaced, so no classmate is graded under the
change; changed again, alone on a fresh host, its row is ``grade.class.host_altered``, never a
pass, and graded again next run. Any other grader's failure is graded again at the end, alone on a
fresh host, too: the notebook graded before it may have broken that host.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..text import speaking
from .isolation import Launch, notebooks_apart
from .notebook import (
    CHECK_TIMEOUT,
    NotebookGrade,
    answer_sources,
    exercise_named,
    grade_call,
    grade_notebook,
    hosted_grade,
)
from .notebook_code import edition_or, learners_language
from .redact import Redactor, own_text
from .workers import Pool

__all__ = ["INFRASTRUCTURE", "OVERDUE_GRACE", "grade_tasks"]

# A grade that says the grader failed, not the notebook: never kept for a rerun.
INFRASTRUCTURE = frozenset({"grade.class.internal", "grade.class.worker_died", "grade.class.host_altered"})
# Characters of one notebook's answer cells that no classmate's grade may quote. An honest answer is 1-2
# KB; one learner's 7 MB of comments made every hint of the class a search through them (1.5 s each).
PROTECTED_CHARS = 64 << 10
OVERDUE_GRACE = 15.0  # seconds past the time limit before a host is presumed stuck and replaced
# The verdicts a time limit gives: a notebook or a check that did not end in time.
TIMED_OUT = frozenset(
    {
        "grade.timeout",
        "grade.nb.timeout",
        "grade.nb.cell_timeout",
        "grade.nb.cell_recursion",
        "grade.nb.cell_stopped",
        "grade.l2.c3.runaway",
        "grade.l2.c3.normal_runaway",
    }
)


def grade_tasks(
    tasks: list[tuple[str, str, str, str]],
    *,
    timeout: float,
    jobs: int | None,
    launch: Launch,
    everyone: list[Path],
    read: Callable[[Path], bytes],
    unreadable: Callable[[str, str, OSError], NotebookGrade],
    language: str,
) -> Iterator[tuple[str, str, str, NotebookGrade, bytes]]:
    """Grade ``(learner, name, path, digest)`` tasks; yield ``(learner, name, digest, grade, bytes)`` as each ends.

    The digest yielded is that of the bytes graded (the file may have changed since it was hashed).
    ``everyone`` is every notebook of the class, whose answer cells no learner's text may carry.
    ``read`` reads a notebook, ``unreadable(learner, name, error)`` is the grade of one it could not;
    every grade is written in its notebook's edition's language (the hosts are told it with each
    call), in ``language`` (the instructor's) for bytes that are not JSON and so name no edition.
    """
    redactor = Redactor.for_launch(launch, lambda: _answers(everyone, read))
    limit = min(CHECK_TIMEOUT, timeout)
    if not hasattr(os, "fork"):  # Windows: here, one at a time, without isolation
        for learner, name, path, _ in tasks:
            yield _here(learner, name, Path(path), timeout, limit, redactor, read, unreadable, language)
        return
    # A notebook that names no edition (too large to read, not JSON) is told in the language of its
    # learner's other notebooks (in their folder, graded now or before) when they name one, else in
    # the instructor's.
    theirs: dict[Path, set[str]] = {}
    for other in map(Path, everyone):
        try:
            theirs.setdefault(other.parent, set()).add(edition_or(read(other), ""))
        except OSError:
            continue

    def own(path: str) -> str:
        return learners_language(theirs.get(Path(path).parent, set()), language)

    sent, texts, spoken = [], {}, {}
    for learner, name, path, digest in tasks:
        try:
            data = read(Path(path))
        except OSError as exc:
            with speaking(own(path)):
                yield learner, name, digest, unreadable(learner, name, exc), b""
            continue
        texts[learner, name] = data
        spoken[learner, name] = edition_or(data, own(path))
        sent.append(((learner, name), grade_call(name, data, timeout, limit, spoken[learner, name])))
    if not sent:
        return
    # where nothing keeps one notebook's processes from another's, a classmate's judge is in reach: one at a time
    size = min(jobs or _cores(), len(sent)) if notebooks_apart(launch) else 1
    calls = dict(sent)
    again: list[tuple[tuple[str, str], Any]] = []
    for first, width, batch in ((True, size, sent), (False, 1, again)):
        for (learner, name), outcome, value in Pool(launch, width).run(batch, timeout + OVERDUE_GRACE):
            with speaking(spoken[learner, name]):
                grade = _outcome(learner, name, outcome, value, timeout)
            # A time limit that ran out while other notebooks ran beside it may be theirs: a classmate's
            # answer can fill every core. Such a notebook is graded again, alone, and that grade stands.
            # So is one the grader failed on (its host changed, died or refused the call): the notebook
            # graded before it on that host may have left it so (unsandboxed, learner code is the host's
            # own user and can lock the host's folder), and an honest classmate's row said "not graded".
            if (width > 1 and _ran_out_of_time(grade)) or (first and grade.key in INFRASTRUCTURE):
                again.append(((learner, name), calls[learner, name]))
                continue
            data = texts.pop((learner, name))
            yield learner, name, hashlib.sha256(data).hexdigest(), redactor.grade(grade, own_text(data)), data


def _ran_out_of_time(grade: NotebookGrade) -> bool:
    keys = {grade.key} | {c.key for r in grade.reports for c in r.checks if not c.passed}
    return grade.status == "timeout" or not keys.isdisjoint(TIMED_OUT)


def _outcome(learner: str, name: str, outcome: str, value: Any, timeout: float) -> NotebookGrade:
    if outcome == "done":
        return hosted_grade(f"{learner}/{name}", name, value, timeout)
    if outcome == "altered":
        return _error(learner, name, "grade.class.host_altered")
    # the host died or stopped answering: in the sandbox no learner code can do that
    return _error(learner, name, "grade.class.worker_died")


def _here(
    learner: str,
    name: str,
    path: Path,
    timeout: float,
    limit: float,
    redactor: Redactor,
    read: Callable[[Path], bytes],
    unreadable: Callable[[str, str, OSError], NotebookGrade],
    language: str,
) -> tuple[str, str, str, NotebookGrade, bytes]:
    """Without fork: grade a private copy in this process, in a temporary folder of its own."""
    try:
        data = read(path)
    except OSError as exc:
        with speaking(language):
            return learner, name, "", unreadable(learner, name, exc), b""
    folder = tempfile.mkdtemp(prefix="harness-lab-grade-")
    try:
        copy = Path(folder) / name
        copy.write_bytes(data)
        with speaking(edition_or(data, language)):
            graded = grade_notebook(copy, timeout=timeout, check_timeout=limit)
        grade = replace(graded, path=f"{learner}/{name}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return learner, name, hashlib.sha256(data).hexdigest(), redactor.grade(grade, own_text(data)), data


def _answers(paths: list[Path], read: Callable[[Path], bytes]) -> list[str]:
    """Every notebook's answer cells, as text (what no classmate's grade may quote), up to
    ``PROTECTED_CHARS`` of each: the redactor searches all of it for every window of every hint."""
    found = []
    for path in paths:
        try:
            sources = answer_sources(json.loads(read(path).decode("utf-8")))
        except (OSError, UnicodeDecodeError, ValueError, RecursionError):
            continue
        found.append("\0".join(sources)[:PROTECTED_CHARS])
    return found


def _error(learner: str, name: str, key: str, **values: object) -> NotebookGrade:
    return NotebookGrade.failed(f"{learner}/{name}", exercise_named(name), "error", key, **values)


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1
