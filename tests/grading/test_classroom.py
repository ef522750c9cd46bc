"""Grading a class: ``harness-lab grade-class SUBMISSIONS --out REPORT`` (issue 17).

One class is built from the course's own notebooks and answer batteries (``class_submissions.py``):
right answers, the batteries' wrong ones, a hang, an exit, a process that kills itself, one that
kills the process grading it, megabytes of prints, tampering (the grade cell rewritten, a solved
output pasted in, ``check_level1`` redefined), and what is not a notebook at all. It is graded once
through the real command, and the tests read what that run wrote.
"""

from __future__ import annotations

import csv
import io
import multiprocessing
import os
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import nbformat
import pytest
from class_submissions import (
    FILES,
    HANG,
    Handed,
    answer_cells,
    breaking,
    checker_redefined,
    exiting,
    grade_cell_rewritten,
    instructor_config,  # noqa: F401  # the record's key in a folder of the tests' own
    killing_itself,
    killing_the_grader,
    loud,
    needs_sandbox,
    output_forged,
    right,
    solution,
    starter,
    wrong,
)

from harness_lab.grading import grade_notebook
from harness_lab.grading.class_command import grade_class_command
from harness_lab.grading.class_report import chart
from harness_lab.grading.classroom import STATE_FILE, grade_class
from harness_lab.text import t
from tests.process_ids import landlock_scopes_jobs

ROOT = Path(__file__).resolve().parents[2]
pytestmark = needs_sandbox
TIMEOUT = "6"  # seconds per notebook: what the hang costs (a right answer takes under 2 s on a busy machine)
SCRIPT = "<script>alert('x')</script>"


def command(*args: str | Path, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "harness_lab.cli", *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
        **kwargs,
    )


def named(name: str) -> list[int]:
    """Live processes whose command name is ``name`` (seen from here, whatever namespace they are in)."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat") as f:
                comm, state = f.read().split(") ", 1)
        except (OSError, ValueError):
            continue
        if comm.split("(", 1)[1] == name and state[0] != "Z":
            found.append(int(entry))
    return found


def gone(name: str, within: float = 5.0) -> bool:
    deadline = time.monotonic() + within
    while named(name) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not named(name)


def named_hang(name: str) -> Handed:
    """An answer cell that names its process (so it can be found from outside the sandbox), then hangs."""
    return breaking(
        "level2",
        f"import ctypes\nctypes.CDLL(None).prctl(15, {name.encode()!r}, 0, 0, 0)\n" + HANG,
        "timeout",
        "grade.nb.timeout",
    )


def build_class(subs: Path, hang: str) -> dict[tuple[str, str], Handed]:
    """Write the class; (learner, notebook file) -> what grading must say about it."""
    # the starter's loop, untouched, under a comment of the learner's: the runaway hint names run_agent,
    # and the page's sample is that definition with the comment above it
    taro = Handed("level2", solution("level2"), failed={3: "grade.l2.c3.runaway"})
    loop = answer_cells(starter("level2"))[1].source
    answer_cells(taro.notebook)[1].source = loop.replace("\ndef run_agent", f"\n# {SCRIPT}\ndef run_agent", 1)
    plan = {
        "ann": [right("level1"), right("level2")],
        "ben": [wrong("level1", "deny result that does not say why"), wrong("level2", "check after the increment")],
        "cho": [exiting("level1"), named_hang(hang)],
        "dan": [
            grade_cell_rewritten("level1", "results in reverse order"),
            output_forged("level2", "only one runaway family"),
        ],
        "eve": [checker_redefined("level1", "approve's answer ignored")],
        "gil": [killing_itself("level1"), loud("level2")],
        "hal": [killing_the_grader("level1"), right("level2")],
        "たろう": [taro],
    }
    handed = {}
    for learner, notebooks in plan.items():
        for one in notebooks:
            handed[learner, one.write(subs, learner).name] = one
    eve = subs / "eve"
    (eve / "notes.txt").write_text("ただのメモ", encoding="utf-8")
    (eve / "broken.ipynb").write_text('{"cells": [', encoding="utf-8")
    (eve / "deep.ipynb").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    (eve / "odd.ipynb").write_text('{"cells": [], "metadata": []}', encoding="utf-8")
    homework = solution("level1")
    del homework.metadata["harness_lab"]
    homework.cells = [c for c in homework.cells if "grade" not in c.metadata.get("tags", [])]
    nbformat.write(homework, eve / "homework.ipynb")
    (eve / "link.ipynb").symlink_to(ROOT / "exercises" / "solutions" / FILES["level1"])
    (eve / ".ipynb_checkpoints").mkdir()
    (eve / ".ipynb_checkpoints" / "level1_tiered_policy-checkpoint.ipynb").write_text("{}", encoding="utf-8")
    (subs / "fay").mkdir()
    (subs / "README.txt").write_text("提出フォルダーの説明", encoding="utf-8")
    for name, key, edition in (
        ("broken.ipynb", "grade.nb.unreadable", ""),  # not JSON: no edition to tell
        ("deep.ipynb", "grade.nb.unreadable", ""),
        ("odd.ipynb", "grade.nb.unreadable", "ja"),  # JSON naming no edition: the first one's
        ("homework.ipynb", "grade.nb.unknown_exercise", "ja"),
    ):
        handed["eve", name] = Handed("", nbformat.v4.new_notebook(), status="error", key=key, edition=edition)
    return handed


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The class, graded once by the real command; (submissions, report, expectations, the run)."""
    base = tmp_path_factory.mktemp("class")
    subs, report, scratch = base / "submissions", base / "report", base / "tmp"
    hang = f"hl-hang-{os.getpid()}"[:15]
    handed = build_class(subs, hang)
    scratch.mkdir()
    done = command(
        "grade-class",
        subs,
        "--out",
        report,
        "--timeout",
        TIMEOUT,
        "--jobs",
        "2",
        env={**os.environ, "TMPDIR": str(scratch)},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert list(scratch.iterdir()) == []  # the graded copies are gone, even the one whose worker was killed
    return subs, report, handed, done, hang


def read_csv(report: Path) -> list[dict]:
    with open(report / "grades.csv", encoding="utf-8-sig", newline="") as f:
        return list(csv.DictReader(f))


def expected_rows(handed: dict) -> list[dict]:
    rows = []
    for (learner, notebook), one in handed.items():
        ok = one.status == "ok"
        marks = {f"criterion_{n}": ("fail" if n in one.failed else "pass") if ok else "" for n in (1, 2, 3)}
        rows.append(
            {
                "learner": learner,
                "exercise": one.exercise,
                "notebook": notebook,
                **marks,
                "hint_keys": one.hint_keys(),
                "score": str(3 - len(one.failed) if ok else 0),
                "max_score": "3",
                "status": one.status,
                "edition": one.edition,
            }
        )
    learners = {learner for learner, _ in handed} | {"fay"}
    for learner in learners:
        for exercise in FILES:
            if not any(k[0] == learner and one.exercise == exercise for k, one in handed.items()):
                rows.append(
                    {
                        "learner": learner,
                        "exercise": exercise,
                        "notebook": "",
                        "criterion_1": "",
                        "criterion_2": "",
                        "criterion_3": "",
                        "hint_keys": "grade.class.missing",
                        "score": "0",
                        "max_score": "3",
                        "status": "missing",
                        "edition": "",
                    }
                )
    return sorted(rows, key=lambda r: (r["learner"], r["exercise"] or "\uffff", r["notebook"]))


def test_the_class_grades_to_the_expected_rows(graded):
    _, report, handed, _done, _ = graded
    rows = read_csv(report)
    assert [{k: v for k, v in r.items() if k != "message"} for r in rows] == expected_rows(handed)
    messages = {(r["learner"], r["notebook"]): r["message"] for r in rows}
    assert messages["cho", FILES["level2"]] == t("grade.nb.timeout", seconds=TIMEOUT)
    # killing every process above: refused where Landlock scopes the cells (its answer graded), else its own crash
    assert messages["hal", FILES["level1"]] == ("" if landlock_scopes_jobs() else t("grade.nb.crashed"))
    assert messages["fay", ""] == t("grade.class.missing", exercise="level2")
    assert messages["ann", FILES["level1"]] == ""


def test_the_csv_has_a_bom_and_reads_back_with_japanese_names(graded):
    _, report, _, _, _ = graded
    raw = (report / "grades.csv").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf") and b"\r\n" in raw
    rows = read_csv(report)
    assert list(rows[0])[:3] == ["learner", "exercise", "notebook"]
    assert list(rows[0])[-3:] == ["status", "message", "edition"]  # the new column after the old ones
    assert [r["hint_keys"] for r in rows if r["learner"] == "たろう"] == ["grade.class.missing", "grade.l2.c3.runaway"]


def test_tampering_changes_nothing(graded):
    # the grade cell printing a pass, a solved output pasted in, check_level1 redefined in an answer cell
    _, report, handed, _, _ = graded
    rows = {(r["learner"], r["notebook"]): r for r in read_csv(report)}
    for learner, notebook in (("dan", FILES["level1"]), ("dan", FILES["level2"]), ("eve", FILES["level1"])):
        assert rows[learner, notebook]["status"] == "ok"
        assert rows[learner, notebook]["hint_keys"] == handed[learner, notebook].hint_keys() != ""


def test_a_hang_leaves_no_process_and_the_command_is_quiet_off_a_terminal(graded):
    _, _, _, done, hang = graded
    assert gone(hang), "the hanging answer cell is still running"
    assert done.stderr == ""  # no progress line, no \r, when stderr is not a terminal
    for path in (graded[1] / "index.html", graded[1] / "grades.csv", graded[1] / "feedback"):  # what one opens
        assert str(path) in done.stdout


def test_the_feedback_holds_the_lines_the_learner_would_see(graded):
    subs, report, _, _, _ = graded
    ben = (report / "feedback" / "ben.txt").read_text(encoding="utf-8")
    assert ben.startswith(t("grade.class.feedback_title", learner="ben") + "\n")
    for exercise, name in FILES.items():
        grade = grade_notebook(subs / "ben" / name)  # the learner's own grading command
        assert (
            t("grade.nb.header", path=name, exercise=exercise) + "\n" + "\n".join(grade.text().splitlines()[1:]) in ben
        )
    eve = (report / "feedback" / "eve.txt").read_text(encoding="utf-8")
    for line in (
        t("grade.class.not_notebook", name="notes.txt"),
        t("grade.class.not_regular", name="link.ipynb"),
        t("grade.class.missing", exercise="level2"),
        t("grade.nb.unknown_exercise"),
    ):
        assert line in eve
    assert "checkpoint" not in eve
    fay = (report / "feedback" / "fay.txt").read_text(encoding="utf-8")
    assert t("grade.class.no_notebooks") in fay and t("grade.class.missing", exercise="level1") in fay
    dan = (report / "feedback" / "dan.txt").read_text(encoding="utf-8")
    assert t("grade.mark.fail") in dan and t("grade.all_passed", total=3) not in dan
    assert sorted(p.name for p in (report / "feedback").glob("*.txt")) == sorted(
        f"{name}.txt" for name in ("ann", "ben", "cho", "dan", "eve", "fay", "gil", "hal", "たろう")
    )


def test_the_page_shows_rates_hints_and_failures(graded):
    _, report, _, _, _ = graded
    page = (report / "index.html").read_text(encoding="utf-8")
    rows = read_csv(report)
    assert page.startswith("<!DOCTYPE html>") and '<html lang="ja">' in page
    for exercise in FILES:  # one bar per criterion, as wide as the CSV's pass rate
        handed = [r for r in rows if r["exercise"] == exercise and r["status"] != "missing"]
        passed = [sum(r[f"criterion_{n}"] == "pass" for r in handed) for n in (1, 2, 3)]
        assert (
            chart([t(f"grade.{exercise.replace('level', 'l')}.c{n}.title") for n in (1, 2, 3)], passed, len(handed))
            in page
        )
        assert t("grade.class.rates_note", total=len(handed)) in page
    hints = Counter(
        (r["exercise"], n, key)
        for r in rows
        if r["status"] == "ok"
        for n, key in zip([n for n in (1, 2, 3) if r[f"criterion_{n}"] == "fail"], r["hint_keys"].split(), strict=True)
    )
    top = sorted(hints, key=lambda h: (-hints[h], h))[:10]
    assert re.findall(r"<br><code>([\w.]+)</code>", page) == [key for _, _, key in top]
    assert SCRIPT not in page and "# &lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in page  # たろう's sample
    assert t("grade.class.sample", learner="たろう", notebook=FILES["level2"]) in page
    failures = page.split(f"<h2>{t('grade.class.failures')}</h2>")[1].split("<h2>")[0]
    for r in rows:
        if r["status"] in ("timeout", "error"):
            assert f"<td>{r['learner']}</td><td>{r['notebook']}</td>" in failures
    assert failures.count("<tr><td>") == sum(r["status"] in ("timeout", "error") for r in rows)
    assert t("grade.class.outside", name="README.txt") in page


def test_a_rerun_grades_only_what_changed(graded, tmp_path):
    subs, report, handed, _, _ = graded
    before = {p.relative_to(report): p.read_bytes() for p in report.rglob("*") if p.is_file()}
    out = io.StringIO()
    assert grade_class_command(subs, report, timeout=float(TIMEOUT), stdout=out, stderr=io.StringIO()) == 0
    total = len(handed)
    head, tail = t("grade.class.done", total=total, seconds="@", graded=0, reused=total).split("@")
    assert head in out.getvalue() and tail in out.getvalue()
    after = {p.relative_to(report): p.read_bytes() for p in report.rglob("*") if p.is_file()}
    # the same report, and the last run's gradebook kept beside it; the page now says nothing changed since
    page = after.pop(Path("index.html")).decode("utf-8")
    assert after.pop(Path("grades.previous.csv")) == before[Path("grades.csv")]
    assert after == {name: data for name, data in before.items() if name != Path("index.html")}
    assert t("grade.class.changed_none") in page and t("grade.class.changed_first") not in page
    # one learner fixes a notebook: only it is graded again
    right("level1").write(subs, "ben")
    result = grade_class(subs, report / STATE_FILE, timeout=float(TIMEOUT))
    assert (result.graded, result.reused) == (1, total - 1)
    [ben] = [r for r in result.rows if (r.learner, r.notebook) == ("ben", FILES["level1"])]
    assert ben.grade.passed and not ben.reused
    # a longer time limit grades the timeout again, and only it
    result = grade_class(subs, report / STATE_FILE, timeout=float(TIMEOUT) + 0.5)
    assert [(r.learner, r.notebook) for r in result.rows if r.notebook and not r.reused] == [("cho", FILES["level2"])]
    assert multiprocessing.active_children() == []
