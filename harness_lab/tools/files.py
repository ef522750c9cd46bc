"""The file tools: lesson 6's ``read_file``, and lesson 5's high-impact ``write_file`` and ``delete_file``.

``read_file`` is harmless, so the default policy lets it through; ``write_file`` and ``delete_file``
are marked ``high_impact``, so the approval valve asks before they run. All three are confined (to
the project root, or to the sandbox) so that a notebook demo can never touch the learner's files.
"""

from __future__ import annotations

import codecs
import os
from contextlib import contextmanager
from pathlib import Path

from ..text import Phrase, t
from .definition import Tool, ToolError, tool

__all__ = ["READ_LIMIT", "delete_file", "make_delete_file", "make_read_file", "make_write_file", "read_file", "write_file"]

# lesson 6: "the first 2000 characters" of a file
READ_LIMIT = 2000


@contextmanager
def _plain_errors(path: str):
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


def _inside(root: Path, path: str) -> Path:
    """``path`` (relative to ``root``) resolved, symlinks included, and proven to stay inside ``root``.

    The lesson's ``abs.startsWith(ROOT + sep)`` compares strings before symlinks are followed, so a
    link inside the project that points to /etc passes it. Resolving first closes that hole.
    """
    if "\x00" in path:
        raise ToolError(t("file.nul", path=path.replace("\x00", "\\0")))
    base = root.resolve()
    with _plain_errors(path):
        target = (base / path).resolve()
    if not target.is_relative_to(base):
        raise ToolError(t("file.outside_root", path=path))
    return target


def make_read_file(root: str | os.PathLike | None = None, limit: int = READ_LIMIT) -> Tool:
    """A ``read_file`` tool confined to ``root`` (None: the working directory at call time)."""

    def read_file(path: str) -> str:
        """Read the start of a text file inside the project.

        Args:
            path: a path relative to the project root
        """
        with _plain_errors(path):
            return _read_head(_inside(Path(root) if root is not None else Path.cwd(), path), path, limit)

    return tool(read_file, description=Phrase("tool.read_file", limit=limit))


def _read_head(target: Path, path: str, limit: int) -> str:
    """The first ``limit`` characters of a regular UTF-8 text file, with a clear error otherwise."""
    if not target.exists():
        raise ToolError(t("file.not_found", path=path))
    if target.is_dir():
        raise ToolError(t("file.is_directory", path=path))
    if not target.is_file():  # a FIFO or a device would block or never end
        raise ToolError(t("file.not_regular", path=path))
    # At most 4 bytes per UTF-8 character: a huge file is never loaded whole. Only the characters
    # returned must decode; a stray byte after them says nothing about the part the model sees.
    with open(target, "rb") as f:
        head = f.read(limit * 4)
        whole = not f.read(1)
    try:  # unless the file ended, a character cut at the end of ``head`` is not an error
        text = codecs.getincrementaldecoder("utf-8")().decode(head, final=whole)
    except UnicodeDecodeError as exc:
        text = head[: exc.start].decode("utf-8")
        if len(text) < limit:
            raise ToolError(t("file.binary", path=path)) from None
    text = text[:limit]
    if "\x00" in text:
        raise ToolError(t("file.binary", path=path))
    return text


def _in_sandbox(sandbox: str | os.PathLike | None, path: str) -> Path:
    """``path`` is written as from the project root (``sandbox/notes.md``) and must land in the sandbox.

    The sandbox defaults to ``./sandbox`` at call time; a given sandbox's parent plays the root.
    It is created on demand, so merely wiring the tool never touches the disk.
    """
    box = Path(sandbox) if sandbox is not None else Path.cwd() / "sandbox"
    box.mkdir(parents=True, exist_ok=True)
    target = _inside(box.parent, path)
    if not target.is_relative_to(box.resolve()):
        raise ToolError(t("file.outside_sandbox", path=path, sandbox=box.name))
    return target


def make_write_file(sandbox: str | os.PathLike | None = None) -> Tool:
    """A high-impact ``write_file`` confined to ``sandbox`` (None: ``./sandbox`` at call time)."""

    def write_file(path: str, content: str) -> str:
        """Write a text file inside the sandbox.

        Args:
            path: a path from the project root, inside sandbox/ (e.g. sandbox/notes.md)
            content: the whole new text of the file
        """
        with _plain_errors(path):
            target = _in_sandbox(sandbox, path)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(content, encoding="utf-8")
        return t("file.written", path=path, chars=len(content))

    return tool(write_file, description=Phrase("tool.write_file"), high_impact=True)


def make_delete_file(sandbox: str | os.PathLike | None = None) -> Tool:
    """A high-impact ``delete_file`` confined to ``sandbox`` (None: ``./sandbox`` at call time)."""

    def delete_file(path: str) -> str:
        """Delete a file inside the sandbox.

        Args:
            path: a path from the project root, inside sandbox/ (e.g. sandbox/notes.md)
        """
        with _plain_errors(path):
            target = _in_sandbox(sandbox, path)
            if not target.is_file():
                raise ToolError(t("file.not_found", path=path))
            target.unlink()
        return t("file.deleted", path=path)

    return tool(delete_file, description=Phrase("tool.delete_file"), high_impact=True)


read_file = make_read_file()
write_file = make_write_file()
delete_file = make_delete_file()
