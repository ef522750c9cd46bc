"""Reading a handed-in notebook file: a regular file, and no larger than a notebook can be.

A notebook handed over to be graded may be a link to ``/dev/zero``, which was read until memory ran
out, or a FIFO, which was waited on for ever; and a worker parses the bytes before any memory cap
applies. Both grading commands read every notebook file here.

``grade-class`` lists the submissions first, refusing a learner's folder or file that is a link, and reads
the notebooks after. A learner who may rename their own folder (an exchange folder with the sticky bit,
where each learner makes theirs) could swap it for a link to another folder between the two (the
instructor's solutions, a classmate's): listed as a folder, read through the link. So the folder is held
open without following a link, and the file opened in it, no link either.

``harness-lab grade`` follows the links on the way to a notebook the instructor names, but only those the
instructor or root made: a learner may not read the solutions, yet may make a link to them, and a
``level1_tiered_policy.ipynb`` in their folder that led there was graded 3/3 as theirs. The path is
resolved first, a link of anyone else's refused (``OthersLink``), then opened one name at a time with no
link followed, so a folder swapped for a link since is refused too.

A hard link is no link to follow: where the kernel lets a user hard-link a file they cannot read
(``fs.protected_hardlinks`` 0), a learner's ``level1_tiered_policy.ipynb`` may be the instructor's solution
itself, a regular file of the instructor's, and both commands graded it 3/3 as the learner's. Who made a
hard link cannot be told, but a file with more than one name, owned by someone other than the owner of
the folder it was handed in from, is another user's file put there: it is refused (``OthersFile``). Once the
instructor removes or rewrites the original (a rebuild writes a new file), the learner's name is the only one
left, so a file of anyone else's in a folder of another user's is refused too, whatever its link count: the
caller's, root's, or a classmate's (linked where ``fs.protected_hardlinks`` is 0, its original since saved over
by Jupyter's new file). What a learner hands in from their own folder is theirs (the hub gives the files it
copies to their learner, and a file the learner made is owned by them; Jupyter saves in place, so a file of
root's they could save into would stay root's, and is refused too). A file of a learner's
in a folder of root's or the caller's (made for each learner and written through a group) is graded as
before: there the folder's owner tells nothing.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import Any

from ..terminal import visible
from ..text import t

__all__ = ["MAX_NOTEBOOK_BYTES", "NotRegular", "OthersFile", "OthersLink", "TooLarge", "read_notebook"]

# An exercise notebook is ~20 KB. JSON can take ~35 times its size in memory once parsed ("[[]]," over
# and over), and a worker parses it before any memory cap applies: 8 MB of that took one to ~375 MB.
MAX_NOTEBOOK_BYTES = 8 << 20
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_HOPS = 40  # links followed before ELOOP, as Linux counts them


class NotRegular(OSError):
    """A folder, FIFO or device where a notebook file was expected."""


class OthersLink(OSError):
    """A link on the way to a notebook named on the command line that neither the caller nor root made."""

    def __init__(self, link: str) -> None:
        super().__init__(link)
        self.link = link


class OthersFile(OSError):
    """A notebook file with more than one name whose owner is not the owner of its folder: a hard link a
    learner made in their folder to a file of someone else's (the solution, a classmate's notebook); or any
    file of someone else's in a learner's folder (such a link, its original since removed)."""

    key = "grade.nb.others_file"

    def __init__(self, name: str, owner: int) -> None:
        super().__init__(name)
        self.values: dict[str, Any] = {"name": visible(name), "owner": visible(_user(owner))}


class TooLarge(OSError):
    key = "grade.class.too_large"

    def __init__(self, name: str, size: int) -> None:
        super().__init__(name)
        mb, limit = f"{size / (1 << 20):.1f}", MAX_NOTEBOOK_BYTES >> 20
        # the name reaches the row's message, the CSV and the feedback as is: no learner's escapes with it
        self.values: dict[str, Any] = {"name": visible(name), "mb": mb, "limit": limit}


def read_notebook(path: str | Path, *, follow: bool = False) -> bytes:
    """The file's bytes. A link is refused (one planted in a submissions folder since it was scanned), unless
    ``follow`` (a path the instructor named on the command line): then a link the caller or root made is
    followed, and one of anyone else's refused (``OthersLink``)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
    opened = _open_through_own_links if follow else _open_in_folder
    fd, folder_owner = opened(Path(path), flags if follow else flags | _NOFOLLOW)
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegular(t("grade.class.not_regular", name=visible(Path(path).name)))
        if info.st_uid != folder_owner and (info.st_nlink > 1 or not _graders(folder_owner)):
            raise OthersFile(Path(path).name, info.st_uid)
        if info.st_size > MAX_NOTEBOOK_BYTES:
            raise TooLarge(Path(path).name, info.st_size)
        data = f.read(MAX_NOTEBOOK_BYTES + 1)
    if len(data) > MAX_NOTEBOOK_BYTES:  # it grew since
        raise TooLarge(Path(path).name, len(data))
    return data


def _graders(folder_owner: int) -> bool:
    """Is the folder a notebook is handed in from the caller's own or root's (made for a learner by them)?"""
    return folder_owner in ((0, os.geteuid()) if hasattr(os, "geteuid") else (0,))


def _user(uid: int) -> str:
    try:
        import pwd  # not on Windows, where a file's owner is never told apart (st_uid is 0)

        return pwd.getpwuid(uid).pw_name
    except (ImportError, KeyError):
        return str(uid)


def _open_through_own_links(path: Path, flags: int) -> tuple[int, int]:
    """(a descriptor of ``path``, the owner of the folder it is in)."""
    if os.open not in os.supports_dir_fd or not hasattr(os, "O_DIRECTORY"):  # Windows: links are the system's
        return os.open(path, flags), os.stat(path.parent).st_uid
    parts = Path(_resolved(path)).parts[1:]
    folder = os.open("/", os.O_RDONLY | os.O_DIRECTORY)
    try:
        for each in parts[:-1]:  # O_PATH: a folder the caller may pass through, not list
            inner = os.open(each, getattr(os, "O_PATH", os.O_RDONLY) | os.O_DIRECTORY | _NOFOLLOW, dir_fd=folder)
            os.close(folder)
            folder = inner
        return os.open(parts[-1] if parts else ".", flags | _NOFOLLOW, dir_fd=folder), os.fstat(folder).st_uid
    finally:
        os.close(folder)


def _resolved(path: Path) -> str:
    """``path``, absolute, with every link on the way followed; raises ``OthersLink`` at one neither the caller
    nor root made."""
    here, todo, hops = Path("/"), list(Path(os.getcwd(), path).parts[1:]), 0
    while todo:
        name = todo.pop(0)
        if name == "..":
            here = here.parent  # here holds no link: its parent is the folder it is in
            continue
        step = here / name
        info = os.lstat(step)
        if not stat.S_ISLNK(info.st_mode):
            here = step
            continue
        if info.st_uid not in (0, os.geteuid()):
            raise OthersLink(str(step))
        hops += 1
        if hops > _HOPS:
            raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), str(path))
        target = Path(os.readlink(step))
        here = Path("/") if target.is_absolute() else here
        todo[:0] = target.parts[1:] if target.is_absolute() else target.parts
    return str(here)


def _open_in_folder(path: Path, flags: int) -> tuple[int, int]:
    """(a descriptor of ``path`` opened with ``flags`` in its folder, which is no link; the folder's owner)."""
    if os.open not in os.supports_dir_fd or not hasattr(os, "O_DIRECTORY"):  # Windows: no opening in a folder
        return os.open(path, flags), os.stat(path.parent).st_uid
    folder = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY | _NOFOLLOW)
    try:
        return os.open(path.name, flags, dir_fd=folder), os.fstat(folder).st_uid
    finally:
        os.close(folder)
