"""The file tools: lesson 6's ``read_file``, and lesson 5's high-impact ``write_file`` and ``delete_file``.

``read_file`` is harmless, so the default policy lets it through; ``write_file`` and ``delete_file``
are marked ``high_impact``, so the approval valve asks before they run. All three are confined (to
the project root, or to the sandbox; ``confine.py`` says how) so that a notebook demo can never
touch the learner's files, and their roots are fixed when the tool is made.
"""

from __future__ import annotations

import codecs
import os
from typing import BinaryIO

from ..text import Phrase, t
from .confine import Place, a_plain_file, open_plain, plain_errors, replace_file, sandbox_place
from .definition import Tool, ToolError, tool

__all__ = [
    "READ_LIMIT",
    "delete_file",
    "make_delete_file",
    "make_read_file",
    "make_write_file",
    "read_file",
    "write_file",
]

# lesson 6: "the first 2000 characters" of a file
READ_LIMIT = 2000


def make_read_file(root: str | os.PathLike[str] | None = None, limit: int = READ_LIMIT) -> Tool:
    """A ``read_file`` tool confined to ``root`` (None: the working directory when the tool is made)."""
    place = Place.fixed(root if root is not None else os.getcwd())

    def read_file(path: str) -> str:
        """Read the start of a text file inside the project.

        Args:
            path: a path relative to the project root
        """
        with plain_errors(path), place.find(path) as found, open_plain(found, path) as f:
            return _read_head(f, path, limit)

    return tool(read_file, description=Phrase("tool.read_file", limit=limit))


def _read_head(f: BinaryIO, path: str, limit: int) -> str:
    """The first ``limit`` characters of an open UTF-8 text file, with a clear error otherwise."""
    # At most 4 bytes per UTF-8 character: a huge file is never loaded whole. Only the characters
    # returned must decode; a stray byte after them says nothing about the part the model sees.
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


def make_write_file(sandbox: str | os.PathLike[str] | None = None) -> Tool:
    """A high-impact ``write_file`` confined to ``sandbox`` (None: ``./sandbox`` when the tool is made)."""
    place = sandbox_place(sandbox)

    def write_file(path: str, content: str) -> str:
        """Write a text file inside the sandbox.

        Args:
            path: a path from the project root, inside sandbox/ (e.g. sandbox/notes.md)
            content: the whole new text of the file
        """
        data = content.encode("utf-8")  # before any directory is made
        with plain_errors(path):
            place.parts(path)  # refuse before the sandbox is created
            os.makedirs(place.base, exist_ok=True)
            with place.find(path, create=True) as found:
                replace_file(found, path, data)
        return t("file.written", path=path, chars=len(content))

    return tool(write_file, description=Phrase("tool.write_file"), high_impact=True)


def make_delete_file(sandbox: str | os.PathLike[str] | None = None) -> Tool:
    """A high-impact ``delete_file`` confined to ``sandbox`` (None: ``./sandbox`` when the tool is made)."""
    place = sandbox_place(sandbox)

    def delete_file(path: str) -> str:
        """Delete a file inside the sandbox.

        Args:
            path: a path from the project root, inside sandbox/ (e.g. sandbox/notes.md)
        """
        with plain_errors(path):
            place.parts(path)
            os.makedirs(place.base, exist_ok=True)
            with place.find(path) as found:
                name = a_plain_file(found, path)
                # By name in its own directory: a name swapped meanwhile for a link or another
                # file's hard link loses that name only; nothing outside is removed.
                os.unlink(name, dir_fd=found.dir_fd)
        return t("file.deleted", path=path)

    return tool(delete_file, description=Phrase("tool.delete_file"), high_impact=True)


read_file = make_read_file()
write_file = make_write_file()
delete_file = make_delete_file()
