"""Round five's planted module: a verdict cannot be bought by writing modules where Python looks (issue 29, item 1).

An unsolved starter whose answer cell writes ``pprint.py``, ``jsonschema.py`` and friends (each
making every verdict of the process that imports it a pass), a package ``harness_lab``, a
``sitecustomize.py`` and a ``.pth`` file into every writable ``sys.path`` entry and the working
folder, then is graded with a right and a wrong answer after it, by each grading command, twice.
Every verdict must equal the same notebooks' without the planting: the planter fails as the plain
starter does, and everyone graded after it gets what their own code earns.
"""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path

import pytest
from attacks import planting
from class_submissions import Handed, answer_cells, needs_sandbox, right, starter, wrong

from harness_lab.text import t

ROOT = Path(__file__).resolve().parents[2]
pytestmark = needs_sandbox
WRONG = "check after the increment"


def run(program: list[str], *args: str | Path, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*program, *map(str, args)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )


def hand_in(folder: Path, places: list[Path]) -> list[Path]:
    """The planter, then a right and a wrong answer, then the plain starter (graded in that order)."""
    planter = Handed("level2", starter("level2"))
    answer_cells(planter.notebook)[0].source += "\n" + planting(places)
    plan = {"a": planter, "b": right("level2"), "c": wrong("level2", WRONG), "d": Handed("level2", starter("level2"))}
    return [handed.write(folder, learner) for learner, handed in plan.items()]


def blocks(stdout: str) -> list[str]:
    """Each notebook's report as the command printed it, without its header line."""
    head, tail = t("grade.nb.summary", passed="@", total=4).split("@")
    kept = [line for line in stdout.splitlines() if not (line.startswith(head.split("@")[0]) and line.endswith(tail))]
    parts = "\n".join(kept).split("== ")[1:]
    return ["\n".join(part.splitlines()[1:]).split("\n\n")[0].strip() for part in parts]


def expected_blocks(reports: list[str]) -> None:
    planter, right_one, wrong_one, plain = reports[:4]
    assert planter == plain, (planter, plain)  # the planter fails exactly as the unsolved starter does
    assert right_one.splitlines()[-1] == t("grade.all_passed", total=3)
    assert t("grade.all_passed", total=3) not in wrong_one and t("grade.all_passed", total=3) not in plain


COMMANDS = {
    "harness-lab grade": [sys.executable, "-m", "harness_lab.cli", "grade"],
    "python -m harness_lab.grading": [sys.executable, "-m", "harness_lab.grading"],
}


@pytest.mark.parametrize("name", list(COMMANDS))
def test_planted_modules_change_no_verdict_of_a_learners_command(tmp_path, name):
    work = tmp_path / "work"  # the command's working folder, where the notebooks are
    work.mkdir()
    paths = hand_in(work, [work])
    for _ in range(2):  # and a later run, from the same folder
        done = run(COMMANDS[name], *paths, cwd=work)
        assert done.returncode == 1, done.stdout + done.stderr
        expected_blocks(blocks(done.stdout))
    assert not (work / "pprint.py").exists() and not (ROOT / "pprint.py").exists()  # nothing reached them


@pytest.mark.parametrize("unsandboxed", [False, True], ids=["sandboxed", "unsandboxed as root"])
def test_planted_modules_change_no_verdict_in_grade_class(tmp_path, unsandboxed):
    if unsandboxed and os.geteuid() != 0:
        pytest.skip("unsandboxed, learner code runs as the caller: it can rewrite the caller's files anyway")
    subs = tmp_path / "subs"
    hand_in(subs, [subs, tmp_path])  # one learner each: a/, b/, c/, d/
    extra = ["--unsandboxed"] if unsandboxed else []
    env = {**os.environ, "PATH": "/nonexistent"} if unsandboxed else None
    for attempt in range(2):  # a later run (a new report) must not find what the first one planted
        report = tmp_path / f"report{attempt}"
        done = run(
            [sys.executable, "-m", "harness_lab.cli", "grade-class"],
            subs,
            "--out",
            report,
            "--jobs",
            "1",
            *extra,
            cwd=tmp_path,
            env=env,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        with open(report / "grades.csv", encoding="utf-8-sig", newline="") as f:
            got = {r["learner"]: r for r in csv.DictReader(f) if r["notebook"]}
        fields = ("criterion_1", "criterion_2", "criterion_3", "hint_keys", "status")
        assert [got["a"][k] for k in fields] == [got["d"][k] for k in fields]
        assert got["b"]["score"] == "3" and got["c"]["score"] != "3" and got["d"]["score"] != "3"


# In a fresh Python: import the graders, prepare the judge (or not), then record every module any
# grading process looks for on sys.path while four notebooks are graded here. A judging child that
# looks one up ends there: unprepared, each would otherwise import the SDK (two CPU seconds apiece).
RECORD_IMPORTS = """
import os, sys
sys.path.insert(0, {tests!r})
from pathlib import Path
import class_submissions as hand_in
from harness_lab.grading import grade_notebook
from harness_lab.grading.host import prepare_judge
if {prepare!r}:
    prepare_judge()
looked_for = Path({record!r})

grader = os.getpid()

class Recorder:
    def find_spec(self, name, path=None, target=None):
        with open(looked_for, "a") as f:
            f.write(name + "\\n")
        if os.getpid() != grader:  # a judging child: its first lookup is all the record needs
            os._exit(0)
        return None

sys.meta_path.insert(0, Recorder())
for learner, handed in [("a", hand_in.right("level1")), ("b", hand_in.right("level2")),
                        ("c", hand_in.wrong("level2", {wrong!r})), ("d", hand_in.Handed("level1", hand_in.starter("level1")))]:
    grade_notebook(handed.write(Path({folder!r}), learner))
"""


@pytest.mark.parametrize("prepare", [True, False], ids=["prepared", "not prepared (the control)"])
def test_a_prepared_judge_imports_nothing_once_learner_code_may_have_run(tmp_path, prepare):
    record = tmp_path / "looked_for.txt"
    code = RECORD_IMPORTS.format(
        tests=str(Path(__file__).parent), prepare=prepare, record=str(record), wrong=WRONG, folder=str(tmp_path)
    )
    done = run([sys.executable, "-c", code], cwd=ROOT)
    assert done.returncode == 0, done.stderr
    looked_for = sorted(set(record.read_text().split())) if record.exists() else []
    if prepare:
        assert looked_for == [], looked_for
    else:  # the SDK's lazy imports, among others: what a planted module could have answered
        assert looked_for != []
