"""The course's words, one per concept (the glossary in docs/glossary.md): no synonym that would make a
learner wonder whether 周回 and ターン are two things, in the notebooks, the exercises or any catalog."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

import harness_lab.grading
import harness_lab.lessons
import harness_lab.ui  # noqa: F401  (adds its entries)
from harness_lab.text import CATALOG

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9]*.ipynb")) + sorted((ROOT / "exercises").rglob("*.ipynb"))

# word not to use -> the course's word (docs/glossary.md)
NOT = {
    r"ラウンド": "ターン",
    r"周回": "ターン（ループの一周は「一周」）",
    r"[0-9０-９二三四五六七八九十何]+周(?![年知辺囲波])": "N ターン（「一周」はループの一周の意味でだけ）",
    r"素手のループ": "裸のループ",
    r"安全装置|安全柵|(?<![鉄])柵|ガード": "制御弁",
    r"バルブ": "制御弁",
    r"モデル呼び出し|API ?呼び出し": "モデルへのリクエスト",
    r"計器|メーター": "ゲージ",
    r"ジェネレータ(?!ー)": "ジェネレーター",
    r"フォルダ(?!ー)": "フォルダー",
    r"シグネチャ": "署名",
    r"終了条件": "停止条件",
    r"ティア": "段階",
    r"(?<!合)鍵": "API キー",
    r"危険なツール": "高インパクトなツール",
    r"あなたは": "（主語を立てずに）",
    r"指させる": "名指しさせる",
    r"止めた者": "止めたもの",
    r"(?:あなたの|自分の) ?`?harness\b": "`run_agent`（学習者のループは、01 から 05 まで同じ名前）",
    r"ツールの?ターン|ツール呼び出しターン": "ツール呼び出しのターン（数えるときはツール N ターン）",
    r"ツールが走ったターン": "ツール呼び出しのターン",
    r"ツール[がは] ?(?:\{\w+\}|[0-9０-９N]+) ?ターン": "ツール N ターン（ツール呼び出し N ターン）",
}


def prose(path: Path) -> str:
    nb = nbformat.read(path, as_version=4)
    parts = []
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            parts.append(cell.source)
        else:  # comments and string literals a learner reads
            parts += re.findall(r"#.*", cell.source) + re.findall(r"[\"'][^\"'\n]*[\"']", cell.source)
    return "\n".join(parts)


def slips(text: str) -> list[str]:
    found = []
    for pattern, word in NOT.items():
        for match in re.finditer(pattern, text):
            line = text[max(0, match.start() - 15) : match.end() + 15].replace("\n", " ")
            found.append(f"{match.group()} → {word}: …{line}…")
    return found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_notebooks_use_the_glossarys_words(path):
    assert slips(prose(path)) == []


def test_every_catalog_uses_the_glossarys_words():
    found = [f"{key}: {slip}" for key, (ja, _) in CATALOG.items() for slip in slips(ja)]
    assert found == []


def test_the_check_finds_a_slip():
    assert slips("あなたの `harness` で") and not slips("自分のハーネス")
    assert (
        slips("3周目で止まる")
        and slips("ジェネレータを")
        and not slips("ジェネレーターを")
        and not slips("ループの一周")
    )
    assert slips("最初のツールターンで") and slips("ツールのターンではない") and slips("ツールが {rounds} ターン走った")
    assert (
        not slips("最初のツール呼び出しのターンで")
        and not slips("ツール 3 ターン")
        and not slips("ツール呼び出し 3 ターン")
    )


# --- the English column: the English edition's word for each concept ---------------------------------

GLOSSARY = ROOT / "docs" / "glossary.md"
ENGLISH_SOURCES = sorted((ROOT / "notebooks" / "src" / "en").glob("*.py")) + sorted(
    (ROOT / "exercises" / "src" / "en").glob("*.py")
)


def glossary_rows() -> list[dict[str, str]]:
    """The glossary table's rows, each as {column name: cell}."""
    lines = [line for line in GLOSSARY.read_text(encoding="utf-8").splitlines() if line.startswith("|")]
    head = [cell.strip() for cell in lines[0].strip("|").split("|")]
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[2:]]
    assert all(len(row) == len(head) for row in rows), "a glossary row with a cell too many or too few"
    return [dict(zip(head, row, strict=True)) for row in rows]


def english_terms(cell: str) -> list[str]:
    """The words of an English cell: split at , / ; with what is in parentheses left out as an aside."""
    bare = re.sub(r"\([^)]*\)", "", cell).replace("`", "")
    return [term.strip() for term in re.split(r"[,/;]", bare) if term.strip()]


def unused(terms: list[str], text: str) -> list[str]:
    return [term for term in terms if not re.search(rf"(?<!\w){re.escape(term)}(?:s|es)?(?!\w)", text, re.IGNORECASE)]


def test_every_concept_has_an_english_word_the_english_edition_uses():
    english = "\n".join(en for _, en in CATALOG.values())
    english += "\n".join(path.read_text(encoding="utf-8") for path in ENGLISH_SOURCES)
    rows = glossary_rows()
    assert len(rows) > 15 and all(row["English"] for row in rows)
    found = [(row["use"], term) for row in rows for term in unused(english_terms(row["English"]), english)]
    assert found == [], "a word of the glossary's English column that no English notebook or catalog uses"


def test_the_english_check_finds_an_unused_word():
    assert english_terms("control valve / valve (valve 1–4)") == ["control valve", "valve"]
    assert unused(["lap", "turn", "valve"], "the loop overlaps; return; two valves") == ["lap", "turn"]


# English words the English edition once used beside the glossary's own for the same concept
NOT_IN_ENGLISH = {
    r"finished (?:tool(?:-call)? )?turns?": "completed turns (the counter `turns`)",
    r"no-progress check": "no-progress detection (valve 3, 無進捗検知)",
    r"turns? finished": "completed turns (the counter `turns`)",
    r"no-progress valve": "no-progress detection (valve 3, 無進捗検知)",
    r"valve 3 \(no progress\)": "valve 3 (no-progress detection)",
    r"pass(?:es)? of the loop": "lap of the loop (ループの一周)",
    r"tool-call turns?": "tool turn (ツール呼び出しのターン, ツール N ターン)",
    r"tool-running turns?": "tool turn (ツール呼び出しのターン, ツール N ターン)",
}


def english_slips(text: str) -> list[str]:
    found = []
    for pattern, word in NOT_IN_ENGLISH.items():
        for match in re.finditer(rf"(?<!\w){pattern}(?!\w)", text, re.IGNORECASE):
            line = text[max(0, match.start() - 25) : match.end() + 25].replace("\n", " ")
            found.append(f"{match.group()} → {word}: …{line}…")
    return found


def test_the_english_edition_and_catalogs_use_one_word_per_concept():
    # The panel said "finished turns" and "no-progress check" where the notebooks say "completed turns"
    # and "no-progress detection": two names for one counter, one valve.
    found = [f"{key}: {slip}" for key, (_, en) in CATALOG.items() for slip in english_slips(en)]
    found += [f"{path.name}: {slip}" for path in ENGLISH_SOURCES for slip in english_slips(path.read_text("utf-8"))]
    assert found == []


def test_the_english_notebooks_print_the_courses_words():
    # The emulator's scripted answer said "That took 2 tool-call turns" in the English notebooks' outputs, where
    # every hint says "tool turns": text no catalog or source file holds, so the built notebooks are read.
    books = sorted((ROOT / "notebooks" / "en").glob("*.ipynb"))
    found = [f"{book.name}: {slip}" for book in books for slip in english_slips(book.read_text("utf-8"))]
    assert books and found == []


def test_the_english_pages_use_the_courses_words_too():
    # CONTRIBUTING.md told a contributor "finished turns are state.laps" and filed scenarios under "the
    # no-progress valve"; architecture.md counted "finished tool turns": the words the edition gave up.
    pages = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").rglob("*.md"))]
    found = [f"{page.name}: {slip}" for page in pages for slip in english_slips(page.read_text("utf-8"))]
    assert found == []


def test_the_english_edition_writes_the_courses_name_one_way():
    # Exercise level 2's demo README read "# Agent Harness Basics" where every lesson's (and the lessons'
    # scripted answers) read "# Agent harness basics", as each notebook's header names the course.
    english = "\n".join(en for _, en in CATALOG.values())
    english += "\n".join(path.read_text(encoding="utf-8") for path in ENGLISH_SOURCES)
    assert set(re.findall(r"agent harness basics", english, re.IGNORECASE)) == {"Agent harness basics"}


# Each valve's name, as the glossary gives it (docs/glossary.md, "the four controls"), in each language: what may
# follow "弁3（" or "valve 3 (" when a text names the valve it means.
VALVE_NAMES = {
    "ja": {
        "1": ("最大ターン数",),
        "2": ("トークン予算", "予算上限", "`TokenBudget`"),
        "3": ("無進捗検知",),
        "4": ("承認弁", "承認"),
    },
    "en": {
        "1": ("max turns",),
        "2": ("token budget", "the token budget", "`TokenBudget`"),
        "3": ("no-progress detection",),
        "4": ("approval valve", "the approval valve", "approval"),
    },
}
VALVE_NAMED = {"ja": re.compile(r"弁([1-4]) ?（([^）。、；]*)"), "en": re.compile(r"\b[Vv]alve ([1-4]) \(([^);,]*)")}


def valve_slips(text: str, language: str) -> list[str]:
    """A valve named by its number and, in parentheses, by a name the glossary does not give it."""
    return [
        f"{match.group(0)}: valve {number} is {' / '.join(VALVE_NAMES[language][number])}"
        for match in VALVE_NAMED[language].finditer(text)
        if (number := match.group(1)) and match.group(2).strip() not in VALVE_NAMES[language][number]
    ]


def test_each_valve_goes_by_its_glossarys_name_in_both_editions():
    # A hint named 弁3（無進捗） where every other text says 弁3（無進捗検知）, and one panel said "valve 3 (no
    # progress)": two names for one valve, beside the glossary's.
    found = [
        f"{key}: {slip}"
        for key, pair in CATALOG.items()
        for language, text in zip(("ja", "en"), pair, strict=True)
        for slip in valve_slips(text, language)
    ]
    sources = {
        "ja": sorted((ROOT / "notebooks" / "src").glob("*.py")) + sorted((ROOT / "exercises" / "src").glob("*.py"))
    }
    sources["en"] = ENGLISH_SOURCES
    pages = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").rglob("*.md"))]  # the pages mix both
    sources["ja"] += pages
    sources["en"] += pages
    found += [
        f"{path.name}: {slip}"
        for language, paths in sources.items()
        for path in paths
        for slip in valve_slips(path.read_text("utf-8"), language)
    ]
    assert found == []


def test_a_valve_by_another_name_is_found():
    assert valve_slips("弁3（無進捗）で止まりました", "ja") == ["弁3（無進捗: valve 3 is 無進捗検知"]
    assert valve_slips("弁3（無進捗検知。正当なポーリングは調整）と弁2（予算上限）", "ja") == []
    assert valve_slips("valve 2 (the budget) and Valve 3 (no-progress detection)", "en") == [
        "valve 2 (the budget: valve 2 is token budget / the token budget / `TokenBudget`"
    ]
