"""A lesson's code cells on a model other than the default, as a learner who sets ``HARNESS_LAB_MODEL`` runs
them: no cell may raise. Notebook 02 is run on Fable 5.2, which binds replayed thinking to its conversation
(a history resent with other ``tools`` is a 400) and returns the text between tool calls as thinking (so a
loop that stops on the model's words can run past ``end_turn``). Notebook 06, the 2026 API, meets what
sets the models apart (thinking off unless asked, thinking bound to its conversation, no compaction):
it runs on every model of the emulator's table."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from harness_lab.emulator.models import MODELS

ROOT = Path(__file__).resolve().parents[2]

# Each code cell in a fresh IPython shell (no kernel), in the notebook's folder; the cells that raised.
# What a cell displays is formatted as text only, here and below: a figure's PNG took matplotlib a
# second per model to draw, and nothing read it (IPython reports a formatter's failure and goes on, so
# no cell ever raised for one).
RUNNER = """
import json, sys, nbformat
from IPython.core.interactiveshell import InteractiveShell
shell = InteractiveShell.instance()
shell.display_formatter.active_types = ["text/plain"]
raised = []
for index, cell in enumerate(nbformat.read(sys.argv[1], as_version=4).cells):
    if cell.cell_type == "code":
        result = shell.run_cell(cell.source, store_history=False)
        error = result.error_in_exec or result.error_before_exec
        if error is not None:
            raised.append([index, type(error).__name__, str(error)[:200]])
print("RAISED" + json.dumps(raised, ensure_ascii=False))
"""

# The same for each model named after the notebook: one process, so the SDK is imported once, and for
# each model harness_lab imported afresh (it reads HARNESS_LAB_MODEL on import, as a new kernel would)
# into a cleared shell. By model: the cells that raised, and what the demos showed (argv[2], evaluated
# in the notebook's namespace).
EVERY_MODEL_RUNNER = """
import json, os, sys, nbformat
from IPython.core.interactiveshell import InteractiveShell
cells = [c.source for c in nbformat.read(sys.argv[1], as_version=4).cells if c.cell_type == "code"]
shell = InteractiveShell.instance()
shell.display_formatter.active_types = ["text/plain"]
raised, shown = {}, {}
for model in sys.argv[3:]:
    os.environ["HARNESS_LAB_MODEL"] = model
    for name in [name for name in sys.modules if name.partition(".")[0] == "harness_lab"]:
        del sys.modules[name]
    shell.reset(new_session=False)
    for index, source in enumerate(cells):
        result = shell.run_cell(source, store_history=False)
        error = result.error_in_exec or result.error_before_exec
        if error is not None:
            raised.setdefault(model, []).append([index, type(error).__name__, str(error)[:200]])
    try:
        shown[model] = eval(sys.argv[2], shell.user_ns)
    except Exception as error:
        shown[model] = repr(error)
    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")
print("RAISED" + json.dumps([raised, shown], ensure_ascii=False, default=str))
"""

# What each demo of notebook 06 is there to show: a reply that opens with a thinking block; the three
# histories sent back, one accepted and two refused; the history rewritten before request 11, which
# the cache diagnostics name and the run outlives; context editing keeping the prompt smaller; a reply
# paused by compaction.
DEMOS_OF_06 = """{
    "first block": response.content[0].type,
    "sent back": sorted(status.values()),
    "edited run": [len(edited), [n for n, reason in enumerate(reasons, 1) if reason is not None]],
    "editing trims": trimmed[-1].prompt_tokens < full[-1].prompt_tokens,
    "compaction": [paused.stop_reason, [block.type for block in paused.content]],
}"""


def cells_that_raised(notebook: Path, runner: str, *args: str, model: str | None = None) -> object:
    quiet = {"ANTHROPIC_API_KEY", "HARNESS_LAB_LANG", "HARNESS_LAB_MODEL"}
    env = {k: v for k, v in os.environ.items() if k not in quiet} | {"MPLBACKEND": "Agg"}
    if model is not None:
        env["HARNESS_LAB_MODEL"] = model
    done = subprocess.run(
        [sys.executable, "-c", runner, str(notebook), *args],
        cwd=notebook.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    (line,) = [line for line in done.stdout.splitlines() if line.startswith("RAISED")]
    return json.loads(line.removeprefix("RAISED"))


def test_lesson_2_runs_on_a_model_with_preserved_thinking_and_thinking_between_tools():
    notebook = ROOT / "notebooks" / "02_stop_conditions.ipynb"
    assert cells_that_raised(notebook, RUNNER, model="claude-fable-5-2") == []


# Two halves, so two workers share the 19 models (about two seconds each).
@pytest.mark.parametrize("models", [sorted(MODELS)[0::2], sorted(MODELS)[1::2]], ids=["half-1", "half-2"])
def test_notebook_06_runs_and_shows_each_demo_on_every_model_of_the_table(models):
    notebook = ROOT / "notebooks" / "06_api_2026.ipynb"
    raised, shown = cells_that_raised(notebook, EVERY_MODEL_RUNNER, DEMOS_OF_06, *models)
    assert raised == {}
    expected = {
        "first block": "thinking",
        "sent back": [200, 400, 400],
        "edited run": [20, [11]],
        "editing trims": True,
        "compaction": ["compaction", ["compaction"]],
    }
    assert dict.fromkeys(models, expected) == shown
