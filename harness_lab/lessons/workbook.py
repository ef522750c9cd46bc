"""The learner's own harness, kept in a file that grows from notebook 01 to 05 (``my_harness.py``).

Each piece the learner writes and passes its check is written into the workbook, with the lesson it
came from; the next notebook loads it from there. It is an ordinary Python file, meant to be read
and edited: a piece is the function exactly as the learner wrote it, under a comment line naming it,
with what it reads from the notebook written above it (``transcribe``), and the file's header imports
what the lessons' code uses (``json``, ``harness_lab as hl``, ``MODEL``).

The file is read by parsing it, not by searching for its comment lines: a section starts at a
``# ==== name (lesson N) ====`` line that stands between the file's statements (one inside a
function is part of that function) and runs to the next such line or the footer. A file that cannot
be read (not UTF-8, a syntax error) is never rewritten: the learner's edits stay, and each message
says in one line what is wrong.

It lives in the working directory (where Jupyter starts a notebook's kernel: next to the notebook),
or wherever ``HARNESS_LAB_WORKBOOK`` points.
"""

from __future__ import annotations

import ast
import itertools
import os
import re
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from types import FunctionType, ModuleType

from ..text import t
from .transcribe import Unwritable, needs, source

__all__ = ["Workbook", "WorkbookError", "workbook"]

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
for _name, _piece in lessons.PIECES.items():
    globals().setdefault(_name, _piece.reference)
"""
MARK = re.compile(r"^# ==== (?P<name>\w+) \(lesson (?P<lesson>\d+)\) ====\s*$")
LEGACY_END = "# ==== end ===="  # earlier versions closed each section with it
HEADER_NAMES = {"json", "hl", "lessons", "MODEL"}


class WorkbookError(Exception):
    """The workbook file cannot be read as it is; the message says why, in one line."""


class Workbook:
    """``my_harness.py``: the learner's checked pieces, in lesson order."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)

    def text(self) -> str | None:
        """The file's text, or None when there is no file yet."""
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise WorkbookError(t("lesson.workbook.unreadable", path=self.path.name, error=exc.strerror)) from None
        try:
            return data.decode("utf-8-sig")  # an editor's byte-order mark is no reason to stop saving
        except UnicodeDecodeError:
            raise WorkbookError(t("lesson.workbook.not_utf8", path=self.path.name)) from None

    def pieces(self) -> dict[str, tuple[int, str]]:
        """name -> (lesson, source) as the file holds them now (the learner may have edited it)."""
        text = self.text()
        return {} if text is None else sections(text, self.path.name)

    def save(self, name: str, lesson: int, fn: Callable, pieces: Iterable[str] = ()) -> str | None:
        """Write ``fn`` as piece ``name`` with what it needs from the notebook: None when saved, else the
        one line that says why not. Names in ``pieces`` are left to their own sections (or the references)."""
        if not isinstance(fn, FunctionType) or fn.__name__ == "<lambda>":  # a lambda, a partial, a callable object
            return t("lesson.check.not_saved", name=name)
        try:
            code = joined(needs(fn, set(pieces) | {name} | HEADER_NAMES) + [source(fn)])
        except (OSError, TypeError):  # defined in a way that left no source (exec, a lambda in a dict)
            return t("lesson.check.not_saved", name=name)
        except Unwritable as exc:
            return t("lesson.check.not_saved_name", name=name, used=exc.name, why=t(exc.why))
        if fn.__name__ != name:  # the file defines the name the next lessons import
            code += f"\n\n\n{name} = {fn.__name__}"
        try:
            written = self.pieces()
        except WorkbookError as exc:  # never rewrite a file we cannot read: the learner's edits stay
            return t("lesson.check.not_saved_file", name=name, error=str(exc))
        if written.get(name, (0, ""))[0] > lesson:
            return t("lesson.check.not_saved_later", name=name, path=self.path.name, lesson=written[name][0])
        written[name] = (lesson, code)
        text = compose(written)
        try:
            module_from(text, self.path)
        except Exception as exc:  # the file would not load: keep the one that does
            return t("lesson.check.not_saved_broken", name=name, error=one_line(exc))
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".my_harness_", suffix=".py")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(tmp, self.path)
        return None

    def load(self) -> ModuleType | None:
        """The workbook as a fresh module (re-read every time: the learner may edit it), or None."""
        text = self.text()
        if text is None:
            return None
        return module_from(text, self.path, register=True)


def joined(parts: list[str]) -> str:
    """Imports, then constants, one per line in their blocks; two blank lines around each function."""

    def kind(part: str) -> str:
        return "import" if part.startswith(("import ", "from ")) else "block" if "\n" in part else "line"

    text = parts[0]
    for before, part in itertools.pairwise(parts):
        a, b = kind(before), kind(part)
        text += ("\n" if a == b != "block" else "\n\n" if "block" not in (a, b) else "\n\n\n") + part
    return text


def compose(written: dict[str, tuple[int, str]]) -> str:
    parts = [HEADER.format(title=t("lesson.workbook.title"), body=t("lesson.workbook.body"))]
    for piece, (number, code) in sorted(written.items(), key=lambda item: (item[1][0], item[0])):
        parts.append(f"\n\n# ==== {piece} (lesson {number}) ====\n{code}\n")
    parts.append(FOOTER.format(note=t("lesson.workbook.footer")))
    return "".join(parts)


def sections(text: str, filename: str = "my_harness.py") -> dict[str, tuple[int, str]]:
    """The pieces in ``text``: name -> (lesson, source), found by parsing (see the module docstring)."""
    try:
        tree = ast.parse(text)
    except SyntaxError as exc:
        raise WorkbookError(t("lesson.workbook.syntax", path=filename, line=exc.lineno, error=exc.msg)) from None
    lines = text.splitlines()
    inside: set[int] = set()  # line numbers (1-based) that belong to a statement
    footer = len(lines) + 1
    for node in tree.body:
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        inside.update(range(first, (node.end_lineno or node.lineno) + 1))
        if footer > len(lines) and _is_footer(node):
            footer = first
            while footer > 1 and lines[footer - 2].startswith("#"):  # the footer's own note above it
                footer -= 1
    marks = [
        (i, m) for i, line in enumerate(lines[: footer - 1], start=1) if (m := MARK.match(line)) and i not in inside
    ]
    found = {}
    for k, (at, match) in enumerate(marks):
        end = marks[k + 1][0] if k + 1 < len(marks) else footer
        body = [line for n, line in enumerate(lines[at : end - 1], start=at + 1) if n in inside or line != LEGACY_END]
        found[match["name"]] = (int(match["lesson"]), "\n".join(body).strip("\n"))
    return found


def _is_footer(node: ast.stmt) -> bool:
    """``for ... in lessons.PIECES...:``: where the file's footer begins (this version's or an earlier one)."""
    return isinstance(node, ast.For) and ast.unparse(node.iter).startswith("lessons.PIECES")


def module_from(text: str, path: Path, register: bool = False) -> ModuleType:
    """Run ``text`` as the module ``my_harness`` (registered in ``sys.modules`` when ``register``)."""
    try:
        code = compile(text, str(path), "exec", dont_inherit=True)  # annotations evaluated, as an import does
    except SyntaxError as exc:
        raise WorkbookError(t("lesson.workbook.syntax", path=path.name, line=exc.lineno, error=exc.msg)) from None
    module = ModuleType("my_harness")
    module.__file__ = str(path)
    if register:
        sys.modules["my_harness"] = module  # so that functions defined in it can find their module
    exec(code, module.__dict__)  # the learner's own file, run as an import would
    return module


def one_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[0]}" if lines else type(exc).__name__


def workbook() -> Workbook:
    """The workbook of this kernel: ``HARNESS_LAB_WORKBOOK``, else ``my_harness.py`` here."""
    return Workbook(os.environ.get("HARNESS_LAB_WORKBOOK") or Path.cwd() / "my_harness.py")
