"""The note a grade gets when the learner's code raised NameError: which of two causes it was.

Grading runs only the cells tagged ``setup`` / ``answer``, so a definition in a cell the learner
added is missing when their answer runs: that is one NameError, and its note says to move the
definition into a TODO cell. A misspelt name (``DEFAULT_TEIR``) is another: told to move cells, a
learner who added none looks for a cell that does not exist. So the notebook's code cells are read
(parsed, never run) and the note names the cause:

- the name is defined at the top of a cell grading does not run, and of none it runs: the note on tags;
- the name is defined nowhere in the notebook: the name, and the known name closest to it if one is
  close (``DEFAULT_TIER``), or else that no cell defines it;
- otherwise (say, a variable local to another function): no note, the hint's own error says it.
"""

from __future__ import annotations

import ast
import builtins
import difflib
import re
from collections.abc import Iterable, Iterator

from ..text import t

__all__ = ["name_notes"]

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
    """A cell's syntax tree; an empty one for a cell that does not parse (a magic, a syntax error, nesting
    past the parser's limit: MemoryError, "too complex", on Python 3.11, which made the grade a memory error)."""
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
