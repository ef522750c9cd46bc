"""A notebook built the way notebooks/build.py stores the lessons reads without a kernel.

Built outputs keep no widget view, so every static renderer (nbconvert, GitHub, an untrusted or a
reopened JupyterLab) shows what the cells themselves stored: the loop diagram as a PNG, the Stepper
as its transcript with a line saying it is a record. nbconvert must accept the file.
"""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def _run(args, env, cwd):
    done = subprocess.run([sys.executable, *args], env=env, cwd=cwd, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]


def test_a_built_notebook_keeps_records_not_widgets_and_nbconvert_shows_them(tmp_path, jupyter_env):
    nbformat = pytest.importorskip("nbformat")
    pytest.importorskip("nbconvert")
    notebook = tmp_path / "stepper_static.ipynb"
    shutil.copy(HERE / "notebooks" / notebook.name, notebook)
    _run([str(ROOT / "notebooks" / "build.py"), str(notebook)], jupyter_env, tmp_path)
    built = nbformat.read(notebook, as_version=4)
    assert "widgets" not in built.metadata
    outputs = [o for c in built.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if WIDGET_VIEW in o.get("data", {})]  # nothing that needs a kernel

    cell = next(c for c in built.cells if c.cell_type == "code" and c.source.rstrip().endswith("\nstepper"))
    (data,) = [o.data for o in cell.outputs if o.output_type == "execute_result"]
    static = data["text/html"]
    assert static.startswith('<div class="hl-stepper-static">') and "保存された記録" in static
    for seen in (static, data["text/plain"]):
        assert "sandbox/report.md にレポートを保存しました。" in seen and "許可しました" in seen
    (picture,) = [o.data for c in built.cells if "ui.diagram(" in c.source for o in c.outputs]
    assert set(picture) == {"image/png", "text/plain"}

    _run(["-m", "nbconvert", "--to", "html", str(notebook)], jupyter_env, tmp_path)
    page = (tmp_path / "stepper_static.html").read_text(encoding="utf-8")
    visible = re.sub(r"<script\b.*?</script>", "", page, flags=re.DOTALL)  # what a reader sees without JavaScript
    assert visible.count('<div class="hl-stepper-static">') == 1
    assert "sandbox/report.md にレポートを保存しました。" in visible and "○ 許可しました" in visible
    assert f'src="data:image/png;base64,{picture["image/png"][:100]}' in visible  # the diagram, as a picture
    assert "<svg" not in visible  # nothing a sanitiser would strip to run-together labels
    assert 'class="hl-compare"' in visible and "◎ 完了" in visible
