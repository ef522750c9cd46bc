"""A learner's handed-in file opened through its folder, never through a link put in the folder's place.

``grade-class`` lists the submissions first and refuses a learner's folder that is a link; it reads the
notebooks after. A learner who may rename their own folder (an exchange folder with the sticky bit,
where each learner makes theirs) could swap it for a link to another folder between the two (the
instructor's solutions, a classmate's): listed as a folder, read through the link. The folder is held
open without following a link, and the file opened in it.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["open_handed_in"]


def open_handed_in(path: Path, flags: int) -> int:
    """A descriptor of ``path`` (``learner/notebook``) opened with ``flags`` in its folder, which is no link."""
    if os.open not in os.supports_dir_fd or not hasattr(os, "O_DIRECTORY"):  # Windows: no opening in a folder
        return os.open(path, flags)
    folder = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_NOFOLLOW", 0))
    try:
        return os.open(path.name, flags, dir_fd=folder)
    finally:
        os.close(folder)
