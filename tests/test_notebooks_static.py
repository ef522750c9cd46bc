"""The committed notebooks as a reader meets them: they render, and their stored outputs are clean.

nbval (run by dev.py) re-executes them and compares; this checks what nbval cannot: that each file
converts to HTML (GitHub and nbconvert fail on a widget state without its "state" key), that no cell
stored an error, and that no output leaks an object address or anything shaped like an API key.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from nbconvert import HTMLExporter

ROOT = Path(__file__).resolve().parents[1]
LESSONS = sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))
NOTEBOOKS = LESSONS + sorted((ROOT / "exercises").rglob("*.ipynb"))
ADDRESS = re.compile(r"at 0x[0-9a-f]{6,}")
KEY = re.compile(r"sk-ant-[A-Za-z0-9_-]{8,}")


def test_all_five_lessons_are_there():
    assert [p.name[:2] for p in LESSONS] == ["01", "02", "03", "04", "05"]


def outputs_text(nb) -> str:
    parts = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            parts.append(str(out.get("text", "")))
            for mime, value in out.get("data", {}).items():
                if mime.startswith("text/"):
                    parts.append(value if isinstance(value, str) else "".join(value))
    return "\n".join(parts)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_notebook_renders_and_stores_clean_outputs(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    assert nb.metadata.get("kernelspec", {}).get("name") == "python3"
    widgets = nb.metadata.get("widgets")
    assert widgets is None or all("state" in v for v in widgets.values())
    errors = [i for i, c in enumerate(nb.cells) for o in c.get("outputs", []) if o.output_type == "error"]
    assert errors == []
    html, _ = HTMLExporter().from_notebook_node(nb)
    assert "<html" in html
    text = outputs_text(nb)
    assert ADDRESS.findall(text) == []
    assert KEY.findall(text) == []
