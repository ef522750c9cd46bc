"""The package's files the docs name exist: a module turned package (``tools.py`` into ``tools/``) left
pages pointing at a file nobody could open. A file's old name may stay where the text says what it is now."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").rglob("*.md"))]
NAMED = re.compile(r"(?<![\w/.-])harness_lab/[\w/]+\.py")
RENAMED = re.compile(r"`?\s*\(now ")  # "`harness_lab/tools.py` (now `tools/execution.py`)"


def test_every_package_file_a_page_names_exists():
    missing = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for found in NAMED.finditer(text):
            if not (ROOT / found.group()).exists() and not RENAMED.match(text, found.end()):
                missing.append(f"{page.relative_to(ROOT)}: {found.group()}")
    assert missing == []
