"""The error reference in both languages (issue 25.3): docs/errors.md and its English edition docs/en/errors.md
list the same errors in the same order, each with the same facts (the same code, the same kinds of line),
the English has no Japanese, and the README's English section and the Japanese page link to it."""

from __future__ import annotations

import re
from pathlib import Path

from notebooks.edition_prose import models_differ, numbers_differ, terms_missing

ROOT = Path(__file__).resolve().parents[2]
JA, EN = ROOT / "docs" / "errors.md", ROOT / "docs" / "en" / "errors.md"
JAPANESE = re.compile(r"[\u3000-\u30ff\u4e00-\u9fff\uff01-\uff9f]")
LABELS = {
    "原因": "Cause",
    "直し方": "Fix",
    "見る場所": "Where to look",
    "SDK がすること": "What the SDK does",
    "harness_lab がすること": "What harness_lab does",
}


def entries(page: Path) -> list[tuple[list[str], list[str], list[str]]]:
    """Per error: the code in its heading, the code in its lines (a quoted Japanese message aside), its line labels."""
    found = []
    for part in re.split(r"^### ", page.read_text(encoding="utf-8"), flags=re.MULTILINE)[1:]:
        heading, _, body = part.partition("\n")
        body = re.split(r"^## ", body, flags=re.MULTILINE)[0]
        labels = re.findall(r"^- \*\*(.+?)\*\*", body, flags=re.MULTILINE)
        found.append((code(heading), [c for c in code(body) if not JAPANESE.search(c)], labels))
    return found


def code(text: str) -> list[str]:
    return sorted("".join(pair) for pair in re.findall(r"``(.+?)``|`([^`]+)`", text))


def test_the_english_page_has_every_entry_with_the_same_facts():
    ja, en = entries(JA), entries(EN)
    assert len(en) == len(ja) > 30
    for number, ((ja_head, ja_code, ja_labels), (en_head, en_code, en_labels)) in enumerate(zip(ja, en), start=1):
        assert en_head == ja_head, f"entry {number}: {en_head} where the Japanese has {ja_head}"
        assert en_code == ja_code, f"entry {number}: {set(en_code) ^ set(ja_code)}"
        assert en_labels == [LABELS[label] for label in ja_labels], f"entry {number}"


def test_each_part_of_the_english_page_states_the_japanese_numbers_and_models():
    # A limit (4 cache breakpoints, 1 million tokens), a model version or a count must not drift between the pages.
    ja, en = (re.split(r"^(?=#+ )", page.read_text(encoding="utf-8"), flags=re.MULTILINE) for page in (JA, EN))
    assert len(ja) == len(en)
    drift = [f"part {n}: {said}" for n, (a, b) in enumerate(zip(ja, en)) if (said := numbers_differ(a, b))]
    drift += [f"part {n}: {said}" for n, (a, b) in enumerate(zip(ja, en)) if (said := models_differ(a, b))]
    assert drift == []


def test_each_part_of_the_english_page_names_the_japanese_terms():
    ja, en = (re.split(r"^(?=#+ )", page.read_text(encoding="utf-8"), flags=re.MULTILINE) for page in (JA, EN))
    drift = []
    for n, (a, b) in enumerate(zip(ja, en)):
        a, b = (
            "\n".join(
                line for line in part.splitlines() if "](en/errors.md)" not in line and "](../errors.md)" not in line
            )
            for part in (a, b)
        )
        drift += [f"part {n}: {said}" for said in [terms_missing(a, b)] if said]
    assert drift == []


def test_the_readmes_english_section_links_the_english_page():
    readme = ROOT.joinpath("README.md").read_text(encoding="utf-8")
    english = readme.split("## The course in English", 1)[1].split("\n## ", 1)[0]
    assert "](docs/en/errors.md)" in english
