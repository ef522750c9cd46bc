"""The class guide in both languages: docs/classroom.md and its English edition docs/en/classroom.md have
the same sections, each of the same shape (headings, table rows, list items, code fences) stating the
same numbers and naming the same terms, run the same commands, and link to each other; the English has no
Japanese in it."""

from __future__ import annotations

import re
from pathlib import Path

from notebooks.edition_prose import numbers_differ, outline, terms_missing

ROOT = Path(__file__).resolve().parents[2]
JA, EN = ROOT / "docs" / "classroom.md", ROOT / "docs" / "en" / "classroom.md"


def parts(page: Path) -> list[str]:
    """The page cut before each heading (a ``#`` comment in a code block is none)."""
    found: list[list[str]] = [[]]
    fenced = False
    for line in page.read_text(encoding="utf-8").splitlines():
        fenced ^= line.startswith("```")
        if not fenced and re.match(r"#+ ", line):
            found.append([])
        found[-1].append(line)
    return ["\n".join(lines) for lines in found]


def commands(page: Path) -> list[str]:
    """Each code block, its comments and placeholders aside; the class's edition and the report's language
    are the page's own."""
    blocks = re.findall(r"^```\w*\n(.*?)^```", page.read_text(encoding="utf-8"), flags=re.MULTILINE | re.DOTALL)
    kept = []
    for block in blocks:
        lines = [re.sub(r"(^|\s)#(?!!).*", "", line).rstrip() for line in block.splitlines()]
        text = "\n".join(line for line in lines if line.strip()).replace(" --lang en", "")
        kept.append(re.sub(r"<[^<>\n]+>", "<…>", re.sub(r"HARNESS_HUB_EDITION=(ja|en)", "HARNESS_HUB_EDITION=…", text)))
    return kept


def test_each_section_of_the_english_guide_has_the_japanese_shape_and_numbers():
    ja, en = parts(JA), parts(EN)
    assert len(en) == len(ja) > 8
    drift = []
    for number, (a, b) in enumerate(zip(ja, en)):
        shape_ja, shape_en = outline(a), outline(b)
        drift += [
            f"part {number}: {k} {shape_en[k]} where the Japanese has {shape_ja[k]}"
            for k in shape_ja
            if shape_ja[k] != shape_en[k]
        ]
        if said := numbers_differ(a, b):
            drift.append(f"part {number}: {said}")
    assert drift == []


def own_words(part: str) -> str:
    """A part without the line that links the other edition and without its own edition's value."""
    lines = [
        line for line in part.splitlines() if "](en/classroom.md)" not in line and "](../classroom.md)" not in line
    ]
    return re.sub(r"HARNESS_HUB_EDITION=(ja|en)", "", "\n".join(lines))


def test_each_section_of_the_english_guide_names_the_japanese_terms():
    # A sentence added to the Japanese guide (what an unsandboxed grade refuses: System V IPC, POSIX message
    # queues, keyrings, inotify) never reached the English one; its terms were what showed it.
    ja, en = parts(JA), parts(EN)
    drift = [
        f"part {n}: {said}"
        for n, (a, b) in enumerate(zip(ja, en))
        if (said := terms_missing(own_words(a), own_words(b)))
    ]
    assert drift == []


def test_both_guides_run_the_same_commands_each_for_its_own_edition():
    assert commands(EN) == commands(JA)
    assert "HARNESS_HUB_EDITION=ja" in JA.read_text(encoding="utf-8")
    assert "HARNESS_HUB_EDITION=en" in EN.read_text(encoding="utf-8")


def test_the_readme_sends_english_instructors_to_the_english_guide():
    readme = ROOT.joinpath("README.md").read_text(encoding="utf-8")
    section = readme.split("## For instructors", 1)[1].split("\n## ", 1)[0]
    assert "](docs/en/classroom.md)" in section
