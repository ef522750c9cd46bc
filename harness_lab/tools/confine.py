"""Confinement for the file tools: a path the model gave, opened only inside its root (lessons 5, 6).

How it holds against a model, or anyone sharing the disk with it:

- The root (and the sandbox) is fixed when the tool is made; a later ``os.chdir`` moves nothing.
- A call opens the root directory once and walks the path one component at a time, each opened
  relative to the directory before it with ``O_NOFOLLOW``. What was checked is what gets opened:
  swapping a directory for a symlink between check and use finds nothing to follow.
- ``..`` in the model's path is applied to the text first and may not climb above the root.
- A symlink on the way is read (``readlink``) and its target walked the same way: from the link's
  directory (a ``..`` in it goes back to the directory walked before, as the OS would), or from
  the root for an absolute target inside it. A target that leads out is refused, and so is a chain
  of more than 40 links. So ``alias.md -> README.md`` still reads, as it did before; and, as
  before, all three tools act on the file a link leads to (write_file and delete_file only when
  that file is inside the sandbox).
- Only regular files with one name are touched: a FIFO, device or socket is refused before it is
  opened (and opened with ``O_NONBLOCK``, so a late swap cannot block), and so is a file with more
  than one hard link, since its other name may be outside and nothing on disk says where.
- ``write_file`` writes a new file beside the target and renames it over the target, so a write
  never goes through a name swapped in at the last moment, and a failed one leaves the old file
  whole; ``delete_file`` unlinks the checked name in its own directory, so such a name loses only
  itself, never what it points to.

This is Linux's ``openat2(RESOLVE_BENEATH)`` done by hand with the portable ``dir_fd`` calls
(``openat2`` itself refuses absolute links inside the root, is missing on macOS and is often
blocked in containers). Where ``dir_fd`` is missing (Windows), paths are resolved and checked by
``_inside``, then opened by name: links are still refused, but a swap racing the call is not.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from ..text import t
from .definition import ToolError

__all__ = ["Found", "Place", "a_plain_file", "inside", "open_plain", "plain_errors", "replace_file", "sandbox_place"]

_MAX_LINKS = 40  # Linux's own limit on symlinks followed in one lookup
_MAX_PATH = 4096  # Linux's PATH_MAX: a longer path is refused before the disk is touched
_MAX_DEPTH = 128  # directories deep: one call holds a descriptor for each while it walks

_CLOEXEC = getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_ROOT = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _CLOEXEC  # follows links: the root is the human's choice
_STEP = _ROOT | _NOFOLLOW  # every directory below the root
_READ = os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | _CLOEXEC
_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC

# ``os.replace`` takes dir fds wherever ``os.rename`` does (both are renameat), but is not listed.
_BENEATH = {os.open, os.stat, os.readlink, os.mkdir, os.unlink, os.rename} <= os.supports_dir_fd and bool(_NOFOLLOW)


@contextmanager
def plain_errors(path: str) -> Iterator[None]:
    """OS errors as catalog messages that name only the path the model gave.

    The OS's own message carries the host's absolute path (and can run to kilobytes for a long
    name); neither belongs in a tool_result.
    """
    try:
        yield
    except IsADirectoryError:
        raise ToolError(t("file.is_directory", path=path)) from None
    except OSError as exc:
        raise ToolError(t("file.unreadable", path=path, error=exc.strerror or type(exc).__name__)) from None
    except RuntimeError:  # Python 3.11's Path.resolve reports a symlink loop this way
        raise ToolError(t("file.unreadable", path=path, error="symlink loop")) from None


# The fallback where ``dir_fd`` is missing, and notebook 05's first answer to the lesson's
# ``startsWith``: it resolves links before comparing, but opens by name afterwards, so a link
# swapped in between is followed. ``Place.find`` below is the answer that holds.
def inside(root: Path, path: str) -> Path:
    """``path`` (relative to ``root``) resolved, symlinks included, and proven to stay inside ``root``.

    The lesson's ``abs.startsWith(ROOT + sep)`` compares strings before symlinks are followed, so a
    link inside the project that points to /etc passes it. Resolving first closes that hole.
    """
    if "\x00" in path:
        raise ToolError(t("file.nul", path=path.replace("\x00", "\\0")))
    base = root.resolve()
    with plain_errors(path):
        target = (base / path).resolve()
    if not target.is_relative_to(base):
        raise ToolError(t("file.outside_root", path=path))
    return target


@dataclass(frozen=True)
class Found:
    """Where a walk ended: ``name`` inside the directory ``dir_fd`` (None: a full path, the fallback).

    ``name`` is None when the path named a directory it walked through (the root, ``.``, ``..``);
    ``st`` is ``name``'s own status, links not followed, None when nothing has that name.
    """

    dir_fd: int | None
    name: str | None
    st: os.stat_result | None


def _lstat(name: str, dir_fd: int | None) -> os.stat_result | None:
    try:
        return os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return None


def _components(path: str) -> list[str]:
    """``path`` split into names, empty ones and ``.`` dropped, ``..`` kept."""
    if os.altsep:  # Windows takes ``/`` as well as ``\\``
        path = path.replace(os.altsep, os.sep)
    return [part for part in path.split(os.sep) if part not in ("", ".")]


def _lexical(parts: list[str]) -> list[str] | None:
    """``parts`` with each ``..`` applied to the text; None when one climbs above the start."""
    out: list[str] = []
    for part in parts:
        if part != "..":
            out.append(part)
        elif not out:
            return None
        else:
            out.pop()
    return out


@dataclass(frozen=True)
class Place:
    """Where a tool may act: ``base`` (the root itself, or the sandbox in it), fixed when the tool is made.

    The model's paths start from ``root``; ``aliases`` are the root as given and with its own links
    resolved, so an absolute path (or link target) may use either spelling.
    """

    root: str
    base: str
    aliases: tuple[tuple[str, ...], ...]

    @classmethod
    def fixed(cls, root: str | os.PathLike[str], base: str | os.PathLike[str] | None = None) -> Place:
        root = os.path.abspath(root)
        base = os.path.abspath(base) if base is not None else root
        spellings = dict.fromkeys([root, os.path.realpath(root)])
        return cls(root, base, tuple(tuple(_components(alias)) for alias in spellings))

    @property
    def sandbox(self) -> str | None:
        return os.path.basename(self.base) if self.base != self.root else None

    def _below(self, absolute: str) -> list[str] | None:
        """The names of ``absolute`` after the root (``..`` not applied), or None when it starts elsewhere."""
        parts = _components(absolute)
        for alias in self.aliases:
            if tuple(parts[: len(alias)]) == alias:
                return parts[len(alias) :]
        return None

    def _refusal(self, path: str, inside: list[str] | None) -> ToolError:
        """Outside the sandbox but in the project (``inside`` not None), or outside the project."""
        if self.sandbox and inside is not None:
            return ToolError(t("file.outside_sandbox", path=path, sandbox=self.sandbox))
        return ToolError(t("file.outside_root", path=path))

    def _from_base(self, path: str, below: list[str] | None) -> list[str]:
        """Names after the root as names after ``base``, or a refusal."""
        if below is None:
            raise self._refusal(path, None)
        if self.sandbox:
            if below[:1] != [self.sandbox]:
                raise self._refusal(path, _lexical(below))
            return below[1:]
        return below

    def parts(self, path: str) -> list[str]:
        """The model's path as names after ``base``; its ``..`` is applied to the text, never to the disk."""
        if "\x00" in path:
            raise ToolError(t("file.nul", path=path.replace("\x00", "\\0")))
        if len(os.fsencode(path)) >= _MAX_PATH:
            raise ToolError(t("file.unreadable", path=path, error=os.strerror(errno.ENAMETOOLONG)))
        below = self._below(path) if os.path.isabs(path) else _components(path)
        inside = _lexical(below) if below is not None else None
        if inside is None:
            raise self._refusal(path, None)
        if len(inside) > _MAX_DEPTH:  # refused before write_file makes the first directory
            raise ToolError(t("file.unreadable", path=path, error=os.strerror(errno.ENAMETOOLONG)))
        return self._from_base(path, inside)

    @contextmanager
    def find(self, path: str, create: bool = False) -> Iterator[Found]:
        """Walk ``path`` from ``base`` and never let the kernel follow a link; ``create`` makes missing
        directories on the way (write_file). The descriptors are closed when the block ends."""
        parts = self.parts(path)
        if not _BENEATH:
            yield self._resolved(path, create)
            return
        base = os.open(self.base, _ROOT)
        held: list[int] = []  # the directories walked below base, in order: ``..`` returns to the one before
        todo = parts[::-1]
        links = 0
        try:
            while todo:
                name = todo.pop()
                here = held[-1] if held else base
                if name == "..":  # only from a link's target, taken as the OS would, without asking the OS
                    if not held:
                        above = [self.sandbox] if self.sandbox else []  # base, as names after the root
                        raise self._refusal(path, _lexical([*above, "..", *reversed(todo)]))
                    os.close(held.pop())
                    continue
                if todo:  # a directory to pass through
                    if len(held) >= _MAX_DEPTH:
                        raise ToolError(t("file.unreadable", path=path, error=os.strerror(errno.ENAMETOOLONG)))
                    fd = self._enter(path, name, here, create)
                    if fd is not None:
                        held.append(fd)
                        continue
                else:
                    st = _lstat(name, here)
                    if st is None or not stat.S_ISLNK(st.st_mode):
                        yield Found(here, name, st)
                        return
                links += 1  # ``name`` is a symlink: read it, and walk its target from here
                if links > _MAX_LINKS:
                    raise ToolError(t("file.unreadable", path=path, error=os.strerror(errno.ELOOP)))
                target = os.readlink(name, dir_fd=here)
                if os.path.isabs(target):  # from the top of base, if it lies inside at all
                    todo.extend(reversed(self._from_base(path, self._below(target))))
                    while held:
                        os.close(held.pop())
                else:
                    todo.extend(reversed(_components(target)))
            yield Found(held[-1] if held else base, None, None)
        finally:
            for fd in held:
                os.close(fd)
            os.close(base)

    @staticmethod
    def _enter(path: str, name: str, here: int, create: bool) -> int | None:
        """Directory ``name`` in ``here``, opened without following it; None when it is a symlink."""
        for _ in range(2):  # once more after making it (write_file)
            try:
                return os.open(name, _STEP, dir_fd=here)
            except FileNotFoundError:
                if not create:
                    raise ToolError(t("file.not_found", path=path)) from None
                with suppress(FileExistsError):
                    os.mkdir(name, dir_fd=here)
            except OSError as exc:  # a link (ENOTDIR, ELOOP or EMLINK by platform), or no directory
                st = _lstat(name, here)
                if st is not None and stat.S_ISLNK(st.st_mode):
                    return None
                if st is not None and exc.errno not in (errno.ENOTDIR, errno.ELOOP, errno.EMLINK):
                    raise  # permissions, a name too long: said as the OS says it
                if st is not None and stat.S_ISDIR(st.st_mode):  # a link a moment ago
                    raise ToolError(t("file.changed", path=path)) from None
                raise ToolError(t("file.not_found", path=path)) from None  # gone, or a file used as a directory
        raise ToolError(t("file.changed", path=path))  # made, and gone again at once

    def _resolved(self, path: str, create: bool) -> Found:
        """The weaker fallback: resolve by name, check, and hand back the full path."""
        target = inside(Path(self.root), path)
        if self.sandbox and not target.is_relative_to(Path(self.base).resolve()):
            raise self._refusal(path, [])
        if target == Path(self.base).resolve() or target.is_dir():
            return Found(None, None, None)
        if create:
            target.parent.mkdir(parents=True, exist_ok=True)
        return Found(None, str(target), _lstat(str(target), None))


def a_plain_file(found: Found, path: str, missing_ok: bool = False) -> str:
    """Refuse anything but one regular file with one name (an absent one too, unless ``missing_ok``).

    Returns that name (``found.name``), now known to be there.
    """
    st = found.st
    if found.name is None or (st is not None and stat.S_ISDIR(st.st_mode)):
        raise ToolError(t("file.is_directory", path=path))
    if st is None:
        if missing_ok:
            return found.name
        raise ToolError(t("file.not_found", path=path))
    if not stat.S_ISREG(st.st_mode):  # a FIFO would block, a device never end
        raise ToolError(t("file.not_regular", path=path))
    if st.st_nlink > 1:  # another name for the same bytes, possibly outside
        raise ToolError(t("file.hard_link", path=path, links=st.st_nlink))
    return found.name


def open_plain(found: Found, path: str) -> BinaryIO:
    """The regular file ``found`` names, opened for reading without following a link or blocking."""
    name = a_plain_file(found, path)
    try:
        fd = os.open(name, _READ, dir_fd=found.dir_fd)
    except OSError as exc:  # swapped for a link (ELOOP, EMLINK) or removed since the check
        if exc.errno in (errno.ELOOP, errno.EMLINK, errno.ENOENT):
            raise ToolError(t("file.changed", path=path)) from None
        raise
    f = open(fd, "rb")  # noqa: SIM115 (returned to the caller, closed here only on failure)
    try:  # what was opened decides: a FIFO or a hard link swapped in after the check is refused here
        a_plain_file(Found(found.dir_fd, name, os.fstat(fd)), path)
    except BaseException:
        f.close()
        raise
    return f


def sandbox_place(sandbox: str | os.PathLike[str] | None) -> Place:
    """``path`` is written as from the project root (``sandbox/notes.md``) and must land in the sandbox.

    The sandbox defaults to ``./sandbox`` when the tool is made; its parent plays the root. It is
    created on demand, so merely wiring the tool never touches the disk.
    """
    box = os.path.abspath(sandbox if sandbox is not None else "sandbox")
    return Place.fixed(os.path.dirname(box), box)


def replace_file(found: Found, path: str, data: bytes) -> None:
    """Write ``data`` to a new file beside the target, then rename it over the target.

    The target is never opened: a hard link or a link swapped in at the last moment is replaced as a
    name, never written through, and an interrupted write leaves the old file as it was.
    """
    name = a_plain_file(found, path, missing_ok=True)
    spare = os.path.join(os.path.dirname(name), f".harness_lab-{secrets.token_hex(8)}.tmp")
    fd = os.open(spare, _NEW, 0o666, dir_fd=found.dir_fd)
    try:
        with open(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(fd)
            if found.st is not None and hasattr(os, "fchmod"):  # keep the old file's permissions
                os.fchmod(fd, stat.S_IMODE(found.st.st_mode))
        now = _lstat(name, found.dir_fd)  # swapped meanwhile for something not to replace?
        a_plain_file(Found(found.dir_fd, name, now), path, missing_ok=True)
        os.replace(spare, name, src_dir_fd=found.dir_fd, dst_dir_fd=found.dir_fd)
    except BaseException:
        with suppress(OSError):
            os.unlink(spare, dir_fd=found.dir_fd)
        raise
