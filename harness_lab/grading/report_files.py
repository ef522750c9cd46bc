"""A graded class put on disk: REPORT/grades.csv, REPORT/feedback/<learner>.txt, REPORT/index.html, and the
last run's gradebook as REPORT/grades.previous.csv (the page lists what changed: ``class_changes.py``).

``class_report.py`` makes the texts; this module writes them, through ``report_folder.Folder``, so
no write follows a link planted in the report folder and every file appears whole or not at all.
A file that cannot be written becomes a line in the list ``write_report`` returns (and on the page,
when the page itself can be written): the rest of the report is still written, never a crash.

Feedback files are named for their learner when the folder's name is a plain, short file name
(letters, digits, ``-``, ``_``, ``.``, at most 100 bytes, not hidden). Any other name (a 250-byte
one, one with spaces, one that is not UTF-8) keeps a readable part and a hash of the whole name, and
so does every name that would clash with another when case is ignored: each learner gets their own
file, and the file's first line names them in full. The report deletes only feedback files it
wrote: it lists them in ``feedback/.written``, and a file of a learner no longer in the
submissions is removed from that list and from the folder.
"""

from __future__ import annotations

import hashlib
import stat
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path

from ..text import t
from .class_changes import PREVIOUS_CSV, Change, changes
from .class_report import CSV_FILE, FEEDBACK_DIR, HTML_FILE, feedback, gradebook, page
from .classroom import ClassResult
from .report_folder import Folder, failed_write
from .sandbox import describe_error

__all__ = ["WRITTEN_LIST", "feedback_names", "write_report"]

WRITTEN_LIST = ".written"  # in feedback/: the files this report wrote there, one per line
_READABLE_BYTES = 100  # of a learner's name kept as is in their feedback file's name
_HASH_CHARS = 12
MAX_PREVIOUS_BYTES = 64 << 20  # the last run's grades.csv, read to say what changed: thousands of learners' rows


def write_report(
    result: ClassResult, out: Path, note: Callable[[str], None] | None = None
) -> tuple[list[str], tuple[Change, ...] | None]:
    """Write the report into ``out`` (made, mode 0700, if missing): one line per file that could not be, and
    the grades changed since the last run's gradebook (None when there was none to compare with).

    ``note`` hears what was removed or replaced on the way (a stray ``*.part``, a link where a
    file or the feedback folder goes); the page lists those lines and the failures before it.
    """
    lines: list[str] = []
    failed: list[str] = []

    def noted(text: str) -> None:
        lines.append(text)
        if note:
            note(text)

    def put(folder: Folder, name: str, data: bytes, shown: str) -> bool:
        try:
            folder.write(name, data)
            return True
        except OSError as exc:
            failed.append(failed_write(shown, exc))
            return False

    try:
        folder = Folder.open(out, noted, private=True)
    except OSError as exc:
        return [failed_write(str(out), exc)], None
    with folder:
        try:
            folder.clear_strays()
            with folder.sub(FEEDBACK_DIR) as sub:
                sub.clear_strays()
                _write_feedback(result, sub, put)
        except OSError as exc:
            failed.append(failed_write(FEEDBACK_DIR, exc))
        book = gradebook(result)
        moved = None
        try:
            previous = folder.read(CSV_FILE, MAX_PREVIOUS_BYTES)
        except OSError as exc:  # not a file, or larger than any gradebook: compared with nothing
            noted(t("grade.class.previous_unread", name=CSV_FILE, error=describe_error(exc)))
            previous = None
        if previous is not None and put(folder, PREVIOUS_CSV, previous, PREVIOUS_CSV):
            moved = tuple(changes(previous, book))
        put(folder, CSV_FILE, _encoded(book, "utf-8-sig"), CSV_FILE)
        shown = replace(result, notes=(*result.notes, *lines, *failed), changes=moved)
        put(folder, HTML_FILE, _encoded(page(shown)), HTML_FILE)
    return failed, moved


def _write_feedback(result: ClassResult, sub: Folder, put: Callable[[Folder, str, bytes, str], bool]) -> None:
    names = feedback_names(result.learners)
    before = _listed(sub)
    written = {
        names[learner]
        for learner in result.learners
        if put(sub, names[learner], _encoded(feedback(result, learner)), f"{FEEDBACK_DIR}/{names[learner]}")
    }
    for stale in sorted(before - set(names.values())):  # a learner no longer in the submissions
        kind = sub.kind(stale)
        if kind is not None and stat.S_ISREG(kind):  # a regular file: what this report wrote there
            sub.remove(stale)
    kept = sorted(written | (before & set(names.values())))
    put(sub, WRITTEN_LIST, "".join(f"{name}\n" for name in kept).encode("utf-8"), f"{FEEDBACK_DIR}/{WRITTEN_LIST}")


def _listed(sub: Folder) -> set[str]:
    """The names ``feedback/.written`` lists that could be ours (a file name in this folder, never hidden)."""
    try:
        data = sub.read(WRITTEN_LIST, 1 << 20) or b""
    except OSError:
        return set()
    names = data.decode("utf-8", "replace").splitlines()
    return {n for n in names if n.endswith(".txt") and "/" not in n and "\0" not in n and not n.startswith(".")}


def feedback_names(learners: Iterable[str]) -> dict[str, str]:
    """Each learner's feedback file name: unique, safe, at most ~130 bytes (see the module's docstring)."""
    names = {learner: _as_is(learner) or _hashed(learner) for learner in learners}
    while True:
        seen = Counter(name.casefold() for name in names.values())
        clashing = [who for who, name in names.items() if seen[name.casefold()] > 1 and name != _hashed(who)]
        if not clashing:
            return names
        for who in clashing:
            names[who] = _hashed(who)


def _as_is(learner: str) -> str | None:
    if learner.startswith(".") or len(learner.encode("utf-8", "surrogatepass")) > _READABLE_BYTES:
        return None
    if not learner or not all(c.isalnum() or c in "-_." for c in learner):  # a lone surrogate is not alnum
        return None
    return f"{learner}.txt"


def _hashed(learner: str) -> str:
    digest = hashlib.sha256(learner.encode("utf-8", "surrogatepass")).hexdigest()[:_HASH_CHARS]
    readable = "".join(c if c.isalnum() or c in "-_" else "_" for c in learner)
    while len(readable.encode("utf-8")) > _READABLE_BYTES:
        readable = readable[:-1]
    return f"{readable}-{digest}.txt" if readable else f"{digest}.txt"


def _encoded(text: str, encoding: str = "utf-8") -> bytes:
    # a folder name in bytes that are not UTF-8 reaches here with lone surrogates: shown as \udcXX
    return text.encode(encoding, "backslashreplace")
