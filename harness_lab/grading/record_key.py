"""The key that signs a class's record of grades, kept private to the instructor (issue 26, item 1).

``REPORT/state.json`` lets a rerun skip notebooks it graded before, so whoever can write it could
hand out grades: learner code graded without a sandbox (it runs as the instructor), or another
account that can write the report folder. Each entry of the record therefore carries an HMAC made
with this key, and an entry whose HMAC does not check out is graded again.

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
record written without the key, and every run rewrites the whole record from what it graded or
verified itself.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

from ..text import t
from .sandbox import describe_error

__all__ = ["KEY_BYTES", "key_path", "record_key"]

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
        key, why = _read(path.name, folder)
        if key is not None:
            return key
        if why:
            on_note(t("grade.class.key_replaced", path=path, why=why))
            os.unlink(path.name, dir_fd=folder)
        try:
            return _create(path.name, folder)
        except FileExistsError:  # another run made it just now
            key, why = _read(path.name, folder)
            if key is None:
                raise
            return key
    finally:
        os.close(folder)


def _read(name: str, folder: int) -> tuple[bytearray | None, str]:
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
