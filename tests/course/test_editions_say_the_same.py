"""The English edition says what the Japanese says, where that can be checked without reading either.

A stamp (test_editions.py) records that a translator read the Japanese cell, not that the English keeps
it: a Japanese step, heading or folded answer the English left out, or a limit, count or step number
that is another in English, went unseen. Each English cell keeps its Japanese twin's outline (headings,
table rows, list items, folded answers, code fences) and states the same numbers, in prose and in the
comments and strings of its code (notebooks/edition_prose.py). An honest translation writes numbers its
own way (30万 / 300,000, 三つ / three, 2回目 / second, 問3 / Q3), and that is no drift.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from notebooks import build
from notebooks.edition_prose import models, models_differ, names, names_differ, numbers, numbers_differ, prose_drift
from notebooks.editions import twin_of

ROOT = Path(__file__).resolve().parents[2]
ENGLISH_SOURCES = sorted((ROOT / "notebooks" / "src" / "en").glob("*.py")) + sorted(
    (ROOT / "exercises" / "src" / "en").glob("*.py")
)


@pytest.mark.parametrize("en_path", ENGLISH_SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_english_cell_keeps_its_japanese_outline_and_numbers(en_path):
    assert prose_drift(twin_of(en_path), en_path) == []


def drifted(tmp_path: Path, name: str, old: str, new: str, folder: str = "notebooks") -> list[str]:
    """The course's own twins, copied, with one change made to the English."""
    ja_path = tmp_path / folder / "src" / name
    en_path = twin_of(ja_path)
    en_path.parent.mkdir(parents=True)
    ja_path.write_text((ROOT / folder / "src" / name).read_text(encoding="utf-8"), encoding="utf-8")
    text = (ROOT / folder / "src" / "en" / name).read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    en_path.write_text(text.replace(old, new), encoding="utf-8")
    return [line.replace(str(tmp_path) + "/", "") for line in prose_drift(ja_path, en_path)]


@pytest.mark.parametrize(
    ("name", "old", "new", "expected"),
    [
        (
            "05_full_harness.py",
            "went past 300,000 tokens in 30 turns",
            "went past 200,000 tokens in 30 turns",
            "notebooks/src/en/05_full_harness.py cell 31: the numbers differ: 300000 only in the Japanese; "
            "200000 only in the English",
        ),
        (
            "01_bare_loop.py",
            "(reading 28, writing",
            "(reading 27, writing",
            "notebooks/src/en/01_bare_loop.py cell 1: the numbers differ: 28 only in the Japanese; 27 only in the English",
        ),
        (
            "02_stop_conditions.py",
            "There are seven values.",
            "There are six values.",
            "notebooks/src/en/02_stop_conditions.py cell 10: the numbers differ: 7 only in the Japanese; 6 only in the English",
        ),
        (
            "02_stop_conditions.py",
            "s.step()  # turn 1: reads notes/001.md. The gauge shows 1/3",
            "s.step()  # turn 1: reads notes/001.md. The gauge shows 1/8",
            "notebooks/src/en/02_stop_conditions.py cell 9: the numbers differ: 3 only in the Japanese; 8 only in the English",
        ),
        (
            "01_bare_loop.py",
            "# 2. run every tool_use block of this turn with `run_tools`\n",
            "",
            "notebooks/src/en/01_bare_loop.py cell 25: list items 3 where the Japanese has 4",
        ),
        (
            "03_runaway_fallbacks.py",
            "# ### The budget valve: count after receiving, or estimate before sending?\n",
            "",
            "notebooks/src/en/03_runaway_fallbacks.py cell 32: headings [] where the Japanese has [3]",
        ),
        (
            "05_full_harness.py",
            "The loop on the 2026 API](06_api_2026.ipynb)",
            "The loop on the 2026 API](../06_api_2026.ipynb)",
            "notebooks/src/en/05_full_harness.py cell 1: link 4 (../06_api_2026.ipynb) leads elsewhere "
            "(the Japanese edition) than the Japanese's (06_api_2026.ipynb)",
        ),
        (
            "05_full_harness.py",
            "The loop on the 2026 API](06_api_2026.ipynb)",
            "The loop on the 2026 API](03_runaway_fallbacks.ipynb)",
            "notebooks/src/en/05_full_harness.py cell 1: link 4 (03_runaway_fallbacks.ipynb) leads elsewhere "
            "than the Japanese's (06_api_2026.ipynb)",
        ),
        (
            "02_stop_conditions.py",
            "- write `next_step`, a function",
            "- write `decide_next`, a function",
            "notebooks/src/en/02_stop_conditions.py cell 1: the names in code differ: next_step only in the Japanese; "
            "decide_next only in the English",
        ),
        (
            "01_bare_loop.py",
            "# 2. run every tool_use block of this turn with `run_tools`\n",
            "# 2. run every tool_use block of this turn\n",
            "notebooks/src/en/01_bare_loop.py cell 25: the names in code differ: run_tools only in the Japanese",
        ),
        (
            "04_human_in_the_loop.py",
            "# Asking a person to approve high-impact actions is one of the mitigations OWASP recommends for "
            "**excessive agency** (LLM06: Excessive Agency), one of its risks for LLM applications.\n",
            "",
            "notebooks/src/en/04_human_in_the_loop.py cell 22: the English names none of agency, excessive, llm, "
            "llm06, owasp",
        ),
        (
            "06_api_2026.py",
            "# The default model, `claude-sonnet-5`, thinks",
            "# The default model, `claude-sonnet-4-6`, thinks",
            "notebooks/src/en/06_api_2026.py cell 1: the models named differ: sonnet 5 only in the Japanese; "
            "sonnet 4.6 only in the English",
        ),
    ],
    ids=[
        "a number in prose",
        "a reading time (as 367e060 shipped it)",
        "a number in words",
        "a number in a code comment",
        "a step dropped",
        "a heading dropped",
        "a link to the Japanese edition",
        "a link to another lesson",
        "a function renamed",
        "a function left unnamed",
        "a sentence left out",
        "a model id's version changed",
    ],
)
def test_a_number_or_a_step_the_english_changed_is_named_with_its_cell(tmp_path, name, old, new, expected):
    assert drifted(tmp_path, name, old, new)[0] == expected


def test_a_criterion_dropped_from_an_exercise_is_named(tmp_path):
    old = "# 3. deny still returns an is_error: true tool_result saying the policy forbids it,"
    found = drifted(tmp_path, "level1_tiered_policy.py", old, "# deny still returns", folder="exercises")
    assert found == [
        "exercises/src/en/level1_tiered_policy.py cell 17: list items 2 where the Japanese has 3",
        "exercises/src/en/level1_tiered_policy.py cell 17: the English names none of true",  # "is_error: true" went too
    ]


@pytest.mark.parametrize(
    ("japanese", "english"),
    [
        ("30ターンで30万トークンを超えました", "went past 300,000 tokens in 30 turns"),
        ("3つの基準", "all three criteria"),
        ("2回目の応答", "the second response"),
        ("続きは後半で", "more on that in the second half"),
        ("入力の 1 割の値段", "a tenth of the input price"),
        ("**問3.** 何回ですか", "**Q3.** How many?"),
        ("日付は 8月26日", "the date is 26 August"),
        ("回数を2倍にすると、およそ4倍", "double the requests and it grows about fourfold"),
        ("二重に書く", "writes twice"),
        ("100万トークンあたり", "per million tokens"),
        ("python3 dev.py、claude-sonnet-5、UTF-8 で 1〜64 文字", "1-64 characters"),
        ("一度だけ、最初の1回", "once, the first one"),
    ],
)
def test_numbers_written_each_languages_way_are_the_same_numbers(japanese, english):
    assert numbers_differ(japanese, english) == "", (numbers(japanese, "ja"), numbers(english, "en"))


@pytest.mark.parametrize(
    ("japanese", "english"),
    [
        (
            '`run_agent(client, "札幌の今の気温は？", tools, impls)` を実行',
            'run `run_agent(client, "What is it like in Sapporo?", tools, impls)`',
        ),
        ("`[PASS]` ではなく ○ が出ます", "it prints `[PASS]`"),
        (
            "```python\nnext_step = 1\n```\n`stop_reason` を見ます",
            "```python\nnext_step = 1\n```\nlook at `stop_reason`",
        ),
    ],
)
def test_code_with_words_in_it_may_be_translated(japanese, english):
    assert names_differ(japanese, english) == "", (names(japanese), names(english))


def test_a_time_of_day_and_a_file_number_are_numbers_too():
    assert numbers("10:42 です。notes/004.md", "ja") == numbers("It's 10:42. notes/004.md", "en") == {"10", "42", "4"}
    assert numbers_differ("上限は 8 ターン", "the limit is 20 turns") == (
        "the numbers differ: 8 only in the Japanese; 20 only in the English"
    )


def test_the_build_check_names_the_drifted_cell_and_fails(tmp_path, capsys):
    ja_path = tmp_path / "notebooks" / "src" / "05_full_harness.py"
    drifted(tmp_path, ja_path.name, "went past 300,000 tokens", "went past 200,000 tokens")
    assert build.main(["--check", str(ja_path)]) == 1
    captured = capsys.readouterr()
    assert re.search(r"05_full_harness\.py cell 31: the numbers differ", captured.err)
    assert "cells that say otherwise: 1" in captured.out


def test_a_model_is_the_same_model_by_its_id_or_its_name_and_a_tool_named_claude_is_none():
    assert models("`claude-opus-4-6` と claude-haiku-4-5-20251001、Fable 5 は") == {"opus 4.6", "haiku 4.5", "fable 5"}
    assert (
        models_differ("Opus 4.6 と Haiku 4.5、Fable 5", "claude-opus-4-6, claude-haiku-4-5-20251001 and Fable 5.") == ""
    )
    assert models("claude-code と claude-agent-sdk、`claude-sonnet-5.json`") == {"sonnet 5"}
    assert models_differ("既定の `claude-sonnet-5`", "the default `claude-sonnet-5-5`") == (
        "the models named differ: sonnet 5 only in the Japanese; sonnet 5.5 only in the English"
    )
