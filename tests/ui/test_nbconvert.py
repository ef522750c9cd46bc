"""A notebook that drives the Stepper converts to HTML and the page shows the transcript."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent


def test_nbconvert_html_shows_the_transcript(tmp_path, jupyter_env):
    pytest.importorskip("nbconvert")
    notebook = tmp_path / "stepper_static.ipynb"
    shutil.copy(HERE / "notebooks" / notebook.name, notebook)
    done = subprocess.run(
        [sys.executable, "-m", "nbconvert", "--to", "html", "--execute", str(notebook),
         "--output-dir", str(tmp_path)],
        env=jupyter_env, cwd=tmp_path, capture_output=True, text=True, timeout=240,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    page = (tmp_path / "stepper_static.html").read_text(encoding="utf-8")
    # Outside <script> blocks (the widget state), i.e. what a reader sees without JavaScript:
    visible = re.sub(r"<script\b.*?</script>", "", page, flags=re.S)
    assert "sandbox/report.md にレポートを保存しました。" in visible
    assert "hl-tool-use" in visible and "write_file" in visible and "許可しました" in visible
    assert "hl-diagram" in visible and "<svg" in visible
    assert "application/vnd.jupyter.widget-state+json" in page  # the widget was stored with its state
    assert (tmp_path / "sandbox" / "report.md").exists()
