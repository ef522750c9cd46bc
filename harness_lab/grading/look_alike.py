"""Learner folders whose names look alike (``grade-class``).

Where learners make their own folders (an exchange folder with the sticky bit), one may make a second
folder named like a classmate's: ``alice`` and ``alice`` followed by a zero-width space, ``Alice``,
``ａｌｉｃｅ`` in full width, or ``аlice`` with a Cyrillic а. Each is graded as its own learner, and the
page, the gradebook and the terminal showed two rows for "alice", one of them failing: the instructor, or
an LMS that trims what it imports, could give alice the wrong one. Which folder is the real one cannot be
told from the files, so both are still graded, and the run's notes name the names that look alike, with
every character that shows as nothing, or as a Latin letter it is not, written as an escape
(``alice\\u200b``, ``\\u0430lice``). Names that make the same cell of ``grades.csv`` look alike too:
``a`` + ESC and a folder named ``a\\x1b`` in those four characters, ``=x`` and ``'=x``; and so do names whose
cells differ only by a leading ``'``, which a reader who knows the formula guard takes for none of the name
(``'x`` and ``x``). The notes show a backslash of the name's own doubled, so the two read apart there.
"""

from __future__ import annotations

import re
import unicodedata

from ..terminal import visible
from .gradebook_cell import in_gradebook

__all__ = ["look_alike", "shown"]

# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt): drawn as nothing, or not at all
_IGNORABLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f"
    "\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)


# Cyrillic and Greek letters drawn as Latin ones (a subset of Unicode's confusables.txt, the letters most fonts
# draw alike): "аlice" with a Cyrillic а reads as alice.
_DRAWN_LATIN = str.maketrans(
    "АаВЕеЅѕІіЈјКМНОоРрСсТуХхԁһԛԝҮΑΒΕΖΗΙΚΜΝΟοΡΤΥΧν",
    "AaBEeSsIiJjKMHOoPpCcTyXxdhqwYABEZHIKMNOoPTYXv",
)
_DRAWN_AS_LATIN = re.compile(f"[{''.join(chr(c) for c in _DRAWN_LATIN)}]")


def _skeleton(name: str) -> str:
    """What a reader takes ``name`` for: without what shows as nothing, Cyrillic and Greek letters drawn as
    Latin ones read as those, in NFKC, case folded, no spaces."""
    drawn = _IGNORABLE.sub("", name).translate(_DRAWN_LATIN)
    return "".join(unicodedata.normalize("NFKC", drawn).casefold().split())


def look_alike(learners: list[str]) -> list[list[str]]:
    """The learners' names that a reader takes for one another, a list for each, in ``learners``' order: two
    names are taken for one when they read alike (``_skeleton``) or make the same cell of ``grades.csv``
    (``visible`` shows ESC as ``\\x1b``, the four characters a folder may be named), or the same but for a
    leading ``'``; and so, through a third name, may two that do neither."""
    first: dict[str, int] = {}  # each reading, and the first name read so
    group = list(range(len(learners)))  # towards the first name of each name's group (a union-find)

    def head(index: int) -> int:
        while group[index] != index:
            group[index] = index = group[group[index]]  # halving the path: a class of 100,000 look-alikes stays linear
        return index

    for index, learner in enumerate(learners):
        cell = _skeleton(in_gradebook(_IGNORABLE.sub("", learner)))
        # a reader who knows the formula guard takes a cell's leading ' for none of the name: 'x reads as x
        for reading in {_skeleton(learner), cell, cell.removeprefix("'")}:
            one, other = sorted((head(first.setdefault(reading, index)), head(index)))
            group[other] = one
    groups: dict[int, list[str]] = {}
    for index, learner in enumerate(learners):
        groups.setdefault(head(index), []).append(learner)
    return [names for names in groups.values() if len(names) > 1]


def shown(name: str) -> str:
    """``name`` as the notes show it: ``visible``, and what shows as nothing, or as a Latin letter it is not,
    written as an escape; its own backslashes doubled, so that ``a`` + ESC (``a\\x1b``) and a folder named
    ``a\\x1b`` (``a\\\\x1b``) read apart."""
    escaped = _IGNORABLE.sub(_escape, visible(name.replace("\\", "\\\\")))
    return _DRAWN_AS_LATIN.sub(_escape, escaped)


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"
