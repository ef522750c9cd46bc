"""Re-run notebooks offline and store their outputs, the way nbval will compare them.

    .venv/bin/python notebooks/build.py                 # every notebook under notebooks/
    .venv/bin/python notebooks/build.py notebooks/01_bare_loop.ipynb exercises/solutions/*.ipynb

Runs with no API key (offline emulator), Japanese labels, from each notebook's own folder.

A stored output keeps no live widget: each widget view is dropped and the panel's own HTML and text
record stay (nbval compares them; nbval ignores widget views). A shipped notebook has no kernel
behind it, so a widget view could only fail: once a learner's save makes the notebook trusted,
JupyterLab prefers a widget view to its fallback and shows "Error displaying widget: model not found"
for every cell the learner did not run again, and nbconvert picks a widget view over the fallback as
soon as the file carries widget state. Without them every front end shows the record, and a rebuild
writes the same bytes (widget model ids are random). Panels the learner runs are live, and
``python3 dev.py lab`` saves their widget state so they read again after a restart
(docs/frontends.md).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from dev import NOT_FOR_TESTS  # noqa: E402  # the same offline, default-language environment as the tests


def merged_streams(outputs: list) -> list:
    """Join consecutive stdout (or stderr) pieces: how a print is split depends on timing."""
    merged: list = []
    for out in outputs:
        last = merged[-1] if merged else None
        if out.output_type == "stream" and last is not None and last.output_type == "stream" and last.name == out.name:
            last.text += out.text
        else:
            merged.append(out)
    return merged


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def without_widget_views(outputs: list) -> list:
    """The outputs with each widget view taken out where something else shows (a widget always has
    its text/plain); the number of outputs stays, as nbval compares it."""
    for out in outputs:
        data = out.get("data") or {}
        if WIDGET_VIEW in data and len(data) > 1:
            del data[WIDGET_VIEW]
    return outputs


def build(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    for key in NOT_FOR_TESTS:
        os.environ.pop(key, None)
    client = NotebookClient(
        nb,
        timeout=120,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
        store_widget_state=False,
        allow_errors=False,
    )
    client.execute()
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)  # nbclient's timings would change the file on every build
        if cell.cell_type == "code":
            cell.outputs = without_widget_views(merged_streams(cell.outputs))
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    nbformat.validate(nb)
    nbformat.write(nb, path)
    print(f"built {path.relative_to(HERE.parent) if path.is_relative_to(HERE.parent) else path}")


if __name__ == "__main__":
    paths = [Path(p).resolve() for p in sys.argv[1:]] or sorted(HERE.glob("[0-9]*.ipynb"))
    for p in paths:
        build(p)
