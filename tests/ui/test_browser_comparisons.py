"""Comparisons of a run and its forks in a real browser (JupyterLab 4 + Chromium, the server of
tests/ui/conftest.py), at 900 px with the file browser open: the table a cell prints, and the one in a
panel's timeline tab.
"""

import json

from tests.ui.browser_lab import _cell, _command, _open, _panel, _show_tab

KERNEL = {"display_name": "Python 3", "language": "python", "name": "python3"}


def _notebook(root, name: str, *sources: str) -> None:
    cells = [
        {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": [s]} for s in sources
    ]
    (root / name).write_text(
        json.dumps({"cells": cells, "metadata": {"kernelspec": KERNEL}, "nbformat": 4, "nbformat_minor": 5})
    )


def test_a_comparisons_run_labels_stay_on_one_line_beside_the_file_browser(lab, browser):
    """Lesson 04's comparison of the original run and its fork at 900 px with the file browser open: the
    fork's column heading 「分岐 1（ターン 1 から）」 broke between か and ら, the output scrolled sideways by 9 px
    (more with three forks, the row names scrolled away with it), and the finished run's disabled 停止 was dark grey
    beside the light grey of the other disabled buttons, as if held down."""
    from playwright.sync_api import expect

    url, root, _ = lab
    name = "notebooks/comparison.ipynb"
    source = (
        "import tempfile\nfrom pathlib import Path\n\nimport harness_lab as hl\nfrom harness_lab.ui import Stepper\n\n"
        'hl.use_language("ja")\nbox = Path(tempfile.mkdtemp()) / "sandbox"\nbox.mkdir()\n'
        'run = hl.Run(hl.connect("high_impact", live=False), tools=[hl.make_write_file(sandbox=box)],\n'
        "             valves=[hl.MaxTurns(8), hl.Approval()])\n"
        'watch = Stepper(run, "今週の問い合わせをレポートにまとめて保存して")\n'
        'watch.step()\nwatch.deny("まだ保存しないで")\nwatch.run_all()\n'
        "watch.fork(at=1, flip=True).run_all()\ndisplay(watch)\nwatch.compare()"
    )
    more = "watch.fork(at=1, flip=True).run_all()\nwatch.fork(at=1, flip=True).run_all()\nwatch.compare()"
    _notebook(root, name, source, more)
    page = _open(browser.new_page(viewport={"width": 900, "height": 1000}), url, name)
    try:
        assert page.locator("#jp-left-stack:visible").count()  # the file browser is open beside the notebook
        _command(page, "notebook:run-all-cells")
        table = _cell(page, 0).locator(".hl-compare").last  # the one compare() printed, below the panel's own
        expect(table).to_contain_text("分岐 1", timeout=90_000)
        lines = table.evaluate(
            """(table) => [...table.querySelectorAll('tr:first-child th')].filter((th) => th.textContent).map((th) => {
                const range = document.createRange();
                range.selectNodeContents(th);
                const tops = new Set([...range.getClientRects()].filter((r) => r.width).map((r) => Math.round(r.top)));
                return [th.textContent, tops.size];
            })"""
        )
        assert [label for label, _ in lines] == ["元の実行", "分岐 1（ターン 1 から）"], lines
        assert [label for label, count in lines if count > 1] == []
        assert table.evaluate(SIDEWAYS) == [0, 0]  # neither the output nor the table's own box scrolls
        disabled = _panel(page, 0).locator(".widget-button:disabled")
        assert disabled.count() >= 4  # 次のターン, 最後まで, 停止 and the fork button, at least
        colours = disabled.evaluate_all("(buttons) => buttons.map((b) => getComputedStyle(b).backgroundColor)")
        assert len(set(colours)) == 1, colours
        several = _cell(page, 1).locator(".hl-compare")
        expect(several).to_contain_text("分岐 3", timeout=90_000)
        # Three forks are wider than the output: the table scrolls in its own box, the output stays put.
        assert several.evaluate(SIDEWAYS)[0] == 0 and several.evaluate(SIDEWAYS)[1] > 0
        labels = several.evaluate(
            "(t) => [...t.querySelectorAll('tr:first-child th span')].map((s) => s.getClientRects().length)"
        )
        assert labels and set(labels) == {1}, (
            labels
        )  # each part of a label on one line: 「分岐 3」 / 「（ターン 1 から）」
    finally:
        page.close()


# How far the comparison's output scrolls sideways, and how far the table's own box does.
SIDEWAYS = """(table) => [table.closest('.jp-OutputArea-output'), table.parentElement].map(
  (box) => Math.max(0, box.scrollWidth - box.clientWidth))"""


def test_a_panels_own_comparison_fits_its_timeline_beside_the_file_browser(lab, browser):
    """Lesson 03's panel at 900 px with the file browser open: its timeline tab's comparison was 514 px wide in a
    tab 432 px wide, and the tab cut the fork's column off after 「分岐 1」: the stop's repeated call,
    「（read_file({"path":"notes.txt"})）。」, could not break, and the table's box could not get narrower than the
    table."""
    from playwright.sync_api import expect

    url, root, _ = lab
    name = "notebooks/panel_comparison.ipynb"
    source = (
        "import harness_lab as hl\nfrom harness_lab.emulator import call, last_results, say\n"
        'from harness_lab.ui import Stepper\n\nhl.use_language("ja")\n\n\ndef stuck_on_notes(request):\n'
        "    results = last_results(request)\n    if results and not results[-1].is_error:\n"
        '        return say("要点: " + results[-1].text)\n    return call("read_file", path="notes.txt")\n\n\n'
        "stuck = Stepper(hl.Run(hl.connect(stuck_on_notes, live=False), tools=[hl.read_file],\n"
        '                       valves=[hl.MaxTurns(8), hl.NoProgress()]), "notes.txt を読んで要点をまとめて")\n'
        "stuck.run_all()\nstuck.select(1)\n"
        'stuck.fork(1, result="金曜 10 時に予算の見直しを話し合う。資料は共有フォルダーにある。").run_all()\nstuck'
    )
    _notebook(root, name, source)
    page = _open(browser.new_page(viewport={"width": 900, "height": 1000}), url, name)
    try:
        assert page.locator("#jp-left-stack:visible").count()  # the file browser is open beside the notebook
        _command(page, "notebook:run-all-cells")
        panel = _panel(page, 0)
        expect(panel.locator(".hl-compare")).to_have_count(1, timeout=90_000)
        _show_tab(panel, "タイムライン", ".hl-compare")
        box = panel.locator(".hl-timeline .hl-compare-box")
        expect(box).to_contain_text("分岐 1")
        # how far the box scrolls, and how far its right edge is past the tab's
        past = box.evaluate(
            """(box) => [box.scrollWidth - box.clientWidth, Math.round(box.getBoundingClientRect().right
                - box.closest('.hl-timeline').getBoundingClientRect().right)]"""
        )
        assert past[0] <= 0 and past[1] <= 0, past
        assert box.evaluate("(box) => box.clientWidth") >= 440  # the tab's padding leaves the table more room
        labels = box.evaluate(
            "(box) => [...box.querySelectorAll('tr:first-child th span')].map((s) => s.getClientRects().length)"
        )
        assert labels and set(labels) == {1}, labels
    finally:
        page.close()
