"""The files the docs name exist: a module turned package (``tools.py`` into ``tools/``) left pages
pointing at a file nobody could open. A file's old name may stay where the text says what it is now."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").rglob("*.md"))]
# The pages a newcomer reads first, where a bare module name (`max_turns.py`) must name a real module too.
FIRST_READ = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "docs" / "architecture.md"]
FOLDERS = ("harness_lab", "tests", "docs", "notebooks", "exercises", "deploy", "benchmarks")
NAMED = re.compile(rf"(?<![\w/.*-])(?:{'|'.join(FOLDERS)})/[\w/.*-]*[\w/*]")
MODULE = re.compile(r"`(\w+\.py)`")
LINK = re.compile(r"\]\((?!https?:)([^)#\s]+)")
RENAMED = re.compile(r"`?\s*\(now ")  # "`harness_lab/tools.py` (now `tools/execution.py`)"
# Placeholders the pages write for "any lesson" or "any exercise".
PLACEHOLDERS = {"NN_name": "[0-9][0-9]_*", "NAME": "*"}
# Files the course writes next to a learner's notebooks, not files of the project.
WRITTEN_BY_THE_COURSE = {"my_harness.py"}


def exists(path: str) -> bool:
    for placeholder, pattern in PLACEHOLDERS.items():
        path = path.replace(placeholder, pattern)
    return any(ROOT.glob(path)) if "*" in path or "[" in path else (ROOT / path).exists()


def test_every_project_file_a_page_names_exists():
    missing = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for found in NAMED.finditer(text):
            path = found.group().rstrip(".")
            if not exists(path) and not RENAMED.match(text, found.end()):
                missing.append(f"{page.relative_to(ROOT)}: {path}")
    assert not missing, "named but missing:\n" + "\n".join(missing)


def test_every_link_between_pages_opens_a_file():
    broken = []
    for page in PAGES:
        for found in LINK.finditer(page.read_text(encoding="utf-8")):
            if not (page.parent / found.group(1)).exists():
                broken.append(f"{page.relative_to(ROOT)}: {found.group(1)}")
    assert not broken, "links to no file:\n" + "\n".join(broken)


def test_every_module_the_first_pages_name_by_itself_is_a_module_of_the_project():
    modules = {p.name for folder in FOLDERS for p in (ROOT / folder).rglob("*.py")} | {"dev.py"}
    unknown = []
    for page in FIRST_READ:
        text = page.read_text(encoding="utf-8")
        for found in MODULE.finditer(text):
            name = found.group(1)
            if name not in modules | WRITTEN_BY_THE_COURSE and not RENAMED.match(text, found.end()):
                unknown.append(f"{page.relative_to(ROOT)}: {name}")
    assert not unknown, "no such module in the project:\n" + "\n".join(unknown)
