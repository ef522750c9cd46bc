"""A grade or check cell run before the cells it needs, in a real kernel (the learner's second day: the
kernel restarted and only that cell run; or the setup run and the TODO cell not): one line naming the
cell to run instead of a NameError's traceback. A NameError the learner's own code raises (a typo in
a function they wrote) and a name the course does not define keep their tracebacks."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import nbformat
import pytest

from harness_lab.cell_runs import ABOVE, SET_UP, WRITTEN
from harness_lab.text import CATALOG
from tests.lessons.notebook_runner import cell_errors

ROOT = Path(__file__).resolve().parents[2]
EDITIONS = {"ja": ("", 0), "en": ("en/", 1)}  # folder under exercises/ and notebooks/, catalog column


def _tagged(notebook: nbformat.NotebookNode, tag: str) -> list[str]:
    return [c.source for c in notebook.cells if tag in c.metadata.get("tags", [])]


def _run(sources: list[str], language: str | None) -> list[nbformat.NotebookNode | None]:
    return cell_errors(sources, env={"HARNESS_LAB_LANG": language} if language else None, timeout=120)


def _hint(key: str, column: int, name: str) -> list[str]:
    return [CATALOG[key][column].format(name=name)]


@pytest.mark.parametrize("language", sorted(EDITIONS))
@pytest.mark.parametrize("exercise, first", [("level1_tiered_policy", "POLICY"), ("level2_missing_gate", "MISSING")])
def test_a_grade_cell_run_before_the_answer_cells_names_the_cell_to_run(language, exercise, first):
    folder, column = EDITIONS[language]
    notebook = nbformat.read(ROOT / "exercises" / folder / f"{exercise}.ipynb", as_version=4)
    (grade,) = _tagged(notebook, "grade")
    # a restarted kernel and the grade cell alone; then the setup cells run and the TODO cells not
    errors = _run([grade, *_tagged(notebook, "setup"), grade], language)
    for error in (errors[0], errors[-1]):
        assert (
            error is not None
            and error.ename == "NameError"
            and error.traceback == _hint("cell.unrun_written", column, first)
        ), error


def test_before_any_cell_chose_the_notebooks_language_the_line_is_said_in_each():
    # An English learner's restarted kernel, HARNESS_LAB_LANG unset: only the setup cell would say "en".
    notebook = nbformat.read(ROOT / "exercises" / "en" / "level1_tiered_policy.ipynb", as_version=4)
    (grade,) = _tagged(notebook, "grade")
    (error,) = _run([grade], None)
    said = ["\n".join(CATALOG["cell.unrun_written"][column].format(name="POLICY") for column in (0, 1))]
    assert error is not None and error.traceback == said, error


@pytest.mark.parametrize("language", sorted(EDITIONS))
def test_a_check_cell_run_after_a_restart_names_the_todo_cell_and_other_errors_keep_their_traceback(language):
    folder, column = EDITIONS[language]
    checks = {}  # check cell -> the piece it reads
    for path in sorted((ROOT / "notebooks" / folder).glob("0*.ipynb")):
        for source in _tagged(nbformat.read(path, as_version=4), "check"):
            checks[source] = re.search(r"lessons\.check\(\"(\w+)\"", source).group(1)
    assert len(checks) >= 9
    typo = "def run_tools(calls):\n    return [POLICY_ for call in calls]\n\nrun_tools([1])"
    stepper = "s = Stepper(run, 'go')"
    errors = _run([*checks, typo, "POLCY", "1 / 0", stepper], language)
    for error, piece in zip(errors, checks.values(), strict=False):
        assert error.ename == "NameError" and error.traceback == _hint("cell.unrun_written", column, piece), error
    *_, own, unknown, other, ui = errors
    for error in (own, unknown, other):  # IPython's own traceback: several lines, no hint
        assert len(error.traceback) > 1 and "Run All Cells" not in "".join(error.traceback), error
    assert "POLICY_" in own.evalue and "run_tools" in "".join(own.traceback)
    assert ui.traceback == _hint("cell.unrun_setup", column, "Stepper"), ui


def _python(cell: str) -> ast.Module:
    """A code cell's source, its IPython magics (``%pip install``, also inside an ``if``) read as ``pass``."""
    return ast.parse(re.sub(r"^([ \t]*)[%!].*$", r"\1pass", cell, flags=re.MULTILINE))


def test_every_name_a_grade_or_check_cell_reads_and_every_import_from_harness_lab_is_hinted():
    sources = [*ROOT.glob("notebooks/src/**/*.py"), *ROOT.glob("exercises/src/**/*.py")]
    read, imported = set(), set()
    for path in sources:
        for cell in re.split(r"^# %%", path.read_text(encoding="utf-8"), flags=re.MULTILINE)[1:]:
            head, _, body = cell.partition("\n")
            if "[markdown]" in head:
                continue
            if 'tags=["check"]' in head or 'tags=["grade"]' in head:
                read |= {
                    n.id for n in ast.walk(_python(body)) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
                }
            for node in ast.walk(_python(body)):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("harness_lab"):
                    imported |= {a.asname or a.name for a in node.names}
                if isinstance(node, ast.Import) and any(a.name == "harness_lab" for a in node.names):
                    imported |= {a.asname or a.name for a in node.names}
    assert read and imported
    assert read <= WRITTEN | SET_UP, sorted(read - WRITTEN - SET_UP)
    assert imported <= SET_UP, sorted(imported - SET_UP)


def _bound(statements: list[ast.stmt]) -> set[str]:
    """The names a cell's statements bind at its top level: what a later cell may read."""
    names: set[str] = set()

    def targets(node: ast.AST | None) -> set[str]:
        return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} if node else set()

    for node in statements:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, ast.Assign):
            names |= {n for target in node.targets for n in targets(target)}
        elif isinstance(node, ast.AnnAssign | ast.AugAssign):
            names |= targets(node.target)
        elif isinstance(node, ast.With | ast.AsyncWith):
            names |= {n for item in node.items for n in targets(item.optional_vars)}
        elif isinstance(node, ast.For | ast.AsyncFor):
            names |= targets(node.target)
        for block in ("body", "orelse", "finalbody"):  # a for's, an if's, a with's, a try's own statements
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names |= _bound(getattr(node, block, []))
        if isinstance(node, ast.Try):
            names |= {n for handler in node.handlers for n in _bound(handler.body)}
    return names


def test_every_name_a_notebook_cell_binds_at_its_top_level_is_in_the_table_of_names_cells_define():
    bound = set()
    for path in [*ROOT.glob("notebooks/src/**/*.py"), *ROOT.glob("exercises/src/**/*.py")]:
        for cell in re.split(r"^# %%", path.read_text(encoding="utf-8"), flags=re.MULTILINE)[1:]:
            head, _, body = cell.partition("\n")
            if "[markdown]" not in head:
                bound |= _bound(_python(body).body)
    assert {"run", "client", "s", "history", "try_send"} <= bound
    expected = bound - WRITTEN - SET_UP - {"_"}
    assert sorted(expected - ABOVE) == [], "add these to cell_runs.ABOVE"
    assert sorted(ABOVE - expected) == [], "no notebook cell binds these any more: take them out of cell_runs.ABOVE"
