"""A lesson's code cells on a model other than the default, as a learner who sets ``HARNESS_LAB_MODEL`` runs
them: no cell may raise. Notebook 02 is run on Fable 5.2, which binds replayed thinking to its conversation
(a history resent with other ``tools`` is a 400) and returns the text between tool calls as thinking (so a
loop that stops on the model's words can run past ``end_turn``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Each code cell in a fresh IPython shell (no kernel), in the notebook's folder; the cells that raised.
RUNNER = """
import json, sys, nbformat
from IPython.core.interactiveshell import InteractiveShell
shell = InteractiveShell.instance()
raised = []
for index, cell in enumerate(nbformat.read(sys.argv[1], as_version=4).cells):
    if cell.cell_type == "code":
        result = shell.run_cell(cell.source, store_history=False)
        error = result.error_in_exec or result.error_before_exec
        if error is not None:
            raised.append([index, type(error).__name__, str(error)[:200]])
print("RAISED" + json.dumps(raised, ensure_ascii=False))
"""


def test_lesson_2_runs_on_a_model_with_preserved_thinking_and_thinking_between_tools():
    notebook = ROOT / "notebooks" / "02_stop_conditions.ipynb"
    quiet = {"ANTHROPIC_API_KEY", "HARNESS_LAB_LANG", "HARNESS_LAB_WORKBOOK"}
    env = {k: v for k, v in os.environ.items() if k not in quiet} | {
        "HARNESS_LAB_MODEL": "claude-fable-5-2",
        "MPLBACKEND": "Agg",
    }
    done = subprocess.run(
        [sys.executable, "-c", RUNNER, str(notebook)],
        cwd=notebook.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    (line,) = [line for line in done.stdout.splitlines() if line.startswith("RAISED")]
    assert json.loads(line.removeprefix("RAISED")) == []
