"""The learner's own harness, kept in a file that grows from notebook 01 to 05 (``my_harness.py``).

Each piece the learner writes and passes its check is written into the workbook, with the lesson it
came from; the next notebook loads it from there. It is an ordinary Python file, meant to be read
and edited: a piece is the function exactly as the learner wrote it, between two marker lines, and
the file's header imports what the lessons' code uses (``json``, ``harness_lab as hl``, ``MODEL``).

It lives in the working directory (where Jupyter starts a notebook's kernel: next to the notebook),
or wherever ``HARNESS_LAB_WORKBOOK`` points.
"""

from __future__ import annotations

import importlib.util
import inspect
import os
import re
import sys
import textwrap
from collections.abc import Callable, Iterable
from pathlib import Path
from types import ModuleType

from ..text import t

__all__ = ["Workbook", "workbook"]

HEADER = '''"""{title}

{body}
"""

import json

import harness_lab as hl
from harness_lab import lessons

MODEL = hl.MODEL
'''
# Last in the file: a piece not written yet (or not passed yet) comes from the lessons' reference,
# so a piece that calls it (run_agent calls run_tools) still runs.
FOOTER = """

# {note}
for _name in lessons.PIECES:
    globals().setdefault(_name, lessons.reference(_name))
"""
MARK = re.compile(r"^# ==== (?P<name>\w+) \(lesson (?P<lesson>\d+)\) ====$", re.MULTILINE)
END = "# ==== end ===="


class Workbook:
    """``my_harness.py``: the learner's checked pieces, in lesson order."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)

    def pieces(self) -> dict[str, tuple[int, str]]:
        """name -> (lesson, source) as the file holds them now (the learner may have edited it)."""
        if not self.path.exists():
            return {}
        text = self.path.read_text(encoding="utf-8")
        found = {}
        for match in MARK.finditer(text):
            body_end = text.find(END, match.end())
            source = text[match.end() : body_end if body_end >= 0 else len(text)].strip("\n")
            found[match["name"]] = (int(match["lesson"]), source)
        return found

    def save(self, name: str, lesson: int, fn: Callable, pieces: Iterable[str] = ()) -> bool:
        """Write ``fn`` as piece ``name``, with what it needs from the notebook; False when its source
        cannot be read. Names in ``pieces`` are left to their own sections (or the references)."""
        try:
            source = "\n\n\n".join(_needs(fn, set(pieces) | {name}) + [_source(fn)])
        except (OSError, TypeError):  # defined in a way that left no source (exec, a lambda in a dict)
            return False
        if fn.__name__ != name:  # the file defines the name the next lessons import
            source += f"\n\n\n{name} = {fn.__name__}"
        written = self.pieces()
        written[name] = (lesson, source)
        parts = [HEADER.format(title=t("lesson.workbook.title"), body=t("lesson.workbook.body"))]
        for piece, (number, text) in sorted(written.items(), key=lambda item: (item[1][0], item[0])):
            parts.append(f"\n\n# ==== {piece} (lesson {number}) ====\n{text}\n{END}\n")
        parts.append(FOOTER.format(note=t("lesson.workbook.footer")))
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text("".join(parts), encoding="utf-8")
        return True

    def load(self) -> ModuleType | None:
        """The workbook as a fresh module (re-read every time: the learner may edit it), or None."""
        if not self.path.exists():
            return None
        spec = importlib.util.spec_from_file_location("my_harness", self.path)
        module = importlib.util.module_from_spec(spec)
        sys.modules["my_harness"] = module  # so that functions defined in it can find their module
        spec.loader.exec_module(module)
        return module


def _source(fn: Callable) -> str:
    return textwrap.dedent(inspect.getsource(fn)).strip("\n")


_HEADER_NAMES = {"json", "hl", "lessons", "MODEL"}
_PLAIN = (int, float, str, bool, type(None))


def _literal(value: object) -> str | None:
    """Python source for plain data (numbers, text, and lists, tuples, sets and dicts of them), written
    the same way every time (a set's order follows the hash seed, so it is sorted); None otherwise."""
    if isinstance(value, _PLAIN):
        return repr(value)
    if isinstance(value, (list, tuple)):
        parts = [_literal(v) for v in value]
        if None in parts:
            return None
        inner = ", ".join(parts) + ("," if isinstance(value, tuple) and len(parts) == 1 else "")
        return f"[{inner}]" if isinstance(value, list) else f"({inner})"
    if isinstance(value, (set, frozenset)) and value and all(isinstance(v, _PLAIN) for v in value):
        inner = ", ".join(repr(v) for v in sorted(value, key=repr))
        return f"{{{inner}}}" if isinstance(value, set) else f"frozenset({{{inner}}})"
    if isinstance(value, dict):
        parts = [(_literal(k), _literal(v)) for k, v in value.items()]
        if any(k is None or v is None for k, v in parts):
            return None
        return "{" + ", ".join(f"{k}: {v}" for k, v in parts) + "}"
    return None


def _names(code) -> set[str]:
    """Every global name a function's code (and the code nested in it) refers to."""
    found = set(code.co_names)
    for const in code.co_consts:
        if inspect.iscode(const):
            found |= _names(const)
    return found


def _needs(fn: Callable, skip: set[str]) -> list[str]:
    """Lines for what ``fn`` takes from the notebook: modules, plain constants, helper functions
    defined in the notebook (and what they need in turn), so the workbook runs on its own."""
    lines: list[str] = []
    seen = set(skip) | _HEADER_NAMES
    todo = [fn]
    while todo:
        current = todo.pop()
        for name in sorted(_names(current.__code__)):
            if name in seen or name not in current.__globals__:
                continue
            seen.add(name)
            value = current.__globals__[name]
            if inspect.ismodule(value):
                module = value.__name__
                lines.insert(0, f"import {module}" if module == name else f"import {module} as {name}")
            elif (literal := _literal(value)) is not None:
                lines.append(f"{name} = {literal}")
            elif inspect.isfunction(value) and value.__module__ == fn.__module__:
                lines.append(_source(value))  # a helper the learner wrote in the notebook
                todo.append(value)
    return lines


def workbook() -> Workbook:
    """The workbook of this kernel: ``HARNESS_LAB_WORKBOOK``, else ``my_harness.py`` here."""
    return Workbook(os.environ.get("HARNESS_LAB_WORKBOOK") or Path.cwd() / "my_harness.py")
