"""The files not graded, as the class report lists them: at most ``LISTED`` a learner, the rest counted.

A learner who may write in their own folder may leave any number of files there, and each was a line
of the page and of their feedback: 100,000 empty files made an 11 MB page and a 6 MB feedback file,
and a million a page a browser opens slowly. The summary still counts every one of them, and a folder
holding more than ``LISTED`` is named with how many more there are. The files outside the learner
folders are counted under the name "" the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..terminal import visible
from ..text import t
from .classroom import Problem

__all__ = ["LISTED", "counted", "lines", "rows"]

LISTED = 50  # a folder's files not graded listed by name; an honest folder has a handful


def counted(problems: Iterable[Problem]) -> int:
    """The summary's "files not graded": every file, and a folder that could not be read (it may hold any number,
    and the instructor has to open it); never the note that a folder holds no notebook, which is no file and whose
    exercises are already counted as not handed in."""
    return sum(1 for p in problems if p.key != "grade.class.no_notebooks")


def lines(mine: Sequence[Problem]) -> list[str]:
    """A learner's feedback lines for their files not graded, one a file (a name must not start a fake verdict line)."""
    return [line for text in _texts(_first_the_folders(mine)) for line in (text, "")]


def rows(problems: Iterable[Problem]) -> list[tuple[str, str, str]]:
    """The page's rows for them, (learner, file, message), each learner's together, in the order first met."""
    folders: dict[str, list[Problem]] = {}
    for problem in problems:
        folders.setdefault(problem.learner, []).append(problem)
    table = []
    for learner, found in folders.items():
        mine = _first_the_folders(found)
        names = [visible(p.name) for p in mine[:LISTED]] + [""]  # the count's row, if any, names no file
        table += [(visible(learner), name, text) for name, text in zip(names, _texts(mine))]
    return table


def _texts(mine: Sequence[Problem]) -> list[str]:
    """Each listed file's message, then how many more there are when there are more than ``LISTED``."""
    said = [visible(p.text) for p in mine[:LISTED]]
    if len(mine) > LISTED:
        said.append(t("grade.class.skipped_more", count=len(mine) - LISTED, shown=LISTED))
    return said


def _first_the_folders(mine: Sequence[Problem]) -> list[Problem]:
    """What is said of the folder itself (it holds no notebook, it cannot be read) before any file: never counted away."""
    return sorted(mine, key=lambda p: p.name != "")
