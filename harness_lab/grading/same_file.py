"""Notebooks handed in by more than one learner that are one file: hard links (``grade-class``).

A hard link to a classmate's notebook, put in another learner's folder, is a regular file like any
other there, and its bytes are the classmate's: each learner got the grade of the one notebook, and
nothing on the page said so. Who made the link cannot be told from the file, so each is still graded,
and the page and the run's notes name the learners' files that are the same file (``st_dev``, ``st_ino``).
Where each learner owns their folder, the link in the other's is a file of a user not the folder's owner,
and ``notebook_file`` refuses it (``OthersFile``): its row says so, the classmate's is graded.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["same_files"]


def same_files(submissions: Path, found: list[tuple[str, str]]) -> list[list[tuple[str, str]]]:
    """The (learner, notebook) entries of ``found`` that are one file under more than one learner, a list
    for each such file, in ``found``'s order; a file that cannot be looked at is left out."""
    files: dict[tuple[int, int], list[tuple[str, str]]] = {}
    for learner, name in found:
        try:
            info = os.stat(submissions / learner / name, follow_symlinks=False)
        except OSError:
            continue
        files.setdefault((info.st_dev, info.st_ino), []).append((learner, name))
    return [entries for entries in files.values() if len({learner for learner, _ in entries}) > 1]
