"""Learner folders whose names look alike (``grade-class``).

Where learners make their own folders (an exchange folder with the sticky bit), one may make a second
folder named like a classmate's: ``alice`` and ``alice`` followed by a zero-width space, ``Alice``, or
``ａｌｉｃｅ`` in full width. Each is graded as its own learner, and the page, the gradebook and the
terminal showed two rows for "alice", one of them failing: the instructor, or an LMS that trims what it
imports, could give alice the wrong one. Which folder is the real one cannot be told from the files, so
both are still graded, and the run's notes name the names that look alike, with every character that
shows as nothing written as an escape (``alice\\u200b``).
"""

from __future__ import annotations

import re
import unicodedata

from ..terminal import visible

__all__ = ["look_alike", "shown"]

# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt): drawn as nothing, or not at all
_IGNORABLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f"
    "\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)


def _skeleton(name: str) -> str:
    """What a reader takes ``name`` for: without what shows as nothing, in NFKC, case folded, no spaces."""
    return "".join(unicodedata.normalize("NFKC", _IGNORABLE.sub("", name)).casefold().split())


def look_alike(learners: list[str]) -> list[list[str]]:
    """The learners' names that a reader takes for one another, a list for each, in ``learners``' order."""
    groups: dict[str, list[str]] = {}
    for learner in learners:
        groups.setdefault(_skeleton(learner), []).append(learner)
    return [names for names in groups.values() if len(names) > 1]


def shown(name: str) -> str:
    """``name`` as the notes show it: ``visible``, and what shows as nothing written as an escape."""
    return _IGNORABLE.sub(
        lambda m: f"\\u{ord(m.group()):04x}" if ord(m.group()) < 0x10000 else f"\\U{ord(m.group()):08x}", visible(name)
    )
