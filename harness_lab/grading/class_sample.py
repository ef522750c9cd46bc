"""The part of a learner's answer cells that a hint on the class page points at.

The page shows, beside each common hint, the answer of a learner who got it. The answer cells of an
exercise run to 60 lines and more, and the first 40 of them were shown: the hint on ``ANSWERS``,
whose cell comes last, pointed below the cut. So the sample is the top-level statements the hint
names (the definitions of the names it mentions, and the statement holding a line it quotes, as a
traceback's hint does: `` `return POLICY[name]` ``), each with the comment lines just above it, in
the answer's order. When the hint names none of them, or the answer does not parse, the answer is
shown from its top as before. Either way at most ``SAMPLE_LINES`` lines are shown.
"""

from __future__ import annotations

import ast
import re

from ..text import t

__all__ = ["SAMPLE_LINES", "sample_of"]

SAMPLE_LINES = 40  # lines of a sample answer shown
_GAP = "…"  # between two parts of the answer that are not adjacent
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*", re.ASCII)
_QUOTED = re.compile(r"`([^`\n]+)`")


def sample_of(answer: str, hint: str) -> str:
    """What of ``answer`` to show beside ``hint``, with a line saying what was left out."""
    lines = answer.splitlines()
    parts = _pointed(lines, hint)
    if not parts:
        return _cut(lines, [], t("grade.class.sample_cut", lines=SAMPLE_LINES))
    shown: list[str] = []
    for start, end in parts:  # apart: _pointed merges statements back to back
        shown += ([_GAP] if shown else []) + lines[start:end]
    return _cut(
        shown, [t("grade.class.sample_focus", lines=len(lines))], t("grade.class.sample_cut", lines=SAMPLE_LINES)
    )


def _cut(lines: list[str], notes: list[str], cut: str) -> str:
    if len(lines) > SAMPLE_LINES:
        lines, notes = lines[:SAMPLE_LINES], [*notes, cut]
    return "\n".join(lines + ([""] + notes if notes else []))


def _pointed(lines: list[str], hint: str) -> list[tuple[int, int]]:
    """(first, past-last) line indexes of the top-level statements the hint names, in order, merged."""
    names = set(_NAME.findall(hint))
    quoted = {q.strip() for q in _QUOTED.findall(hint) if q.strip()}
    spans = []
    for node, start, end in _statements(lines):
        said = {line.strip() for line in lines[node.lineno - 1 : end]}
        if _defined(node) & names or quoted & said:
            spans.append((start, end))
    merged: list[tuple[int, int]] = []
    for start, end in spans:  # statements back to back read as one part
        if merged and start <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged


def _statements(lines: list[str]) -> list[tuple[ast.stmt, int, int]]:
    """Each top-level statement with its first line (the comments just above it included) and past-last
    line. An answer cut short or holding a magic parses up to the line before the one that does not."""
    count = len(lines)
    while count:
        try:
            tree = ast.parse("\n".join(lines[:count]))
            break
        except SyntaxError as error:
            count = min(count - 1, (error.lineno or count) - 1)
        except (ValueError, RecursionError, MemoryError):  # a NUL byte; nesting past the parser's limit
            return []  # (Python 3.11 says "too complex" with a MemoryError, at 4 KB)
    else:
        return []
    found = []
    for node in tree.body:
        start = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", ()))]) - 1
        while start > 0 and lines[start - 1].lstrip().startswith("#"):
            start -= 1
        found.append((node, start, node.end_lineno or node.lineno))
    return found


def _defined(node: ast.stmt) -> set[str]:
    """The names a top-level statement binds: a function or class it defines, the names it assigns."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return {node.name}
    targets: list[ast.expr] = []
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, ast.AnnAssign | ast.AugAssign):
        targets = [node.target]
    return {n.id for target in targets for n in ast.walk(target) if isinstance(n, ast.Name)}
