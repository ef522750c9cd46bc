"""The grade-class command's runs: an exercise handed in twice counts once, a report folder that would lose
something is refused, huge files and broken records, the progress line, an interrupted run continued, graders
loaded only when asked.
"""

from __future__ import annotations

import io
import json
import os
import pty
import select
import signal
import subprocess
import sys
import time

from class_submissions import (
    FILES,
    instructor_config,  # noqa: F401  # the record's key in a folder of the tests' own
    needs_sandbox,
    right,
)
from test_classroom import ROOT, command, gone, named, named_hang, read_csv

from harness_lab.grading.class_command import grade_class_command
from harness_lab.grading.classroom import STATE_FILE, grade_class
from harness_lab.grading.notebook_file import MAX_NOTEBOOK_BYTES
from harness_lab.text import t

pytestmark = needs_sandbox


def test_an_exercise_handed_in_twice_counts_once_in_the_gradebook(tmp_path):
    subs, report = tmp_path / "subs", tmp_path / "report"
    right("level1").write(subs, "dan")
    right("level1").write(subs, "dan", "level1_tiered_policy (1).ipynb")  # an LMS download's second copy
    right("level2").write(subs, "dan", "answers.ipynb")  # a name that tells no exercise: its content does
    right("level2").write(subs, "dan")
    assert grade_class_command(subs, report, jobs=1, stdout=io.StringIO(), stderr=io.StringIO()) == 0
    rows = read_csv(report)
    assert [(r["exercise"], r["notebook"], r["score"]) for r in rows] == [
        ("level1", FILES["level1"], "3"),
        ("level2", FILES["level2"], "3"),
    ]
    feedback = (report / "feedback" / "dan.txt").read_text(encoding="utf-8")
    for name, exercise in (("level1_tiered_policy (1).ipynb", "level1"), ("answers.ipynb", "level2")):
        assert t("grade.class.duplicate", name=name, exercise=exercise, kept=FILES[exercise]) in feedback, feedback


def test_a_report_folder_that_would_lose_something_is_refused(tmp_path):
    subs = tmp_path / "subs"
    right("level1").write(subs, "kim")
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("大事なメモ", encoding="utf-8")
    for out, key in (
        (subs / "report", "grade.class.out_inside"),
        (subs, "grade.class.out_inside"),
        (mine, "grade.class.out_taken"),
    ):
        err = io.StringIO()
        assert grade_class_command(subs, out, stdout=io.StringIO(), stderr=err) == 2
        assert err.getvalue().strip() == t(key, out=out, submissions=subs, state=STATE_FILE)
    assert sorted(p.name for p in mine.iterdir()) == ["notes.txt"] and not (subs / "report").exists()
    err = io.StringIO()
    assert grade_class_command(tmp_path / "nowhere", tmp_path / "r", stdout=io.StringIO(), stderr=err) == 2
    assert err.getvalue().strip() == t("grade.class.no_folder", path=tmp_path / "nowhere")
    assert command("grade-class", subs).returncode == 2  # --out is required


def test_a_huge_file_is_never_read_and_a_broken_record_means_grading_again(tmp_path):
    subs, report = tmp_path / "subs", tmp_path / "report"
    right("level1").write(subs, "kim")
    with open(subs / "kim" / FILES["level2"], "wb") as huge:
        huge.truncate(MAX_NOTEBOOK_BYTES + (2 << 20))  # sparse: takes no disk
    assert grade_class_command(subs, report, stdout=io.StringIO(), stderr=io.StringIO()) == 0
    too_large = t(
        "grade.class.too_large",
        name=FILES["level2"],
        mb=f"{(MAX_NOTEBOOK_BYTES >> 20) + 2:.1f}",
        limit=MAX_NOTEBOOK_BYTES >> 20,
    )
    # handed in, refused by its size before anything parsed it: a row of its exercise naming the limit
    assert [(r["exercise"], r["notebook"], r["status"], r["hint_keys"], r["message"]) for r in read_csv(report)] == [
        ("level1", FILES["level1"], "ok", "", ""),
        ("level2", FILES["level2"], "error", "grade.class.too_large", too_large),
    ]
    assert too_large in (report / "index.html").read_text(encoding="utf-8")
    feedback = (report / "feedback" / "kim.txt").read_text(encoding="utf-8")
    assert too_large in feedback and t("grade.class.missing", exercise="level2") not in feedback
    (report / STATE_FILE).write_text("{not json", encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert grade_class_command(subs, report, stdout=out, stderr=err) == 0
    head = t("grade.class.state_unreadable", state=report / STATE_FILE, error="@").split("@")[0]
    assert err.getvalue().startswith(head)
    assert t("grade.class.done", total=2, seconds="@", graded=2, reused=0).split("@")[1] in out.getvalue()


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_progress_line_on_a_terminal(tmp_path):
    subs = tmp_path / "subs"
    right("level1").write(subs, "kim")
    right("level2").write(subs, "kim")
    err = _Terminal()
    assert grade_class_command(subs, tmp_path / "report", jobs=1, stdout=io.StringIO(), stderr=err) == 0
    shown = err.getvalue()
    assert shown.startswith("\r" + t("grade.class.progress", done=1, total=2, timeouts=0, errors=0))
    assert "\r" + t("grade.class.progress", done=2, total=2, timeouts=0, errors=0) in shown and shown.endswith("\n")


def test_an_interrupted_run_keeps_its_grades_and_a_rerun_continues(tmp_path):
    subs, report, hang = tmp_path / "subs", tmp_path / "report", f"hl-int-{os.getpid()}"[:15]
    right("level1").write(subs, "ann")
    right("level2").write(subs, "ann")
    named_hang(hang).write(subs, "zed")  # graded last: names are sorted
    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "harness_lab.cli",
            "grade-class",
            str(subs),
            "--out",
            str(report),
            "--jobs",
            "1",
            "--timeout",
            "120",
        ],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=follower,
        text=True,
    )
    os.close(follower)
    try:
        seen = b""
        deadline = time.monotonic() + 120
        want = "\r" + t("grade.class.progress", done=2, total=3, timeouts=0, errors=0)
        while want.encode() not in seen or not named(hang):
            assert time.monotonic() < deadline, seen.decode(errors="replace")
            if select.select([leader], [], [], 0.1)[0]:
                seen += os.read(leader, 4096)
        proc.send_signal(signal.SIGINT)
        _stdout, _ = proc.communicate(timeout=60)
        while select.select([leader], [], [], 0.1)[0]:
            try:
                seen += os.read(leader, 4096)
            except OSError:
                break
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(leader)
    assert proc.returncode == 130
    assert t("grade.class.interrupted", done=2, state=report / STATE_FILE) in seen.decode()
    assert gone(hang), "the interrupted notebook's process is still running"
    state = json.loads((report / STATE_FILE).read_text(encoding="utf-8"))
    assert sorted(state["entries"]) == [f"ann/{FILES['level1']}", f"ann/{FILES['level2']}"]
    result = grade_class(subs, report / STATE_FILE, timeout=1)
    assert (result.graded, result.reused) == (1, 2)


def test_the_commands_load_the_graders_only_when_asked(tmp_path):
    code = "import sys, harness_lab, harness_lab.cli\nprint(sorted(m for m in sys.modules if 'grading' in m))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.stdout == "[]\n", done.stderr
    done = command("grade", ROOT / "exercises" / "solutions" / FILES["level1"], ROOT / "exercises" / FILES["level2"])
    assert done.returncode == 1
    assert t("grade.all_passed", total=3) in done.stdout and t("grade.nb.summary", passed=1, total=2) in done.stdout
