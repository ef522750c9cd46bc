"""Re-run notebooks offline and store their outputs, the way nbval will compare them.

    .venv/bin/python notebooks/build.py                 # every notebook under notebooks/
    .venv/bin/python notebooks/build.py notebooks/01_bare_loop.ipynb exercises/solutions/*.ipynb

Runs with no API key (offline emulator), Japanese labels, from each notebook's own folder, and
keeps widget state out of the files (nbval ignores widget views; the text fallback is compared).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).resolve().parent


def build(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    for key in ("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "HARNESS_LAB_LANG", "HARNESS_LAB_MODEL"):
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
    for cell in nb.cells:  # nbclient's per-cell timings would change the file on every build
        cell.metadata.pop("execution", None)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    nbformat.validate(nb)
    nbformat.write(nb, path)
    print(f"built {path.relative_to(HERE.parent)}")


if __name__ == "__main__":
    paths = [Path(p).resolve() for p in sys.argv[1:]] or sorted(HERE.glob("[0-9]*.ipynb"))
    for p in paths:
        build(p)
