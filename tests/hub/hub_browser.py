"""A learner's hands in JupyterLab behind the hub: log in, run a lesson, press 「次のターン」.

Playwright is imported inside the functions: without it the hub test skips (its fixture says why)
instead of failing to collect.
"""

from __future__ import annotations

import time

# Appended to the learner's lesson before it runs: a lesson's own Steppers may all be finished by
# the time its cells have run (lesson 01's are), and the test must not depend on a lesson's cells.
PROBE = """\
from harness_lab import connect
from harness_lab.loop import Run
from harness_lab.tools import get_time, make_read_file
from harness_lab.ui import Stepper

Stepper(Run(connect("lesson6", live=False), tools=[make_read_file(), get_time], valves=[]),
        "README.md の1行目を読んで、それから今何時か教えて")
"""
CELLS_STATE = """() => {
  const cells = window.jupyterapp.shell.currentWidget.content.widgets.filter(c => c.model.type === 'code');
  const errors = [];
  cells.forEach((cell, i) => {
    for (const out of cell.model.outputs.toJSON()) {
      if (out.output_type === 'error') errors.push(`code cell ${i + 1}: ${out.ename}: ${out.evalue}`);
    }
  });
  return {
    ran: cells.filter(c => c.model.executionCount !== null).length,
    queued: cells.filter(c => c.node.querySelector('.jp-InputPrompt')?.textContent.includes('*')).length,
    lastRan: cells[cells.length - 1].model.executionCount !== null,
    lastError: errors.find(e => e.startsWith(`code cell ${cells.length}:`)) ?? null,
    errors,
  };
}"""
CLEAR_AND_APPEND = """async (code) => {
  await window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs');
  const shared = window.jupyterapp.shell.currentWidget.content.model.sharedModel;
  shared.insertCell(shared.cells.length, {cell_type: 'code', source: code});
}"""
RUN_LAST_CELL = """() => {
  const notebook = window.jupyterapp.shell.currentWidget.content;
  notebook.activeCellIndex = notebook.widgets.length - 1;
  window.jupyterapp.commands.execute('notebook:run-cell');
}"""
RESTART_AND_RUN = """async (source) => {
  const panel = window.jupyterapp.shell.currentWidget;
  await panel.sessionContext.session.kernel.restart();
  const notebook = panel.content;
  notebook.activeCellIndex = notebook.widgets.findIndex(c => c.model.sharedModel.getSource() === source);
  notebook.activeCell.model.outputs.clear();  // what Run All showed there is not this run's
  window.jupyterapp.commands.execute('notebook:run-cell');
}"""
CELL_ERROR = """(source) => {
  const cell = window.jupyterapp.shell.currentWidget.content.widgets.find(
    c => c.model.sharedModel.getSource() === source);
  return cell.model.outputs.toJSON().find(o => o.output_type === 'error') ?? null;
}"""
IDLE = ".jp-StatusBar-Widget"  # with text "| Idle": the kernel exists and waits


def login(page, hub_url: str, name: str, password: str) -> None:
    """Submit the hub's login form (returns at once; the caller waits for where it leads)."""
    page.goto(f"{hub_url}/hub/login")
    page.fill("#username_input", name)
    page.fill("#password_input", password)
    page.click("#login_submit")


def kernel_idle(page, timeout: float = 90) -> None:
    """Wait for the notebook's kernel to be idle, accepting the kernel dialog if a slow start shows it."""
    # The execution indicator says idle before any kernel exists; the status bar names the kernel.
    indicator = page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']")
    status = page.locator(IDLE, has_text="| Idle")
    dialog = page.locator(".jp-Dialog", has_text="Select Kernel")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if dialog.count():
            dialog.locator("button.jp-mod-accept").click()
        if status.count() and indicator.count():
            return
        page.wait_for_timeout(250)
    raise AssertionError("the lesson's kernel never became idle")


def _until(page, what: str, done, timeout: float = 120) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        state = page.evaluate(CELLS_STATE)
        if done(state) and page.locator(IDLE, has_text="| Idle").count():
            return state
        assert time.monotonic() < deadline, f"{what} did not happen in {timeout} s: {state}"
        page.wait_for_timeout(300)


def start_lesson(page, lesson_url: str) -> None:
    """Open a lesson, append the probe and press Run All (returns at once; ``finish_lesson`` waits).

    Two learners' lessons are started one after the other and then run side by side, as in a class.
    """
    page.goto(f"{lesson_url}?reset")
    page.wait_for_selector(".jp-Notebook", timeout=90_000)
    kernel_idle(page)
    page.evaluate(CLEAR_AND_APPEND, PROBE)  # cleared counts tell this run's cells from the file's
    # Fire and forget: the command's promise may outlive the cells, so do not await it.
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")


def finish_lesson(page) -> str:
    """Wait for Run All, click the first enabled 「次のターン」; see one more turn card.

    A lesson cell that raises is reported, not failed on: the notebooks' own suite (nbval) judges
    the lessons, the hub test the deployment. Run All stops at such a cell, so the probe is then
    run by itself. Returns what happened, for the test's log.
    """
    from playwright.sync_api import expect

    state = _until(page, "Run All", lambda s: s["ran"] and not s["queued"])
    note = f"{state['ran']} code cells ran"
    if state["errors"]:
        note += f", a lesson cell raised ({'; '.join(state['errors'])})"
    if not state["lastRan"]:
        page.evaluate(RUN_LAST_CELL)
        state = _until(page, "the probe cell", lambda s: s["lastRan"] and not s["queued"])
    assert not state["lastError"], f"the probe Stepper cell raised: {state['lastError']}"

    enabled_next = page.locator("button.widget-button:not([disabled])", has_text="次のターン")
    steppers = page.locator(".hl-stepper")
    stepper = steppers.filter(has=enabled_next).first
    expect(stepper, f"no Stepper with an enabled 「次のターン」 after: {note}").to_be_visible(timeout=30_000)
    which = steppers.evaluate_all("(all, mine) => all.indexOf(mine)", stepper.element_handle())
    cards = stepper.locator(".hl-turn", has_text="ターン")
    before = cards.count()
    stepper.locator(enabled_next).first.click()
    expect(cards).to_have_count(before + 1, timeout=30_000)
    return f"{note}; 「次のターン」 on Stepper {which + 1} of {steppers.count()}: turn cards {before} -> {before + 1}"


def restart_and_run(page, source: str, timeout: float = 60) -> dict:
    """Restart the open notebook's kernel and run only its cell ``source``, as a learner does the next
    day; return that cell's error output."""
    page.evaluate(RESTART_AND_RUN, source)
    deadline = time.monotonic() + timeout
    while (error := page.evaluate(CELL_ERROR, source)) is None or not page.locator(IDLE, has_text="| Idle").count():
        assert time.monotonic() < deadline, f"the cell {source!r} showed no error in {timeout} s after the restart"
        page.wait_for_timeout(300)
    return error
