"""Notebook 03 (lesson 4) as a learner meets it: the shipped notebook (its stored outputs, which strict
nbval holds to a fresh run) goes on with the reference ``signature_of``; a wrong one typed into the TODO
cell, run from a working directory that is not notebooks/, gets the hint that names its cause and is not
used. A right one passing, kept in my_harness.py and printed with next is the course chain's
(test_course_chain.py)."""

from __future__ import annotations

import pytest

from tests.lessons.notebook_runner import check_output, output_text, run_notebook, stored, todo_cells

NAME = "03_runaway_fallbacks"

# The lesson's classic slip: JSON with the keys in the order the model wrote them (JSON.stringify).
KEYS_AS_WRITTEN = """import json


def signature_of(content):
    return " | ".join(sorted(f"{b.name}({json.dumps(b.input, ensure_ascii=False)})" for b in content if b.type == "tool_use"))
"""

# Right, and spelt unlike the reference, so its output can be told apart from the reference's.
MINE = """import json


def signature_of(content):
    calls = [b for b in content if b.type == "tool_use"]
    return " + ".join(sorted(f"{b.name}<{json.dumps(b.input, ensure_ascii=False, sort_keys=True)}>" for b in calls))
"""

# Turn 1's call has its keys as query, limit: only a signature that sorts them prints them limit first.
REFERENCE_LINE = 'ターン 1 の署名: search({"limit": 5, "query": "締め切り"})'


def cell_after_check(nb) -> str:
    """What the cell right after signature_of's check printed (it compares two turns' signatures)."""
    return output_text(nb.cells[todo_cells(nb)["signature_of"] + 2])


def everything(nb) -> str:
    return "\n".join(output_text(cell) for cell in nb.cells if cell.cell_type == "code")


@pytest.fixture(scope="module")
def shipped():
    return stored(NAME)


def test_shipped_notebook_goes_on_with_the_reference(shipped):
    nb = shipped
    assert "△ signature_of はまだ書かれていません" in check_output(nb, "signature_of")
    assert REFERENCE_LINE in cell_after_check(nb)
    assert "前のターンと同じ署名 → 空回り: True" in cell_after_check(nb)


def test_shipped_notebook_shows_each_runaway_and_its_stop(shipped):
    text = everything(shipped)
    # the dead loop: the API's 400 on the loop's second lap, the third request; a silent mock runs to the cap
    assert "400 messages.3.content.1: `tool_use` ids must be unique" in text  # content.0 is the thinking block
    assert "予想（モデルへのリクエスト（断られた回も数える））がまだ空欄なので" in text  # the answer kept back
    assert "モックへのリクエスト 7 回、履歴に積まれた同じ応答 6 個" in text
    # spinning stopped by NoProgress, and the fork with a corrected result finishes
    assert "空回りと判定し、自分から停止します" in text
    assert "終わり方: ◎ 完了 (end_turn): 要点: 金曜 10 時" in text
    assert "Finished — 要点: 金曜 10 時" in text
    # the budget: after counting it overshoots, before sending it stays inside; the history resumes
    assert "予算 20000 を超える" in text and "送らずに停止します" in text
    assert "履歴の最後のメッセージ: user ['tool_result']" in text
    assert "再開後: token_budget ／ 終わったターン 7" in text


def test_keys_in_written_order_get_the_key_order_hint_and_are_not_used(tmp_path):
    nb = run_notebook(NAME, tmp_path, fill={"signature_of": KEYS_AS_WRITTEN}, guess=0)
    text = everything(nb)  # a learner who guessed: the answers show
    assert "予想 0 → 実際は 3" in text and "予想 0 → 実際は 5" in text and "予想 0 → 実際は 4" in text
    verdict = check_output(nb, "signature_of")
    assert "× まだです: 同じ呼び出しは、引数のキーの順番が違っても同じ署名" in verdict
    assert "json.dumps(block.input, sort_keys=True) で文字列にします" in verdict
    assert "参考実装の signature_of で進みます" in verdict
    assert REFERENCE_LINE in cell_after_check(nb)  # the lesson went on with the reference
    assert "前のターンと同じ署名 → 空回り: True" in cell_after_check(nb)
    assert not (tmp_path / "my_harness.py").exists()
