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

ROOT = Path(__file__).resolve().parents[1]
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
    r"シグネチャ": "署名",
    r"終了条件": "停止条件",
    r"ティア": "段階",
    r"(?<!合)鍵": "API キー",
    r"危険なツール": "高インパクトなツール",
    r"あなたは": "（主語を立てずに）",
    r"指させる": "名指しさせる",
    r"止めた者": "止めたもの",
    r"(?:あなたの|自分の) ?`?harness\b": "`run_agent`（学習者のループは、01 から 05 まで同じ名前）",
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
