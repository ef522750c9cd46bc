"""REPORT/state.json: the record of a class's grades, which lets a rerun skip what it graded before.

An entry per notebook, under ``learner/notebook``: the SHA-256 of the bytes graded, the time limit,
the grade as plain values, the answer cells' text, the language the grade's text is in, and an
HMAC-SHA256 (``record_key`` below) over all of that together with the record's format and the grader's
version. A rerun reuses an entry only when the notebook's bytes still hash to its SHA-256, the
grader (a hash of this package's grading code) is the same, the grade would be told in the same
language now, and the HMAC checks out; anything else is graded again, and entries that fail the
check are reported. The instructor's language (``--lang``) is no part of it: a grade is told in its
notebook's edition's language, so a report in another language is written from the same record.
Only a grade whose notebook names no edition (not JSON) is told in the instructor's language, when
its learner's other notebooks name none either; that entry alone is graded again. A timeout is graded again under a longer time limit,
and the grader's own failure (``batch.INFRASTRUCTURE``: ``grade.class.internal``, a host that
died or stopped answering) always.

A grade keeps each hint's and error's catalog key and the values that filled it (``values``, beside
``key`` in the grade and in each check: ``report.kept``), so the class page and grades.csv tell every
hint in the instructor's language, a learner's values filled in as text (``report.retold``). Entries
recorded before grades kept values have none, and are read all the same (the format is unchanged):
their hints that quote a value are told as their learner read them.

Only the grading process writes the record (never a worker, never learner code), and each run
rewrites it whole from what it graded or verified itself, as grades arrive (at most once a second)
and at the end, so an interrupted run resumes where it stopped. The file is written through
``report_folder.Folder``: a fresh exclusive partial file renamed over ``state.json``, never through
a link. A ``state.json`` that is a link or not a file, or a stray ``*.part``, is reported and
replaced; a record that cannot be read or saved is reported, and grading goes on without it.

**The key** (``record_key``; issue 26, item 1). Whoever can write ``state.json`` could hand out
grades: learner code graded without a sandbox (it runs as the instructor), or another account that
can write the report folder. So the HMAC is made with a key kept private to the instructor.

The key lives outside every report folder, in ``$XDG_CONFIG_HOME/harness_lab/record.key`` (by
default ``~/.config/harness_lab/record.key``): 32 random bytes, in a folder of mode 0700, in a file
of mode 0600 owned by the instructor, created exclusively and read without following a link. A key
file that is a link, has the wrong size, or could be read or written by another account is not
trusted: it is replaced by a new key (so every record made with the old one is graded again) and
the caller is told. Where no key file can be kept at all (a read-only home), the run uses a key of
its own: it grades as usual, and its record is simply not trusted by the next run.

Nor is the key in any process that runs learner code: it is held in a ``bytearray`` that every
process forked from the grading process (a worker, and below it the learner's job) zeroes at once
(``os.register_at_fork``), and it is read and made without ever becoming a ``bytes`` object, whose
freed copy a child could still find in its memory. ``hmac`` takes the buffer as it is.

What the key cannot stop: code running as the instructor can read its file. The sandbox keeps
learner code away from the instructor's home; graded ``--unsandboxed``, the MAC still defeats a
record written without the key.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
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

__all__ = ["KEY_BYTES", "Record", "key_path", "record_key"]

_FORMAT = 3  # 1: before entries carried an HMAC; 2: one language for the whole record
_SAVE_EVERY = 1.0  # seconds between rewrites of the record while grades arrive
_MAX_BYTES = 128 << 20  # a class of a thousand notebooks records ~25 MB


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
            if grade.key in INFRASTRUCTURE:  # the grader's own failure is no verdict
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


KEY_BYTES = 32
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_held: list[bytearray] = []  # every key this process holds, zeroed in each child it forks


def _forget_in_child() -> None:
    for key in _held:
        key[:] = bytes(len(key))
    _held.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_in_child)


def key_path() -> Path:
    """Where the key is kept: under ``$XDG_CONFIG_HOME`` when it is an absolute path, else ``~/.config``."""
    base = os.environ.get("XDG_CONFIG_HOME", "")
    folder = Path(base) if os.path.isabs(base) else Path.home() / ".config"
    return folder / "harness_lab" / "record.key"


def record_key(on_note: Callable[[str], None]) -> bytearray:
    """The instructor's record key, made on first use; ``on_note`` hears of a key replaced or unavailable."""
    path = key_path()
    try:
        key = _kept_key(path, on_note)
    except OSError as exc:
        on_note(t("grade.class.key_unavailable", path=path, error=describe_error(exc)))
        key = _random_key()
    _held.append(key)
    return key


def _random_key() -> bytearray:
    key = bytearray(KEY_BYTES)
    try:
        with open("/dev/urandom", "rb", buffering=0) as source:
            if source.readinto(key) == KEY_BYTES:
                return key
    except OSError:
        pass
    key[:] = os.urandom(KEY_BYTES)  # no /dev/urandom (Windows): a bytes copy, but no fork there either
    return key


def _kept_key(path: Path, on_note: Callable[[str], None]) -> bytearray:
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    folder = os.open(path.parent, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _NOFOLLOW | _CLOEXEC)
    try:
        info = os.fstat(folder)
        if info.st_uid != os.geteuid():
            raise OSError(t("grade.class.key_folder_not_yours", path=path.parent))
        if info.st_mode & 0o077:  # ours, but open to others: close it before trusting what is inside
            os.fchmod(folder, 0o700)
        key, why = _read_key(path.name, folder)
        if key is not None:
            return key
        if why:
            on_note(t("grade.class.key_replaced", path=path, why=why))
            os.unlink(path.name, dir_fd=folder)
        try:
            return _create(path.name, folder)
        except FileExistsError:  # another run made it just now
            key, why = _read_key(path.name, folder)
            if key is None:
                raise
            return key
    finally:
        os.close(folder)


def _read_key(name: str, folder: int) -> tuple[bytearray | None, str]:
    """(the key, "") when the file is sound; (None, why) when it must be replaced; (None, "") when absent."""
    try:
        fd = os.open(name, os.O_RDONLY | _NOFOLLOW | _CLOEXEC | getattr(os, "O_NONBLOCK", 0), dir_fd=folder)
    except FileNotFoundError:
        return None, ""
    except OSError as exc:  # ELOOP: a link
        return None, describe_error(exc)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size != KEY_BYTES:
            return None, t("grade.class.key_not_a_key", size=info.st_size)
        if info.st_uid != os.geteuid() or info.st_mode & 0o077 or info.st_nlink != 1:
            return None, t("grade.class.key_not_private", mode=f"{stat.S_IMODE(info.st_mode):04o}")
        key = bytearray(KEY_BYTES)
        read = os.readv(fd, [key])
    finally:
        os.close(fd)
    if read != KEY_BYTES:
        return None, t("grade.class.key_not_a_key", size=read)
    return key, ""


def _create(name: str, folder: int) -> bytearray:
    key = _random_key()
    fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o600, dir_fd=folder)
    try:
        os.write(fd, key)
        os.fsync(fd)
    finally:
        os.close(fd)
    return key
