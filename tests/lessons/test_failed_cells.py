"""A check cell after a definition cell that raised, in a real kernel: the check says the cell raised
(and with what) and that the name still holds its earlier definition, instead of judging that earlier
definition (the starter's NotImplementedError read as "not written yet", or an older passing version
read as passing)."""

from __future__ import annotations

import os

import nbformat
import pytest
from nbclient import NotebookClient

from dev import NOT_FOR_TESTS
from harness_lab import lessons  # noqa: F401  (adds the lessons' catalog entries)
from harness_lab.text import CATALOG
from tests.lessons.notebook_runner import output_text

STARTER = "def next_step(response):\n    raise NotImplementedError  # the TODO cell as shipped\n"
RIGHT = (
    "def next_step(response):\n"
    '    steps = {"tool_use": "run_tools", "pause_turn": "resend", "end_turn": "finish", "stop_sequence": "finish"}\n'
    '    return steps.get(response.stop_reason, "stop")\n'
)
NO_COLON = RIGHT.replace(
    "def next_step(response):\n", 'def next_step(response):\n    if response.stop_reason == "tool_use"\n        pass\n'
)
CHECK = 'next_step = lessons.check("next_step", next_step)'
CELLS = [
    "from harness_lab import lessons",
    STARTER,
    NO_COLON,  # 2: SyntaxError, next_step is still the starter
    CHECK,  # 3
    CHECK,  # 4: run again, next_step is now the reference the check handed back
    RIGHT,
    CHECK,  # 6: passes
    "def next_step(response, steps=STEPS_NOT_DEFINED):\n    return 'finish'\n",  # 7: NameError at def time
    CHECK,  # 8: next_step is still the passing one of cell 5
    RIGHT + 'raise RuntimeError("after the def")\n',  # 9: the def took effect before the error
    CHECK,  # 10: judged as written
]


def _run(workdir, language: str):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in CELLS])
    env = {k: v for k, v in os.environ.items() if k not in NOT_FOR_TESTS}
    env.update(HARNESS_LAB_WORKBOOK=str(workdir / "my_harness.py"), HARNESS_LAB_LANG=language)
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)  # nbclient starts the kernel with this process's environment
    try:
        NotebookClient(
            nb, timeout=120, kernel_name="python3", allow_errors=True, resources={"metadata": {"path": str(workdir)}}
        ).execute()
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return [output_text(cell) for cell in nb.cells]


@pytest.mark.parametrize("language, column", [("ja", 0), ("en", 1)])
def test_a_check_after_a_definition_cell_that_raised_names_the_error_not_the_earlier_definition(
    tmp_path, language, column
):
    out = _run(tmp_path, language)
    said = CATALOG["lesson.check.cell_failed"][column]
    shown = 'lessons.show("next_step")'
    for number, error in ((3, "SyntaxError"), (4, "SyntaxError"), (8, "NameError")):
        assert said.format(name="next_step", error=error, show=shown) in out[number], (number, out[number])
        assert "NotImplementedError" not in out[number] and "○" not in out[number] and "[PASS]" not in out[number]
    passed = CATALOG["lesson.check.saved"][column].split("{")[0]
    for number in (6, 10):
        assert passed in out[number] and "SyntaxError" not in out[number], (number, out[number])
