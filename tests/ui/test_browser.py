"""The Stepper in a real browser: JupyterLab 4 + Debian's Chromium, driven by Playwright, as a learner would.

One JupyterLab server for the module, with the widget setting ``python3 dev.py lab`` writes (save
widget state). The tests, in order:

1. a notebook stored by notebooks/build.py, opened untrusted as a shipped one is: the loop diagram is
   a picture and the panel reads as its saved record;
2. 停止 → 再開 → (raise the limit that stopped it) → 最後まで through an approval to the end;
3. a fork from turn 2 with an edited tool_result ends differently, and both endings show side by side;
4. a 12-turn panel stays about one screen tall;
5. the second day: save, shut the kernel down, reopen: every panel shows its last state, greyed,
   with the line saying why, and nowhere "Error displaying widget".

With HARNESS_LAB_SCREENSHOT=1, test 3 saves the README's picture (docs/img/stepper.png): the panel
with its timeline and the comparison. The server and every kernel it started are killed by PID.
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

from tests.ui.conftest import jupyter_environment

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
CHROMIUM = "/usr/bin/chromium"
README_SCREENSHOT = ROOT / "docs" / "img" / "stepper.png"
LIVE, STORED = "stepper_browser.ipynb", "stepper_static.ipynb"
# What `python3 dev.py lab` writes into the venv's JupyterLab settings.
SAVE_WIDGET_STATE = {"@jupyter-widgets/jupyterlab-manager:plugin": {"saveState": True}}


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


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A JupyterLab server on 127.0.0.1 with no token, its own settings and workspaces."""
    _require_browser()
    tmp_path = tmp_path_factory.mktemp("lab")
    root = tmp_path / "root"
    root.mkdir()
    for name in (LIVE, STORED):
        shutil.copy(HERE / "notebooks" / name, root / name)
    settings = tmp_path / "settings"
    settings.mkdir()
    # No news popup over the notebook; widget state saved with the notebook, as dev.py lab sets it.
    (settings / "overrides.json").write_text(
        json.dumps(
            {
                "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False},
                **SAVE_WIDGET_STATE,
            }
        )
    )
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
        f"--ServerApp.root_dir={root}",
        f"--LabApp.app_settings_dir={settings}",
        f"--LabApp.user_settings_dir={tmp_path / 'user-settings'}",
        f"--LabApp.workspaces_dir={tmp_path / 'workspaces'}",
        "--LabApp.expose_app_in_browser=True",
        "--allow-root",
    ]
    env = jupyter_environment(tmp_path)
    with open(log, "w") as out:
        proc = subprocess.Popen(
            command, env=env, cwd=root, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        _wait_for_server(url, proc, log)
        yield url, tmp_path, Path(env["HARNESS_LAB_UI_SANDBOX"])
    finally:
        _stop(proc, url)


@pytest.fixture(scope="module")
def browser(lab):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


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


def _command(page, name: str) -> None:
    # Fire and forget: the command's promise may wait on a dialog or outlive the cells.
    page.evaluate(f"() => {{ window.jupyterapp.commands.execute('{name}'); }}")


def _cell(page, index: int):
    cell = page.locator(".jp-Notebook .jp-Cell").nth(index)
    cell.scroll_into_view_if_needed()  # JupyterLab renders the outputs of cells in view
    return cell


def _panel(page, index: int):
    """The Stepper panel in code cell ``index`` (not a fork's panel nested inside it)."""
    return _cell(page, index).locator(".jp-OutputArea-output .hl-stepper").first


def _button(scope, text: str):
    return scope.locator(".widget-button", has_text=text).first


def test_a_shipped_notebook_opened_untrusted_shows_the_diagram_as_an_image(lab, browser):
    from playwright.sync_api import expect

    url, _, _ = lab
    page = _open(browser, url, STORED, wait_kernel=False)  # nothing runs: the stored outputs only
    try:
        diagram = _cell(page, 2).locator(".jp-OutputArea-output")
        image = diagram.locator("img")
        expect(image).to_have_count(1, timeout=30_000)
        assert image.get_attribute("src").startswith("data:image/png;base64,")
        page.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=image.element_handle())
        width = image.evaluate("(img) => img.getBoundingClientRect().width")
        assert 800 <= width <= 1000, width  # shown at the diagram's own width, so labels stay >= 12 px
        assert "リクエスト送信応答を受け取る" not in diagram.inner_text()  # no run-together SVG labels
        record = _cell(page, 3).locator(".hl-stepper-static")
        expect(record).to_contain_text("保存された記録")
        expect(record).to_contain_text("○ 許可しました")
        expect(record).to_contain_text("sandbox/report.md にレポートを保存しました。")
        expect(_cell(page, 5).locator(".hl-compare")).to_contain_text("◎ 完了")
        assert "Error displaying widget" not in page.locator(".jp-Notebook").inner_text()
    finally:
        page.close()


@pytest.fixture(scope="module")
def live(lab, browser):
    """The live notebook, all cells run: a fresh panel (cell 2) and a spinning run that stopped (cell 3)."""
    from playwright.sync_api import expect

    url, _, _ = lab
    page = _open(browser, url, LIVE)
    _command(page, "notebook:run-all-cells")
    expect(_button(_panel(page, 2), "次のターン")).to_be_visible(timeout=60_000)
    expect(_panel(page, 3).locator(".hl-status")).to_contain_text("最大ターン数 2", timeout=60_000)
    yield page
    page.close()


def test_stop_resume_and_run_to_end_through_an_approval(lab, live):
    from playwright.sync_api import expect

    _, _, sandbox = lab
    panel = _panel(live, 2)
    status, turns = panel.locator(".hl-status"), panel.locator(".hl-turn")
    panel.locator(".widget-toggle-button", has_text="ゆっくり").click()
    _button(panel, "最後まで").click()
    expect(turns).to_have_count(1, timeout=30_000)
    _button(panel, "停止").click()  # paced: the second turn is 1.5 s away, time enough for a person
    expect(status).to_contain_text("中断")
    assert turns.count() == 1
    _button(panel, "再開").click()
    expect(status).to_contain_text("再開できます")
    panel.locator(".widget-toggle-button", has_text="速く").click()
    _button(panel, "最後まで").click()
    expect(status).to_contain_text("最大ターン数 2", timeout=30_000)
    limit = panel.locator(".widget-inline-hbox", has_text="新しい上限").locator("input")
    expect(limit).to_have_value("6")  # offered: the limit that stopped the run, raised
    _button(panel, "再開").click()
    _button(panel, "最後まで").click()
    approve = _button(panel, "許可")
    expect(approve).to_be_visible(timeout=30_000)
    expect(status).to_contain_text("承認待ち")
    assert not (sandbox / "report.md").exists()  # nothing written before 許可
    approve.click()  # 「最後まで」 carries on after the answer, to the end
    expect(panel.locator(".hl-answer")).to_contain_text("sandbox/report.md にレポートを保存しました。", timeout=30_000)
    expect(status).to_contain_text("◎ 完了")
    assert (sandbox / "report.md").read_text(encoding="utf-8").startswith("# 週次レポート")


def test_a_fork_from_turn_2_with_an_edited_result_ends_differently(live, tmp_path):
    from playwright.sync_api import expect

    panel = _panel(live, 3)
    panel.locator(".lm-TabBar-tab", has_text="タイムライン").first.click()
    timeline = panel.locator(".hl-timeline").first
    timeline.locator(".widget-toggle-button", has_text="2").first.click()
    expect(timeline.locator(".hl-timeline-turn")).to_contain_text("ターン 2")
    expect(timeline.locator(".hl-diff")).to_contain_text("tool_result: running")
    timeline.locator("textarea").first.fill("done: 42 件を処理")
    _button(timeline, "ターン 2 から分岐して実行").click()
    comparison = timeline.locator(".hl-compare").first
    expect(comparison).to_contain_text("◎ 完了 (end_turn): ジョブ job-42 は終わりました。", timeout=30_000)
    expect(comparison).to_contain_text("× 停止 (max_turns)")  # the original, beside it
    fork = timeline.locator(".hl-stepper").first  # its own panel, folded under the comparison
    expect(fork.locator(".hl-fork-note")).to_contain_text("ターン 2 から分岐")
    expect(fork.locator(".hl-answer")).to_contain_text("ジョブ job-42 は終わりました。")
    _screenshot(live, panel, comparison, tmp_path)


def _screenshot(page, panel, last, tmp_path) -> None:
    """The panel from its diagram down to ``last``: the README's picture when HARNESS_LAB_SCREENSHOT=1."""
    shot = README_SCREENSHOT if os.environ.get("HARNESS_LAB_SCREENSHOT") == "1" else tmp_path / "stepper.png"
    shot.parent.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": 1200, "height": 1500})
    if page.locator("#jp-left-stack:visible").count():
        _command(page, "application:toggle-left-area")
    page.wait_for_timeout(300)
    panel.evaluate("(node) => node.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(300)
    top, bottom = panel.bounding_box(), last.bounding_box()
    clip = {
        "x": top["x"],
        "y": max(top["y"], 0),
        "width": top["width"],
        "height": min(bottom["y"] + bottom["height"] + 8, 1500) - max(top["y"], 0),
    }
    page.screenshot(path=str(shot), clip=clip)
    page.set_viewport_size({"width": 1400, "height": 1200})


def test_a_12_turn_panel_stays_about_one_screen_tall(live):
    from playwright.sync_api import expect

    panel = _panel(live, 4)
    expect(panel.locator(".hl-answer")).to_contain_text("全12章を確認し終えました。")
    height = panel.bounding_box()["height"]
    print(f"12-turn panel: {height:.0f} px tall")
    assert height < 1600, height  # older turns fold to one line each (it was 4,000-5,000 px)
    assert panel.locator("details.hl-folded").count() == 11  # all but the last


def test_the_second_day_save_shut_down_reopen(lab, live):
    from playwright.sync_api import expect

    url, root, _ = lab
    _command(live, "docmanager:save")
    saved = root / "root" / LIVE
    deadline = time.monotonic() + 30
    while (
        "application/vnd.jupyter.widget-state+json"
        not in json.loads(saved.read_text()).get("metadata", {}).get("widgets", {})
        and time.monotonic() < deadline
    ):
        live.wait_for_timeout(200)
    state = json.loads(saved.read_text())["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]
    assert state.get("state")  # the form nbconvert and GitHub require
    _command(live, "kernelmenu:shutdown")
    gone = live.locator(".jp-StatusBar-Widget", has_text="No Kernel")
    deadline = time.monotonic() + 30
    while not gone.count() and time.monotonic() < deadline:
        accept = live.locator(".jp-Dialog button.jp-mod-accept")  # some versions ask first
        if accept.count():
            accept.click()
        live.wait_for_timeout(200)
    expect(gone.first).to_be_visible()

    page = _open(live, url, LIVE, wait_kernel=False)  # the same tab, reloaded: the second day
    expect(page.locator(".hl-stepper").first).to_be_visible(timeout=60_000)
    spin, first = _panel(page, 3), _panel(page, 2)
    expect(spin.locator(".hl-stale").first).to_be_visible(timeout=30_000)  # the line saying why it is dead
    expect(spin.locator(".hl-stale:visible")).to_have_count(1)  # once, not again for the fork inside it
    expect(spin.locator(".hl-status").first).to_contain_text("最大ターン数 2")  # its last state
    expect(spin.locator(".hl-compare").first).to_contain_text("ジョブ job-42 は終わりました。")  # and its fork's
    expect(first.locator(".hl-status")).to_contain_text("◎ 完了")
    expect(first.locator(".hl-answer")).to_contain_text("保存しました")
    greyed = _button(first, "次のターン").evaluate("(b) => getComputedStyle(b).pointerEvents")
    assert greyed == "none"
    assert "Error displaying widget" not in page.locator(".jp-Notebook").inner_text()
