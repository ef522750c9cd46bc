"""Fixtures: runs over the real loop and emulator (no network, no mocks); a Jupyter environment."""

import os
import sys
from pathlib import Path

import pytest

from harness_lab.emulator import emulated_client
from harness_lab.loop import Run
from harness_lab.tools import get_time, make_delete_file, make_http_post, make_read_file, make_write_file
from harness_lab.valves import Approval, MaxTurns, NoProgress, Policy, TokenBudget


@pytest.fixture
def make_run(tmp_path):
    """``make_run(scenario, max_turns=8, budget=40_000)``: a Run with the four valves and sandboxed tools."""
    sandbox = tmp_path / "sandbox"
    (tmp_path / "notes").mkdir()
    for i in range(1, 30):
        (tmp_path / "notes" / f"{i:03d}.md").write_text(f"メモ {i}\n", encoding="utf-8")
    outbox = []

    def make(scenario, max_turns=8, budget=40_000):
        tools = [
            get_time,
            make_read_file(tmp_path),
            make_write_file(sandbox),
            make_delete_file(sandbox),
            make_http_post(outbox),
        ]
        valves = [
            MaxTurns(max_turns),
            TokenBudget(budget),
            NoProgress(),
            Approval(Policy({"write_file": "ask", "delete_file": "ask", "http_post": "ask"}, default="allow")),
        ]
        run = Run(emulated_client(scenario), tools=tools, valves=valves)
        run.sandbox, run.outbox = sandbox, outbox
        return run

    return make


ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def jupyter_env(tmp_path):
    """Environment for a Jupyter subprocess: the venv's kernel, our package, no user-level config."""
    return jupyter_environment(tmp_path)


def jupyter_environment(tmp_path: Path) -> dict:
    env = dict(os.environ)
    env.update(
        PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")])),
        PATH=os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")]),
        JUPYTER_CONFIG_DIR=str(tmp_path / "jupyter-config"),
        JUPYTER_DATA_DIR=str(tmp_path / "jupyter-data"),
        JUPYTER_RUNTIME_DIR=str(tmp_path / "jupyter-runtime"),
        IPYTHONDIR=str(tmp_path / "ipython"),
        HARNESS_LAB_UI_SANDBOX=str(tmp_path / "sandbox"),
        HARNESS_LAB_LANG="ja",
    )
    env.pop("ANTHROPIC_API_KEY", None)  # offline, always
    return env
