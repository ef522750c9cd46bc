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
    for source in sources:
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, TypeError):  # a magic; a source that is no text
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
