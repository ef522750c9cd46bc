"""A saved Tab drawn before its cell was first shown takes clicks after a reopen.

JupyterLab 4.6 (windowing "contentVisibility") builds each cell's parts only when the cell is first put
on the page, which for cells below the first screen waits for the browser's idle time, and on a slow
page that comes long after the widget manager has drawn the saved widgets into the cells' output areas.
Lumino then marks those widgets attached without sending them "before-attach", where a TabBar adds its
pointer and key listeners: the Stepper's tabs, and a fork's tabs inside its Timeline, ignored every
click. The test makes that order certain: the page's CPU is slowed and its idle callbacks are held back
until the Tab is drawn in a cell still waiting to be shown. The course's plugin
(harness_lab/ui/labextension) sends the missed message; without it the click does nothing.
"""

import platform
import re
from pathlib import Path

import nbclient
import nbformat
import pytest
from nbformat.sign import NotebookNotary

from tests.ui.browser_lab import _require_browser, jupyterlab
from tests.ui.conftest import jupyter_environment

NOTEBOOK = "tab_below.ipynb"
FILLER = 40  # cells above the Tab: more than JupyterLab shows in its first pass, slowed as below
SLOWDOWN = 4  # Chrome's CPU throttling rate

# requestIdleCallback held back until the test lets it through (JupyterLab shows the cells below the
# first screen from such callbacks).
HOLD_IDLE = """
(() => {
  const later = window.requestIdleCallback.bind(window);
  const held = [];
  window.requestIdleCallback = (callback, options) => {
    if (window.hlIdleFree) return later(callback, options);
    held.push(callback);
    return 0;
  };
  window.hlFreeIdle = () => {
    window.hlIdleFree = true;
    held.splice(0).forEach((callback) => later(callback));
  };
})();
"""

# The Tab's cell: whether JupyterLab has shown it yet, and whether the Tab is drawn in its output area.
TAB_CELL = """() => {
  const cells = window.jupyterapp.shell.currentWidget.content.widgets;
  const cell = cells[cells.length - 1];
  return {waiting: cell.isPlaceholder(), drawn: !!cell.outputArea.node.querySelector('.widget-tab-bar')};
}"""


@pytest.fixture(scope="module")
def tab_lab(tmp_path_factory):
    """A JupyterLab server as ``python3 dev.py lab`` starts it, over one trusted, run and saved notebook
    whose last cell shows a two-page Tab below many others."""
    _require_browser()
    tmp_path = tmp_path_factory.mktemp("lab")
    root = tmp_path / "root"
    root.mkdir()
    env = jupyter_environment(tmp_path)
    notebook = nbformat.v4.new_notebook()
    notebook.metadata.kernelspec = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook.cells = [nbformat.v4.new_markdown_cell(f"{i}: " + "text " * 40) for i in range(FILLER)]
    notebook.cells.append(
        nbformat.v4.new_code_cell(
            "import ipywidgets as w\n"
            "w.Tab([w.HTML('<p class=\"page-a\">A</p>'), w.HTML('<p class=\"page-b\">B</p>')], titles=['A', 'B'])"
        )
    )
    # Run as the learner did on day 1, the widget state saved with it.
    nbclient.NotebookClient(notebook, kernel_name="python3", store_widget_state=True).execute()
    notebook.metadata.language_info.version = platform.python_version()  # what JupyterLab would write
    nbformat.write(notebook, root / NOTEBOOK)
    Path(env["JUPYTER_DATA_DIR"]).mkdir(parents=True)
    NotebookNotary(data_dir=env["JUPYTER_DATA_DIR"]).sign(notebook)  # saved by the learner: trusted
    with jupyterlab(tmp_path, root, env, {}) as url:
        yield url


def test_a_tab_drawn_before_its_cell_was_shown_switches_on_a_click(tab_lab, browser):
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 1400, "height": 900})
    try:
        page.set_default_timeout(60_000)
        page.add_init_script(HOLD_IDLE)
        page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": SLOWDOWN})
        page.goto(f"{tab_lab}lab/tree/{NOTEBOOK}?reset")
        page.wait_for_function(
            "() => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;"
            " return !!(w && w.content && w.content.widgets && w.content.widgets.length); }"
        )
        page.wait_for_function(f"() => ({TAB_CELL})().drawn", timeout=120_000)
        # The order under test: the Tab drawn while its cell still waits to be shown.
        assert page.evaluate(TAB_CELL)["waiting"], "the cell was shown before the Tab was drawn"
        page.evaluate("() => window.hlFreeIdle()")

        tabs = page.locator(".widget-tab .lm-TabBar-tab")
        expect(tabs).to_have_count(2, timeout=60_000)
        tabs.nth(1).click()
        expect(page.locator(".page-b")).to_be_visible(timeout=10_000)
        expect(tabs.nth(1)).to_have_class(re.compile("lm-mod-current"))
    finally:
        page.close()
