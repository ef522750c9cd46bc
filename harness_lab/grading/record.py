"""REPORT/state.json: the record of a class's grades, which lets a rerun skip what it graded before.

An entry per notebook, under ``learner/notebook``: the SHA-256 of the bytes graded, the time limit,
the grade as plain values, the answer cells' text, the language the grade's text is in, and an
HMAC-SHA256 (``record_key.py``) over all of that together with the record's format and the grader's
version. A rerun reuses an entry only when the notebook's bytes still hash to its SHA-256, the
grader (a hash of this package's grading code) is the same, the grade would be told in the same
language now, and the HMAC checks out; anything else is graded again, and entries that fail the
check are reported. The instructor's language (``--lang``) is no part of it: a grade is told in its
notebook's edition's language, so a report in another language is written from the same record.
Only a grade whose notebook names no edition (not JSON) is told in the instructor's language, when
its learner's other notebooks name none either; that entry alone is graded again. A timeout is graded again under a longer time limit,
and the grader's own failure (``batch.INFRASTRUCTURE``: ``grade.class.internal``, a host that
died or stopped answering) always.

Only the grading process writes the record (never a worker, never learner code), and each run
rewrites it whole from what it graded or verified itself, as grades arrive (at most once a second)
and at the end, so an interrupted run resumes where it stopped. The file is written through
``report_folder.Folder``: a fresh exclusive partial file renamed over ``state.json``, never through
a link. A ``state.json`` that is a link or not a file, or a stray ``*.part``, is reported and
replaced; a record that cannot be read or saved is reported, and grading goes on without it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import stat
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..text import lang, t
from .batch import INFRASTRUCTURE
from .notebook import NotebookGrade
from .report_folder import Folder
from .sandbox import describe_error

__all__ = ["Record"]

_FORMAT = 3  # 1: before entries carried an HMAC; 2: one language for the whole record
_SAVE_EVERY = 1.0  # seconds between rewrites of the record while grades arrive
_MAX_BYTES = 128 << 20  # a class of a thousand notebooks records ~25 MB
# the grader's own failure (a host that could not run the call, died or stopped answering) is no verdict
_NEVER_REUSED = INFRASTRUCTURE


class Record:
    """The record at ``path``, checked with ``key``, for grades by grader ``version`` within ``timeout``."""

    def __init__(
        self, path: Path, version: str, timeout: float, key: bytes | bytearray, note: Callable[[str], None]
    ) -> None:
        self.path, self.version, self.timeout, self.key, self.note = path, version, timeout, key, note
        self.lang = lang()  # the instructor's: the report's, and the grades' of notebooks that name no edition
        self.entries: dict[str, dict] = {}
        self.saved = time.monotonic()
        self.failing = False  # the last save failed (reported once, not once a second)
        self.folder: Folder | None = None
        try:
            self.folder = Folder.open(path.parent, note)
        except OSError as exc:  # grading goes on; no record is read or kept
            self.failing = True
            note(t("grade.class.record_not_saved", state=path, error=describe_error(exc)))
            return
        try:
            self.folder.clear_strays(path.name)  # the report's own files are write_report's
            self.entries = self._load()
        except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
            # UnicodeDecodeError is a ValueError; RecursionError: JSON nested past the parser's limit
            note(t("grade.class.state_unreadable", state=path, error=describe_error(exc)))

    def close(self) -> None:
        if self.folder is not None:
            self.folder.close()
            self.folder = None

    def _load(self) -> dict[str, dict]:
        assert self.folder is not None
        name = self.path.name
        kind = self.folder.kind(name)
        if kind is None:
            return {}
        if not stat.S_ISREG(kind):  # a link, a folder, a FIFO: not ours, never opened
            self.folder.make_way(name, stat.S_ISREG)
            return {}
        data = self.folder.read(name, _MAX_BYTES)
        state = json.loads(data or b"{}")
        if state.get("format") != _FORMAT or state.get("grader") != self.version:
            return {}  # other grading code: everything is graded again
        entries = state["entries"]
        sound = {where: entry for where, entry in entries.items() if self._sound(where, entry)}
        if len(sound) < len(entries):
            self.note(t("grade.class.record_untrusted", count=len(entries) - len(sound), state=self.path))
        return sound

    def _mac(self, where: str, body: dict) -> str:
        signed = json.dumps(
            [_FORMAT, self.version, where, body], sort_keys=True, ensure_ascii=True, separators=(",", ":")
        )
        return hmac.new(self.key, signed.encode("ascii"), hashlib.sha256).hexdigest()

    def _sound(self, where: Any, entry: Any) -> bool:
        if not isinstance(where, str) or not isinstance(entry, dict) or not isinstance(entry.get("mac"), str):
            return False
        body = {k: v for k, v in entry.items() if k != "mac"}
        return hmac.compare_digest(entry["mac"], self._mac(where, body))

    def reusable(self, learner: str, name: str, digest: str, told: str) -> tuple[NotebookGrade, str] | None:
        """(grade, answer text) recorded for exactly these bytes, told in ``told``, and still valid, or None."""
        entry = self.entries.get(f"{learner}/{name}")
        try:
            if entry is None or entry["sha256"] != digest or entry["lang"] != told:
                return None
            grade = NotebookGrade.from_plain(entry["grade"])
            if grade.key in _NEVER_REUSED:
                return None
            if grade.status == "timeout" and self.timeout > entry["timeout"]:
                return None
            return grade, entry.get("answer", "")
        except (KeyError, TypeError, ValueError):
            return None

    def add(self, learner: str, name: str, digest: str, graded: dict, answer: str, told: str) -> NotebookGrade:
        """Record a grade (plain values, as ``NotebookGrade.as_plain`` makes them) of the bytes hashing to
        ``digest``, its text in the language ``told``."""
        where = f"{learner}/{name}"
        # as JSON gives it back, so the HMAC made now is the one a rerun computes
        values = {"sha256": digest, "timeout": self.timeout, "grade": graded, "answer": answer, "lang": told}
        body = json.loads(json.dumps(values))
        self.entries[where] = {**body, "mac": self._mac(where, body)}
        if time.monotonic() - self.saved >= _SAVE_EVERY:
            self.save()
        return NotebookGrade.from_plain(body["grade"])

    def keep_only(self, present: set[tuple[str, str]]) -> None:
        """Forget notebooks no longer in the submissions (the record mirrors the folder)."""
        self.entries = {k: v for k, v in self.entries.items() if tuple(k.split("/", 1)) in present}

    def save(self) -> None:
        """Rewrite the record whole; a failure is reported (once until a save works again), never raised."""
        self.saved = time.monotonic()
        if self.folder is None:
            return
        state = {"format": _FORMAT, "grader": self.version, "entries": self.entries}
        # ASCII: a learner folder named in bytes that are not UTF-8 round-trips as \udcXX escapes
        data = json.dumps(state, ensure_ascii=True, sort_keys=True).encode("ascii")
        try:
            self.folder.write(self.path.name, data, mode=0o600, sync=True)
            self.failing = False
        except OSError as exc:
            if not self.failing:
                self.note(t("grade.class.record_not_saved", state=self.path, error=describe_error(exc)))
            self.failing = True
