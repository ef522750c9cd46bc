"""The exercise notebooks, both editions: built from their sources, solutions pass, starters fail at the grade cell only.

The notebooks are built by ``notebooks/build.py`` from ``exercises/src/[en/]NAME.py``; these tests
also check they still match their source, so an edit to one notebook by hand cannot drift from its
twin. A grade cell fails by itself (it raises ``GradeFailed``), so nbval needs no stored output to
compare, and none remains in a starter. The solutions run under strict nbval in a kernel whose
environment asks for the other language: each notebook's setup cell chooses its own.
"""

from __future__ import annotations

import ast
import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from harness_lab.grading import grade_level1, grade_level2
from harness_lab.grading.command import grade_files
from harness_lab.text import CATALOG, speaking, t
from notebooks.build import from_source  # as the build reads it: Japanese sentences joined
from notebooks.exercise_build import GRADE_TAG, SOLUTION, STARTER, variant
from tests.lessons.notebook_runner import output_text  # a report is a display, a failed grade a stream

ROOT = Path(__file__).resolve().parents[2]
EXERCISES = ROOT / "exercises"
NAMES = [f"{p.stem}.ipynb" for p in sorted((EXERCISES / "src").glob("*.py"))]
# edition -> (its starters' folder, its solutions' folder, its sources' folder)
EDITIONS = {
    "ja": (EXERCISES, EXERCISES / "solutions", EXERCISES / "src"),
    "en": (EXERCISES / "en", EXERCISES / "solutions" / "en", EXERCISES / "src" / "en"),
}
BOTH = [(edition, name) for edition in EDITIONS for name in NAMES]
EMOJI = ("✅", "❌", "⚠", "🎉")


def starter(edition: str, name: str) -> Path:
    return EDITIONS[edition][0] / name


def solution(edition: str, name: str) -> Path:
    return EDITIONS[edition][1] / name


def in_edition(key: str, edition: str, **values: object) -> str:
    ja, en = CATALOG[key]
    return (en if edition == "en" else ja).format(**values)


def criteria_list(level: str, edition: str) -> str:
    """The criteria a grade cell checks, as the numbered list the notebook shows above it."""
    return "\n".join(f"{n}. {in_edition(f'grade.{level}.c{n}.title', edition)}" for n in (1, 2, 3))


def nbval(
    *paths: Path, cwd: Path = ROOT, lang: str | None = None, strict: bool = False, passes: bool = False
) -> subprocess.Popen:
    """Start nbval as a learner would, with ``HARNESS_LAB_LANG`` set to ``lang`` (unset for None);
    ``passes`` lists each cell that passed in the summary too."""
    env = {k: v for k, v in os.environ.items() if k != "HARNESS_LAB_LANG"}
    if lang is not None:
        env["HARNESS_LAB_LANG"] = lang
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pytest",
            "--nbval" if strict else "--nbval-lax",
            "--nbval-current-env",
            "-q",
            "--color=no",
            "-p",
            "no:cacheprovider",
            *(["-rfEp"] if passes else []),
            *map(str, paths),
        ],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        stdin=subprocess.DEVNULL,
    )


def finished(run: subprocess.Popen) -> tuple[int, str]:
    out, _ = run.communicate(timeout=600)
    return run.returncode, out


def read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(path, as_version=4)


def code_cells(nb) -> list:
    return [c for c in nb.cells if c.cell_type == "code"]


def grade_cells(nb) -> list:
    return [c for c in code_cells(nb) if GRADE_TAG in c.metadata.get("tags", [])]


def failed_cells(stdout: str) -> list[tuple[str, str]]:
    return sorted(re.findall(r"^FAILED exercises/(\S+?)::Cell (\d+)", stdout, re.MULTILINE))


def passed_cells(stdout: str) -> set[tuple[str, str]]:
    return set(re.findall(r"^PASSED exercises/(\S+?)::Cell (\d+)", stdout, re.MULTILINE))


def every_cell(path: Path) -> set[tuple[str, str]]:
    return {(str(path.relative_to(EXERCISES)), str(i)) for i in range(len(code_cells(read(path))))}


JA_SOLUTIONS = [solution("ja", name) for name in NAMES]
STARTERS = [starter(e, n) for e, n in BOTH]


@pytest.fixture(scope="module")
def nbval_runs() -> dict[str, tuple[int, str]]:
    """Strict nbval on the exercises, each notebook executed once and shared by the tests below.

    Under an environment that says English: the Japanese solutions and every starter, in one run
    (nbval gives each notebook a kernel of its own; it used to be two runs, each a pytest of its own).
    Under one that says Japanese: the English solutions. Both runs start at once."""
    runs = {
        "en": nbval(*JA_SOLUTIONS, *STARTERS, lang="en", strict=True, passes=True),
        "ja": nbval(EDITIONS["en"][1], lang="ja", strict=True),
    }
    return {lang: finished(run) for lang, run in runs.items()}


def test_japanese_solutions_pass_strict_nbval_in_japanese_whatever_harness_lab_lang_says(nbval_runs):
    _, out = nbval_runs["en"]
    # every cell of both, passed (the run's exit code is the starters' failure: see the next test)
    expected = set().union(*map(every_cell, JA_SOLUTIONS))
    assert expected <= passed_cells(out), out[-3000:]
    assert not [cell for cell in failed_cells(out) if cell[0].startswith("solutions/")], out[-3000:]


def test_english_solutions_pass_strict_nbval_in_english_in_a_kernel_whose_environment_says_ja(nbval_runs):
    code, out = nbval_runs["ja"]
    assert code == 0 and "failed" not in out, out[-3000:]


def test_untouched_starters_fail_only_at_their_grade_cells_in_one_line(nbval_runs):
    # Strict nbval, both editions, under an environment that says English. It covers a learner's
    # nbval-lax too: lax fails a cell only where it raises, and strict fails it there as well (plus
    # any output that differs), so failing at the grade cells alone under strict means the same
    # under lax, with the same one-line message.
    code, out = nbval_runs["en"]
    assert code != 0
    expected = sorted(
        (str(p.relative_to(EXERCISES)), str(code_cells(read(p)).index(grade_cells(read(p))[0]))) for p in STARTERS
    )
    assert failed_cells(out) == expected, out[-3000:]
    # and every other cell of theirs passed
    assert set().union(*map(every_cell, STARTERS)) - set(expected) <= passed_cells(out), out[-3000:]
    # the failure is one line, in the notebook's language, not a traceback wall
    # (pytest repeats the line untruncated in its short summary when CI is set, so count above it)
    failures = out.split("short test summary info")[0]
    for edition in ("ja", "en"):
        line = in_edition("grade.failed", edition, numbers=in_edition("grade.failed_join", edition).join("123"))
        assert failures.count(line) == 2, (edition, out[-3000:])
    assert "Traceback (most recent call last)" not in out and "GradeFailed(" not in out


def _learners_copy(tmp_path: Path, name: str, nb) -> Path:
    """Write ``nb`` where a learner's exercises/ would be, with this folder's nbval settings."""
    (tmp_path / "exercises").mkdir(exist_ok=True)
    shutil.copy(EXERCISES / "conftest.py", tmp_path / "exercises" / "conftest.py")
    nbformat.write(nb, tmp_path / "exercises" / name)
    return tmp_path / "exercises" / name


def test_a_default_of_allow_passes_with_its_note_shown(tmp_path):
    # the curriculum: "allow" as the default meets criterion 1 with a note the learner reads
    name = "level1_tiered_policy.ipynb"
    nb = read(solution("ja", name))
    [cell] = [c for c in nb.cells if c.cell_type == "code" and 'DEFAULT_TIER = "ask"' in c.source]
    cell.source = cell.source.replace('DEFAULT_TIER = "ask"', 'DEFAULT_TIER = "allow"')
    code, out = finished(nbval(_learners_copy(tmp_path, name, nb), cwd=tmp_path))
    assert code == 0, out[-3000:]
    ns = _namespace(nb)
    report = grade_level1(ns["POLICY"], ns["DEFAULT_TIER"], ns["run_tool_uses"], ns["ANSWERS"])
    assert report.passed and "△ 注意" in report.text().splitlines()[0]


@pytest.mark.parametrize(("edition", "name"), BOTH)
def test_notebooks_match_their_source(edition, name):
    source = from_source(EDITIONS[edition][2] / name.replace(".ipynb", ".py"))
    built = {STARTER: read(starter(edition, name)), SOLUTION: read(solution(edition, name))}
    exercise = source.metadata["harness_lab"]["exercise"]
    for kind, nb in built.items():
        expected = variant(source, kind)
        assert [c.source for c in nb.cells] == [c.source for c in expected.cells], "run notebooks/build.py"
        assert [c.metadata.get("tags", []) for c in nb.cells] == [c.metadata.get("tags", []) for c in expected.cells]
        assert nb.metadata["harness_lab"] == {"exercise": exercise, "lang": edition}
        assert "widgets" not in nb.metadata
        assert not any({"ja", STARTER, SOLUTION} & {*c.metadata, *c.metadata.get("tags", [])} for c in nb.cells)
        assert len(grade_cells(nb)) == 1
        assert not any("NBVAL" in c.source for c in nb.cells)  # nothing is compared with stored output
    todo_cells = [c for c in code_cells(built[STARTER]) if "TODO" in c.source]
    assert todo_cells and all("answer" in c.metadata["tags"] for c in todo_cells)
    assert not any("TODO" in c.source for c in code_cells(built[SOLUTION]))


@pytest.mark.parametrize(("edition", "name"), BOTH)
def test_starters_show_no_grade_output_only_the_criteria_it_checks(edition, name):
    start, solved = read(starter(edition, name)), read(solution(edition, name))
    [graded] = grade_cells(start)
    assert graded.outputs == [] and graded.execution_count is None
    assert not any(o.get("output_type") == "error" for c in code_cells(start) for o in c.outputs)
    # nothing in the starter, stored output or text, looks like a verdict the learner could take for theirs
    verdicts = [in_edition("grade.mark.pass", edition), in_edition("grade.mark.fail", edition)]
    for cell in start.cells:
        shown = cell.source + output_text(cell)
        assert not any(line.lstrip().startswith(mark) for line in shown.splitlines() for mark in verdicts), cell.source
    level = "l" + name[len("level")]
    listed = [c for c in start.cells if c.cell_type == "markdown" and criteria_list(level, edition) in c.source]
    assert len(listed) == 1
    # the criteria listed are the ones the grade prints
    stored = output_text(grade_cells(solved)[0])
    titles = [line.split(". ", 1)[1] for line in criteria_list(level, edition).splitlines()]
    assert all(title in stored for title in titles) and len(stored.strip().splitlines()) == 4
    assert stored.strip().splitlines()[-1] == in_edition("grade.all_passed", edition, total=3)


@pytest.mark.parametrize(("edition", "name"), BOTH)
def test_starters_store_no_output_of_the_learners_own_code(edition, name):
    """A stored run of the unedited TODO code reads, to a learner who opens the file, as their result."""
    start = read(starter(edition, name))
    answers = [c for c in code_cells(start) if "answer" in c.metadata.get("tags", [])]
    defined = {n for c in answers for n in _defined(c.source)}
    for cell in code_cells(start):
        if cell in answers or not cell.outputs:
            continue
        used = {node.id for node in ast.walk(ast.parse(cell.source)) if isinstance(node, ast.Name)}
        assert not used & defined, (sorted(used & defined), cell.source[:200])


@pytest.mark.parametrize(("edition", "name"), BOTH)
def test_starters_store_no_output_of_the_graders(edition, name):
    """No stored output in a starter holds the graders' words (a verdict, a hint, even the list of
    choices): a learner opening the file before running anything would take it for an answer to them."""
    words = {
        part.strip()
        for key, pair in CATALOG.items()
        if key.startswith("grade.")
        for part in re.split(r"\{[^}]*\}", pair[1 if edition == "en" else 0])
        if len(part.strip()) >= 8
    }
    for cell in code_cells(read(starter(edition, name))):
        stored = "".join(_output_text(o) for o in cell.outputs)
        assert not [w for w in words if w in stored], (cell.source[:120], stored[:300])


@pytest.mark.parametrize(("edition", "name"), BOTH)
def test_starter_setup_cells_store_no_output(edition, name):
    """The setup cells are the grader's own preparation (it runs them again): whatever they print is
    the graders' data, which a learner opening the starter would read as a result of their own."""
    setup = [c for c in code_cells(read(starter(edition, name))) if "setup" in c.metadata.get("tags", [])]
    assert setup and all(c.outputs == [] for c in setup), [c.source[:120] for c in setup if c.outputs]


def _output_text(output) -> str:
    text = output.get("text", "")
    data = output.get("data", {})
    return (text if isinstance(text, str) else "".join(text)) + "".join(
        v if isinstance(v, str) else "".join(v) for k, v in data.items() if k.startswith("text/")
    )


def _defined(source: str) -> set[str]:
    tree = ast.parse(source)
    names = {node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            names |= {target.id for target in node.targets if isinstance(target, ast.Name)}
    return names


@pytest.mark.parametrize(("edition", "name"), BOTH)
def test_no_meaning_rests_on_an_emoji(edition, name):
    for path in (starter(edition, name), solution(edition, name)):
        text = path.read_text(encoding="utf-8")
        assert not any(mark in text for mark in EMOJI), path


JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]")


@pytest.mark.parametrize("name", NAMES)
def test_the_english_edition_holds_no_japanese(name):
    for path in (starter("en", name), solution("en", name)):
        nb = read(path)
        texts = [c.source for c in nb.cells] + [_output_text(o) for c in code_cells(nb) for o in c.outputs]
        assert [s for s in texts if JAPANESE.search(s)] == [], path


def _namespace(nb) -> dict:
    """Run a notebook's code cells (all but the grade cell) in this process."""
    namespace: dict = {}
    for cell in code_cells(nb):
        if cell not in grade_cells(nb):
            exec(compile(cell.source, "<exercise cell>", "exec"), namespace)
    return namespace


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_solutions_objects_pass_the_graders_directly(capsys, edition):
    ns1 = _namespace(read(solution(edition, "level1_tiered_policy.ipynb")))
    ns2 = _namespace(read(solution(edition, "level2_missing_gate.ipynb")))
    capsys.readouterr()
    assert grade_level1(ns1["POLICY"], ns1["DEFAULT_TIER"], ns1["run_tool_uses"], ns1["ANSWERS"]).passed
    assert grade_level2(ns2["MISSING"], ns2["run_agent"], ns2["MAX_TURNS"]).passed


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_starters_objects_fail_every_criterion(capsys, edition):
    ns1 = _namespace(read(starter(edition, "level1_tiered_policy.ipynb")))
    ns2 = _namespace(read(starter(edition, "level2_missing_gate.ipynb")))
    capsys.readouterr()
    report = grade_level1(ns1["POLICY"], ns1["DEFAULT_TIER"], ns1["run_tool_uses"], ns1["ANSWERS"])
    assert report.failed() == [1, 2, 3]
    assert grade_level2(ns2["MISSING"], ns2["run_agent"], ns2["MAX_TURNS"]).failed() == [1, 2, 3]


def test_the_grading_command_reports_on_the_english_edition_in_english(monkeypatch):
    """``python -m harness_lab.grading`` on English notebooks, for a reader who chose no language:
    the solutions pass, the starters fail every criterion, and every line is English."""
    monkeypatch.delenv("HARNESS_LAB_LANG", raising=False)
    solutions = [str(solution("en", n)) for n in NAMES]
    starters = [str(starter("en", n)) for n in NAMES]
    out = io.StringIO()
    assert grade_files(solutions, out=out) == 0
    passed = out.getvalue()
    out = io.StringIO()
    assert grade_files(starters, out=out) == 1
    failed = out.getvalue()
    assert passed.count(in_edition("grade.all_passed", "en", total=3)) == 2
    assert passed.splitlines()[-1] == in_edition("grade.nb.summary", "en", passed=2, total=2)
    marks = [line.split(" ", 1)[0] for line in failed.splitlines()]
    assert marks.count(in_edition("grade.mark.fail", "en")) == 6  # 3 criteria x 2 notebooks
    assert in_edition("grade.mark.pass", "en") not in marks
    assert not JAPANESE.search(passed + failed), passed + failed
    with speaking("ja"):  # a reader who asked for Japanese gets it, the edition notwithstanding
        out = io.StringIO()
        grade_files(solutions[:1], out=out)
    assert out.getvalue().splitlines()[-1] == in_edition("grade.all_passed", "ja", total=3)
    assert t("grade.all_passed", total=3) == in_edition("grade.all_passed", "ja", total=3)  # the block has ended
