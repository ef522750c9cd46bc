"""The whole course in one folder, as a learner does it: notebooks 01 to 06 in order, every TODO written
right, the workbook carried from one to the next, and notebook 05 stepping and tabling the learner's
own harness, built from the pieces the learner wrote in 02 to 04 (issue 15's acceptance); at the end
the workbook imports and runs every piece in a fresh process (issue 30.2)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import harness_lab.lessons  # noqa: F401  (adds the checks' strings to the catalog)
from harness_lab.lessons import PIECES, Workbook
from harness_lab.text import t
from tests.lessons import test_notebook_02 as n02
from tests.lessons import test_notebook_03 as n03
from tests.lessons import test_notebook_04 as n04
from tests.lessons import test_notebook_05 as n05
from tests.lessons.notebook_runner import check_output, output_text, run_notebook
from tests.lessons.test_notebook_01 import RIGHT_RUN_AGENT, RIGHT_RUN_TOOLS
from tests.lessons.test_notebook_02 import RIGHT_NEXT_STEP
from tests.lessons.test_notebook_03 import MINE as RIGHT_SIGNATURE
from tests.lessons.test_notebook_04 import ASKS_FIRST
from tests.lessons.test_notebook_05 import MY_AGENT_RIGHT, MY_TURN, READ_RESOLVED, RUN_AGENT_RIGHT, cell_with
from tests.lessons.test_notebook_06 import MY_MARK, RIGHT_STOP_MESSAGE

COURSE = [
    ("01_bare_loop", {"run_tools": RIGHT_RUN_TOOLS, "run_agent": RIGHT_RUN_AGENT}),
    ("02_stop_conditions", {"next_step": RIGHT_NEXT_STEP}),
    ("03_runaway_fallbacks", {"signature_of": RIGHT_SIGNATURE}),
    ("04_human_in_the_loop", {"run_tool_uses": ASKS_FIRST}),
    ("05_full_harness", {"read_file": READ_RESOLVED, "run_agent": RUN_AGENT_RIGHT, "my_agent": MY_AGENT_RIGHT}),
    ("06_api_2026", {"stop_message": RIGHT_STOP_MESSAGE}),
]


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("learner")
    # 05's table holds its prediction's answer, and 06 shows its refusals only once a guess is made, so
    # that learner writes guesses down there (the others stay blank).
    guesses = {"05_full_harness": 0, "06_api_2026": 400}
    return workdir, {name: run_notebook(name, workdir, fill, guess=guesses.get(name)) for name, fill in COURSE}


@pytest.mark.parametrize("name, fill", COURSE, ids=[name for name, _ in COURSE])
def test_every_piece_passes_where_it_is_written(course, name, fill):
    _, notebooks = course
    for piece in fill:
        verdict = check_output(notebooks[name], piece)
        assert "◎" in verdict and "×" not in verdict, verdict


def test_the_workbook_holds_the_whole_harness_at_the_end(course):
    workdir, _ = course
    assert set(Workbook(workdir / "my_harness.py").pieces()) == set(PIECES)


def test_the_saved_workbook_runs_every_piece_in_a_fresh_process(course):
    workdir, _ = course
    script = Path(__file__).with_name("fresh_workbook.py")
    done = subprocess.run(
        [sys.executable, str(script), str(workdir / "my_harness.py")], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stdout + done.stderr
    ran = [line for line in done.stdout.splitlines() if line in PIECES]  # the learner's own prints aside
    assert ran == [
        "run_tools",
        "next_step",
        "signature_of",
        "run_tool_uses",
        "read_file",
        "run_agent",
        "my_agent",
        "stop_message",
    ]


def test_notebook_05_assembles_the_learners_own_pieces(course):
    _, notebooks = course
    nb = notebooks["05_full_harness"]
    for piece in ("next_step", "run_tool_uses", "signature_of"):
        assert t("lesson.use.mine", name=piece, path="my_harness.py") in output_text(
            cell_with(nb, f'lessons.use("{piece}")')
        )


def test_notebook_06_runs_the_learners_own_harness_on_the_2026_api(course):
    _, notebooks = course
    nb = notebooks["06_api_2026"]
    for piece in ("next_step", "run_agent"):  # the learner's own, from the workbook
        assert t("lesson.use.mine", name=piece, path="my_harness.py") in output_text(
            cell_with(nb, f'lessons.use("{piece}"')
        )
    ran = output_text(cell_with(nb, 'lessons.use("run_agent", lesson=6)'))
    assert "redacted_thinking: ターンの content [['redacted_thinking', 'tool_use']] → Finished" in ran
    assert "400" not in ran
    assert MY_MARK in output_text(cell_with(nb, "for r in stops.values():"))


def test_notebook_06_accepts_only_the_turn_sent_back_whole_once_a_guess_is_made(course):
    _, notebooks = course
    shown = output_text(cell_with(notebooks["06_api_2026"], "TRIES = {"))
    assert "思考ブロックを落とす → messages.1.content.0.type: Expected `thinking` or `redacted_thinking`" in shown
    assert "signature を書き換える → messages.1.content.0: Invalid `signature` in `thinking` block" in shown
    assert "そのまま返す →" not in shown  # accepted
    assert t("lesson.predict.wrong", what="そのまま返す", guess=400, actual=200) in shown


# Each notebook's right version, as the course's learner wrote it: kept, saved and used where the
# lesson says (the runs above, shared, instead of one notebook run per notebook).


def test_right_next_step_is_kept_and_drives_the_loop(course):
    tmp_path, notebooks = course
    nb = notebooks["02_stop_conditions"]
    verdict = check_output(nb, "next_step")
    assert "◎" in verdict and "×" not in verdict
    assert "# ==== next_step (lesson 3) ====" in (tmp_path / "my_harness.py").read_text(encoding="utf-8")
    driven = n02.cell_after(nb, "def drive(")
    assert driven.count(n02.TRAIT) == 1 and "write_file が実行された回数: 0" in driven


def test_a_right_signature_passes_is_kept_and_is_used_next(course):
    tmp_path, notebooks = course
    nb = notebooks["03_runaway_fallbacks"]
    verdict = check_output(nb, "signature_of")
    assert "×" not in verdict and "◎ 全部できました" in verdict
    used = n03.cell_after_check(nb)
    assert 'ターン 1 の署名: search<{"limit": 5, "query": "締め切り"}>' in used
    assert "前のターンと同じ署名 → 空回り: True" in used
    kept = (tmp_path / "my_harness.py").read_text(encoding="utf-8")
    assert "# ==== signature_of (lesson 4) ====" in kept and '" + ".join' in kept


def test_a_right_version_passes_is_saved_and_is_what_the_loop_runs(course):
    tmp_path, notebooks = course
    nb = notebooks["04_human_in_the_loop"]
    verdict = check_output(nb, "run_tool_uses")
    assert verdict.count("○ できています") == 3 and "◎ 全部できました" in verdict
    assert f"モデルに届いた結果: {n04.MINE}" in output_text(cell_with(nb, "runner=run_tool_uses)"))
    saved = (tmp_path / "my_harness.py").read_text(encoding="utf-8")
    assert "def run_tool_uses(content, impls, approve):" in saved and n04.MINE in saved


def test_right_versions_pass_and_the_stepper_and_table_run_them(course):
    tmp_path, notebooks = course
    nb = notebooks["05_full_harness"]
    for piece in ("read_file", "run_agent", "my_agent"):
        out = check_output(nb, piece)
        assert "×" not in out and "◎" in out, out
    # The learner's read_file refuses the link in its own words; the Stepper and the table step their harness.
    assert f"link.txt       → 拒否: {n05.MY_REFUSAL}: link.txt" in output_text(cell_with(nb, "try_read(read_file)"))
    assert f"{MY_TURN} 1" in output_text(cell_with(nb, "mine.step()"))
    table = output_text(cell_with(nb, "LOOPS = {"))
    assert f"{MY_TURN} 8" in table  # abab and never_ending: eight turns of the learner's own loop
    assert (
        "| `budget_burning` | 30ターンで打ち切り・30回・30ターン・417,615 | token_budget・6回・5ターン・21,099 | token_budget・6回・5ターン・"
        in table
    )
    # The capstone's demo ran the learner's my_agent through their run_agent.
    assert f"{MY_TURN} 2" in output_text(cell_with(nb, "OUTBOX = []"))
    # The pieces are in the learner's workbook, with the import the notebook made for them; the last cell lists them.
    saved = (tmp_path / "my_harness.py").read_text(encoding="utf-8")
    assert 'def read_file(path, root="."):' in saved and "from pathlib import Path" in saved and MY_TURN in saved
    assert "my_agent, read_file, run_agent" in output_text(cell_with(nb, "lessons.workbook()"))
