"""Build the course's notebooks from their sources and store their outputs, the way nbval compares them.

    .venv/bin/python notebooks/build.py                          # every lesson and exercise, both editions
    .venv/bin/python notebooks/build.py notebooks/src/01_bare_loop.py      # one lesson (and its English twin)
    .venv/bin/python notebooks/build.py --stamp notebooks/src/en/01_bare_loop.py   # after translating: see below
    .venv/bin/python notebooks/build.py --check                  # compare the editions, execute nothing
    .venv/bin/python notebooks/build.py tests/ui/notebooks/stepper_static.ipynb   # re-run a notebook as it is

A lesson's source is ``notebooks/src/NN_name.py`` in jupytext's percent format (markdown cells as
``# %% [markdown]`` comments, tags on the marker line); it becomes ``notebooks/NN_name.ipynb``. Its
English twin ``notebooks/src/en/NN_name.py`` becomes ``notebooks/en/NN_name.ipynb``. An exercise's
source ``exercises/src/[en/]NAME.py`` becomes its starter and its solution (``exercise_build.py``).

Editions (``editions.py``): a source and its twin are built together, and neither is written while
they differ anywhere but in prose, string contents and comments: the build names the file, the
cell and the first differing token in one line and stops. To translate, copy the Japanese source
to ``src/en/``, rewrite its prose, strings and comments in English, then stamp it: ``--stamp``
records, in each English cell, the hash of the Japanese cell it was written from, and means "I
have brought the English up to date". A Japanese cell changed after that is a stale translation:
the build warns, and ``tests/course/test_editions.py`` fails naming the cell until the English is updated
and stamped again. A stamp says the translator read the Japanese, not that the English says the same:
the build also warns, and ``tests/course/test_editions_say_the_same.py`` fails, where an English cell's
outline (headings, table rows, list items, folded answers), the numbers it states or the terms and
models it names are not its Japanese twin's (``edition_prose.py``).

Runs with no API key (offline emulator), from the notebook's own folder, with the learner's
workbook (``my_harness.py``) in a fresh temporary folder, so a learner's own file never reaches the
stored outputs. No language is set from outside: each notebook's setup cell chooses its own
(``hl.use_language``), so the outputs are what a learner gets whatever their environment says.

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

import argparse
import os
import sys
import tempfile
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
from dev import NOT_FOR_TESTS  # noqa: E402  # the same offline environment as the tests
from notebooks.edition_prose import prose_drift  # noqa: E402
from notebooks.editions import (  # noqa: E402
    HASH_KEY,
    EditionError,
    check_twins,
    edition_of,
    read_source,
    shown,
    stale_cells,
    stamp,
    twin_of,
)
from notebooks.exercise_build import build_exercise  # noqa: E402
from notebooks.japanese_prose import joined_soft_breaks  # noqa: E402

SOURCES = (HERE / "src", ROOT / "exercises" / "src")  # the Japanese sources; each may have src/en/ twins


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
    nb = read_source(source)
    nb.metadata.pop("jupytext", None)
    nb.metadata.setdefault("harness_lab", {})["lang"] = edition_of(source)
    for number, cell in enumerate(nb.cells, start=1):
        if cell.cell_type == "markdown" and edition_of(source) == "ja":
            cell.source = joined_soft_breaks(cell.source)
        cell.metadata.pop("lines_to_next_cell", None)
        cell.metadata.pop(HASH_KEY, None)
        cell.id = f"{source.stem[:2]}-{number:02d}"  # jupytext's are random: every build would differ
    return nb


def target_of(source: Path) -> Path:
    """Where a lesson source's notebook goes: notebooks/[en/]NN_name.ipynb."""
    if source.suffix != ".py":
        return source
    english = source.parent.name == "en"
    lessons = source.parent.parent.parent if english else source.parent.parent
    return lessons / ("en" if english else "") / f"{source.stem}.ipynb"


def execute(nb: nbformat.NotebookNode, folder: Path) -> nbformat.NotebookNode:
    """Run ``nb`` from ``folder`` offline and keep outputs a rebuild reproduces byte for byte."""
    for key in NOT_FOR_TESTS:
        os.environ.pop(key, None)
    os.environ["HARNESS_LAB_WORKBOOK"] = str(Path(tempfile.mkdtemp(prefix="harness_lab_build_")) / "my_harness.py")
    client = NotebookClient(
        nb,
        timeout=120,
        kernel_name="python3",
        resources={"metadata": {"path": str(folder)}},
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
    return nb


def build_notebook(path: Path) -> None:
    """A lesson source to its notebook, or a stored notebook re-run in place."""
    nb = from_source(path) if path.suffix == ".py" else nbformat.read(path, as_version=4)
    path = target_of(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    nb = execute(nb, path.parent)
    nbformat.validate(nb)
    nbformat.write(nb, path)
    print(f"built {shown(path)}")


def build_source(source: Path) -> None:
    nb = from_source(source)
    if "exercise" not in nb.metadata["harness_lab"]:
        build_notebook(source)
        return
    import harness_lab.grading  # noqa: F401  # adds the graders' strings to the catalog
    from harness_lab.text import CATALOG

    ja, en = CATALOG["grade.all_passed"]
    passed = (en if edition_of(source) == "en" else ja).format(total=3)

    def run(notebook: nbformat.NotebookNode, folder: Path) -> nbformat.NotebookNode:
        notebook = execute(notebook, folder)
        notebook.metadata["language_info"] = {"name": "python"}  # no interpreter version in the file
        return notebook

    build_exercise(source, nb, passed, run)


def editions(source: Path) -> list[Path]:
    """The source's edition pair, Japanese first, checked; EditionError when they differ or one is missing."""
    ja = twin_of(source) if edition_of(source) == "en" else source
    if not ja.exists():
        raise EditionError(f"{shown(source)}: no Japanese source at {shown(ja)}")
    en = twin_of(ja)
    if not en.exists():
        return [ja]
    check_twins(ja, en)
    return [ja, en]


def all_sources() -> list[Path]:
    return [p for folder in SOURCES for p in sorted(folder.glob("*.py")) if p.name[0].isalnum()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="notebooks/build.py", description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path, help="sources (.py) or notebooks (.ipynb); default: all")
    parser.add_argument(
        "--stamp", action="store_true", help="record the Japanese cells' hashes in these English sources"
    )
    parser.add_argument(
        "--check", action="store_true", help="compare the editions, list stale and drifted translations only"
    )
    args = parser.parse_args(argv)
    paths = [p.resolve() for p in args.paths] or all_sources()
    try:
        if args.stamp:
            for path in paths:
                if edition_of(path) != "en":
                    raise EditionError(f"{shown(path)}: --stamp takes an English source (src/en/...)")
                print(f"stamped {shown(path)} ({stamp(path)} cells were stale)")
        pairs, notebooks = [], [p for p in paths if p.suffix == ".ipynb"]
        for path in (p for p in paths if p.suffix == ".py"):
            pair = editions(path)  # every pair checked before anything is executed or written
            if pair not in pairs:
                pairs.append(pair)
    except EditionError as exc:
        print(f"refused: {exc}", file=sys.stderr)
        return 1
    stale = [line for pair in pairs if len(pair) == 2 for line in stale_cells(*pair)]
    drift = [line for pair in pairs if len(pair) == 2 for line in prose_drift(*pair)]
    for line in stale + drift:
        print(line, file=sys.stderr)
    if args.check:
        print(
            f"{len(pairs)} sources: editions agree; stale translations: {len(stale)}; cells that say otherwise: {len(drift)}"
        )
        return 1 if stale or drift else 0
    try:
        for path in [*notebooks, *(s for pair in pairs for s in pair)]:
            if path.suffix == ".py":
                build_source(path)
            else:
                build_notebook(path)
    except EditionError as exc:
        print(f"refused: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
