"""Which edition of the course a notebook is from: its metadata's ``harness_lab.lang`` (issue 25).

``notebooks/build.py`` records it in every notebook it builds; one that names none is taken for
Japanese, the course's first edition.

A class's notebook that names no edition (not JSON) is told in its learner's language
(``learners_language``): the one edition their other notebooks name, else the instructor's.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..text import LANGUAGES

__all__ = ["edition", "edition_of", "edition_or", "learners_language"]


def edition(path: str) -> str:
    """The language of the notebook file's edition, "ja" when it names none or cannot be read."""
    try:
        return edition_of(json.loads(Path(path).read_text(encoding="utf-8")))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return "ja"  # an unreadable file is grade_notebook's to report


def edition_or(data: bytes, fallback: str) -> str:
    """The language of the edition a notebook's bytes are from; ``fallback`` for bytes that are not JSON
    (a class's feedback on such a file is in the instructor's language: it names no edition)."""
    try:
        return edition_of(json.loads(data.decode("utf-8")))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return fallback


def edition_of(notebook: Any) -> str:
    """The language of a parsed notebook's edition, "ja" when its metadata names none it knows."""
    try:
        value = notebook["metadata"]["harness_lab"]["lang"]
    except (KeyError, TypeError, IndexError):
        return "ja"
    return value if isinstance(value, str) and value in LANGUAGES else "ja"


def learners_language(editions: Iterable[str], fallback: str) -> str:
    """The language of a learner whose notebooks name ``editions`` ("" for one that names none): the
    one they name, else ``fallback`` (the instructor's), for none or both."""
    named = set(editions) - {""}
    return next(iter(named)) if len(named) == 1 else fallback
