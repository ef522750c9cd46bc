"""A notebook that drives the Stepper converts to HTML and the Stepper's own cell shows the transcript.

Executed the way notebooks/build.py stores the lessons (no widget state), a static page has only the
text/html the Stepper puts beside its widget view: that output is what a reader without a kernel sees.
"""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent


def _nbconvert(args, env, cwd):
    done = subprocess.run([sys.executable, "-m", "nbconvert", *args], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]


def test_nbconvert_html_shows_the_stepper_cells_transcript(tmp_path, jupyter_env):
    nbformat = pytest.importorskip("nbformat")
    pytest.importorskip("nbconvert")
    notebook = tmp_path / "stepper_static.ipynb"
    shutil.copy(HERE / "notebooks" / notebook.name, notebook)
    _nbconvert(["--to", "notebook", "--execute", "--ExecutePreprocessor.store_widget_state=False",
                str(notebook), "--output", "executed.ipynb"], jupyter_env, tmp_path)
    executed = nbformat.read(tmp_path / "executed.ipynb", as_version=4)

    cell = next(c for c in executed.cells if c.cell_type == "code" and c.source.rstrip().endswith("\nstepper"))
    (data,) = [o.data for o in cell.outputs if o.output_type == "execute_result"]
    assert "application/vnd.jupyter.widget-view+json" in data  # the live panel, for a running kernel
    static = data.get("text/html", "")  # and beside it, what a static renderer shows instead
    assert static.startswith('<div class="hl-stepper-static">')
    for seen in (static, data["text/plain"]):
        assert "sandbox/report.md にレポートを保存しました。" in seen and "許可しました" in seen
    assert "hl-tool-use" in static and "write_file" in static
    assert "widgets" not in executed.metadata  # stored like notebooks/build.py stores the lessons

    _nbconvert(["--to", "html", "executed.ipynb"], jupyter_env, tmp_path)
    page = (tmp_path / "executed.html").read_text(encoding="utf-8")
    # Outside <script> blocks, i.e. what a reader sees without JavaScript:
    visible = re.sub(r"<script\b.*?</script>", "", page, flags=re.S)
    assert visible.count('<div class="hl-stepper-static">') == 1
    assert "sandbox/report.md にレポートを保存しました。" in visible and "許可しました" in visible
    assert "hl-diagram" in visible and "<svg" in visible
    assert (tmp_path / "sandbox" / "report.md").exists()
