"""Notebook 04 (lesson 5) as a learner runs it: the lesson's claims visible in the shipped notebook's
stored outputs (strict nbval holds them to a fresh run), and a wrong approval piece checked, named and
replaced, run from a folder that is not notebooks/ (about 10 s). The right piece is the course chain's
(test_course_chain.py)."""

from __future__ import annotations

import pytest

from tests.lessons.notebook_runner import check_output, output_text, run_notebook, stored

NAME = "04_human_in_the_loop"

# The colleague's wiring from lesson 6, typed into the TODO cell: it runs the tool, then asks.
ASKS_AFTER_RUNNING = """
HIGH_IMPACT = {"write_file", "http_post", "delete_file"}


def run_tool_uses(content, impls, approve):
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        output = impls[block.name](**block.input)
        if block.name in HIGH_IMPACT and not approve(block.name, block.input):
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": "拒否", "is_error": True})
        else:
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": str(output)})
    return results
"""

# A right version whose denial text only the learner's function writes, so a later cell that prints
# it shows whose function ran.
MINE = "書き込みは見送りました（自作の承認弁）"
ASKS_FIRST = f'''
HIGH_IMPACT = {{"write_file", "http_post", "delete_file"}}


def run_tool_uses(content, impls, approve):
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        if block.name in HIGH_IMPACT and not approve(block.name, block.input):
            results.append({{"type": "tool_result", "tool_use_id": block.id, "content": "{MINE}", "is_error": True}})
            continue
        try:
            results.append({{"type": "tool_result", "tool_use_id": block.id,
                            "content": str(impls[block.name](**block.input))}})
        except Exception as err:
            results.append({{"type": "tool_result", "tool_use_id": block.id, "content": str(err), "is_error": True}})
    return results
'''


def cell_with(nb, text: str):
    """The one code cell whose source contains ``text``."""
    found = [c for c in nb.cells if c.cell_type == "code" and text in c.source]
    assert len(found) == 1, f"{len(found)} cells contain {text!r}"
    return found[0]


def test_shipped_notebook_shows_what_the_lesson_says():
    nb = stored(NAME)
    assert "まだ書かれていません" in check_output(nb, "run_tool_uses")
    # Ctrl-C mid-tool: the turn is kept, and no call ran twice (4 tool_use blocks, 4 runs).
    assert "ツールの実行中に中断しました" in output_text(cell_with(nb, "interrupt_main"))
    assert "tool_use 4 個、ツール関数が走ったのは 4 回" in output_text(cell_with(nb, "ran)} 回"))
    # The instruction goes after the results; before them the API refuses.
    assert "['tool_result', 'text']" in output_text(cell_with(nb, "swapped ="))
    assert "400" in output_text(cell_with(nb, "swapped ="))
    # Asking before running: nothing written when the answer is no; the colleague's wiring: already there.
    assert "この時点の sandbox/: []）" in output_text(cell_with(nb, "runner=run_tool_uses)"))
    colleague = output_text(cell_with(nb, "runner=run_tool_uses_after"))  # no guess yet: nothing of the answer
    assert "がまだ空欄なので、答えは伏せておきます" in colleague and "→ いいえ\n" in colleague
    assert "report.md" not in colleague and "sandbox/ の中身" not in colleague
    # The seed's approver fails open on いいえ; read_answer denies it and asks again on いいです.
    table = output_text(cell_with(nb, "read_answer(answer)"))
    assert "'いいえ' → レッスン6の判定: 許可 ／ read_answer: 拒否" in table
    assert "'ｎ' → レッスン6の判定: 許可 ／ read_answer: 拒否" in table
    assert "'いいです' → レッスン6の判定: 許可 ／ read_answer: 聞き直す" in table
    # The flipped denial ran write_file in the fork; the original still ends without it.
    fork = output_text(cell_with(nb, "flip=True"))
    assert "sandbox/ の中身: ['report.md']" in fork
    assert "ファイルへの書き込みは行わず" in fork and "sandbox/report.md にレポートを保存しました" in fork


def test_asking_after_running_gets_the_colleagues_hint_and_the_lesson_goes_on(tmp_path):
    nb = run_notebook(NAME, tmp_path, fill={"run_tool_uses": ASKS_AFTER_RUNNING}, guess=0)
    colleague = output_text(cell_with(nb, "runner=run_tool_uses_after"))  # a guess made: the answer shown
    assert "予想 0 → 実際は 1" in colleague
    assert "この時点の sandbox/: ['report.md']" in colleague and "sandbox/ の中身: ['report.md']" in colleague
    verdict = check_output(nb, "run_tool_uses")
    assert "× まだです: 高インパクトなツールは、実行する「前」に approve に尋ねる" in verdict
    assert "write_file を実行してから尋ねています" in verdict
    assert "参考実装の run_tool_uses で進みます" in verdict
    # The loop after it runs the reference: its denial text, and nothing written when asked.
    used = output_text(cell_with(nb, "runner=run_tool_uses)"))
    assert "実行していません" in used and "この時点の sandbox/: []）" in used
    assert not (tmp_path / "my_harness.py").exists()


if __name__ == "__main__":
    raise SystemExit(pytest.main([__file__, "-q"]))
