"""The grading command: a verdict that depends only on the learner's answer cells.

``python -m harness_lab.grading NOTEBOOK...`` (``python3 dev.py grade``) runs the cells tagged
``setup`` / ``answer`` in a fresh process with the package's own grade code. These tests play the
learner who saves an unsolved notebook, clears it, pastes the solution's output, rewrites the
grade cell, or leaves a runaway in an answer cell; and the instructor's caller who needs a status.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from harness_lab.grading import grade_notebook
from harness_lab.grading import notebook as notebook_module
from harness_lab.text import speaking, t
from notebooks.exercise_build import GRADE_TAG
from tests.lessons.notebook_runner import output_text
from tests.process_ids import seen_pid  # noqa: F401 (listening before the grade forks its jobs)
from tests.safety_net import gives_up_after

ROOT = Path(__file__).resolve().parents[2]
EXERCISES = ROOT / "exercises"
NOTEBOOKS = [f"{p.stem}.ipynb" for p in sorted((EXERCISES / "src").glob("*.py"))]
LEVEL1, LEVEL2 = "level1_tiered_policy.ipynb", "level2_missing_gate.ipynb"
ALL_PASSED = t("grade.all_passed", total=3)


def read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(path, as_version=4)


def write(nb, path: Path) -> Path:
    nbformat.write(nb, path)
    return path


def grade_cell(nb):
    return next(c for c in nb.cells if GRADE_TAG in c.metadata.get("tags", []))


def cell_with(nb, text: str):
    return next(c for c in nb.cells if c.cell_type == "code" and text in c.source)


def command(*args: str | Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "harness_lab.grading", *map(str, args)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )


def code_cell_number(nb, text: str) -> int:
    """The number a hint gives the code cell holding ``text`` (counted from 1, code cells only)."""
    return 1 + next(i for i, c in enumerate(c for c in nb.cells if c.cell_type == "code") if text in c.source)


def test_an_unsolved_starter_executed_and_saved_fails(tmp_path):
    # what JupyterLab's "run all" and autosave leave behind: every output, the grade cell's failure included
    for name in NOTEBOOKS:
        nb = read(EXERCISES / name)
        NotebookClient(
            nb, timeout=120, kernel_name="python3", allow_errors=True, resources={"metadata": {"path": str(EXERCISES)}}
        ).execute()
        saved = write(nb, tmp_path / name)
        [error] = [o for o in grade_cell(read(saved)).outputs if o.output_type == "error"]
        assert error.ename == "GradeFailed" and error.traceback == [t("grade.failed", numbers="1・2・3")]
        grade = grade_notebook(saved)
        assert grade.status == "ok" and not grade.passed
        assert grade.reports[0].failed() == [1, 2, 3], grade.text()


@pytest.mark.parametrize("name", list(NOTEBOOKS))
def test_a_starter_with_its_outputs_cleared_fails(tmp_path, name):
    nb = read(EXERCISES / name)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    grade = grade_notebook(write(nb, tmp_path / name))
    assert grade.status == "ok" and grade.reports[0].failed() == [1, 2, 3]


@pytest.mark.parametrize("name", list(NOTEBOOKS))
def test_the_solutions_output_pasted_into_the_grade_cell_fails(tmp_path, name):
    nb = read(EXERCISES / name)
    solved = grade_cell(read(EXERCISES / "solutions" / name))
    assert ALL_PASSED in output_text(solved)
    grade_cell(nb).outputs = copy.deepcopy(solved.outputs)
    grade_cell(nb).execution_count = solved.execution_count
    grade = grade_notebook(write(nb, tmp_path / name))
    assert not grade.passed and grade.reports[0].failed() == [1, 2, 3]


def test_a_rewritten_grade_cell_or_a_redefined_checker_changes_nothing(tmp_path):
    nb = read(EXERCISES / LEVEL1)
    grade_cell(nb).source = f'print("""{ALL_PASSED}""")'
    assert not grade_notebook(write(nb, tmp_path / "grade_cell.ipynb")).passed
    nb = read(EXERCISES / LEVEL1)
    cell = cell_with(nb, "DEFAULT_TIER = None")  # an answer cell, so it runs
    cell.source += (
        "\n\ndef check_level1(*args, **kwargs):\n    print('◎ 3つの基準をすべて満たしました。お見事です！')\n"
    )
    grade = grade_notebook(write(nb, tmp_path / "checker.ipynb"))
    assert grade.status == "ok" and grade.reports[0].failed() == [1, 2, 3]


def test_the_reference_solutions_pass_and_the_command_exits_non_zero_on_any_failure(tmp_path):
    solutions = [EXERCISES / "solutions" / name for name in NOTEBOOKS]
    done = command(*solutions)  # the one grading of the Japanese solutions in this file
    assert done.returncode == 0, done.stdout + done.stderr
    reports = done.stdout.split("== ")[1:]  # one per notebook, its header first, then the summary line
    assert [report.split("（")[0] for report in reports] == [str(path) for path in solutions], done.stdout
    assert [report.splitlines()[-1] for report in reports[:-1]] == [ALL_PASSED] * (len(solutions) - 1), done.stdout
    assert reports[-1].splitlines()[-2:] == [ALL_PASSED, t("grade.nb.summary", passed=2, total=2)], done.stdout
    done = command(solutions[0], EXERCISES / LEVEL2)
    assert done.returncode == 1 and "× 不合格 基準3" in done.stdout
    assert command("--lang", "en", solutions[1]).stdout.splitlines()[-1].startswith("[PASS] All 3 criteria")
    assert command().returncode == 2  # usage


def test_a_file_that_is_no_notebook_among_notebooks_is_told_not_graded_and_the_others_are_graded(tmp_path):
    # `grade a.ipynb b.ipynb` with b not JSON refused both (exit 2): a's grade was lost to b.
    broken = tmp_path / LEVEL2
    broken.write_text('{"cells": [', encoding="utf-8")
    done = command(EXERCISES / "solutions" / "en" / LEVEL1, broken)
    assert done.returncode == 1, done.stdout + done.stderr
    with speaking("en"):  # the English edition's notebook: what is said of both is in English
        reason = t("grade.nb.usage.not_json", path=broken)
        assert done.stdout.count(t("grade.all_passed", total=3)) == 1, done.stdout
        assert t("grade.nb.not_graded", reason=reason) in done.stdout.splitlines(), done.stdout
        # the file refused is no notebook: 1 of 1 notebooks, and the other file named as what it is
        summary = t("grade.nb.summary", passed=1, total=1) + " " + t("grade.nb.summary_unread", count=1)
        assert done.stdout.splitlines()[-1] == summary, done.stdout


def test_the_command_ignores_the_grading_language_of_nobody_but_the_reader():
    env = {**os.environ, "HARNESS_LAB_LANG": "en"}
    done = command(EXERCISES / "solutions" / LEVEL1, env=env)
    assert done.returncode == 0 and "[PASS] Criterion 1" in done.stdout


@pytest.mark.parametrize("edition, reader", [("en", "ja"), ("ja", "en")])
def test_where_learner_code_raised_is_said_in_the_readers_language_not_the_notebooks(tmp_path, edition, reader):
    # The answer cells run with the notebook's setup cell, whose hl.use_language(edition) once turned the
    # "(the line ... in run_tool_uses)" its children wrote into the edition's words inside the reader's hint.
    folder = EXERCISES / "solutions" / ("en" if edition == "en" else "")
    nb = read(folder / LEVEL1)
    cell = cell_with(nb, "def run_tool_uses(")
    cell.source = cell.source.replace("    results = []\n", "    results = []\n    raise ValueError('boom')\n", 1)
    with speaking(reader):
        grade = grade_notebook(write(nb, tmp_path / LEVEL1))
        raised_at = t("grade.raised_at", function="run_tool_uses", line="raise ValueError('boom')")
        cut = [c.hint for c in grade.reports[0].checks if not c.passed]
    assert len(cut) == 3 and all(f"ValueError: boom{raised_at}" in hint for hint in cut), cut


def test_a_runaway_answer_cell_is_a_timeout_for_that_notebook_only(tmp_path):
    nb = read(EXERCISES / "solutions" / LEVEL2)
    cell_with(nb, "MISSING = {").source += "\n\nwhile True:\n    pass\n"
    with gives_up_after(60, "the notebook's grade"):  # never stopped, it would never return
        grade = grade_notebook(write(nb, tmp_path / LEVEL2), timeout=2)
    assert grade.status == "timeout" and grade.key == "grade.nb.timeout", grade.text()
    assert not grade.passed and grade.error == t("grade.nb.timeout", seconds="2")


def test_a_runaway_answer_cell_costs_the_cells_limit_not_the_notebooks(tmp_path, monkeypatch):
    monkeypatch.setattr(notebook_module, "CELLS_TIMEOUT", 1.0)  # read in the forked child
    nb = read(EXERCISES / "solutions" / LEVEL2)
    cell_with(nb, "MISSING = {").source += "\n\nwhile True:\n    pass\n"
    # The notebook's own limit is far past the net: only the cells' limit ends this grade in time.
    with gives_up_after(60, "the cells' limit"):
        grade = grade_notebook(write(nb, tmp_path / LEVEL2), timeout=600)
    assert grade.status == "timeout" and grade.key == "grade.nb.cell_timeout", grade.text()
    number = code_cell_number(nb, "MISSING = {")
    assert grade.error == t("grade.nb.cell_timeout", cell=number, seconds="1")


@pytest.mark.parametrize(
    "deaf",
    ["signal.signal(signal.SIGALRM, signal.SIG_IGN)", "signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})"],
    ids=["ignored", "blocked"],
)
def test_an_answer_cell_its_own_timer_cannot_end_is_still_named_in_its_timeout(tmp_path, monkeypatch, deaf):
    # The cells' timer is a SIGALRM in their child: a cell deaf to it runs on until the child's own limit
    # ends it from outside, and the hint once read "answer cell (cell ?)" (round twenty).
    monkeypatch.setattr(notebook_module, "CELLS_TIMEOUT", 1.0)
    nb = read(EXERCISES / "solutions" / LEVEL2)
    cell_with(nb, "MISSING = {").source += f"\n\nimport signal, time\n{deaf}\ntime.sleep(600)\n"
    with gives_up_after(60, "the cells' limit"):
        grade = grade_notebook(write(nb, tmp_path / LEVEL2), timeout=600)
    number = code_cell_number(nb, "MISSING = {")
    assert grade.error == t("grade.nb.cell_timeout", cell=number, seconds="1"), grade.text()


@pytest.mark.parametrize(
    "deaf",
    ["", "signal.signal(signal.SIGALRM, signal.SIG_IGN)", "signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})"],
    ids=["hearing", "ignored", "blocked"],
)
def test_an_answer_cell_that_recurses_without_end_is_told_as_recursion_not_a_loop(tmp_path, monkeypatch, deaf):
    # With its limit raised, the recursion runs past the cells' time (or unwinds its frames past it, no
    # handler running), and the hint once asked about "a loop at the cell's top level" (round twenty). A cell
    # deaf to the cells' timer was sampled by that timer alone, never, and still told as a loop.
    monkeypatch.setattr(notebook_module, "CELLS_TIMEOUT", 1.0)
    nb = read(EXERCISES / "solutions" / LEVEL2)
    recursion = "\nimport sys\nsys.setrecursionlimit(10**7)\ndef _deeper(n):\n    return _deeper(n + 1)\n_deeper(0)\n"
    cell_with(nb, "MISSING = {").source += f"\n\nimport signal\n{deaf}{recursion}"
    with gives_up_after(120, "the cells' limit"):
        grade = grade_notebook(write(nb, tmp_path / LEVEL2), timeout=600)
    number = code_cell_number(nb, "MISSING = {")
    assert (grade.status, grade.key) == ("timeout", "grade.nb.cell_recursion"), grade.text()
    assert grade.error == t("grade.nb.cell_recursion", cell=number, seconds="1")


@pytest.mark.parametrize(
    "stop",
    ["os.kill(os.getpid(), signal.SIGSTOP)", "os.killpg(0, signal.SIGTSTP)"],
    ids=["SIGSTOP to itself", "SIGTSTP to its group"],
)
def test_an_answer_cell_that_stops_its_own_process_is_told_as_stopped_not_a_loop(tmp_path, monkeypatch, stop):
    # A stopped process runs neither the cells' timer nor the thread that samples their stack: only the
    # child's outer limit ends it, and the hint once asked about "a loop at the cell's top level" (round twenty-one).
    # 3 s, not 1: on a busy machine the cells once took a second to reach the stop, and the timer fired first.
    monkeypatch.setattr(notebook_module, "CELLS_TIMEOUT", 3.0)
    nb = read(EXERCISES / "solutions" / LEVEL2)
    cell_with(nb, "MISSING = {").source += f"\n\nimport os, signal\n{stop}\n"
    with gives_up_after(60, "the cells' limit"):
        grade = grade_notebook(write(nb, tmp_path / LEVEL2), timeout=600)
    number = code_cell_number(nb, "MISSING = {")
    assert (grade.status, grade.key) == ("timeout", "grade.nb.cell_stopped"), grade.text()
    assert grade.error == t("grade.nb.cell_stopped", cell=number, seconds="3")


@pytest.mark.parametrize(
    "cut",
    [
        "os.closerange(0, 4096)",
        "_null = os.open(os.devnull, os.O_WRONLY)\nfor _fd in range(3, 4096):\n    if _fd != _null:\n        try:\n            os.dup2(_null, _fd)\n        except OSError:\n            pass",
    ],
    ids=["closed", "replaced"],
)
def test_an_answer_cell_that_closes_the_descriptors_it_inherited_is_told_so_not_as_a_crash(tmp_path, cut):
    # The answer pipe goes with them, and the grade said the process "ended before it returned a result
    # (it exited, or was stopped for using too much memory, say)": neither was the cause (round twenty-two).
    nb = read(EXERCISES / "solutions" / LEVEL2)
    cell_with(nb, "MISSING = {").source += f"\n\nimport os\n{cut}\n"
    grade = grade_notebook(write(nb, tmp_path / LEVEL2), timeout=60)
    number = code_cell_number(nb, "MISSING = {")
    assert (grade.status, grade.key) == ("error", "grade.nb.pipe_cut"), grade.text()
    assert grade.error == t("grade.nb.pipe_cut", cell=number)


def test_an_answer_cell_that_raises_is_an_error_naming_the_cell_and_line(tmp_path):
    nb = read(EXERCISES / "solutions" / LEVEL1)
    cell_with(nb, "DEFAULT_TIER = ").source += "\nraise ValueError('まだ途中です')\n"
    grade = grade_notebook(write(nb, tmp_path / LEVEL1))
    assert grade.status == "error" and grade.key == "grade.nb.cell_raised"
    assert "ValueError: まだ途中です" in grade.error and "2番目のコードセル" in grade.error
    assert "raise ValueError" in grade.error


def test_a_helper_in_an_untagged_cell_gets_a_note_about_tags(tmp_path):
    nb = read(EXERCISES / "solutions" / LEVEL1)
    helper = cell_with(nb, "def tier_of(name):")
    helper.source = helper.source.replace(
        "def tier_of(name):\n    # 呼ばれるたびに POLICY を引く。表にないツールは DEFAULT_TIER に落ちる\n"
        "    return POLICY.get(name, DEFAULT_TIER)\n",
        "",
    )
    added = nbformat.v4.new_code_cell("def tier_of(name):\n    return POLICY.get(name, DEFAULT_TIER)\n")
    nb.cells.insert(nb.cells.index(helper), added)  # a cell the learner added: no tags
    grade = grade_notebook(write(nb, tmp_path / LEVEL1))
    assert grade.status == "ok" and not grade.passed and "NameError" in grade.text()
    assert grade.text().splitlines()[-1] == t("grade.nb.name_note")


# DEFAULT_TEIR for DEFAULT_TIER got the note on untagged cells: a learner who added no cell went looking
# for one. The note names the typo and the name closest to it; also beside an untagged scratch cell nested
# past Python 3.11's parser limit (a MemoryError, "too complex", at 4 KB), which made the grade a memory error.
@pytest.mark.parametrize(
    "scratch", [None, "x = " + "(" * 199 + "-" * 3700 + "1"], ids=["alone", "beside_a_too_deep_cell"]
)
def test_a_misspelt_name_is_named_with_the_name_meant_not_blamed_on_cell_tags(tmp_path, scratch):
    nb = read(EXERCISES / "solutions" / LEVEL1)
    helper = cell_with(nb, "def tier_of(name):")
    helper.source = helper.source.replace("POLICY.get(name, DEFAULT_TIER)", "POLICY.get(name, DEFAULT_TEIR)")
    if scratch:
        nb.cells.append(nbformat.v4.new_code_cell(scratch))
    with speaking("en"):
        grade = grade_notebook(write(nb, tmp_path / LEVEL1))
        assert "NameError: name 'DEFAULT_TEIR' is not defined" in grade.text()
        assert grade.notes == (t("grade.nb.name_typo", name="DEFAULT_TEIR", close="DEFAULT_TIER"),), grade.notes


def test_a_name_no_cell_defines_nor_resembles_is_named(tmp_path):
    nb = read(EXERCISES / "solutions" / LEVEL1)
    cell_with(nb, "DEFAULT_TIER = ").source += "\nFALLBACK = tier_for_unknown_tools\n"
    with speaking("en"):
        grade = grade_notebook(write(nb, tmp_path / LEVEL1))
        assert grade.key == "grade.nb.cell_raised", grade.text()
        assert grade.notes == (t("grade.nb.name_unknown", name="tier_for_unknown_tools"),), grade.notes


def test_a_name_the_exercise_needs_is_missing(tmp_path):
    nb = read(EXERCISES / "solutions" / LEVEL2)
    cell = cell_with(nb, "MISSING = {")
    cell.source = cell.source.replace("MISSING = {", "GAPS = {")
    grade = grade_notebook(write(nb, tmp_path / LEVEL2))
    assert grade.status == "error" and grade.error == t("grade.nb.undefined", name="MISSING")


def test_ipython_syntax_in_an_answer_cell_runs_as_in_a_kernel(tmp_path):
    nb = read(EXERCISES / "solutions" / LEVEL2)
    cell_with(nb, "MISSING = {").source = "%config Completer.use_jedi = False\n" + cell_with(nb, "MISSING = {").source
    assert grade_notebook(write(nb, tmp_path / LEVEL2)).passed


def test_which_exercise_comes_from_metadata_then_the_grade_cell_then_the_file_name(tmp_path):
    nb = read(EXERCISES / "solutions" / LEVEL1)
    del nb.metadata["harness_lab"]
    assert grade_notebook(write(nb, tmp_path / "renamed.ipynb")).passed  # found by its grade cell
    grade_cell(nb).metadata["tags"] = []
    assert grade_notebook(write(nb, tmp_path / "level1_mine.ipynb")).passed  # by its name
    assert grade_notebook(write(nb, tmp_path / "Level1_Mine.ipynb")).passed  # in whatever case an LMS gave it
    grade = grade_notebook(write(nb, tmp_path / "homework.ipynb"))
    assert grade.status == "error" and grade.key == "grade.nb.unknown_exercise"


def test_what_is_not_an_exercise_notebook_is_an_error_not_a_crash(tmp_path):
    (tmp_path / "notes.txt").write_text("ただのメモ", encoding="utf-8")
    (tmp_path / "broken.ipynb").write_text('{"cells": [', encoding="utf-8")
    (tmp_path / "list.ipynb").write_text("[1, 2]", encoding="utf-8")
    untagged = read(EXERCISES / "solutions" / LEVEL1)
    for cell in untagged.cells:
        cell.metadata.pop("tags", None)
    write(untagged, tmp_path / "level1_untagged.ipynb")
    for name, key in (
        ("notes.txt", "grade.nb.unreadable"),
        ("broken.ipynb", "grade.nb.unreadable"),
        ("list.ipynb", "grade.nb.unreadable"),
        ("missing.ipynb", "grade.nb.unreadable"),
        ("level1_untagged.ipynb", "grade.nb.no_answer_cells"),
    ):
        grade = grade_notebook(tmp_path / name)
        assert grade.status == "error" and grade.key == key, (name, grade.text())
        assert "\n" not in grade.error


@pytest.mark.parametrize("language", ["ja", "en"])
def test_a_text_file_handed_in_as_a_notebook_is_told_which_file_to_use(tmp_path, language):
    # A learner's answers pasted into a text file named level1_tiered_policy.ipynb were told only
    # "Could not read it as a notebook: JSONDecodeError: Expecting value: line 1 column 1 (char 0)".
    handed_in = tmp_path / LEVEL1
    handed_in.write_text('POLICY = {"send_email": "deny"}\n', encoding="utf-8")
    with speaking(language):
        grade = grade_notebook(handed_in)
    assert (grade.status, grade.key) == ("error", "grade.nb.unreadable")
    said_after_the_cause = grade.error.split("JSONDecodeError", 1)[1]
    assert "JupyterLab" in said_after_the_cause and ".ipynb" in said_after_the_cause, grade.error


def test_a_process_an_answer_cell_starts_with_setsid_is_gone_after_grading(tmp_path):
    pid_file = tmp_path / "daemon.pid"
    nb = read(EXERCISES / "solutions" / LEVEL2)
    cell_with(nb, "MISSING = {").source += (
        "\n\nimport os, time\nfrom tests.process_ids import seen_pid\nif os.fork() == 0:\n    os.setsid()\n"
        f"    open({str(pid_file)!r}, 'w').write(str(seen_pid()))\n    while True:\n        time.sleep(0.05)\n"
    )
    grade = grade_notebook(write(nb, tmp_path / LEVEL2))
    assert grade.passed, grade.text()
    pid = int(pid_file.read_text())
    try:
        assert not _running(pid), "the daemon an answer cell started is still running"
    finally:
        if _running(pid):
            os.kill(pid, 9)


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_a_class_grader_gets_plain_fields_per_criterion():
    grade = grade_notebook(EXERCISES / LEVEL2)
    row = {
        "exercise": grade.exercise,
        "status": grade.status,
        "passed": grade.passed,
        "criteria": [[c.number, c.passed, c.key] for c in grade.reports[0].checks],
    }
    assert json.loads(json.dumps(row)) == row  # what a CSV or JSON report needs, nothing more
    assert row == {
        "exercise": "level2",
        "status": "ok",
        "passed": False,
        "criteria": [
            [1, False, "grade.l2.c1.no_stop_condition"],
            [2, False, "grade.l2.c2.no_turns"],
            [3, False, "grade.l2.c3.runaway"],
        ],
    }


# Every way grading a file can fail before the criteria, with the learner's edit that provokes it.
def _appended(name: str, marker: str, code: str):
    def build(tmp_path: Path) -> Path:
        nb = read(EXERCISES / "solutions" / name)
        cell_with(nb, marker).source += "\n" + code
        return write(nb, tmp_path / name)

    return build


def _text(content: str, file: str = "level1_x.ipynb"):
    def build(tmp_path: Path) -> Path:
        (tmp_path / file).write_text(content, encoding="utf-8")
        return tmp_path / file

    return build


NOTEBOOK_FAILURES = {
    "grade.nb.unreadable": _text('{"cells": ['),
    "grade.nb.unknown_exercise": _text('{"cells": [], "metadata": {}}', "homework.ipynb"),
    "grade.nb.no_answer_cells": _text('{"cells": [{"cell_type": "code", "source": "x = 1", "metadata": {}}]}'),
    "grade.nb.cell_raised": _appended(LEVEL1, "DEFAULT_TIER = ", "1 / 0"),
    "grade.nb.undefined": _appended(LEVEL2, "MISSING = {", "del MISSING"),
    "grade.nb.timeout": _appended(LEVEL2, "MISSING = {", "while True:\n    pass"),
    "grade.nb.memory": _appended(LEVEL2, "MISSING = {", "hoard = bytearray(3 << 30)"),
    "grade.nb.crashed": _appended(LEVEL2, "MISSING = {", "import os\nos._exit(0)"),
}


@pytest.mark.parametrize("key", list(NOTEBOOK_FAILURES))
def test_each_way_a_file_fails_before_the_criteria_has_its_line(tmp_path, key):
    grade = grade_notebook(NOTEBOOK_FAILURES[key](tmp_path), timeout=4)
    assert grade.key == key and grade.status in ("error", "timeout") and not grade.passed, grade.text()
    assert grade.error and "\n" not in grade.error


def test_an_answer_cell_nested_past_the_parser_is_named_not_blamed_on_the_memory_limit(tmp_path):
    # Python 3.11's parser refuses this with a MemoryError ("too complex"), at once and with memory to spare:
    # the grade said the answer cells had used too much memory
    deep = _appended(LEVEL1, "DEFAULT_TIER = ", "x = " + "(" * 199 + "-" * 3700 + "1" + ")" * 199)(tmp_path)
    grade = grade_notebook(deep)
    assert (grade.status, grade.key) == ("error", "grade.nb.cell_too_deep"), grade.text()
    assert grade.error == t("grade.nb.cell_too_deep", cell=2)
