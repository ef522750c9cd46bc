"""Build the lesson notebooks from their sources and store their outputs, the way nbval compares them.

    .venv/bin/python notebooks/build.py                          # every lesson, from notebooks/src/*.py
    .venv/bin/python notebooks/build.py notebooks/src/01_bare_loop.py
    .venv/bin/python notebooks/build.py tests/ui/notebooks/stepper_static.ipynb   # re-run a notebook as it is

A lesson's source is ``notebooks/src/NN_name.py`` in jupytext's percent format (markdown cells as
``# %% [markdown]`` comments, tags on the marker line); it becomes ``notebooks/NN_name.ipynb``.
Runs with no API key (offline emulator), Japanese labels, from the notebook's own folder, with the
learner's workbook (``my_harness.py``) in a fresh temporary folder, so a learner's own file never
reaches the stored outputs.

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
import tempfile
from pathlib import Path

import jupytext
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


def from_source(source: Path) -> nbformat.NotebookNode:
    """The notebook a percent-format source describes (no outputs yet), with stable cell ids."""
    nb = jupytext.read(source, fmt="py:percent")
    nb.metadata.pop("jupytext", None)
    for number, cell in enumerate(nb.cells, start=1):
        cell.metadata.pop("lines_to_next_cell", None)
        cell.id = f"{source.stem[:2]}-{number:02d}"  # jupytext's are random: every build would differ
    return nb


def target_of(source: Path) -> Path:
    return source.parent.parent / f"{source.stem}.ipynb" if source.suffix == ".py" else source


def build(path: Path) -> None:
    nb = from_source(path) if path.suffix == ".py" else nbformat.read(path, as_version=4)
    path = target_of(path)
    for key in NOT_FOR_TESTS:
        os.environ.pop(key, None)
    os.environ["HARNESS_LAB_WORKBOOK"] = str(Path(tempfile.mkdtemp(prefix="harness_lab_build_")) / "my_harness.py")
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
    paths = [Path(p).resolve() for p in sys.argv[1:]] or sorted((HERE / "src").glob("[0-9]*.py"))
    for p in paths:
        build(p)
