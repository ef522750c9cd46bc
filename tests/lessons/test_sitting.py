"""Each lesson says at the top how long it takes and what it assumes (issue 28.8, 30.6), and the time it
states is the estimate ``sitting`` makes from the notebook as built, so it cannot drift from the content."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from tests.lessons.sitting import minutes, stated

LESSONS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("0[1-6]_*.ipynb"))


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_the_header_states_the_time_and_the_prerequisites(path):
    nb = nbformat.read(path, as_version=4)
    header = nb.cells[0].source
    assert f"**所要時間の目安:** {stated(nb)}" in header
    assert "**前提:**" in header


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_the_english_header_states_the_japanese_lessons_time(path):
    """The English twin teaches the same lesson: it states the Japanese notebook's estimate, in English."""
    parts = minutes(nbformat.read(path, as_version=4))
    total = 5 * round(sum(parts.values()) / 5)
    english = nbformat.read(path.parent / "en" / path.name, as_version=4).cells[0].source
    read, write, run = (round(parts[k]) for k in ("read", "write", "run"))
    assert (
        f"**Time:** about {total} minutes (reading {read}, writing and checking {write}, running and predicting {run})"
        in english
    )
    assert "**You need:**" in english


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_the_readme_states_each_lessons_time_in_both_tables(path):
    # Lesson 6 went to 約60分 / about 60 minutes while both README tables still said about 65 min.
    total = re.match(r"約(\d+)分", stated(nbformat.read(path, as_version=4))).group(1)
    readme = (path.parents[1] / "README.md").read_text(encoding="utf-8")
    for link in (f"](notebooks/{path.name})", f"](notebooks/en/{path.name})"):
        row = next(line for line in readme.splitlines() if link in line)
        assert re.search(rf"\(about {total} min\b", row), row


def test_the_estimate_counts_what_a_lesson_asks():
    longer = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_markdown_cell("あ" * 4000), nbformat.v4.new_code_cell("x = 1\n" * 24)]
    )
    parts = minutes(longer)
    assert parts["read"] == pytest.approx(10 + 2) and parts["run"] == 0.25 and parts["write"] == 0
