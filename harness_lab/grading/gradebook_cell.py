"""What a learner's text reads as in a cell of ``grades.csv``: its control characters shown as escapes
(``visible``), and a leading ``'`` before what a spreadsheet would run as a formula.

``class_report`` writes the names so and guards every cell; ``look_alike`` reads names so too: two folder
names that make the same cell (``a`` + ESC and a folder named ``a\\x1b`` in those four characters, ``=x``
and ``'=x``) are one learner to whoever reads the gradebook.
"""

from __future__ import annotations

import unicodedata

from ..terminal import visible

__all__ = ["as_text", "in_gradebook"]

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")


def as_text(cell: object) -> object:
    """A cell a spreadsheet shows as text, never runs: a leading ' before a formula's first character (OWASP),
    in any width: Excel in Japanese locales takes ``＝`` ``＋`` ``－`` ``＠`` for them (NFKC folds those and
    the small forms to the ASCII ones)."""
    if isinstance(cell, str) and unicodedata.normalize("NFKC", cell[:1]).startswith(_FORMULA_START):
        return "'" + cell
    return cell


def in_gradebook(text: str) -> str:
    """``text`` (a learner folder's name, a notebook's) as its cell of ``grades.csv`` holds it."""
    return str(as_text(visible(text)))
