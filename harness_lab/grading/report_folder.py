"""A class report's folder, held open and written without ever following a link (issues 26 and 29).

Whoever can write the report folder can plant things in it: learner code graded without a sandbox
runs as the instructor, so it can put a link ``index.html.part`` to the instructor's own file, turn
``feedback`` into a link to another folder, or make ``state.json.part`` a directory. So:

- the folder is opened once, and every name is a single component opened relative to it with
  ``O_NOFOLLOW``: a link is never followed, and a folder renamed away mid-run takes our writes along;
- a file is written to a fresh random name created with ``O_EXCL`` (which fails on any existing
  entry, a link included) and renamed over its target: a rename replaces a link, never its target;
- what stands where a file or folder must go (a link, a folder, a FIFO), and every leftover
  ``*.part`` of any kind, is removed and reported in a note, never followed and never a crash.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import stat
import time
from collections.abc import Callable
from pathlib import Path

from ..terminal import visible
from ..text import t
from .sandbox import describe_error

__all__ = ["HOLDER", "Busy", "Folder", "PART", "claim", "failed_write", "holder", "lock", "release"]

PART = ".part"  # how every partial file's name ends, ours or a stray's
HOLDER = ".running.json"  # who holds the folder's lock, for the message that refuses a second run
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)


class Folder:
    """A folder held by descriptor. ``note`` hears one line per thing removed or replaced."""

    def __init__(self, fd: int, shown: str, note: Callable[[str], None]) -> None:
        self.fd, self.shown, self.note = fd, shown, note

    @classmethod
    def open(cls, path: Path, note: Callable[[str], None], *, private: bool = False) -> Folder:
        """Open ``path`` (made if missing; ``private``: mode 0700); raises OSError for a link or a file."""
        try:
            os.mkdir(path, 0o700 if private else 0o777)
        except FileExistsError:
            pass
        fd = os.open(path, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC)
        return cls(fd, str(path), note)

    def close(self) -> None:
        os.close(self.fd)

    def __enter__(self) -> Folder:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def sub(self, name: str) -> Folder:
        """The subfolder ``name``, made if missing; a link or file in its place is removed first."""
        self.make_way(name, stat.S_ISDIR)
        try:
            os.mkdir(name, 0o777, dir_fd=self.fd)
        except FileExistsError:
            pass
        fd = os.open(name, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC, dir_fd=self.fd)
        return Folder(fd, os.path.join(self.shown, name), self.note)

    def kind(self, name: str) -> int | None:
        """``st_mode`` of the entry ``name`` itself (a link is not followed), or None when absent."""
        try:
            return os.stat(name, dir_fd=self.fd, follow_symlinks=False).st_mode
        except FileNotFoundError:
            return None

    def names(self) -> list[str]:
        return sorted(os.listdir(self.fd))

    def read(self, name: str, limit: int) -> bytes | None:
        """The regular file ``name``'s bytes, None when absent; OSError for anything else or over ``limit``."""
        try:
            fd = os.open(name, os.O_RDONLY | _NOFOLLOW | _CLOEXEC | getattr(os, "O_NONBLOCK", 0), dir_fd=self.fd)
        except FileNotFoundError:
            return None
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(fd).st_mode):  # a FIFO opened non-blocking, a device
                raise OSError(t("grade.class.not_a_file", name=name))
            data = f.read(limit + 1)
        if len(data) > limit:
            raise OSError(t("grade.class.file_too_large", name=name, limit=limit >> 20))
        return data

    def write(self, name: str, data: bytes, *, mode: int = 0o666, sync: bool = False) -> None:
        """Put ``data`` in ``name`` whole (a reader sees the old file or the new one); OSError if it cannot."""
        partial = f".{name[:64]}.{secrets.token_hex(6)}{PART}"
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, mode, dir_fd=self.fd)
        try:
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view) :]
                if sync:
                    os.fsync(fd)
            finally:
                os.close(fd)
            self.make_way(name, stat.S_ISREG)
            os.replace(partial, name, src_dir_fd=self.fd, dst_dir_fd=self.fd)
        except BaseException:
            self.remove(partial)
            raise

    def remove(self, name: str) -> None:
        """Remove the entry ``name`` whatever it is (a folder with what it holds); never through a link."""
        try:
            kind = self.kind(name)
            if kind is not None and stat.S_ISDIR(kind):
                shutil.rmtree(name, dir_fd=self.fd)  # descriptor-based: links inside are removed, not followed
            elif kind is not None:
                os.unlink(name, dir_fd=self.fd)
        except FileNotFoundError:
            pass

    def clear_strays(self, *of: str) -> None:
        """Remove every ``*.part`` entry (of the files named ``of``, else of any): a write cut short, or
        something planted to block or redirect one."""
        for name in self.names():
            if name.endswith(PART) and (not of or name.lstrip(".").startswith(of)):
                self.remove(name)
                # the name is whoever planted it's: its escapes would reach the instructor's terminal
                self.note(t("grade.class.stray_removed", name=visible(os.path.join(self.shown, name))))

    def make_way(self, name: str, wanted) -> None:
        """Remove a ``name`` that is not of the ``wanted`` kind (``stat.S_ISREG`` / ``S_ISDIR``), with a note."""
        kind = self.kind(name)
        if kind is not None and not wanted(kind):
            self.remove(name)
            self.note(t("grade.class.replaced", name=visible(os.path.join(self.shown, name))))


class Busy(Exception):
    """Another run holds the report folder's lock."""


def lock(path: Path) -> int:
    """A descriptor of the folder ``path`` that holds its lock: one run of grade-class at a time writes a report.

    Two runs on one folder each wrote the report as they finished, the last one's pages over the
    first's, state.json and its signatures interleaved. The lock is the kernel's (``flock``) on the folder
    itself: nothing is left on disk, and it goes with the process that held it, however that ended
    (Ctrl-C, a crash, ``kill -9``), so no run is refused for ever by one that died. Raises ``Busy`` when
    another run holds it, OSError when the folder cannot be opened (a link, a file). Without ``flock``
    (Windows, where no class is graded in a sandbox) the folder is opened and not locked.
    """
    fd = os.open(path, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC)
    try:
        import fcntl
    except ImportError:
        return fd
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise Busy(str(path)) from None
    return fd


# The lock says whether a run holds the folder; it cannot say which. The run that holds it writes its PID
# and start time to HOLDER, so a refused run can name it. The file is only for that message: a run killed
# with kill -9 leaves it behind, so it is believed only while its process is alive, and on Linux only when
# that process started when the file says (a PID the kernel has since given to another process is not it).


def claim(fd: int | None, path: Path, note: Callable[[str], None]) -> None:
    """Say in HOLDER, in the folder ``path`` held by descriptor ``fd`` with its lock, that this run holds it."""
    if fd is None:
        return
    facts = {"pid": os.getpid(), "started": time.time(), "process": _process_start(os.getpid())}
    try:
        Folder(fd, str(path), note).write(HOLDER, json.dumps(facts).encode())
    except OSError:  # a second run is refused all the same, without the PID
        pass


def release(fd: int | None) -> None:
    """Remove HOLDER before the lock goes (the file of a run that was killed stays, and is not believed)."""
    if fd is not None:
        Folder(fd, "", lambda _: None).remove(HOLDER)


def holder(path: Path) -> tuple[int, float] | None:
    """The PID and start time (``time.time()``) of the run that holds ``path``'s lock, as HOLDER says, or
    None when no live process matches it (a killed run's file, a file not written yet, none at all)."""
    try:
        fd = os.open(path, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC)
    except OSError:
        return None
    try:
        facts = json.loads(Folder(fd, str(path), lambda _: None).read(HOLDER, 4096) or b"null")
        pid, started, process = int(facts["pid"]), float(facts["started"]), facts["process"]
    except (OSError, ValueError, TypeError, KeyError):
        return None
    finally:
        os.close(fd)
    return (pid, started) if pid > 0 and _alive(pid, process) else None


def _alive(pid: int, process: object) -> bool:
    if process is not None:  # written on Linux: the same process, not only the same number
        return _process_start(pid) == process
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, another account's
        return True
    return True


def _process_start(pid: int) -> str | None:
    """When the kernel started process ``pid`` (Linux's /proc/PID/stat, field 22), None where it cannot say."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()  # after the command name, which may hold ") "
        return fields[19].decode()
    except (OSError, IndexError, UnicodeDecodeError):
        return None


def failed_write(name: str, exc: OSError) -> str:
    """The line that reports a file of the report that could not be written."""
    return t("grade.class.write_failed", name=name, error=describe_error(exc))
