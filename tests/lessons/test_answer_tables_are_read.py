"""Every table of wrong or right answers in tests/lessons/answers*.py is read by a test.

A new round's table (``WRONG_ROUND_17``) does nothing until a test file imports it and adds it to the
lists it judges; a table left out is never run, and its wrong answers pass unnoticed (CONTRIBUTING.md,
"Adding a wrong answer").
"""

from __future__ import annotations

import ast
from pathlib import Path

HERE = Path(__file__).resolve().parent
TABLE_PREFIXES = ("WRONG", "RIGHT", "STALLED")


def tables(source: str) -> set[str]:
    """The answer tables a module defines at its top level."""
    names = set()
    for node in ast.parse(source).body:
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        names |= {t.id for t in targets if isinstance(t, ast.Name) and t.id.startswith(TABLE_PREFIXES)}
    return names


def read_names(source: str) -> set[str]:
    """The names a module reads in its code: importing a table alone does not read it."""
    return {node.id for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Name)}


def unread(defined: dict[str, set[str]], readers: list[str]) -> list[str]:
    read = set().union(*(read_names(source) for source in readers))
    return sorted(f"{module}: {name}" for module, names in defined.items() for name in names - read)


def test_every_answer_table_is_read_by_a_test():
    defined = {path.name: tables(path.read_text(encoding="utf-8")) for path in sorted(HERE.glob("answers*.py"))}
    assert sum(map(len, defined.values())) > 40
    readers = [path.read_text(encoding="utf-8") for path in sorted(HERE.glob("test_*.py"))]
    assert unread(defined, readers) == []


def test_a_table_only_imported_is_found_unread():
    defined = {"answers_round_17.py": tables("WRONG_ROUND_17 = []\nRIGHT_ROUND_17: list = []\n")}
    imported = (
        "from tests.lessons.answers_round_17 import RIGHT_ROUND_17, WRONG_ROUND_17\nWRONG = [] + WRONG_ROUND_17\n"
    )
    assert unread(defined, [imported]) == ["answers_round_17.py: RIGHT_ROUND_17"]
