"""Notebook 06 (lesson 7, the loop on the 2026 API) as shipped: its stored outputs show what its prose says.

The notebook is not executed here: strict nbval (CI) re-runs it and compares every output with the
stored one, and the course chain (test_course_chain.py) runs it with a learner's pieces and guesses. These tests
read the stored outputs and hold them to the lesson's claims, so a change in the emulator that made a
claim false (a cached run no cheaper, an edit that does not re-write the cache) fails here by name.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

import harness_lab.lessons  # noqa: F401  (adds the checks' strings to the catalog)
from harness_lab.text import t
from tests.lessons.notebook_runner import NOTEBOOKS, output_text, todo_cells
from tests.lessons.sitting import stated

NAME = "06_api_2026"

# A right stop_message with a mark only the learner's makes (the chain test looks for it).
MY_MARK = "[自分の停止メッセージ]"
RIGHT_STOP_MESSAGE = f'''
def stop_message(response):
    text = hl.text_of(response.content)
    details = response.stop_details
    if response.stop_reason == "refusal":
        category = details.category if details and details.category else "分類なし"
        explanation = details.explanation if details and details.explanation else "説明なし"
        return f"{MY_MARK} 断られました（{{category}}）: {{explanation}}"
    if response.stop_reason in ("model_context_window_exceeded", "max_tokens"):
        return f"{MY_MARK} {{response.stop_reason}} で途中まで: {{text}}"
    return None
'''


@pytest.fixture(scope="module")
def nb():
    return nbformat.read(NOTEBOOKS / f"{NAME}.ipynb", as_version=4)


def out(nb, needle: str) -> str:
    """The stored output of the first code cell whose source contains ``needle``."""
    return output_text(next(c for c in nb.cells if c.cell_type == "code" and needle in c.source))


def test_the_size_the_header_and_the_setup_keep_the_courses_rules(nb):
    assert len(nb.cells) <= 40
    header = nb.cells[0].source
    assert f"**所要時間の目安:** {stated(nb)}" in header and "約30分" in header
    assert "ノートブック 6 / 6" in header and "**前提:**" in header
    setup = next(c for c in nb.cells if c.cell_type == "code" and "import harness_lab as hl" in c.source)
    assert 'hl.use_language("ja")' in setup.source
    assert list(todo_cells(nb)) == ["stop_message"]
    assert not any(o.get("output_type") == "error" for c in nb.cells if c.cell_type == "code" for o in c.outputs)


def test_the_reply_starts_with_a_signed_thinking_block_billed_as_output(nb):
    shown = out(nb, "for block in response.content:")
    assert shown.splitlines()[0].startswith("thinking  本文: ''  signature: ")
    thinking, total = map(int, re.search(r"思考: (\d+) / (\d+)", shown).groups())
    assert 0 < thinking < total


def test_the_answer_waits_for_a_guess(nb):
    shown = out(nb, "TRIES = {")
    assert "200" not in shown and "空欄" in shown and "→" not in shown  # no guess yet: nothing of the answers


def _runs(nb) -> dict[str, tuple[int, int, int, float]]:
    """The cost table, one column per run and one row per figure, its label last: a run's figures by its name."""
    lines = out(nb, "cached = run_loop(").splitlines()
    top = next(i for i, line in enumerate(lines) if "キャッシュなし" in line)
    rows = {line.split()[-1]: line.split()[:-1] for line in lines[top + 1 :] if line.split()}

    def number(text: str) -> float:
        return float(text.replace(",", "").lstrip("$"))

    figures = [[number(v) for v in rows[label]] for label in ("リクエスト", "書き込み", "読み込み", "料金")]
    return {
        name: (int(n), int(w), int(r), usd) for name, n, w, r, usd in zip(lines[top].split(), *figures, strict=True)
    }


def test_the_cached_twenty_turns_cost_a_fraction_of_the_plain_ones(nb):
    runs = _runs(nb)
    assert runs["キャッシュなし"][0] == runs["キャッシュあり"][0] == 20
    assert runs["キャッシュなし"][1:3] == (0, 0) and runs["キャッシュあり"][2] > 0
    assert runs["キャッシュあり"][3] < runs["キャッシュなし"][3] / 2
    plot = next(c for c in nb.cells if c.cell_type == "code" and "compare_runs(" in c.source)
    assert any("image/png" in o.get("data", {}) for o in plot.outputs)


def test_editing_the_first_message_re_writes_the_cache_from_there(nb):
    reads_line, *diagnosed = out(nb, "書き換えた実行の").splitlines()
    reads = [int(x) for x in re.findall(r"\d+", reads_line.split(":", 1)[1])]
    assert len(reads) == 20 and reads[10] == 0  # the 11th request, right after the edit
    assert all(r > 0 for r in reads[2:10] + reads[11:])
    assert reads[11] > reads[9]  # after the re-write the prefix grows again
    # cache diagnostics name that request alone, and the earlier prompt it cost: more than request 10 read
    [line] = diagnosed
    found = re.fullmatch(r"11回目のキャッシュ診断: messages_changed（キャッシュに載らなかった入力 約([\d,]+)）", line)
    assert found and int(found.group(1).replace(",", "")) > reads[9]


def test_context_editing_stops_the_prompt_growing_and_compaction_meets_an_old_next_step(nb):
    full, trimmed = (
        [int(x) for x in re.findall(r"\d+", line.split(":", 1)[1])]
        for line in out(nb, "trimmed = run_loop(").splitlines()
    )
    assert len(full) == len(trimmed) and trimmed[-1] < full[-1] / 2
    over = next(i for i, tokens in enumerate(full) if tokens > 3000)  # the edit's trigger: 3,000 input tokens
    assert trimmed[:over] == full[:over] and trimmed[over] < full[over]
    assert "compaction ['compaction'] → next_step: stop" in out(nb, "paused = ")


def test_the_task_budget_advises_and_the_token_budget_stops(nb):
    shown = out(nb, "advised = run_loop(")
    requests = int(re.search(r"タスク予算 20,000: リクエスト (\d+) 回", shown).group(1))
    billed = int(re.search(r"請求の累計は ([\d,]+) トークン", shown).group(1).replace(",", ""))
    # advisory and counted on what the model saw: the bill of the resent history runs far past it
    assert requests > 5 and billed > 20000 * 5
    assert "TokenBudget 6,000: リクエスト" in shown and "token_budget — トークン予算 6000 に達した" in shown


def test_the_stop_reasons_their_next_step_and_the_reference_stop_message(nb):
    shown = out(nb, "stops = {}")
    assert re.search(r"pause_turn\s+next_step=resend", shown) and re.search(r"refusal\s+next_step=stop", shown)
    assert "category='cyber'" in shown
    verdict = out(nb, 'lessons.check("stop_message"')
    assert t("lesson.check.unwritten", name="stop_message", show='lessons.show("stop_message")') in verdict
    used = out(nb, "for r in stops.values():")
    assert (
        re.search(r"pause_turn\s+→ None", used)
        and "This request was declined because it could enable cyber harm." in used
    )
    assert "ここまでの答え: 長い資料を要約します。第1章では" in used


def test_the_harness_runs_the_2026_scenarios_without_a_400(nb):
    shown = out(nb, 'lessons.use("run_agent", lesson=6)')
    assert "interleaved: ターンの content [['thinking', 'tool_use'], ['thinking', 'tool_use']] → Finished" in shown
    assert "redacted_thinking: ターンの content [['redacted_thinking', 'tool_use']] → Finished" in shown
    assert "refusal: ターンの content [] → Stopped" in shown
    assert "400" not in shown


def test_the_source_is_what_was_built():
    source = (Path(NOTEBOOKS) / "src" / f"{NAME}.py").read_text(encoding="utf-8")
    built = nbformat.read(NOTEBOOKS / f"{NAME}.ipynb", as_version=4)
    code = [c.source for c in built.cells if c.cell_type == "code"]
    assert all(cell.splitlines()[0] in source for cell in code if cell.strip())
