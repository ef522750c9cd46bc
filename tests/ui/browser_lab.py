"""JupyterLab and Chromium for the browser tests: a server started as python3 dev.py lab starts it, killed by PID
with every kernel it started, and the ways a test finds its way around a notebook page.
"""

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import dev

HERE = Path(__file__).parent


ROOT = HERE.parents[1]


CHROMIUM = "/usr/bin/chromium"


README_SCREENSHOT = ROOT / "docs" / "img" / "stepper.png"


LIVE, STORED = "notebooks/stepper_browser.ipynb", "notebooks/stepper_static.ipynb"


LESSON, EXERCISE = "notebooks/05_full_harness.ipynb", "exercises/level1_tiered_policy.ipynb"


ENGLISH_EXERCISE = "exercises/en/level1_tiered_policy.ipynb"  # its English twin, whose hints quote more identifiers


LEVEL2, ENGLISH_LEVEL2 = "exercises/level2_missing_gate.ipynb", "exercises/en/level2_missing_gate.ipynb"


# Lessons whose printed tables are read beside the file browser on a narrow screen, in both editions.
TABLES = tuple(
    f"notebooks/{edition}{name}.ipynb"
    for name in ("02_stop_conditions", "04_human_in_the_loop", "05_full_harness", "06_api_2026")
    for edition in ("", "en/")
)


ENGLISH = "notebooks/en/01_bare_loop.ipynb"  # a lesson of the English edition, run as a reader of English would


FIRST = "notebooks/01_bare_loop.ipynb"  # its Japanese twin: the widest TODO instruction of the course


JAPANESE = re.compile("[\u3040-\u30ff\u3400-\u9fff\uff01-\uff5e]")


AUTOSAVE = 3  # seconds; JupyterLab's default is 120


WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


REASON = "まだ保存しないで（ブラウザ）"


def _require_browser():
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing (install it with `apt-get install -y chromium`; .ci/run does)")
    try:
        import jupyterlab  # noqa: F401
        import playwright.sync_api  # noqa: F401
    except ImportError as missing:
        pytest.skip(f"{missing.name} is not installed (it is in the [test] extra)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _children(pid: int) -> list[int]:
    """PIDs whose parent is ``pid`` (kernels run in their own session, so killpg misses them)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def _wait_for_server(url: str, proc: subprocess.Popen, log: Path, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError("jupyter lab exited:\n" + log.read_text()[-3000:])
        try:
            with urllib.request.urlopen(url + "api/status", timeout=2) as reply:
                if reply.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise AssertionError("jupyter lab did not start:\n" + log.read_text()[-3000:])


def _stop(proc: subprocess.Popen, url: str) -> None:
    """Shut the server down and kill it and the kernels it started, by PID."""
    kernels = _children(proc.pid)
    try:
        urllib.request.urlopen(urllib.request.Request(url + "api/shutdown", method="POST"), timeout=5)
        proc.wait(timeout=10)
    except Exception:
        pass
    for pid in kernels:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


@contextmanager
def jupyterlab(tmp_path: Path, root: Path, env: dict, settings: dict) -> Iterator[str]:
    """A JupyterLab server on 127.0.0.1 with no token over ``root``, as ``python3 dev.py lab`` starts it,
    with ``settings`` beside dev.py lab's and no news popup over the notebook; its URL."""
    folder = tmp_path / "settings"
    folder.mkdir()
    no_news = {"@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False}}
    (folder / "overrides.json").write_text(json.dumps({**no_news, **settings, **dev.LAB_SETTINGS}))
    port = _free_port()
    url = f"http://127.0.0.1:{port}/"
    log = tmp_path / "lab.log"
    command = [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        "--ip=127.0.0.1",
        f"--port={port}",
        "--ServerApp.port_retries=0",
        "--IdentityProvider.token=",
        "--ServerApp.password=",
        "--ServerApp.disable_check_xsrf=True",
        *dev.lab_arguments(root),
        f"--LabApp.app_settings_dir={folder}",
        f"--LabApp.user_settings_dir={tmp_path / 'user-settings'}",
        f"--LabApp.workspaces_dir={tmp_path / 'workspaces'}",
        "--LabApp.expose_app_in_browser=True",
        "--allow-root",
    ]
    with open(log, "w") as out:
        proc = subprocess.Popen(
            command,
            env=dev.lab_environment(env),
            cwd=root,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        _wait_for_server(url, proc, log)
        yield url
    finally:
        _stop(proc, url)


def _kernel_ready(page) -> None:
    """Wait until the notebook's kernel is idle, accepting the kernel dialog if a slow start shows it."""
    status = page.locator(".jp-StatusBar-Widget", has_text="| Idle")
    dialog = page.locator(".jp-Dialog", has_text="Select Kernel")
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if dialog.count():
            dialog.locator("button.jp-mod-accept").click()
        if status.count() and page.locator('.jp-Notebook-ExecutionIndicator[data-status="idle"]').count():
            return
        page.wait_for_timeout(300)
    raise AssertionError("the notebook's kernel never became idle")


def _open(browser_or_page, url: str, name: str, *, wait_kernel: bool = True):
    page = (
        browser_or_page.new_page(viewport={"width": 1400, "height": 1200})
        if hasattr(browser_or_page, "new_page")
        else browser_or_page
    )
    page.set_default_timeout(60_000)  # every wait ends; nothing here may hang the suite
    page.goto(f"{url}lab/tree/{name}?reset")
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=60_000)
    if wait_kernel:
        _kernel_ready(page)
    return page


def _command(page, name: str, args: dict | None = None) -> None:
    # Fire and forget: the command's promise may wait on a dialog or outlive the cells.
    page.evaluate("([name, args]) => { window.jupyterapp.commands.execute(name, args); }", [name, args or {}])


def _cell(page, index: int):
    from playwright.sync_api import Error

    cell = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell").nth(index)
    # JupyterLab renders the outputs of cells in view. While a notebook is still laying out, its
    # windowed list may replace the cell's element between finding and scrolling, and Playwright does
    # not retry a scroll whose element went away: find it again (seen once in a full parallel run).
    for _ in range(4):
        try:
            cell.scroll_into_view_if_needed()
            return cell
        except Error as exc:
            if "not attached" not in str(exc):
                raise
            page.wait_for_timeout(200)
    cell.scroll_into_view_if_needed()  # the last try, its error unhidden
    return cell


def _panel(page, index: int):
    """The Stepper panel in code cell ``index`` (not a fork's panel nested inside it)."""
    return _cell(page, index).locator(".jp-OutputArea-output .hl-stepper").first


def _button(scope, text: str):
    return scope.locator(".widget-button", has_text=text).first


def _show_tab(panel, tab: str, part: str) -> None:
    """Open the panel's ``tab`` until its ``part`` shows, as a learner would.

    On a loaded machine a click that lands while the reopened widgets are still being wired up is
    lost (seen in full parallel runs: once a single click, once six clicks in a row over 30 s). So the
    panel is brought back into view before each try, and every other try chooses the tab from the
    keyboard instead (Enter on the focused tab, which Lumino's tab bar takes without the press and
    release bookkeeping a click goes through). What the panel showed is in the failure."""
    from playwright.sync_api import Error, expect

    shown = panel.locator(f"{part}:visible").first
    title = panel.locator(".lm-TabBar-tab", has_text=tab).first
    for attempt in range(6):
        try:
            panel.scroll_into_view_if_needed(timeout=10_000)
            if attempt % 2:
                title.focus(timeout=10_000)
                title.press("Enter", timeout=10_000)
            else:
                title.click(timeout=10_000)
            expect(shown).to_be_visible(timeout=5_000)
            return
        except (AssertionError, Error):
            continue
    current = panel.locator(".lm-TabBar-tab.lm-mod-current").all_inner_texts()
    raise AssertionError(
        f"the {tab} tab never showed {part}: {panel.locator(part).count()} in the panel, none visible; "
        f"tabs shown: {current}"
    )


def _line(panel):
    """The panel's own reason line (a fork's line nested inside it is another element)."""
    return panel.locator(":scope > .widget-html > .widget-html-content > .hl-stale")


def _saved(path: Path) -> dict:
    """The notebook file as JSON, read again while the server is half-way through writing it."""
    for _ in range(50):
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            time.sleep(0.1)
    raise AssertionError(f"{path} never held a whole notebook")


def _saved_models(path: Path) -> dict:
    notebook = _saved(path)
    return notebook.get("metadata", {}).get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})


def _wait(page, condition, what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        page.wait_for_timeout(200)
