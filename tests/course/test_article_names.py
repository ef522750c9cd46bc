"""The lesson text is TypeScript (`runToolUses`, `runAgent`); the exercises' code is Python
(`run_tool_uses`, `run_agent`). An exercise whose prose uses the article's names says once, where it
first uses one, which Python function each is, so a learner never looks for `runToolUses` in the code."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
EXERCISES = sorted((ROOT / "exercises").glob("*.ipynb")) + sorted((ROOT / "exercises" / "en").glob("*.ipynb"))
ARTICLE = {"runToolUses": "run_tool_uses", "runAgent": "run_agent"}
NAMED = re.compile(r"\b(" + "|".join(ARTICLE) + r")\b")


@pytest.mark.parametrize("path", EXERCISES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_first_use_of_an_article_name_says_which_python_function_it_is(path):
    prose = [cell.source for cell in nbformat.read(path, as_version=4).cells if cell.cell_type == "markdown"]
    used = {name for text in prose for name in NAMED.findall(text)}
    if not used:
        pytest.skip("no article names in this exercise's prose")
    first = next(text for text in prose if NAMED.search(text))
    assert "TypeScript" in first, first
    for name in used:
        assert f"`{name}`" in first and f"`{ARTICLE[name]}`" in first, (name, first)
