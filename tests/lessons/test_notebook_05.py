"""Notebook 05 (lesson 6) as a learner runs it, from a folder that is not notebooks/: the confined
``read_file``, the whole ``run_agent`` generator and the capstone's ``my_agent`` checked, then used by
the Stepper, the table and the capstone's demo.

Two runs (about 25 s each): one learner runs everything as shipped, then types the wrong versions
and runs everything again in the same kernel (every cell must survive a second run); another types
right versions whose traces only they make.
"""

from __future__ import annotations

import copy
import os
from contextlib import contextmanager
from pathlib import Path

import nbformat
from nbclient import NotebookClient

import harness_lab.lessons  # noqa: F401  (adds the checks' strings to the catalog)
from dev import NOT_FOR_TESTS
from harness_lab.text import t
from tests.lessons.answers6 import RIGHT_RUN_AGENT, VALVE_1, variant
from tests.lessons.answers_capstone import RIGHT_MY_AGENT
from tests.lessons.notebook_runner import NOTEBOOKS, check_output, output_text, todo_cells

NAME = "05_full_harness"

# The lesson's own check, translated: a string prefix test made before any link is followed.
READ_STARTSWITH = """
import os


def read_file(path, root="."):
    base = os.path.abspath(root)
    target = os.path.normpath(os.path.join(base, path))
    if not target.startswith(base + os.sep):
        raise PermissionError(path)
    with open(target, encoding="utf-8") as f:
        return f.read(2000)
"""

# The reporter's version (issue 28): resolved, then compared as strings: the sibling project-secrets leaks.
READ_PREFIX = """
def read_file(path, root="."):
    base = Path(root).resolve()
    target = (base / path).resolve()
    if not str(target).startswith(str(base)):
        raise PermissionError(path)
    with open(target, encoding="utf-8") as f:
        return f.read(2000)
"""

# Valve 1 asked after the counter moved: one turn early.
RUN_AGENT_CHECK_AFTER_COUNT = variant((VALVE_1, ""), ("        turns += 1\n", "        turns += 1\n" + VALVE_1))

# Right versions that leave a mark only the learner's function makes. Path comes from an earlier cell of
# the notebook, as in the issue-30 report: the workbook must carry that import.
MY_REFUSAL = "自作の境界チェックで拒否"
READ_RESOLVED = f'''
def read_file(path, root="."):
    base = Path(root).resolve()
    target = (base / path).resolve()
    if not target.is_relative_to(base):
        raise PermissionError(f"{MY_REFUSAL}: {{path}}")
    with open(target, encoding="utf-8") as f:
        return f.read(2000)
'''
MY_TURN = "[自作ハーネス] ターンを終えました"
RUN_AGENT_RIGHT = RIGHT_RUN_AGENT.replace(
    "        yield lessons.turn(", f'        print("{MY_TURN}", turns)\n        yield lessons.turn('
)
MY_AGENT_RIGHT = (
    """
from urllib.parse import urlsplit

ALLOWED_HOSTS = {"hooks.example.com"}
HTTP_POST = {"name": "http_post", "description": "許可された宛先の URL に、本文を POST する",
             "input_schema": {"type": "object", "required": ["url", "body"],
                              "properties": {"url": {"type": "string"}, "body": {"type": "string"}}}}
"""
    + RIGHT_MY_AGENT
)


def cell_with(nb, text: str):
    """The one code cell whose source contains ``text``."""
    found = [c for c in nb.cells if c.cell_type == "code" and text in c.source]
    assert len(found) == 1, f"{len(found)} cells contain {text!r}"
    return found[0]


@contextmanager
def learner_environment(workdir: Path):
    """No key, the default language, the workbook in ``workdir`` (as notebook_runner does)."""
    saved = dict(os.environ)
    env = {k: v for k, v in saved.items() if k not in NOT_FOR_TESTS}
    env["HARNESS_LAB_WORKBOOK"] = str(workdir / "my_harness.py")
    os.environ.clear()
    os.environ.update(env)  # nbclient starts the kernel with this process's environment
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def run_all_twice(workdir: Path, fill: dict[str, str]):
    """Run every cell as shipped, then type ``fill`` into the TODO cells and run every cell again in the
    same kernel. Returns the notebook after each pass."""
    nb = nbformat.read(NOTEBOOKS / f"{NAME}.ipynb", as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
    client = NotebookClient(
        nb, timeout=120, kernel_name="python3", allow_errors=False, resources={"metadata": {"path": str(workdir)}}
    )
    passes = []
    with learner_environment(workdir), client.setup_kernel():
        for round_ in range(2):
            if round_:
                for piece, i in todo_cells(nb).items():
                    nb.cells[i].source = fill.get(piece, nb.cells[i].source)
                for cell in nb.cells:  # and writes a prediction down
                    if cell.cell_type == "code" and "MY_GUESS = " in cell.source:
                        cell.source = cell.source.replace(": None", ": 0")
            for i, cell in enumerate(nb.cells):
                if cell.cell_type == "code":
                    cell.outputs = []
                    client.execute_cell(cell, i)
            passes.append(copy.deepcopy(nb))
    return passes


def test_shipped_then_wrong_versions_run_twice_in_one_kernel(tmp_path):
    shipped, wrong = run_all_twice(tmp_path, {"read_file": READ_PREFIX, "run_agent": RUN_AGENT_CHECK_AFTER_COUNT})

    # As shipped: the TODOs unwritten, and the lesson goes on with the references.
    for piece, shown in (
        ("read_file", 'lessons.show("read_file")'),
        ("run_agent", 'lessons.show("run_agent", lesson=6)'),
        ("my_agent", 'lessons.show("my_agent")'),
    ):
        assert check_output(shipped, piece).strip() == t("lesson.check.unwritten", name=piece, show=shown)
    # The lesson's startswith check is fooled by the link; the resolve-first reference is not.
    assert "link.txt       → 読めた: プロジェクトの外の秘密" in output_text(
        cell_with(shipped, "try_read(read_file_startswith)")
    )
    assert "link.txt       → 拒否" in output_text(cell_with(shipped, "try_read(read_file)"))
    # The terminal demo prints the lesson's trace from the demo project.
    trace = output_text(cell_with(shipped, "harness_lab.cli"))
    assert '[turn 1] モデルがツールを要求: read_file({"path":"README.md"})' in trace
    assert (
        "[turn 3] モデルが切り上げ (end_turn)" in trace
        and "README.md の1行目は「# エージェントハーネスの基礎」" in trace
    )
    # The package's walk is shown line by line, and its read_file refuses the link too.
    walk = output_text(cell_with(shipped, "WALK = {"))
    assert "os.readlink(name, dir_fd=here)" in walk and "プロジェクトディレクトリ外" in walk
    # No guess yet: the table, which holds the answer, waits for one.
    hidden = output_text(cell_with(shipped, "LOOPS = {"))
    assert "がまだ空欄なので、答えは伏せておきます" in hidden and "| `" not in hidden
    # Guessed (the second pass): the bare loop never stops by itself, each runaway meets its valve.
    table = output_text(cell_with(wrong, "LOOPS = {"))
    assert "| `spinning` | 30ターンで打ち切り・30回・30ターン" in table
    assert (
        "| `abab` | 30ターンで打ち切り・30回・30ターン・81,210 | max_turns・9回・8ターン・10,759 | max_turns・9回・8ターン・10,759 |"
        in table
    )
    assert "token_budget・6回・5ターン" in table
    assert t("lesson.predict.wrong", what="止めた弁", guess=0, actual="max_turns") in table
    # The capstone's demo: the reference my_agent asked, then sent to the allowed address.
    assert "送ったもの: ['https://hooks.example.com/daily']" in output_text(cell_with(shipped, "OUTBOX = []"))

    # Second run, wrong versions typed in: each check names the cause.
    sibling = t("lesson.check.missed", title=t("lesson.l6.read_file.p2"), hint=t("lesson.l6.read_file.sibling"))
    assert sibling in check_output(wrong, "read_file")
    early = t(
        "lesson.check.missed",
        title=t("lesson.l6.run_agent.p3"),
        hint=t("lesson.l6.run_agent.after_increment", requests=3, rounds=2, want_requests=4, want_rounds=3),
    )
    assert early in check_output(wrong, "run_agent")
    shown = 'lessons.show("run_agent", lesson=6)'
    assert t("lesson.check.go_on_with_reference", name="run_agent", show=shown) in check_output(wrong, "run_agent")
    # Everything after ran again with the references: same table, same trace, a fresh demo folder.
    assert output_text(cell_with(wrong, "LOOPS = {")) == table
    assert "[turn 3] モデルが切り上げ (end_turn)" in output_text(cell_with(wrong, "harness_lab.cli"))
    assert not (tmp_path / "my_harness.py").exists()
