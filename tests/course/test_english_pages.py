"""Every page of docs/en is English and linked both ways with its Japanese edition in docs/, and every
Japanese page of docs/ has its English edition (or its English beside each heading)."""

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


# A heading with its English beside it, after a dash: "## 測っていること — what is measured" (docs/frontends.md).
GLOSSED = re.compile(r" — [^\u3000-\u30ff\u4e00-\u9fff]*[A-Za-z][^\u3000-\u30ff\u4e00-\u9fff]*$")


def pages_without_their_english(docs: Path) -> list[str]:
    """Each page of ``docs`` with a heading in Japanese alone that has no twin in ``docs/en``."""
    missing = []
    for page in sorted(docs.glob("*.md")):
        text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.MULTILINE | re.DOTALL)
        headings = re.findall(r"^#+ .*$", text, re.MULTILINE)
        japanese = [h for h in headings if JAPANESE.search(h) and not GLOSSED.search(h)]
        if japanese and not (docs / "en" / page.name).exists():
            missing.append(f"{page.name}: {japanese[0]}")
    return missing


def test_every_japanese_page_of_docs_has_its_english_edition():
    # docs/en held two pages; the test above reads only those, so a Japanese page added to docs/ alone
    # left English readers nothing, and no test said so.
    assert pages_without_their_english(ROOT / "docs") == []


def test_a_japanese_page_without_its_twin_is_named_and_a_glossed_one_is_not(tmp_path):
    (tmp_path / "en").mkdir()
    (tmp_path / "errors.md").write_text("# エラー早見表\n\n```bash\n# 日付のタグ\n```\n", encoding="utf-8")
    (tmp_path / "frontends.md").write_text("# フロントエンド — what the browser test measures\n", encoding="utf-8")
    (tmp_path / "api.md").write_text("# Facts\n\n```bash\n# 日付のタグで固定する\n```\n", encoding="utf-8")
    assert pages_without_their_english(tmp_path) == ["errors.md: # エラー早見表"]
    (tmp_path / "en" / "errors.md").write_text("# API errors\n", encoding="utf-8")
    assert pages_without_their_english(tmp_path) == []


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
