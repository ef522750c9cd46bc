"""Notebook 02 (lesson 3) as a learner meets it: shipped with its TODO unwritten (its stored outputs,
which strict nbval holds to a fresh run), with a wrong ``next_step`` typed in (the check names the cause
and the lesson goes on with the reference), and with a right one (the check keeps it and the loop after
it runs the learner's own code). Each run here starts in its own temporary folder, which is also the
kernel's working directory: nothing may assume notebooks/ is the cwd."""

from __future__ import annotations

import re

import pytest

from harness_lab import lessons  # noqa: F401  (adds the lessons' catalog entries)
from harness_lab.text import CATALOG, t
from tests.lessons.notebook_runner import check_output, output_text, run_notebook, stored

NAME = "02_stop_conditions"

# The article's third anti-pattern as a learner might write it: any text means the model is done.
WRONG_NEXT_STEP = """
def next_step(response):
    if any(b.type == "text" for b in response.content):
        return "finish"
    if response.stop_reason == "tool_use":
        return "run_tools"
    return "resend" if response.stop_reason == "pause_turn" else "stop"
"""

# A right version with a trait the reference lacks: it says so when it sends a pause_turn back,
# so the loop cell's output shows whose next_step decided.
TRAIT = "[自分の next_step] pause_turn → resend"
RIGHT_NEXT_STEP = f'''
def next_step(response):
    steps = {{"tool_use": "run_tools", "pause_turn": "resend", "end_turn": "finish", "stop_sequence": "finish"}}
    step = steps.get(response.stop_reason, "stop")
    if step == "resend":
        print("{TRAIT}")
    return step
'''

# Notebook 01's piece as the learner left it in my_harness.py, with a trait of its own.
OWN_RUN_TOOLS = """
import json


def run_tools(content, impls):
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        print("[自分の run_tools]", block.name)
        try:
            output = impls[block.name](**block.input)
            text = output if isinstance(output, str) else json.dumps(output, ensure_ascii=False)
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": text})
        except Exception as err:
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": f"失敗: {err}", "is_error": True})
    return results
"""


def hint(key: str) -> str:
    """The hint's Japanese text up to its first placeholder."""
    return CATALOG[key][0].split("{")[0]


def cell_after(nb, needle: str) -> str:
    """The output of the first code cell whose source contains ``needle``."""
    cell = next(c for c in nb.cells if c.cell_type == "code" and needle in c.source)
    return output_text(cell)


def blocks(text: str) -> list[str]:
    """The compare cell's output, one block per contender (its label line first)."""
    return [part.strip() for part in text.split("--- ") if part.strip()]


@pytest.fixture(scope="module")
def shipped():
    return stored(NAME)


def test_shipped_goes_on_with_the_references(shipped):
    nb = shipped
    assert t("lesson.check.unwritten", name="next_step", show='lessons.show("next_step")') in check_output(
        nb, "next_step"
    )
    assert t("lesson.use.reference", name="run_tools", path="my_harness.py", show='lessons.show("run_tools")') in (
        cell_after(nb, 'lessons.use("run_tools")')
    )
    assert "問い合わせ件数: 4" in cell_after(
        nb, 'run_tools(FIRST["max_tokens"]'
    )  # the cut call, run, wrote a cut report
    driven = cell_after(nb, "def drive(")
    assert "write_file が実行された回数: 0" in driven and TRAIT not in driven


def test_blank_predictions_keep_the_four_counts_back(shipped):
    counted = blocks(cell_after(shipped, "lessons.compare("))
    whats = "モデルへのリクエスト・ツール呼び出しのターン"
    assert [block.splitlines()[1] for block in counted] == [t("lesson.predict.all_blank", whats=whats)] * 4


def test_the_four_contenders_count_as_the_lesson_says(learners):
    nb, _ = learners  # the contenders are the lesson's own loops: the learner's pieces do not enter them
    counted = blocks(cell_after(nb, "lessons.compare("))
    expected = {
        "1. 先頭": (4, 3),
        "2. turns += 1 の直後": (3, 2),
        "3. ツールの後": (3, 3),
        "4. 記事の for range": (3, 3),
    }
    assert [block.splitlines()[0] for block in counted] == list(expected)
    for block, (requests, turns) in zip(counted, expected.values()):
        assert t("lesson.predict.wrong", what="モデルへのリクエスト", guess=0, actual=requests) in block
        assert t("lesson.predict.wrong", what="ツール呼び出しのターン", guess=0, actual=turns) in block


def test_a_row_deleted_from_the_guess_table_is_named_and_the_other_rows_still_compare(tmp_path):
    first = '    "1. 先頭": {"モデルへのリクエスト": None, "ツール呼び出しのターン": None},  # ← 予想を書く\n'
    nb = run_notebook(NAME, tmp_path, guess=0, edits={first: ""})
    counted = blocks(cell_after(nb, "lessons.compare("))
    rows = t("lesson.predict.joiner").join(["2. turns += 1 の直後", "3. ツールの後", "4. 記事の for range"])
    assert counted[0].splitlines() == ["1. 先頭", t("lesson.predict.no_row", row="1. 先頭", rows=rows)]
    assert len(counted) == 4 and all(
        t("lesson.predict.wrong", what="モデルへのリクエスト", guess=0, actual=3) in b for b in counted[1:]
    )


def test_the_package_stop_leaves_a_history_that_resumes(shipped):
    resumed = cell_after(shipped, "s.resume(limit=5)")
    assert "履歴の最後: user ['tool_result']" in resumed and "{'path': 'notes/004.md'}" in resumed
    assert "Stopped (max_turns) / 終わったターン 5 / リクエスト 6 回" in resumed


@pytest.fixture(scope="module")
def learners(tmp_path_factory):
    """A learner's run: notebook 01's run_tools kept, a wrong next_step typed in, every prediction 0."""
    workdir = tmp_path_factory.mktemp("learners")
    (workdir / "my_harness.py").write_text(OWN_RUN_TOOLS, encoding="utf-8")
    return run_notebook(NAME, workdir, fill={"next_step": WRONG_NEXT_STEP}, guess=0), workdir


def test_wrong_next_step_gets_its_hint_and_the_learners_run_tools_from_notebook_01_is_used(learners):
    nb, tmp_path = learners
    verdict = check_output(nb, "next_step")
    assert "×" in verdict and hint("lesson.l3.next_step.tool_use") in verdict
    assert t("lesson.check.go_on_with_reference", name="next_step", show='lessons.show("next_step")') in verdict
    assert "# ==== next_step" not in (tmp_path / "my_harness.py").read_text(encoding="utf-8")

    assert t("lesson.use.mine", name="run_tools", path="my_harness.py") in cell_after(nb, 'lessons.use("run_tools")')
    driven = cell_after(nb, "def drive(")
    assert "[自分の run_tools] read_file" in driven  # notebook 01's piece ran the tools
    # the reference decided: it ran to the answer
    assert re.search(
        r"^lesson6 → finish（リクエスト \d+ 回）\n +最後の stop_reason: end_turn$", driven, re.MULTILINE
    ), driven
