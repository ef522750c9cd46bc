"""Which edition of the course a notebook is from: its metadata's ``harness_lab.lang`` (issue 25).

``notebooks/build.py`` records it in every notebook it builds. A notebook whose metadata lost it (an
LMS or an editor that rewrote it) still says its language where the learner sees it: its setup cell
calls ``hl.use_language("en")``. That call is read from the cell's syntax tree, never run (the
notebook is a learner's, and this runs in the grading command's own process). A notebook that
names its language in neither place is taken for Japanese, the course's first edition.

A class's notebook that names no edition (not JSON) is told in its learner's language
(``learners_language``): the one edition their other notebooks name, else the instructor's.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Iterable
from typing import Any

from ..text import LANGUAGES

__all__ = ["edition_of", "edition_or", "learners_language"]

_SPOKEN_CHARS = 16 << 10  # a setup cell is ~1.5 KB: a larger one is not read for its use_language call
_SPOKEN_CELLS = 3  # of the cells that name use_language (setup first), the ones read


def edition_or(data: bytes, fallback: str) -> str:
    """The language of the edition a notebook's bytes are from; ``fallback`` for bytes that are not JSON
    (a class's feedback on such a file is in the instructor's language: it names no edition)."""
    try:
        return edition_of(json.loads(data.decode("utf-8")))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return fallback


def edition_of(notebook: Any) -> str:
    """The language of a parsed notebook's edition: its metadata's, else its setup cell's
    ``use_language`` call's, else "ja"."""
    try:
        value = notebook["metadata"]["harness_lab"]["lang"]
    except (KeyError, TypeError, IndexError):
        value = None
    return value if isinstance(value, str) and value in LANGUAGES else _spoken(notebook) or "ja"


def _spoken(notebook: Any) -> str:
    """The language the first ``use_language("..")`` call of the notebook's code says, cells tagged
    setup first; "" when none does."""
    try:
        cells = [c for c in notebook["cells"] if c.get("cell_type") == "code"]
        cells.sort(key=lambda c: "setup" not in c.get("metadata", {}).get("tags", []))
        sources = ["".join(c["source"]) if isinstance(c["source"], list) else c["source"] for c in cells]
    except (KeyError, TypeError, AttributeError):
        return ""
    # Only a few small cells that name the call are parsed: this runs in the grading command's own
    # process, outside any limit, and ast.parse takes ~500 times the size of what it parses (an 8 MB
    # cell of "x=1" lines took 4.3 GB and 24 s, and a class's notebooks are each read four times).
    candidates = [s for s in sources if isinstance(s, str) and len(s) <= _SPOKEN_CHARS and "use_language" in s]
    for source in candidates[:_SPOKEN_CELLS]:
        try:
            tree = ast.parse(source)
        # a magic, a NUL byte; nesting past the parser's limit (Python 3.11 raises MemoryError for "too
        # complex", at a few KB: an untagged cell of it stopped grade-class for the whole class)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _named(node.func) == "use_language" and len(node.args) == 1:
                said = node.args[0]
                if isinstance(said, ast.Constant) and said.value in LANGUAGES:
                    return str(said.value)
    return ""


def _named(func: ast.expr) -> str:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def learners_language(editions: Iterable[str], fallback: str) -> str:
    """The language of a learner whose notebooks name ``editions`` ("" for one that names none): the
    one they name, else ``fallback`` (the instructor's), for none or both."""
    named = set(editions) - {""}
    return next(iter(named)) if len(named) == 1 else fallback
