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
