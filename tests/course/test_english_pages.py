"""Every page of docs/en is English and linked both ways with its Japanese edition in docs/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
JAPANESE = re.compile(r"[\u3000-\u30ff\u4e00-\u9fff\uff01-\uff9f]")
PAGES = sorted(p.name for p in (ROOT / "docs" / "en").glob("*.md"))


@pytest.mark.parametrize("name", PAGES)
def test_the_english_page_is_english_and_both_editions_link_to_each_other(name):
    ja, en = ROOT / "docs" / name, ROOT / "docs" / "en" / name
    text = en.read_text(encoding="utf-8")
    assert not JAPANESE.findall(text)
    assert f"](../{name})" in text and f"](en/{name})" in ja.read_text(encoding="utf-8")
    for link in re.findall(r"\]\(([^)#]+)", text):
        assert link.startswith("http") or (en.parent / link).exists(), link


# A notebook's row in the README: ``| [`01_bare_loop`](notebooks/en/...) | lesson | what you do |`` in either
# edition's table, or ``- `exercises/level1_tiered_policy.ipynb` — what you do.`` in the exercises' list.
README_ROW = re.compile(r"^\| \[`(\w+)`\]\([^)]*\) \| [^|]+ \| (.+) \|$", re.MULTILINE)
README_ITEM = re.compile(r"^- `exercises/(\w+)\.ipynb` — (.+?)\.?$", re.MULTILINE)


def readme_descriptions(readme: str) -> dict[str, set[str]]:
    """Each notebook the README lists, with what each of its lines says a learner does there."""
    said: dict[str, set[str]] = {}
    for name, what in README_ROW.findall(readme) + README_ITEM.findall(readme):
        said.setdefault(name, set()).add(what.strip())
    return said


def test_the_readme_says_the_same_of_each_notebook_in_both_editions():
    # The English table named fewer steps than the Japanese one for five of the six lessons (05's
    # terminal demo and its comparison table, 04's fail-open approver...), though the notebooks are twins.
    said = readme_descriptions((ROOT / "README.md").read_text(encoding="utf-8"))
    notebooks = {p.stem for folder in ("notebooks", "exercises") for p in (ROOT / folder).glob("*.ipynb")}
    assert set(said) == notebooks
    assert {name: whats for name, whats in said.items() if len(whats) != 1} == {}


def test_a_notebook_described_two_ways_is_named():
    readme = (
        "| [`01_bare_loop`](notebooks/en/01_bare_loop.ipynb) | 2 The core loop | one round trip, the 400s |\n"
        "| [`01_bare_loop`](notebooks/01_bare_loop.ipynb) | 2 コアループ | one round trip |\n"
        "- `exercises/level2_missing_gate.ipynb` — add the hard stop.\n"
        "| [`level2_missing_gate`](exercises/en/level2_missing_gate.ipynb) | 6 exercise | add the hard stop |\n"
    )
    assert readme_descriptions(readme) == {
        "01_bare_loop": {"one round trip, the 400s", "one round trip"},
        "level2_missing_gate": {"add the hard stop"},
    }
