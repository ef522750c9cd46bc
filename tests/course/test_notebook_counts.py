"""An English notebook prints no count right before a noun of its own: "1 tool turns" is what that prints.

The catalog counts its things ("{turns:tool turns}" reads "1 tool turn", "3 tool turns"; harness_lab/text.py),
but a notebook's own print wrote the noun after the value, plural whatever it was: notebook 02 printed
``outcome.turns, "tool turns"``. A count a notebook prints goes through the catalog (``print(outcome.stop)``
says "after 2 tool turns"), or comes after its noun as a label ("requests: 1"), which reads right for any count.
The nouns looked for are the ones the catalog counts; a column's label set two spaces off a table's
numbers (notebook 06's cache table) is no count in a sentence, and a constant (``MAX_TURNS``) is a limit
the page sets, not a count a run made.
"""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

import harness_lab.grading
import harness_lab.lessons
import harness_lab.ui  # noqa: F401  (adds its entries)
from harness_lab.text import _NOUNS, CATALOG
from notebooks.editions import read_source

ROOT = Path(__file__).resolve().parents[2]
ENGLISH_SOURCES = sorted((ROOT / "notebooks" / "src" / "en").glob("*.py")) + sorted(
    (ROOT / "exercises" / "src" / "en").glob("*.py")
)
COUNTED = sorted(
    {
        spec
        for _, en in CATALOG.values()
        for _, _, spec, _ in string.Formatter().parse(en)
        if spec and _NOUNS.fullmatch(spec)
    },
    key=len,
    reverse=True,
)
NOUN_NEXT = re.compile(rf"({'|'.join(map(re.escape, COUNTED))})(?![\w-])")


def _noun_after(text: str, gap: str) -> str | None:
    if not text.startswith(gap) or text[len(gap) : len(gap) + 1].isspace():
        return None
    found = NOUN_NEXT.match(text, len(gap))
    return found and found.group(1)


def counts_before_nouns(source: str) -> list[str]:
    """Each value an f-string or a print call puts right before a counted noun, as ``value noun``."""
    found = []
    python = re.sub(r"^(\s*)[%!].*$", r"\1pass", source, flags=re.MULTILINE)  # an IPython line (%pip) is no Python
    pairs = []
    for node in ast.walk(ast.parse(python)):
        if isinstance(node, ast.JoinedStr):  # any f-string: a reply a notebook's function returns is printed too
            pairs += [
                (value.value, after.value, " ")
                for value, after in zip(node.values, node.values[1:], strict=False)
                if isinstance(value, ast.FormattedValue) and isinstance(after, ast.Constant)
            ]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print":
            pairs += [
                (value, after.value, "")  # print's own separator is the space
                for value, after in zip(node.args, node.args[1:], strict=False)
                if not isinstance(value, (ast.Constant, ast.JoinedStr)) and isinstance(after, ast.Constant)
            ]
    for value, text, gap in pairs:
        noun = isinstance(text, str) and _noun_after(text, gap)
        if noun and not (isinstance(value, ast.Name) and value.id.isupper()):
            found.append(f"{ast.unparse(value)} {noun}")
    return found


@pytest.mark.parametrize("path", ENGLISH_SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_an_english_notebook_prints_no_count_before_a_literal_noun(path):
    cells = [cell for cell in read_source(path).cells if cell.cell_type == "code"]
    found = [f"cell {n}: {hit}" for n, cell in enumerate(cells, 1) for hit in counts_before_nouns(cell.source)]
    assert found == []


def test_a_count_before_its_noun_is_found_in_a_print_or_an_f_string():
    assert counts_before_nouns('print(type(outcome.stop).__name__, "/", outcome.turns, "tool turns")') == [
        "outcome.turns tool turns"
    ]
    assert counts_before_nouns('print(f"{len(calls)} tool_use blocks; ran {len(ran)} times")') == [
        "len(calls) tool_use blocks",
        "len(ran) times",
    ]
    assert counts_before_nouns('print(f"{n:>6} tokens")') == ["n tokens"]


def test_a_label_a_catalog_line_or_a_table_column_is_no_count_before_a_noun():
    assert counts_before_nouns('print("/ tool turns:", outcome.turns, "/ requests:", calls)') == []
    assert counts_before_nouns("print(outcome.stop)") == []
    assert counts_before_nouns('print(f"{len(plain):>15}{len(cached):>16}  requests")') == []
    assert counts_before_nouns('print(f"{name} tools-to-be", book.path.name, "holds:")') == []
    assert counts_before_nouns('print(f"the maximum of {MAX_TURNS} turns")') == []
