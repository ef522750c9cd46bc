"""The files the docs name exist: a module turned package (``tools.py`` into ``tools/``) left pages
pointing at a file nobody could open. A file's old name may stay where the text says what it is now.
And a scenario module a page files under a lesson belongs to the notebook that teaches that lesson."""

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


# "lesson 4's runaways ... in `scenarios_runaway.py`", "notebook 06 (the 2026 API) in `scenarios_2026.py`":
# a page that files a scenario module under a lesson or a notebook. Notebook NN teaches lesson NN + 1, and
# architecture.md once filed notebook 06's scenarios under lesson 6 (notebook 05, which uses none of them).
SCENARIO_HOME = re.compile(r"(?:[Ll]esson (\d)|[Nn]otebook (\d\d))\b[^`]{0,60}?`(scenarios_\w+\.py)`")


def lessons_of_notebooks() -> dict[int, Path]:
    """Each lesson number and the source of the notebook that teaches it, from the notebook's own title."""
    sources = sorted((ROOT / "notebooks" / "src").glob("[0-9][0-9]_*.py"))
    title = re.compile(r"^# # レッスン(\d+):", re.MULTILINE)
    return {int(title.findall(source.read_text(encoding="utf-8"))[0]): source for source in sources}


def misfiled_scenario_modules(text: str) -> list[str]:
    """Each lesson or notebook a page files a scenario module under whose notebook runs none of its scenarios."""
    lessons = lessons_of_notebooks()
    notebooks = {int(source.name[:2]): source for source in lessons.values()}
    wrong = []
    for found in SCENARIO_HOME.finditer(text):
        lesson, notebook, module = found.groups()
        source = lessons.get(int(lesson)) if lesson else notebooks.get(int(notebook))
        registered = set(
            re.findall(r'_register\(\s*"(\w+)"', (ROOT / "harness_lab" / "emulator" / module).read_text("utf-8"))
        )
        used = set(re.findall(r'"(\w+)"', source.read_text(encoding="utf-8"))) if source else set()  # a name it runs
        if not registered & used:
            wrong.append(
                f"{found.group(0)!r}: {source.name if source else 'no such notebook'} names none of {module}'s scenarios"
            )
    return wrong


def test_a_scenario_module_is_filed_under_the_lesson_whose_notebook_uses_it():
    pages = [page for page in FIRST_READ if SCENARIO_HOME.search(page.read_text(encoding="utf-8"))]
    assert pages, "no page files a scenario module under a lesson any more: drop this test"
    wrong = [
        f"{page.relative_to(ROOT)}: {w}" for page in pages for w in misfiled_scenario_modules(page.read_text("utf-8"))
    ]
    assert not wrong, "\n".join(wrong)


def test_a_scenario_module_filed_under_the_notebook_number_as_a_lesson_is_named():
    assert misfiled_scenario_modules("Scenarios for lesson 7 (`scenarios_2026.py`)") == []
    assert misfiled_scenario_modules("Scenarios for lesson 6 (`scenarios_2026.py`)") == [
        "'lesson 6 (`scenarios_2026.py`': 05_full_harness.py names none of scenarios_2026.py's scenarios"
    ]
