"""Japanese sentences broken over source lines read without stray spaces in the built notebooks."""

import json
from pathlib import Path

import pytest

from notebooks.japanese_prose import joined_soft_breaks

ROOT = Path(__file__).resolve().parents[2]
JAPANESE_NOTEBOOKS = sorted(
    [*ROOT.glob("notebooks/*.ipynb"), *ROOT.glob("exercises/*.ipynb"), *ROOT.glob("exercises/solutions/*.ipynb")]
)


@pytest.mark.parametrize(
    ("written", "shown"),
    [
        ("結果を\n返します。", "結果を返します。"),  # one sentence over two lines: no space between them
        ("（省略）は\nさらに進んで", "（省略）はさらに進んで"),
        ("`content` を\nまるごと", "`content` をまるごと"),
        ("返すのは `tool_result`\nです", "返すのは `tool_result`\nです"),  # beside Latin text a space is right
        ("返します。\nensure_ascii は", "返します。ensure_ascii は"),  # after 。 nothing is spaced
        ("拾う、\n`signature`", "拾う、`signature`"),
        ("一時停止する\n**ジェネレーター**", "一時停止する**ジェネレーター**"),  # markup, then Japanese
        ("使うのは\nrun_tools", "使うのは\nrun_tools"),  # a Japanese word, then a Latin one: a space
        ("説明です。\n- 項目", "説明です。\n- 項目"),  # a list after a sentence stays a list
        ("- 長い項目の\n  説明です", "- 長い項目の説明です"),  # a list item's indented rest
        ("- 項目です。\n  - 下の項目", "- 項目です。\n  - 下の項目"),  # a nested item stays an item
        ("答えは 400 です。\n</details>", "答えは 400 です。\n</details>"),  # HTML keeps its own line
        ("- 一つ目\n- 二つ目", "- 一つ目\n- 二つ目"),  # list items stay items
        ("## 見出し\n本文です", "## 見出し\n本文です"),  # a heading never swallows its paragraph
        ("```\n# 日本語の\n# コメント\n```", "```\n# 日本語の\n# コメント\n```"),  # code is code
        ("段落です。\n\n次の段落", "段落です。\n\n次の段落"),  # a blank line is a paragraph break
        ("改行する。  \n次", "改行する。  \n次"),  # a hard break (two spaces) is kept
    ],
)
def test_a_break_inside_a_japanese_sentence_is_joined_and_no_other(written, shown):
    assert joined_soft_breaks(written) == shown


@pytest.mark.parametrize("path", JAPANESE_NOTEBOOKS, ids=lambda p: p.name)
def test_the_built_japanese_notebooks_have_no_break_inside_a_sentence(path):
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    broken = [
        i
        for i, cell in enumerate(cells)
        if cell["cell_type"] == "markdown" and joined_soft_breaks("".join(cell["source"])) != "".join(cell["source"])
    ]
    assert not broken, f"{path.name}: markdown cells {broken} break a sentence (rebuild with notebooks/build.py)"
