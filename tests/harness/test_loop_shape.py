"""The loop stays a lesson a learner can read (issue 13): a small file, a body that fits on a screen,
each valve called at the step it names, and what a valve provides written down as a Protocol."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from harness_lab import loop
from harness_lab.emulator import emulated_client, say
from harness_lab.loop import Run
from harness_lab.steps import STEPS
from harness_lab.valves import Approval, Gate, MaxTurns, NoProgress, TokenBudget, Valve

LOOP_FILE_LINES = 200
LOOP_BODY_LINES = 40


def test_loop_py_holds_the_lesson_in_at_most_200_lines():
    lines = Path(loop.__file__).read_text(encoding="utf-8").splitlines()
    assert len(lines) <= LOOP_FILE_LINES, f"loop.py has {len(lines)} lines"


def test_the_loop_body_fits_on_a_screen():
    source = inspect.getsource(Run.loop).splitlines()
    body = [line for line in source[1:] if line.strip() and not line.strip().startswith(('"""', "#"))]
    assert len(body) <= LOOP_BODY_LINES, f"Run.loop has {len(body)} lines of body"


def test_the_loop_names_every_step_in_order():
    source = inspect.getsource(Run.loop)
    where = [source.index(f'self.check("{step}")') for step in STEPS if step != "before_each_tool"]
    assert where == sorted(where)
    assert source.index('self.check("before_tools")') < source.index("self.run_tool_uses(") < source.index("commit(")


def test_the_lessons_valves_are_valves_and_name_a_real_step():
    for valve in (MaxTurns(), TokenBudget(), TokenBudget(preflight=True), NoProgress(), Approval()):
        assert isinstance(valve, Valve) and valve.step in STEPS
    assert isinstance(Approval(), Gate) and not isinstance(MaxTurns(), Gate)


def test_a_valve_with_a_misspelt_step_is_refused_at_once():
    class Mine:
        name, step = "mine", "before_reqest"

        def check(self, state):
            return None

        def reading(self, state):
            return ""

    with pytest.raises(ValueError, match="before_reqest"):
        Run(emulated_client([say("はい")]), [], [Mine()])
