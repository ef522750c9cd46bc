"""Two editions of one notebook, kept honest: the Japanese source and its English twin.

A source ``<folder>/src/NAME.py`` (Japanese) has its English twin in ``<folder>/src/en/NAME.py``.
The twins hold the same cells in the same order, of the same kinds, with the same tags and
metadata, and their code cells are the same code: only the contents of string literals (the text
parts of f-strings included) and comments may differ. A string that reads as a name where the Japanese
has it (``"long_task"``, ``"run_agent"``, ``"sandbox/report.md"``: ASCII letters, digits and ``_.-/:``
only) is code too, a scenario, a piece, a key or a path, and the English must carry it unchanged; the
one exemption is the language a notebook passes to ``use_language``. ``check_twins`` says where they
part, in one line, and the build writes neither edition until they agree.

Every cell of the English source records, in its marker line, a short hash of the Japanese cell it
was translated from: ``# %% [markdown] ja="3f2a9c1e0b7d"``. When a Japanese cell changes, its
twin's hash no longer matches and the cell is a *stale translation* (``stale_cells``; a test fails
on each one). Stamping (``stamp``, ``notebooks/build.py --stamp notebooks/src/en/NAME.py``) writes
the current hashes into every marker line of the English file: it means "I have brought the
English up to date with the Japanese as it is now". Stamp after translating, never to silence the test.
"""

from __future__ import annotations

import ast
import hashlib
import io
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path

import nbformat

HASH_KEY = "ja"  # the English cell's metadata key for its Japanese cell's hash
MARKER = re.compile(r"^# %%(?!%)")  # a cell's first line in jupytext's percent format
STAMP = re.compile(rf' {HASH_KEY}="[^"]*"')
# A string literal that is code when the Japanese has it: no Japanese word looks like this, a name does.
NAME_LIKE = re.compile(r"[A-Za-z0-9_.\-/:]+")
LANGUAGES = {"ja": "en"}  # use_language("ja") in a Japanese source is use_language("en") in its twin


class EditionError(Exception):
    """The two editions differ where they must not; the message is one line naming file, cell and token."""


@dataclass(frozen=True)
class Token:
    text: str
    line: int  # in the cell, from 1
    value: str | None = None  # a plain string literal's contents (``<str>``): compared when it reads as a name


def twin_of(source: Path) -> Path:
    """The other edition's source: ``src/NAME.py`` <-> ``src/en/NAME.py``."""
    return source.parent.parent / source.name if source.parent.name == "en" else source.parent / "en" / source.name


def edition_of(source: Path) -> str:
    return "en" if source.parent.name == "en" else "ja"


def read_source(source: Path) -> nbformat.NotebookNode:
    # Imported here: the test suite's workers import this module, and every check or grade they run
    # forks them, at a cost that grows with their size (jupytext and what it loads are 10 MB of 195).
    import jupytext

    return jupytext.read(source, fmt="py:percent")


def cell_hash(cell: nbformat.NotebookNode) -> str:
    """A short hash of a Japanese cell as its translator read it: its kind and its text."""
    return hashlib.sha256(f"{cell.cell_type}\n{cell.source}".encode()).hexdigest()[:12]


def shown(path: Path) -> str:
    root = Path(__file__).resolve().parent.parent
    return str(path.relative_to(root)) if path.is_relative_to(root) else str(path)


# --- the code a cell holds, with its words taken out ---------------------------------------------


def code_shape(source: str) -> list[Token]:
    """The cell's tokens with comments and line breaks inside brackets dropped, each string literal
    (implicitly joined neighbours as one) reduced to ``<str>`` and the placeholders it holds."""
    lines = source.splitlines(keepends=True)
    shape: list[Token] = []
    start: tuple[int, int] | None = None  # where an f-string began (Python 3.12+ splits it into tokens)
    depth = 0
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        name = tokenize.tok_name[tok.type]
        if name == "FSTRING_START":
            depth += 1
            start = start or tok.start
        elif name == "FSTRING_END":
            depth -= 1
            if depth == 0 and start is not None:
                shape += _literal(_slice(lines, start, tok.end), start[0])
                start = None
        elif depth:
            continue  # inside an f-string: read whole from the source when it ends
        elif name == "STRING":
            shape += _literal(tok.string, tok.start[0])
        elif name in ("NEWLINE", "INDENT", "DEDENT"):
            shape.append(Token(name, tok.start[0]))  # the indentation's width is not the code
        elif name not in ("COMMENT", "NL", "ENDMARKER"):
            shape.append(Token(tok.string, tok.start[0]))
    joined: list[Token] = []  # implicitly joined literals as one; its value only when every part is plain
    for token in shape:
        if token.text == "<str>" and joined and joined[-1].text == "<str>":
            before = joined[-1].value
            both = before + token.value if before is not None and token.value is not None else None
            joined[-1] = Token("<str>", joined[-1].line, both)
        else:
            joined.append(token)
    return joined


def _slice(lines: list[str], start: tuple[int, int], end: tuple[int, int]) -> str:
    if start[0] == end[0]:
        return lines[start[0] - 1][start[1] : end[1]]
    return lines[start[0] - 1][start[1] :] + "".join(lines[start[0] : end[0] - 1]) + lines[end[0] - 1][: end[1]]


def _literal(text: str, line: int) -> list[Token]:
    """A string literal: ``<str>``; an f-string: its placeholders between ``<str>`` marks."""
    prefix = text[: min(i for i in (text.find('"'), text.find("'")) if i >= 0)]
    if "f" not in prefix.lower():
        value = ast.literal_eval(text)
        return [Token("<str>", line, value if isinstance(value, str) else None)]
    return [Token("<str>", line), *_placeholders(ast.parse(text, mode="eval").body, line), Token("<str>", line)]


def _placeholders(node: ast.expr, line: int) -> list[Token]:
    """Each placeholder as code (its conversion and format spec included), the strings inside its
    expression emptied: their contents are words too."""
    found = []
    for value in getattr(node, "values", []):
        if isinstance(value, ast.FormattedValue):
            for inner in ast.walk(value.value):
                if isinstance(inner, ast.Constant) and isinstance(inner.value, str):
                    inner.value = ""
            found.append(Token(ast.unparse(ast.JoinedStr([value]))[2:-1], line))  # f'{x!r:>8}' -> {x!r:>8}
    return found


# --- the twins compared -------------------------------------------------------------------------


def check_twins(ja_path: Path, en_path: Path) -> None:
    """Raise EditionError, one line, where the English source parts from the Japanese one."""
    ja, en = read_source(ja_path), read_source(en_path)
    where = shown(en_path)
    if ja.metadata.get("harness_lab") != en.metadata.get("harness_lab"):
        raise EditionError(f"{where}: its notebook metadata (harness_lab) differs from {shown(ja_path)}'s")
    if len(ja.cells) != len(en.cells):
        raise EditionError(f"{where}: {len(en.cells)} cells, but {shown(ja_path)} has {len(ja.cells)}")
    starts = marker_lines(en_path.read_text(encoding="utf-8"))
    starts = starts if len(starts) == len(en.cells) else [-1] * len(en.cells)  # no line numbers if unsure
    for number, (a, b) in enumerate(zip(ja.cells, en.cells), start=1):
        if a.cell_type != b.cell_type:
            raise EditionError(f"{where} cell {number}: a {b.cell_type} cell where the Japanese has {a.cell_type}")
        if _kept(a.metadata) != _kept(b.metadata):
            raise EditionError(
                f"{where} cell {number}: its tags/metadata {_kept(b.metadata)} differ from the Japanese {_kept(a.metadata)}"
            )
        if a.cell_type == "code":
            _same_code(a.source, b.source, f"{where} cell {number}", starts[number - 1])


def _kept(metadata: dict) -> dict:
    return {k: v for k, v in metadata.items() if k not in (HASH_KEY, "lines_to_next_cell")}


def _same_code(ja: str, en: str, where: str, marker: int) -> None:
    try:
        a, b = code_shape(ja), code_shape(en)
    except (tokenize.TokenError, SyntaxError, IndentationError) as exc:
        raise EditionError(f"{where}: its code cannot be compared, it does not tokenize ({exc})") from None
    for n, (x, y) in enumerate(zip(a, b)):
        if x.text != y.text:
            english, japanese, why = repr(y.text), repr(x.text), "only strings and comments may differ"
        elif _name_changed(a, n, y.value):
            english = f"the string {y.value!r}" if y.value is not None else "an f-string"
            japanese, why = repr(x.value), "a string that reads as a name is code: a scenario, a piece, a key, a path"
        else:
            continue
        line = f" (line {marker + 1 + y.line})" if marker >= 0 else ""
        raise EditionError(
            f"{where}{line}: the code differs from the Japanese at token {n + 1}: "
            f"{english} where the Japanese has {japanese} ({why})"
        )
    if len(a) != len(b):
        extra, side = (b[len(a)], "English") if len(b) > len(a) else (a[len(b)], "Japanese")
        raise EditionError(f"{where}: the {side} code goes on where the other ends, at {extra.text!r}")


def _name_changed(ja: list[Token], n: int, english: str | None) -> bool:
    """The Japanese string at ``n`` reads as a name and the English one is another; a language passed
    to ``use_language`` aside."""
    japanese = ja[n].value
    if japanese is None or japanese == english or not NAME_LIKE.fullmatch(japanese):
        return False
    called = [tok.text for tok in ja[max(n - 2, 0) : n]] == ["use_language", "("]
    return not (called and LANGUAGES.get(japanese) == english)


# --- stale translations and stamping --------------------------------------------------------------


def marker_lines(text: str) -> list[int]:
    """The 0-based line numbers of the cells' marker lines in a percent-format source."""
    return [n for n, line in enumerate(text.splitlines()) if MARKER.match(line)]


def stale_cells(ja_path: Path, en_path: Path) -> list[str]:
    """One line per English cell whose recorded Japanese hash is not its Japanese twin's now."""
    ja, en = read_source(ja_path), read_source(en_path)
    stale = []
    for number, (a, b) in enumerate(zip(ja.cells, en.cells), start=1):
        if b.metadata.get(HASH_KEY) != cell_hash(a):
            never = HASH_KEY not in b.metadata
            why = "it was never stamped" if never else "its Japanese source changed since the English was written"
            stale.append(f"stale translation: {shown(en_path)} cell {number} — {why}")
    return stale


def stamp(en_path: Path) -> int:
    """Record in each English marker line the hash of its Japanese twin cell as it is now.

    Refuses (EditionError) when the twins do not match cell for cell. Returns how many cells were stale.
    """
    ja_path = twin_of(en_path)
    check_twins(ja_path, en_path)
    text = en_path.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    markers = marker_lines(text)
    ja = read_source(ja_path)
    if len(markers) != len(ja.cells):  # a header or a marker jupytext reads otherwise: do not guess
        raise EditionError(f"{shown(en_path)}: {len(markers)} '# %%' lines for {len(ja.cells)} cells")
    stale = len(stale_cells(ja_path, en_path))
    for n, cell in zip(markers, ja.cells):
        body = STAMP.sub("", lines[n].rstrip("\r\n"))
        lines[n] = f'{body} {HASH_KEY}="{cell_hash(cell)}"\n'
    en_path.write_text("".join(lines), encoding="utf-8")
    return stale
