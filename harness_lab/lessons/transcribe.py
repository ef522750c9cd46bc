"""A function the learner wrote in a notebook, written down as code that runs on its own in ``my_harness.py``.

A notebook function reads names from the notebook: modules (``json``), things imported from them
(``from pathlib import Path``), constants (``MAX_TURNS = 8``, ``LIMIT = float("inf")``) and helper
functions defined in other cells. The workbook is imported later in a fresh process, where none of
those exist, so each one the function reads (found from its bytecode: the names it loads as globals,
not attribute names that happen to match a global), and each one its ``def`` line reads where it
stands (defaults, annotations, decorators: ``def read_file(path, root=ROOT)``), becomes a line of the
file: an import, a constant written as code that evaluates back to the same value, or the helper's
source. What cannot be written that way (a client object, a list that holds itself) raises
``Unwritable`` naming it, so the check can say why the piece was not saved instead of saving a file
that fails later.
"""

from __future__ import annotations

import ast
import builtins
import dis
import importlib
import inspect
import math
import textwrap
from collections.abc import Callable
from types import CodeType
from typing import Any

__all__ = ["Unwritable", "literal", "needs", "source"]

MAX_DEPTH = 20  # nesting a constant may have; deeper (or a value that holds itself) is refused
MAX_CHARS = 100_000  # a constant longer than this as code is data, not a setting: refused
_GLOBAL_OPS = {"LOAD_GLOBAL", "LOAD_NAME", "STORE_GLOBAL", "DELETE_GLOBAL"}
_EVAL = {"__builtins__": {}, "float": float, "frozenset": frozenset, "set": set}


class Unwritable(Exception):
    """A name a piece reads that the workbook cannot write down; ``why`` is a catalog key."""

    def __init__(self, name: str, why: str) -> None:
        super().__init__(name, why)
        self.name, self.why = name, why


def source(fn: Callable) -> str:
    return textwrap.dedent(inspect.getsource(fn)).strip("\n")


def global_names(code: CodeType) -> set[str]:
    """The names a function's code (and code nested in it) reads or writes as globals."""
    found = {ins.argval for ins in dis.get_instructions(code) if ins.opname in _GLOBAL_OPS}
    for const in code.co_consts:
        if inspect.iscode(const):
            found |= global_names(const)
    return found


def header_names(fn: Callable) -> set[str]:
    """The names a function's ``def`` statement reads when it runs, outside the body: its decorators,
    defaults and annotations. The workbook runs that statement again, so they must be defined there too."""
    try:
        tree = ast.parse(source(fn))
    except (OSError, TypeError, SyntaxError):
        return set()  # no source: saving it fails anyway, with its own message
    node = tree.body[0] if tree.body else None
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return set()
    args = node.args
    every = [*args.posonlyargs, *args.args, args.vararg, *args.kwonlyargs, args.kwarg]
    parts = [*node.decorator_list, *args.defaults, *args.kw_defaults, node.returns]
    parts += [arg.annotation for arg in every if arg is not None]
    found: set[str] = set()
    for part in parts:
        if part is not None:  # compiled, not walked: a lambda's own parameters are not globals
            found |= global_names(compile(ast.Expression(part), "<def>", "eval"))
    return found


def literal(value: object, name: str = "") -> str:
    """Python source that evaluates back to ``value`` (plain data only), the same text every time."""
    text = _literal(value, name, depth=0, path=set())
    if len(text) > MAX_CHARS:
        raise Unwritable(name, "lesson.workbook.why.too_big")
    if _literal(eval(text, dict(_EVAL)), name, depth=0, path=set()) != text:  # our own output, read back
        raise Unwritable(name, "lesson.workbook.why.object")
    return text


def _literal(value: Any, name: str, depth: int, path: set[int]) -> str:  # Any: type() tests, see kinds._depth
    if depth > MAX_DEPTH:
        raise Unwritable(name, "lesson.workbook.why.too_deep")
    kind = type(value)
    if value is None or kind in (bool, int, str, bytes):
        return repr(value)
    if kind is float:
        if math.isnan(value):
            return 'float("nan")'
        if math.isinf(value):
            return 'float("inf")' if value > 0 else '-float("inf")'
        return repr(value)
    if kind not in (list, tuple, set, frozenset, dict):
        raise Unwritable(name, "lesson.workbook.why.object")
    if id(value) in path:
        raise Unwritable(name, "lesson.workbook.why.holds_itself")
    inner = path | {id(value)}
    if kind is dict:
        items = [
            f"{_literal(k, name, depth + 1, inner)}: {_literal(v, name, depth + 1, inner)}" for k, v in value.items()
        ]
        return "{" + ", ".join(items) + "}"
    parts = [_literal(v, name, depth + 1, inner) for v in value]
    if kind in (set, frozenset):
        parts.sort()  # a set's order follows the hash seed: sorted, the file is the same every time
        body = "{" + ", ".join(parts) + "}" if parts else ""
        return (body or "set()") if kind is set else f"frozenset({body})"
    if kind is tuple:
        return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
    return "[" + ", ".join(parts) + "]"


def _import_line(name: str, value: object) -> str | None:
    """``import x`` / ``from x import y`` for a module or something a module defines, else None."""
    if inspect.ismodule(value):
        module: str | None = value.__name__
        return f"import {module}" if module == name else f"import {module} as {name}"
    module, qualname = getattr(value, "__module__", None), getattr(value, "__qualname__", None)
    if not module or not qualname or "." in qualname or module in ("__main__", "builtins"):
        return None
    try:
        found = getattr(importlib.import_module(module), qualname)
    except (ImportError, AttributeError):
        return None
    if found is not value:
        return None
    return f"from {module} import {qualname}" + ("" if qualname == name else f" as {name}")


def needs(fn: Callable, skip: set[str]) -> list[str]:
    """Lines for what ``fn`` takes from its notebook, imports first, so the workbook runs on its own.

    Names in ``skip`` are provided elsewhere (the file's header, the other pieces); builtins and names
    the notebook never defined are left alone. Raises ``Unwritable`` for a name it cannot write.
    """
    imports: list[str] = []
    lines: list[str] = []
    seen = set(skip)
    todo = [fn]
    while todo:
        current = todo.pop(0)
        for name in sorted(global_names(current.__code__) | header_names(current)):
            if name in seen or name not in current.__globals__:
                continue
            seen.add(name)
            value = current.__globals__[name]
            mine = (inspect.isfunction(value) or inspect.isclass(value)) and value.__module__ == fn.__module__
            if not mine and name in vars(builtins):  # IPython's own open() in the notebook: the builtin will do
                continue
            if mine:
                try:
                    lines.append(source(value))  # a helper the learner wrote in the notebook
                except (OSError, TypeError):
                    raise Unwritable(name, "lesson.workbook.why.no_source") from None
                if inspect.isfunction(value):
                    todo.append(value)
            elif (line := _import_line(name, value)) is not None:
                imports.append(line)
            else:
                lines.append(f"{name} = {literal(value, name)}")
    return sorted(set(imports)) + lines
