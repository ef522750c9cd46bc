"""What the two editions' built notebooks show, compared cell by cell.

The sources are compared before anything runs (``editions.py``, ``edition_prose.py``); what the
built notebooks store was not. Both editions run the same code, but not the same strings: an English
prompt, tool description or catalog entry is another input, and the emulator's model reads it, so a
run can take another path in English (another stop, another tool called, a figure or an error in one
edition only) and a learner of that edition reads outputs the prose around them does not describe.
Each code cell of an English notebook keeps its Japanese twin's outputs: the same kinds in the same
order (a stream and its name, a figure, an error: each output's type and formats), as many lines of
text, and the same names in code (``end_turn``, ``token_budget``, ``read_file``; a plural aside: the
English says ``tool_results`` where the Japanese says ``tool_result`` ブロック). Token counts are
not compared: English takes fewer tokens than Japanese for the same sentence.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat

from notebooks.editions import shown

# A name as code writes it: lower-case words joined by "_" (a stop reason, a valve, a tool, a key).
NAME = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")


def kinds(cell: nbformat.NotebookNode) -> list[str]:
    """Each output of a code cell as its kind: ``stream stdout``, ``display_data image/png text/plain``, ``error``."""
    found = []
    for output in cell.get("outputs", []):
        detail = output.get("name") or " ".join(sorted(output.get("data", {})))
        found.append(f"{output.output_type} {detail}".rstrip())
    return found


def text_of(cell: nbformat.NotebookNode) -> str:
    """What a code cell printed, and the plain text of what it displayed."""
    parts = [o.get("text") or o.get("data", {}).get("text/plain", "") for o in cell.get("outputs", [])]
    return "".join(part if isinstance(part, str) else "".join(part) for part in parts)


def names_missing(own: set[str], other: set[str]) -> list[str]:
    return sorted(n for n in own if not {n, f"{n}s", n.removesuffix("s")} & other)


def output_drift(ja_path: Path, en_path: Path) -> list[str]:
    """One line per English code cell whose stored outputs are not its Japanese twin's in kind, lines or names."""
    ja, en = nbformat.read(ja_path, as_version=4), nbformat.read(en_path, as_version=4)
    if len(ja.cells) != len(en.cells):
        return [f"{shown(en_path)}: {len(en.cells)} cells, but {shown(ja_path)} has {len(ja.cells)}"]
    drift = []
    for number, (a, b) in enumerate(zip(ja.cells, en.cells), start=1):
        if a.cell_type != "code":
            continue
        where = f"{shown(en_path)} cell {number}"
        if kinds(a) != kinds(b):
            drift.append(f"{where}: outputs {kinds(b)} where the Japanese has {kinds(a)}")
            continue
        text_ja, text_en = text_of(a), text_of(b)
        if text_ja.count("\n") != text_en.count("\n"):
            drift.append(
                f"{where}: {text_en.count(chr(10))} lines of text where the Japanese has {text_ja.count(chr(10))}"
            )
        ja_names, en_names = set(NAME.findall(text_ja)), set(NAME.findall(text_en))
        if only := names_missing(ja_names, en_names):
            drift.append(f"{where}: the outputs name {', '.join(only)} only in the Japanese")
        if only := names_missing(en_names, ja_names):
            drift.append(f"{where}: the outputs name {', '.join(only)} only in the English")
    return drift
