"""A reopened notebook draws each saved widget, even when the widget manager restores it late.

JupyterLab's widget renderer (jupyterlab_widgets 3.0) waits two seconds for an output's widget model,
then writes "Error displaying widget: model not found" if the widget manager says its restore is done.
On a reopen that restore waits for the new kernel, and on a loaded machine it sometimes ends between
the renderer's last look and the end of its wait: the model is there, the output says it is not (one
reopen in eight for this one-Button notebook). The test makes that order certain with the page's
clock: it stops the clock as the kernel's connection opens, lets the restore finish while the
renderer waits, then moves the clock past the two seconds. Where a loaded machine draws the output
only after the restore (the renderer then finds its model at once; one clean-clone CI run met it),
the test writes the renderer's give-up text itself. The course's plugin (harness_lab/ui/labextension)
draws such an output again; without it the test fails either way.
"""

import platform
import re
from pathlib import Path

import nbformat
import pytest
from nbformat.sign import NotebookNotary

from tests.ui.browser_lab import _require_browser, _wait, jupyterlab
from tests.ui.conftest import jupyter_environment

HERE = Path(__file__).parent
NOTEBOOK = "one_button.ipynb"
NOT_FOUND = "Error displaying widget: model not found"


@pytest.fixture(scope="module")
def button_lab(tmp_path_factory):
    """A JupyterLab server as ``python3 dev.py lab`` starts it, over one trusted notebook with a saved Button."""
    _require_browser()
    tmp_path = tmp_path_factory.mktemp("lab")
    root = tmp_path / "root"
    root.mkdir()
    env = jupyter_environment(tmp_path)
    notebook = nbformat.read(HERE / "notebooks" / NOTEBOOK, as_version=4)
    # The kernel's own Python: JupyterLab writes another version into the notebook, a change.
    notebook.metadata.language_info.version = platform.python_version()
    nbformat.write(notebook, root / NOTEBOOK)
    # Trusted, as a notebook the learner saved is: JupyterLab draws its widget view, not the text.
    Path(env["JUPYTER_DATA_DIR"]).mkdir(parents=True)
    NotebookNotary(data_dir=env["JUPYTER_DATA_DIR"]).sign(notebook)
    with jupyterlab(tmp_path, root, env, {}) as url:
        yield url


def test_a_saved_widget_restored_after_the_renderer_gave_up_is_drawn(button_lab, browser):
    # The file's browser (tests/ui/conftest.py): a second sync_playwright in the worker that holds one
    # is refused ("Sync API inside the asyncio loop").
    from playwright.sync_api import expect

    page = browser.new_page()
    try:
        page.set_default_timeout(60_000)
        errors: list[str] = []
        page.on("console", lambda message: message.type == "error" and errors.append(message.text))
        page.clock.install()  # the page's timers, still running at their own pace
        opened = []

        def kernel_channels(ws):
            # From here the renderer's two-second wait stands still (stopped before a kernel
            # message can pass); the restore needs no timer (kernel replies and promises), so it
            # finishes: registering the saved models marks the notebook changed (the plugin takes
            # that back once timers run again).
            page.clock.pause_at(page.evaluate("Date.now()") + 10)
            opened.append(ws.url)
            ws.connect_to_server()  # every message passes unchanged

        page.route_web_socket(re.compile(r"/api/kernels/[^/]+/channels"), kernel_channels)
        page.goto(f"{button_lab}lab/tree/{NOTEBOOK}?reset")
        _wait(page, lambda: opened, "the new kernel's connection", timeout=120)
        dirty = "() => window.jupyterapp.shell.currentWidget.context.model.dirty"
        _wait(page, lambda: page.evaluate(dirty), "the saved models restored", timeout=120)
        page.wait_for_timeout(5_000)  # their creation, after the registering (a wait, not a check)
        page.clock.fast_forward(3_000)  # the renderer's wait runs out with the restore done
        page.clock.resume()

        output = page.locator(".jp-OutputArea-output").first
        _wait(page, lambda: errors or output.locator(".widget-button").count(), "the renderer's answer", 120)
        if not any("widget model not found" in e for e in errors):
            # A loaded machine drew the output only after the restore, so the renderer found its
            # model at its first look and never gave up. Give up as it does (its node's whole text),
            # so what is checked below, the plugin's answer to that text, is checked every run.
            output.evaluate("(node, text) => { node.textContent = text; }", NOT_FOUND)
        expect(output.locator(".widget-button", has_text="hi")).to_be_visible(timeout=60_000)
        assert NOT_FOUND not in output.inner_text()
        # Drawing it again is no change to the notebook.
        page.wait_for_timeout(2_000)
        assert not page.locator(".lm-TabBar-tab.jp-mod-dirty").count()
    finally:
        page.close()
