"""An answer cell that goes after the grader instead of the exercise changes no verdict.

The grading command judges in a process where no learner code runs; the learner's code runs in
children whose word counts only for what the learner's own functions returned (bridge.py). These
tests hand in unsolved notebooks whose answer cells attack the grading machinery in the ways a
learner with the package's source open would: rebinding the judges and the report, writing a
verdict into the answer pipe from inside a graded call, writing one into every open descriptor,
and killing the process above. Each must grade exactly as the same notebook without the attack,
or fail with the tampering hint; none may pass a criterion the plain notebook fails.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from harness_lab.grading import grade_notebook

ROOT = Path(__file__).resolve().parents[2]
STARTERS = {
    "level1": ROOT / "exercises" / "level1_tiered_policy.ipynb",
    "level2": ROOT / "exercises" / "level2_missing_gate.ipynb",
}
FUNCTION = {"level1": "run_tool_uses", "level2": "run_agent"}

# At answer-cell time: every judging function and the report made to say "passed".
REBIND_THE_JUDGES = """
import harness_lab.grading as _grading
from harness_lab.grading import level1 as _l1, level2 as _l2, notebook as _nb, report as _r, bridge as _b

def _passed(*args, **kwargs):
    return _r.Check(1, "", True)

_r.Check.fail = classmethod(lambda cls, number, title, key, **values: cls(number, title, True))
_r.Check.passed = True
_r.Report.passed = property(lambda self: True)
_r.Report.failed = lambda self: []
_r.guarded = lambda number, title, judge: _r.Check(number, title, True)
for _module in (_l1, _l2):
    for _name in dir(_module):
        if _name.startswith(("_criterion", "_verdict", "_judged", "_failed_run", "_broken")):
            setattr(_module, _name, _passed)
    _module.guarded = _r.guarded
_l1.grade_level1_from = _l2.grade_level2_from = lambda *a, **k: _r.Report("x", (_passed(),) * 3)
for _exercise in _nb.EXERCISES.values():
    object.__setattr__(_exercise, "grade", _l1.grade_level1_from)
_b.observe = lambda job, answer, timeout, **k: __import__("harness_lab.grading.sandbox").grading.sandbox.JobResult("ok", None)
"""

# At call time, inside a graded child: the learner's function answers the grader's pipe itself,
# once with nothing and once with a summary shaped like the honest one.
FORGE_THE_PIPE = """
from harness_lab.grading import sandbox as _s

def {function}(*args, **kwargs):
    _s._channel(("ok", {forged!r}))
"""
FORGED = {
    "nothing": None,
    "a summary": ({"alone": {"facts": [], "unsent": ""}}, {"deny": ("error_result", "")}),
    "answers": {"step": ("before_tool", ""), "approval": ("ask_reuses", "")},
}

# At answer-cell time: a "passed" summary pickled into every descriptor that takes it, then gone.
FLOOD_THE_DESCRIPTORS = """
import os, pickle
_forged = pickle.dumps(("ok", ("ok", [(n, "t", True, "", "", "") for n in (1, 2, 3)])))
for _fd in range(3, 256):
    try:
        os.write(_fd, len(_forged).to_bytes(8, "big") + _forged)
    except OSError:
        pass
os._exit(0)
"""

# At call time: the process above the graded child (the grader itself) is killed.
KILL_THE_PARENT = """
import os, signal

def {function}(*args, **kwargs):
    with open(f"/proc/{{os.getppid()}}/stat") as f:
        grader = int(f.read().rsplit(")", 1)[1].split()[1])
    os.kill(grader, signal.SIGKILL)
"""


def attacked(exercise: str, code: str, tmp_path: Path) -> Path:
    nb = nbformat.read(STARTERS[exercise], as_version=4)
    answers = [c for c in nb.cells if c.cell_type == "code" and "answer" in c.metadata.get("tags", [])]
    answers[-1].source += "\n" + code
    path = tmp_path / STARTERS[exercise].name
    nbformat.write(nb, path)
    return path


def verdicts(grade) -> dict:
    return {c.number: (c.passed, c.key) for r in grade.reports for c in r.checks}


@pytest.fixture(scope="module")
def plain_grades():
    return {exercise: verdicts(grade_notebook(path)) for exercise, path in STARTERS.items()}


@pytest.mark.parametrize("exercise", list(STARTERS))
def test_rebinding_the_judges_changes_no_verdict(exercise, tmp_path, plain_grades):
    grade = grade_notebook(attacked(exercise, REBIND_THE_JUDGES, tmp_path))
    assert grade.status == "ok" and not grade.passed, grade.text()
    assert verdicts(grade) == plain_grades[exercise], grade.text()


@pytest.mark.parametrize("forged", list(FORGED))
@pytest.mark.parametrize("exercise", list(STARTERS))
def test_a_verdict_written_into_the_pipe_passes_nothing(exercise, forged, tmp_path):
    code = FORGE_THE_PIPE.format(function=FUNCTION[exercise], forged=FORGED[forged])
    grade = grade_notebook(attacked(exercise, code, tmp_path))
    assert not grade.passed, grade.text()
    passed = [number for number, (ok, _) in verdicts(grade).items() if ok]
    # level 2's first two criteria read MISSING, which the starter leaves unanswered either way
    assert passed == [], grade.text()


@pytest.mark.parametrize("exercise", list(STARTERS))
def test_a_verdict_written_into_every_descriptor_passes_nothing(exercise, tmp_path):
    grade = grade_notebook(attacked(exercise, FLOOD_THE_DESCRIPTORS, tmp_path))
    assert not grade.passed and grade.status == "error", grade.text()
    assert grade.key == "grade.nb.tampered", grade.text()


def test_the_tampering_hint_names_the_cause(tmp_path):
    code = FORGE_THE_PIPE.format(function="run_tool_uses", forged=None)
    grade = grade_notebook(attacked("level1", code, tmp_path))
    keys = {key for _, key in verdicts(grade).values()}
    assert "grade.tampered" in keys, grade.text()
    assert "harness_lab.grading" in grade.text()


@pytest.mark.parametrize("exercise", list(STARTERS))
def test_killing_the_grader_from_a_graded_call_passes_nothing(exercise, tmp_path):
    grade = grade_notebook(attacked(exercise, KILL_THE_PARENT.format(function=FUNCTION[exercise]), tmp_path))
    assert not grade.passed, grade.text()
