"""The course's pages in a real browser (JupyterLab 4 + Chromium, the server of tests/ui/conftest.py): a shipped
notebook opened untrusted, typing while a save is on its way, lesson 05's link to the exercise, an English
lesson, a TODO instruction on a laptop screen, a failed grade's hints and a panel's gauges on a narrow one.
"""

import json
import urllib.request
from pathlib import Path

import pytest

from harness_lab.ui.diagram import WIDTH
from tests.ui.browser_lab import (
    ENGLISH,
    ENGLISH_EXERCISE,
    ENGLISH_LEVEL2,
    EXERCISE,
    FIRST,
    JAPANESE,
    LESSON,
    LEVEL2,
    ROOT,
    STORED,
    TABLES,
    _cell,
    _command,
    _kernel_ready,
    _open,
    _wait,
)


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
        page.set_viewport_size({"width": 1024, "height": 900})  # narrower than the picture: it scrolls
        page.wait_for_timeout(300)
        narrow = image.evaluate("(img) => img.getBoundingClientRect().width")
        assert narrow >= WIDTH - 1, narrow  # never squeezed (it was ~530 px, 7 px labels)
        page.set_viewport_size({"width": 1400, "height": 1200})
        record = _cell(page, 3).locator(".hl-stepper-static")
        expect(record).to_contain_text("保存された記録")
        expect(record).to_contain_text("上から順に")
        expect(record).to_contain_text("○ 許可しました")
        expect(record).to_contain_text("sandbox/report.md にレポートを保存しました。")
        expect(_cell(page, 5).locator(".hl-compare")).to_contain_text("◎ 完了")
        assert "Error displaying widget" not in page.locator(".jp-Notebook").inner_text()
    finally:
        page.close()


def test_what_is_typed_while_a_save_is_on_its_way_is_saved_too(lab, browser):
    # JupyterLab copies a notebook as a save starts and marks it clean as the save ends: keystrokes
    # typed in between were in no file, and no autosave came for them. The course's plugin
    # (harness_lab/ui/labextension) marks the notebook changed again, so the next autosave keeps them.
    url, root, _ = lab
    name = "notebooks/typing_while_saving.ipynb"
    saved = root / name
    cell = {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": ["x = 1"]}
    kernel = {"display_name": "Python 3", "language": "python", "name": "python3"}
    saved.write_text(
        json.dumps({"cells": [cell], "metadata": {"kernelspec": kernel}, "nbformat": 4, "nbformat_minor": 5})
    )
    page = _open(browser, url, name, wait_kernel=False)
    try:
        _cell(page, 0).locator(".cm-content").click()
        page.keyboard.press("Control+End")
        page.keyboard.type("  # a")
        _command(page, "docmanager:save")
        # A finished save starts the autosave timer again: none comes in the next few seconds.
        _wait(page, lambda: "# a" in saved.read_text(encoding="utf-8"), "the first save")
        held = []
        page.route("**/api/contents/**", lambda r: held.append(r) if r.request.method == "PUT" else r.continue_())
        page.keyboard.type("b")
        _command(page, "docmanager:save")
        _wait(page, lambda: held, "the second save to be on its way")
        page.keyboard.type("  # typed while saving")
        for route in held:
            route.continue_()
        page.unroute("**/api/contents/**")
        _wait(page, lambda: "# ab" in saved.read_text(encoding="utf-8"), "the second save")
        # JupyterLab waits ten times the last save's length (at least AUTOSAVE) before the next autosave.
        _wait(page, lambda: "typed while saving" in saved.read_text(encoding="utf-8"), "the autosave", timeout=60)
    finally:
        page.close()


def test_a_lessons_link_opens_the_level_1_exercise_and_solutions_stay_hidden(lab, browser):
    from playwright.sync_api import expect

    url, _, _ = lab
    page = _open(browser, url, LESSON, wait_kernel=False)
    try:
        link = _cell(page, 0).locator('a[href*="level1_tiered_policy.ipynb"]').first
        link.click()
        tab = page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab.lm-mod-current")
        expect(tab).to_contain_text("level1_tiered_policy.ipynb", timeout=30_000)
        exercise = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell").first
        expect(exercise).to_contain_text("練習 レベル1", timeout=30_000)
        with urllib.request.urlopen(url + "api/contents/exercises") as reply:
            names = {item["name"] for item in json.load(reply)["content"]}
        assert Path(EXERCISE).name in names and "solutions" not in names
        with urllib.request.urlopen(url + "api/contents/") as reply:
            assert {"notebooks", "exercises"} <= {item["name"] for item in json.load(reply)["content"]}
    finally:
        page.close()


def test_an_english_lesson_runs_in_the_browser_without_a_japanese_sentence(lab, browser):
    """A reader who knows no Japanese opens an English lesson, runs it and uses its panel."""
    from playwright.sync_api import expect

    url, _, _ = lab
    page = _open(browser, url, ENGLISH)
    try:
        _command(page, "notebook:run-all-cells")
        notebook = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook")
        panels = notebook.locator(".jp-OutputArea-output .hl-stepper")
        expect(panels.first).to_be_visible(timeout=90_000)
        _kernel_ready(page)
        panel = panels.first
        panel.scroll_into_view_if_needed()
        expect(panel.locator(".hl-status")).to_contain_text("Finished", timeout=30_000)
        for index in range(notebook.locator(".jp-Cell").count()):  # outputs render once in view
            _cell(page, index)
        shown = notebook.inner_text()
        assert "Error displaying widget" not in shown and "Traceback" not in shown
        assert JAPANESE.findall(shown) == [], sorted(set(JAPANESE.findall(shown)))
    finally:
        page.close()


@pytest.mark.parametrize("lesson", [FIRST, ENGLISH])
def test_a_pieces_todo_instruction_reads_whole_on_a_laptop_screen(lab, browser, lesson):
    """Its last line (what to do when a tool raises) ran to 200 columns: JupyterLab keeps a code line on
    one line, so on a 1280 px screen its end sat off to the right, behind a sideways scroll."""
    from playwright.sync_api import expect

    url, _, _ = lab
    page = _open(browser.new_page(viewport={"width": 1280, "height": 800}), url, lesson, wait_kernel=False)
    try:
        cells = json.loads((ROOT / lesson).read_text(encoding="utf-8"))["cells"]
        index = next(i for i, cell in enumerate(cells) if "def run_tools(" in "".join(cell["source"]))
        editor = _cell(page, index).locator(".cm-scroller")
        expect(editor).to_contain_text("TODO")
        scrolled, shown = editor.evaluate("(node) => [node.scrollWidth, node.clientWidth]")
        assert scrolled <= shown, (scrolled, shown)  # nothing hidden to the right
    finally:
        page.close()


# Each identifier in an element's text, as [word, the number of lines its letters sit on].
IDENTIFIER_LINES = """(root) => {
  const found = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const match of node.data.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      found.push([match[0], tops.size]);
    }
  }
  return found;
}"""


@pytest.mark.parametrize("exercise", [EXERCISE, ENGLISH_EXERCISE])
def test_a_failed_grades_hints_wrap_between_words_and_under_their_own_line_on_a_narrow_screen(lab, browser, exercise):
    """JupyterLab breaks printed text at any letter (`word-break: break-all`), and a hint shares its
    criterion's line: at 900 px the starter's report read `ANSWERS["ste` / `p"]`, `tool_re` / `sult`, and
    its one-line error `python3 dev.py g` / `rade`. The course's plugin wraps them between words. A hint
    also wrapped back under the × of its line, so where one criterion ended and the next began was hard
    to see: each criterion now wraps indented."""
    from playwright.sync_api import expect

    url, _, _ = lab
    page = _open(browser.new_page(viewport={"width": 900, "height": 1000}), url, exercise)
    try:
        cells = json.loads((ROOT / exercise).read_text(encoding="utf-8"))["cells"]
        index = next(i for i, cell in enumerate(cells) if "grade" in cell["metadata"].get("tags", []))
        _command(page, "notebook:run-all-cells")
        outputs = _cell(page, index).locator(".jp-OutputArea-output")
        expect(outputs).to_have_count(2, timeout=90_000)  # the report, then the one-line GradeFailed
        words = [found for output in outputs.all() for found in output.evaluate(IDENTIFIER_LINES)]
        assert {"DEFAULT_TIER", "ANSWERS", "tool_result"} <= {word for word, _ in words}, words
        assert [word for word, lines in words if lines > 1] == []
        lines = outputs.first.evaluate(WRAPPED_LINES, CRITERION)
        assert len(lines) == 3 and any(wrapped for _, _, wrapped in lines), lines  # it does wrap at 900 px
        assert [line for line in lines if any(left <= line[1] for left in line[2])] == []
    finally:
        page.close()


def test_a_panels_gauges_show_their_numbers_whole_on_a_narrow_screen(lab, browser):
    """At 900 px with the file browser open a panel is about 430 px wide. The gauges' bars kept their
    300 px and the numbers beside them were cut: lesson 05's token gauge read `2,412 / 40,00` for a
    40,000-token budget."""
    from playwright.sync_api import expect

    url, _, _ = lab
    page = _open(browser.new_page(viewport={"width": 900, "height": 1000}), url, LESSON)
    try:
        cells = json.loads((ROOT / LESSON).read_text(encoding="utf-8"))["cells"]
        index = next(i for i, cell in enumerate(cells) if "hl.TokenBudget(" in "".join(cell["source"]))
        _command(page, "notebook:run-all-cells")
        panel = _cell(page, index).locator(".jp-OutputArea-output .hl-stepper").first
        expect(panel.locator(".widget-label", has_text=" / ").nth(1)).to_be_visible(timeout=90_000)  # both gauges
        cut = panel.evaluate(
            """(panel) => [...panel.querySelectorAll('.widget-label')]
                .filter((label) => label.offsetParent && label.scrollWidth > label.clientWidth)
                .map((label) => `${label.textContent} (${label.clientWidth} of ${label.scrollWidth} px shown)`)"""
        )
        assert cut == [], cut
    finally:
        page.close()


# Each line of an element's text that matches `pattern` (its first group, where it has one, is the part that
# counts), as [its start, its left, the lefts of the lines it wraps onto].
WRAPPED_LINES = """(root, pattern) => {
  const found = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const match of node.data.matchAll(new RegExp(pattern, "gm"))) {
      const part = match[1] ?? match[0];
      const start = match.index + match[0].indexOf(part);
      const range = document.createRange();
      range.setStart(node, start);
      range.setEnd(node, start + part.length);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0);
      const first = rects[0];
      const wrapped = rects.filter((r) => r.top > first.top + first.height / 2).map((r) => Math.round(r.left));
      found.push([part.slice(0, 30), Math.round(first.left), wrapped]);
    }
  }
  return found;
}"""
OPTION = r"^ *('[a-z_0-9]+': [^\n]*)"  # "  'key': what it means", from its key
# From the top of an element's first line of text to the top of its last, in px.
LINE_SPAN = """(root) => {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT), tops = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const range = document.createRange();
    range.selectNodeContents(node);
    tops.push(...[...range.getClientRects()].filter((r) => r.width).map((r) => r.top));
  }
  return Math.max(...tops) - Math.min(...tops);
}"""
CRITERION = r"^(?:○|×|\[PASS\]|\[FAIL\]) [^\n]*"  # a grade report's criterion, from its mark


@pytest.mark.parametrize("exercise", [EXERCISE, ENGLISH_EXERCISE, LEVEL2, ENGLISH_LEVEL2])
def test_an_options_listing_wraps_under_its_key_on_a_narrow_screen(lab, browser, exercise):
    """At 900 px with the file browser open, level2_options() wrapped each long description back to the
    left margin, under the key's quote and left of it: the next key was hard to find among the lines."""
    from playwright.sync_api import expect

    url, _, _ = lab
    page = _open(browser.new_page(viewport={"width": 900, "height": 1000}), url, exercise)
    try:
        cells = json.loads((ROOT / exercise).read_text(encoding="utf-8"))["cells"]
        index = next(i for i, cell in enumerate(cells) if "options" in cell["metadata"].get("tags", []))
        page.evaluate("(i) => { window.jupyterapp.shell.currentWidget.content.activeCellIndex = i; }", index)
        _command(page, "notebook:run-all-above")
        _command(page, "notebook:run-cell")
        output = _cell(page, index).locator(".jp-OutputArea-output")
        expect(output).to_contain_text("'", timeout=90_000)
        _kernel_ready(page)
        lines = output.first.evaluate(WRAPPED_LINES, OPTION)
        assert len(lines) >= 8 and any(wrapped for _, _, wrapped in lines), lines  # it does wrap at 900 px
        assert [line for line in lines if any(left <= line[1] for left in line[2])] == []
    finally:
        page.close()


@pytest.mark.parametrize("language", ["ja", "en"])
def test_a_token_burn_plot_keeps_its_labels_readable_on_a_narrow_screen_and_fits_a_wide_one(lab, browser, language):
    """At 900 px with the file browser open, lesson 03's and 06's plots were squeezed into the output's
    470 px: about 0.4 of their size, their 10-point labels drawn about 6 px high. Like the diagram they
    now keep their own width and scroll sideways; at 1400 px they fit whole."""
    from playwright.sync_api import expect

    url, root, _ = lab
    name = f"notebooks/plot_{language}.ipynb"
    source = (
        f"import harness_lab as hl\nfrom harness_lab.events import Usage\nfrom harness_lab.ui import plots\n\n"
        f'hl.use_language("{language}")\n'
        "plots.plot_token_burn([Usage(400 + 300 * i, 50, 0, 0) for i in range(5)], budget=5000)"
    )
    cell = {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": [source]}
    kernel = {"display_name": "Python 3", "language": "python", "name": "python3"}
    (root / name).write_text(
        json.dumps({"cells": [cell], "metadata": {"kernelspec": kernel}, "nbformat": 4, "nbformat_minor": 5})
    )
    page = _open(browser.new_page(viewport={"width": 900, "height": 1000}), url, name)
    try:
        _command(page, "notebook:run-all-cells")
        image = _cell(page, 0).locator(".jp-OutputArea-output img")
        expect(image).to_have_count(1, timeout=90_000)
        page.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=image.element_handle())
        shown, natural = image.evaluate("(img) => [img.getBoundingClientRect().width, img.naturalWidth]")
        assert shown >= natural - 1, (shown, natural)  # never squeezed: labels at their drawn size
        page.set_viewport_size({"width": 1400, "height": 1000})
        page.wait_for_timeout(300)
        area = _cell(page, 0).locator(".jp-OutputArea-output").first
        scrolled, box = area.evaluate("(node) => [node.scrollWidth, node.clientWidth]")
        assert scrolled <= box, (scrolled, box)  # at 1400 px, with the file browser open, nothing hidden
    finally:
        page.close()


def test_an_options_listing_lines_up_with_printed_text_and_keeps_its_line_spacing(lab, browser):
    """An options listing or a grade report is drawn as HTML (print_lines), printed text as a <pre>: the
    listing sat 5 px left of the printed lines above it, and its lines were 1.6 of the font apart, not the
    1.3 of printed text, so a listing under a print read as if from another page."""
    from playwright.sync_api import expect

    url, root, _ = lab
    name = "notebooks/listing.ipynb"
    lines = ["  'allow': 何も聞かずに実行する", "  'ask': 実行の前に人に尋ねる", "  'deny': 実行せずに断る"]
    sources = [
        f"print({chr(10).join(lines)!r})",
        f"from harness_lab.grading.report import print_lines\nprint_lines({lines!r})",
    ]
    cells = [
        {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": [s]} for s in sources
    ]
    kernel = {"display_name": "Python 3", "language": "python", "name": "python3"}
    (root / name).write_text(
        json.dumps({"cells": cells, "metadata": {"kernelspec": kernel}, "nbformat": 4, "nbformat_minor": 5})
    )
    page = _open(browser.new_page(viewport={"width": 900, "height": 1000}), url, name)
    try:
        _command(page, "notebook:run-all-cells")
        printed, listed = (_cell(page, i).locator(".jp-OutputArea-output").first for i in (0, 1))
        expect(listed).to_contain_text("'deny'", timeout=90_000)
        expect(printed).to_contain_text("'deny'")
        where = [output.evaluate(WRAPPED_LINES, OPTION) for output in (printed, listed)]
        tops = [output.evaluate(LINE_SPAN) for output in (printed, listed)]
        assert [left for _, left, _ in where[0]] == [left for _, left, _ in where[1]], where
        assert abs(tops[0] - tops[1]) <= 1, tops  # first line to last: the same pitch
    finally:
        page.close()


# A run_tools that returns a dict's result unconverted and lets a tool's exception out: three points missed,
# each with a hint longer than a 900 px line.
WRONG_RUN_TOOLS = (
    "def run_tools(content, impls):\n"
    '    return [{"type": "tool_result", "tool_use_id": b.id, "content": impls[b.name](**b.input)}\n'
    '            for b in content if b.type == "tool_use"]\n'
)


@pytest.mark.parametrize("lesson", [FIRST, ENGLISH])
def test_a_failed_lesson_checks_hints_wrap_under_their_own_text_on_a_narrow_screen(lab, browser, lesson):
    """A lesson check's report was printed text: at 900 px a long hint wrapped back under the × of its point,
    so where one point ended and the next began was hard to see. It wraps indented, as a grade's report does."""
    from playwright.sync_api import expect

    url, root, _ = lab
    name = lesson.replace(".ipynb", "_wrong_answer.ipynb")  # a kernel of its own: no other test's state
    (root / name).write_text((ROOT / lesson).read_text(encoding="utf-8"), encoding="utf-8")
    page = _open(browser.new_page(viewport={"width": 900, "height": 1000}), url, name)
    try:
        cells = json.loads((ROOT / lesson).read_text(encoding="utf-8"))["cells"]
        index = next(i for i, cell in enumerate(cells) if "piece:run_tools" in cell["metadata"].get("tags", []))
        page.evaluate(
            "([i, source]) => window.jupyterapp.shell.currentWidget.content.widgets[i].model.sharedModel.setSource(source)",
            [index, WRONG_RUN_TOOLS],
        )
        _command(page, "notebook:run-all-cells")
        output = _cell(page, index + 1).locator(".jp-OutputArea-output").first
        expect(output).to_contain_text("× " if lesson == FIRST else "[FAIL] ", timeout=90_000)
        lines = output.evaluate(WRAPPED_LINES, CRITERION)
        assert len(lines) == 4 and any(wrapped for _, _, wrapped in lines), lines  # it does wrap at 900 px
        assert [line for line in lines if any(left <= line[1] for left in line[2])] == []
    finally:
        page.close()


# A lesson's printed table, found by its cell's code: the pattern of its lines that must not wrap at 900 px beside
# the file browser, and how many of them it has at least (a list, a model's text, a refusal's details or a message
# may wrap).
TABLE_LINES = {
    "02_stop_conditions": [("FIRST = {", r"^(?!    content: )[^\n]+", 14), ("def drive(", r"^[^\n]+", 21)],
    "04_human_in_the_loop": [("for c in calls:", r"^\S+ chapters/[^\n]+", 4)],
    "05_full_harness": [("WALK = {", r"^(?!\()[^\n]+", 20)],
    "06_api_2026": [
        ("cost_usd(plain", r"^ +[^\n]+", 6),
        ("stop_details=", r"^(?!    (?:text|stop_details)=)[^\n]+", 6),
    ],
}


@pytest.mark.parametrize("lesson", TABLES)
def test_a_lessons_printed_tables_keep_their_lines_whole_beside_the_file_browser(lab, browser, lesson):
    """Lessons 02 and 06 printed a script or a response a line, in padded columns up to 140 characters wide, and
    lesson 05 a code line with its note 56 columns to the right: at 900 px with the file browser open (an output
    about 460 px wide) every row broke mid-column, lesson 06's cost table mid-word, and lesson 05's notes sat
    under a lone `#` at the margin. The shipped notebook's stored output is what a learner sees first."""
    url, root, _ = lab
    # A copy of its own: an earlier test that ran the lesson in this lab (and autosaved it mid-run) must not
    # decide what this one reads.
    shipped = f"{Path(lesson).parent}/shipped_{Path(lesson).name}"
    (root / shipped).write_bytes((ROOT / lesson).read_bytes())
    page = _open(browser.new_page(viewport={"width": 900, "height": 1000}), url, shipped, wait_kernel=False)
    try:
        assert page.locator("#jp-left-stack:visible").count()  # the file browser is open beside the notebook
        cells = json.loads((ROOT / lesson).read_text(encoding="utf-8"))["cells"]
        for code, pattern, least in TABLE_LINES[Path(lesson).stem]:
            index = next(i for i, cell in enumerate(cells) if code in "".join(cell["source"]))
            lines = _cell(page, index).locator(".jp-OutputArea-output").first.evaluate(WRAPPED_LINES, pattern)
            assert len(lines) >= least, (code, lines)
            assert [line for line in lines if line[2]] == [], code
    finally:
        page.close()
