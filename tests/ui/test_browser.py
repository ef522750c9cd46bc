"""The Stepper in a real browser: JupyterLab 4 + Debian's Chromium, driven by Playwright.

Opens a notebook, runs all cells, clicks 「次のターン」 until a tool_use card shows, approves the
sandboxed write with 「許可」 and waits for the final answer. Saves a screenshot mid-run: to
docs/img/stepper.png (the README's picture) when HARNESS_LAB_SCREENSHOT=1, else to a temp folder.
The server and every kernel it started are killed by PID at the end, pass or fail.
"""

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
CHROMIUM = "/usr/bin/chromium"
README_SCREENSHOT = ROOT / "docs" / "img" / "stepper.png"
NOTEBOOK = "stepper_browser.ipynb"


def _require_browser():
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing (install it with `apt-get install -y chromium`; .ci/run does)")
    try:
        import playwright.sync_api  # noqa: F401
        import jupyterlab  # noqa: F401
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


@pytest.fixture
def lab(tmp_path, jupyter_env):
    """A JupyterLab server on 127.0.0.1 with no token and its own settings and workspaces."""
    _require_browser()
    root = tmp_path / "root"
    root.mkdir()
    shutil.copy(HERE / "notebooks" / NOTEBOOK, root / NOTEBOOK)
    settings = tmp_path / "settings"
    settings.mkdir()
    # No news popup over the notebook.
    (settings / "overrides.json").write_text(
        json.dumps({"@jupyterlab/apputils-extension:notification": {"fetchNews": "false",
                                                                    "checkForUpdates": False}}))
    port = _free_port()
    url = f"http://127.0.0.1:{port}/"
    log = tmp_path / "lab.log"
    command = [
        sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
        "--ServerApp.port_retries=0", "--IdentityProvider.token=", "--ServerApp.password=",
        "--ServerApp.disable_check_xsrf=True", f"--ServerApp.root_dir={root}",
        f"--LabApp.app_settings_dir={settings}", f"--LabApp.user_settings_dir={tmp_path / 'user-settings'}",
        f"--LabApp.workspaces_dir={tmp_path / 'workspaces'}", "--LabApp.expose_app_in_browser=True",
        "--allow-root",
    ]
    with open(log, "w") as out:
        proc = subprocess.Popen(command, env=jupyter_env, cwd=root, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)
    try:
        _wait_for_server(url, proc, log)
        yield url, tmp_path
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


def test_stepper_in_jupyterlab(lab):
    from playwright.sync_api import expect, sync_playwright

    url, tmp_path = lab
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1100})
            page.set_default_timeout(60_000)  # every wait ends; nothing here may hang the suite
            page.goto(f"{url}lab/tree/{NOTEBOOK}?reset")
            page.wait_for_selector(".jp-Notebook", timeout=60_000)
            _kernel_ready(page)
            # Fire and forget: the command's promise may outlive the cells, so do not await it.
            page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")

            stepper = page.locator(".hl-stepper")
            next_turn = stepper.locator(".widget-button", has_text="次のターン")
            expect(next_turn).to_be_visible(timeout=60_000)
            tool_use = stepper.locator(".hl-tool-use")
            for _ in range(5):
                if tool_use.count():
                    break
                next_turn.click()
                page.wait_for_timeout(700)
            expect(tool_use.first).to_be_visible()
            expect(tool_use.first).to_contain_text("write_file")

            approve = stepper.locator(".widget-button", has_text="許可")
            expect(approve).to_be_visible()
            expect(stepper.locator(".hl-status")).to_contain_text("承認待ち")
            shot = README_SCREENSHOT if os.environ.get("HARNESS_LAB_SCREENSHOT") == "1" else tmp_path / "stepper.png"
            shot.parent.mkdir(parents=True, exist_ok=True)
            stepper.screenshot(path=str(shot))
            assert not (tmp_path / "sandbox" / "report.md").exists()  # nothing written before 許可

            approve.click()
            expect(stepper.locator(".hl-turn")).to_have_count(1, timeout=30_000)
            stepper.locator(".widget-button", has_text="最後まで").click()  # auto-run, one turn per tick
            answer = stepper.locator(".hl-answer")
            expect(answer).to_contain_text("sandbox/report.md にレポートを保存しました。", timeout=30_000)
            expect(stepper.locator(".hl-status")).to_contain_text("end_turn")
            assert (tmp_path / "sandbox" / "report.md").read_text(encoding="utf-8").startswith("# 週次レポート")
        finally:
            browser.close()
