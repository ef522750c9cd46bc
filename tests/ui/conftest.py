"""Fixtures: runs over the real loop and emulator (no network, no mocks); a Jupyter environment; the Stepper
tests' click() and a valve that breaks; the browser tests' JupyterLab server and Chromium.
"""

import os
import shutil
import sys
from pathlib import Path

import pytest

from harness_lab.emulator import emulated_client
from harness_lab.loop import Run
from harness_lab.tools import get_time, make_delete_file, make_http_post, make_read_file, make_write_file
from harness_lab.valves import Approval, MaxTurns, NoProgress, Policy, TokenBudget
from tests.ui.browser_lab import (
    AUTOSAVE,
    CHROMIUM,
    ENGLISH,
    ENGLISH_EXERCISE,
    ENGLISH_LEVEL2,
    EXERCISE,
    FIRST,
    HERE,
    LESSON,
    LEVEL2,
    LIVE,
    STORED,
    TABLES,
    _require_browser,
    jupyterlab,
)


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


PROMPT = "週次レポートを sandbox/report.md に保存して"


def click(button):
    """Click as a learner does; a KeyboardInterrupt out of a handler would end the whole test session."""
    try:
        button.click()
    except KeyboardInterrupt:
        pytest.fail(f"KeyboardInterrupt escaped the {button.description} button's handler")


class Breaks:
    """A learner's own valve with a bug: from ``from_turn`` on, its check raises (until ``fixed``)."""

    name, step = "breaks", "loop_top"

    def __init__(self, from_turn):
        self.from_turn, self.fixed = from_turn, False

    def check(self, state):
        if not self.fixed and state.turns >= self.from_turn:
            raise ZeroDivisionError("learner bug")
        return

    def reading(self, state):
        return "ok"


@pytest.fixture(scope="session")  # one server for both browser files (tests/conftest.py keeps them on one worker)
def lab(tmp_path_factory):
    """A JupyterLab server on 127.0.0.1 with no token, over a course root laid out like the repository."""
    _require_browser()
    tmp_path = tmp_path_factory.mktemp("lab")
    root = tmp_path / "root"
    for name in (LIVE, STORED):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(HERE / "notebooks" / Path(name).name, root / name)
    course = (LESSON, EXERCISE, f"exercises/solutions/{Path(EXERCISE).name}", ENGLISH, ENGLISH_EXERCISE, FIRST)
    for name in dict.fromkeys((*course, LEVEL2, ENGLISH_LEVEL2, *TABLES)):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, root / name)
    env = jupyter_environment(tmp_path)
    # autosave within a test's patience
    autosave = {"@jupyterlab/docmanager-extension:plugin": {"autosave": True, "autosaveInterval": AUTOSAVE}}
    with jupyterlab(tmp_path, root, env, autosave) as url:
        yield url, root, Path(env["HARNESS_LAB_UI_SANDBOX"])


# One Chromium per browser file; it needs no ``lab``: the reopen test brings a server of its own, and
# asking for this one too started a second JupyterLab in its worker for nothing. Not one per session:
# Playwright's sync API keeps its asyncio loop running on the worker's thread while it is started, and a
# test of another file that the worker ran later failed at asyncio.run ("cannot be called from a running
# event loop"); a module's fixture is stopped before the worker's next file.
@pytest.fixture(scope="module")
def browser():
    _require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()
