"""The English notebooks' stored outputs are their Japanese twins': the same kinds, lines and names, cell by cell.

Both editions run the same code on other strings, and the emulator's model reads them: a run that went
another way in English (another stop, another tool, a figure or an error in one edition only) went
unseen, since the sources are compared before anything runs (notebooks/edition_outputs.py).
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from notebooks.edition_outputs import output_drift

ROOT = Path(__file__).resolve().parents[2]
BUILT = [ROOT / "notebooks", ROOT / "exercises", ROOT / "exercises" / "solutions"]
PAIRS = [(ja, ja.parent / "en" / ja.name) for folder in BUILT for ja in sorted(folder.glob("*.ipynb"))]


def test_every_built_notebook_has_its_english_edition():
    assert len(PAIRS) == 10 and all(en.exists() for _, en in PAIRS)


@pytest.mark.parametrize(("ja", "en"), PAIRS, ids=lambda p: str(p.relative_to(ROOT)))
def test_each_english_cell_shows_what_its_japanese_twin_shows(ja, en):
    assert output_drift(ja, en) == []


def drifted(tmp_path: Path, name: str, cell: int, change) -> list[str]:
    """Lesson ``name``'s editions, copied, with one change made to the English notebook's cell ``cell`` (from 1)."""
    ja, en = tmp_path / name, tmp_path / "en" / name
    en.parent.mkdir()
    ja.write_bytes((ROOT / "notebooks" / name).read_bytes())
    notebook = nbformat.read(ROOT / "notebooks" / "en" / name, as_version=4)
    change(notebook.cells[cell - 1])
    nbformat.write(notebook, en)
    return [line.replace(str(tmp_path) + "/", "") for line in output_drift(ja, en)]


def _retext(old: str, new: str):
    def change(cell):
        (output,) = [o for o in cell.outputs if old in o.get("text", "")]
        output.text = output.text.replace(old, new)

    return change


def test_a_run_that_stopped_another_way_in_english_is_named(tmp_path):
    found = drifted(tmp_path, "06_api_2026.ipynb", 21, _retext("by token_budget", "by max_turns"))
    assert found == [
        "en/06_api_2026.ipynb cell 21: the outputs name token_budget only in the Japanese",
        "en/06_api_2026.ipynb cell 21: the outputs name max_turns only in the English",
    ]


def test_a_figure_missing_from_the_english_is_named(tmp_path):
    def without_figure(cell):
        cell.outputs = [o for o in cell.outputs if "image/png" not in o.get("data", {})]

    found = drifted(tmp_path, "03_runaway_fallbacks.ipynb", 30, without_figure)
    assert len(found) == 1 and found[0].startswith("en/03_runaway_fallbacks.ipynb cell 30: outputs ["), found
    assert "image/png" in found[0].split("where the Japanese has")[1]


def test_a_line_the_english_output_lacks_is_named(tmp_path):
    found = drifted(tmp_path, "04_human_in_the_loop.ipynb", 19, _retext("chapters/02.md → read\n", ""))
    assert found == ["en/04_human_in_the_loop.ipynb cell 19: 4 lines of text where the Japanese has 5"]
