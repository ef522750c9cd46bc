"""What a notebook's code says, read from its cells' syntax trees and never run: this runs in the
grading command's own process, and the notebook is a learner's.

**Its edition** (``edition_of``, issue 25): the language of the course's edition it is from, as its
metadata's ``harness_lab.lang`` says (``notebooks/build.py`` records it in every notebook it builds).
A notebook whose metadata lost it (an LMS or an editor that rewrote it) still says its language where
the learner sees it: its setup cell calls ``hl.use_language("en")``. A notebook that names its
language in neither place is taken for Japanese, the course's first edition. A class's notebook that
names no edition (not JSON) is told in its learner's language (``learners_language``): the one
edition their other notebooks name, else the instructor's.

**A NameError's note** (``name_notes``): which of two causes it was. Grading runs only the cells
tagged ``setup`` / ``answer``, so a definition in a cell the learner added is missing when their
answer runs: that is one NameError, and its note says to move the definition into a TODO cell. A
misspelt name (``DEFAULT_TEIR``) is another: told to move cells, a learner who added none looks for
a cell that does not exist. So the note names the cause:

- the name is defined at the top of a cell grading does not run, and of none it runs: the note on tags;
- the name is defined nowhere in the notebook: the name, and the known name closest to it if one is
  close (``DEFAULT_TIER``), or else that no cell defines it;
- otherwise (say, a variable local to another function): no note, the hint's own error says it.
"""

from __future__ import annotations

import ast
import builtins
import difflib
import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

from ..text import LANGUAGES, t

__all__ = ["edition_of", "edition_or", "learners_language", "name_notes"]

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
        for node in ast.walk(_parsed(source)):
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


_MISSING = re.compile(r"NameError: name '([^\W\d]\w*)' is not defined")
_CLOSE = 0.8  # difflib's ratio a known name needs to be offered as the one meant (DEFAULT_TIER: 0.92)


def name_notes(texts: Iterable[str], run: Iterable[str], not_run: Iterable[str]) -> tuple[str, ...]:
    """A note for each name a grade's ``texts`` say is not defined; ``run``: the sources of the cells
    grading ran, ``not_run``: those of the notebook's other code cells."""
    missing = list(dict.fromkeys(name for text in texts for name in _MISSING.findall(text)))
    if not missing:
        return ()
    ran, other = list(map(_parsed, run)), list(map(_parsed, not_run))
    elsewhere = set().union(*map(_on_top, other)) - set().union(*map(_on_top, ran))
    known = set().union(*map(_anywhere, ran + other)) | set(dir(builtins))
    notes = []
    for name in missing:
        if name in elsewhere:
            notes.append(t("grade.nb.name_note"))
        elif name not in known:
            close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=_CLOSE)
            notes.append(
                t("grade.nb.name_typo", name=name, close=close[0]) if close else t("grade.nb.name_unknown", name=name)
            )
    return tuple(dict.fromkeys(notes))


def _parsed(source: str) -> ast.Module:
    """A cell's syntax tree; an empty one for a cell that does not parse (a magic, a NUL byte, a syntax
    error, nesting past the parser's limit: MemoryError, "too complex", on Python 3.11, at a few KB; an
    untagged cell of it stopped grade-class for the whole class, and made a grade a memory error)."""
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ast.Module(body=[], type_ignores=[])


# nodes whose names are their own, not the notebook's (a function's locals, a comprehension's variable)
_SCOPES = (
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.Lambda,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
)


def _on_top(tree: ast.Module) -> set[str]:
    """The names a cell binds in the notebook's namespace (not those local to its functions)."""
    return {name for node in _shallow(tree) for name in _binds(node)}


def _anywhere(tree: ast.Module) -> set[str]:
    return {name for node in ast.walk(tree) for name in _binds(node)}


def _shallow(node: ast.AST) -> Iterator[ast.AST]:
    yield node
    if not isinstance(node, _SCOPES):
        for child in ast.iter_child_nodes(node):
            yield from _shallow(child)


def _binds(node: ast.AST) -> set[str]:
    """The names one node binds: assigned, defined, imported, or taken by an argument or an except."""
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
        return {node.id}
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return {node.name}
    if isinstance(node, ast.Import | ast.ImportFrom):
        return {(alias.asname or alias.name).split(".")[0] for alias in node.names}
    if isinstance(node, ast.arg):
        return {node.arg}
    if isinstance(node, ast.ExceptHandler) and node.name:
        return {node.name}
    return set()
