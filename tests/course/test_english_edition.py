"""The English edition has no Japanese in it: not in its prose, not in its code, not in its stored outputs.

Every built English notebook is read (lessons, exercise starters and solutions, whichever exist), so a
lesson translated later is covered without touching this file. A Japanese word may stay only as a UI
label quoted on purpose (say, what a screenshot shows); each such label is allowed here by name, for
the notebook that quotes it. A stray one is reported with its notebook, cell and line.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGLISH = [ROOT / "notebooks" / "en", ROOT / "exercises" / "en", ROOT / "exercises" / "solutions" / "en"]
NOTEBOOKS = sorted(p for folder in ENGLISH for p in folder.glob("*.ipynb"))

# Kana, kanji, CJK punctuation (、。「」) and full-width forms: any of them means Japanese was left in.
JAPANESE = re.compile("[\u3000-\u303f\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uff01-\uff9f]")

# notebook (relative to the repo) → Japanese UI labels it quotes on purpose, each in its quotes.
QUOTED_UI_LABELS: dict[str, tuple[str, ...]] = {}


def texts(notebook: nbformat.NotebookNode) -> list[tuple[int, str, str]]:
    """(cell index, where, text) for each cell's source and each of its outputs' text."""
    found = []
    for index, cell in enumerate(notebook.cells):
        found.append((index, cell.cell_type, cell.source))
        for output in cell.get("outputs", []):
            if "text" in output:
                found.append((index, "output", output["text"]))
            for kind, value in output.get("data", {}).items():
                if isinstance(value, str) and kind.startswith("text/"):
                    found.append((index, f"output {kind}", value))
    return found


def japanese_left(notebook: nbformat.NotebookNode, allowed: tuple[str, ...] = ()) -> list[str]:
    """One line per line of text with a Japanese character that is not inside an allowed label."""
    left = []
    for index, where, text in texts(notebook):
        for line in text.splitlines():
            for label in allowed:
                line = line.replace(label, "")
            if JAPANESE.search(line):
                left.append(f"cell {index} ({where}): {line.strip()[:160]}")
    return left


def test_the_english_notebooks_are_found():
    assert len(NOTEBOOKS) >= 4, "the English exercises at least (starters and solutions) should be built"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_an_english_notebook_has_no_japanese(path):
    name = str(path.relative_to(ROOT))
    left = japanese_left(nbformat.read(path, as_version=4), QUOTED_UI_LABELS.get(name, ()))
    assert not left, f"{name} still has Japanese:\n" + "\n".join(left[:20])


def test_a_sentence_left_in_an_output_is_named_and_an_allowed_label_is_not():
    cells = [
        nbformat.v4.new_markdown_cell("Press the 「次のターン」 button."),
        nbformat.v4.new_code_cell("print(answer)"),
    ]
    cells[1].outputs = [nbformat.v4.new_output("stream", name="stdout", text="ok\n現在の東京は晴れです。\n")]
    notebook = nbformat.v4.new_notebook(cells=cells)
    left = japanese_left(notebook, ("「次のターン」",))
    assert left == ["cell 1 (output): 現在の東京は晴れです。"]
    assert japanese_left(notebook) == ["cell 0 (markdown): Press the 「次のターン」 button.", left[0]]
    assert JAPANESE.search("、") and not JAPANESE.search("sunny ☀ → cloudy ☁, 21°C")
