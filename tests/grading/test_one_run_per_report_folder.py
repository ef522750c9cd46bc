"""Two grade-class runs on one report folder: the second is refused while the first writes it, naming the first's
PID, and a run that died (``kill -9``) leaves nothing that refuses the next one or is named by its refusal."""

from __future__ import annotations

import io
import json
import os
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
from test_classroom import ROOT, gone, named, named_hang, read_csv

from harness_lab.grading.class_command import grade_class_command
from harness_lab.grading.report_folder import HOLDER, claim, lock, release
from harness_lab.text import speaking, t


def refusal(report, language: str) -> str:
    """What a second run on ``report`` says on stderr (refused before it looks at the submissions)."""
    err = io.StringIO()
    with speaking(language):
        assert grade_class_command(report.parent / "subs", report, stdout=io.StringIO(), stderr=err) == 2
    return err.getvalue().strip()


def plain(report, language: str) -> str:
    """The refusal that names no run."""
    with speaking(language):
        return t("grade.class.out_busy", out=report)


def names(message: str, report, pid: int) -> bool:
    """Is ``message`` the refusal that names ``pid`` (how long it has run left as it is)?"""
    before, after = t("grade.class.out_busy_by", out=report, pid=pid, running="\0").split("\0")
    return message.startswith(before) and message.endswith(after)


@needs_sandbox
def test_a_second_run_is_refused_while_the_first_writes_and_a_killed_run_frees_the_folder(tmp_path):
    subs, report, hang = tmp_path / "subs", tmp_path / "report", f"hl-lock-{os.getpid()}"[:15]
    right("level1").write(subs, "ann")
    named_hang(hang).write(subs, "zed")  # graded last: names are sorted
    argv = ["grade-class", str(subs), "--out", str(report), "--jobs", "1", "--timeout", "120"]
    first = subprocess.Popen(
        [sys.executable, "-m", "harness_lab.cli", *argv],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        while not named(hang):  # the first run is grading its last notebook
            assert first.poll() is None and time.monotonic() < deadline
            time.sleep(0.1)
        before = sorted(os.listdir(report))
        for language in ("ja", "en"):
            message = refusal(report, language)
            with speaking(language):
                assert names(message, report, first.pid), message
        assert sorted(os.listdir(report)) == before  # nothing of the second run's in it
    finally:
        os.killpg(first.pid, signal.SIGKILL)  # as a crash ends it: no handler runs, nothing is cleaned up
        first.wait()
    assert gone(hang, within=30)
    assert (report / HOLDER).exists()  # the killed run's, left behind: while the folder is held, not believed
    held = lock(report)
    try:
        assert refusal(report, "en") == plain(report, "en")
    finally:
        os.close(held)
    out = io.StringIO()
    assert grade_class_command(subs, report, timeout=1, stdout=out, stderr=io.StringIO()) == 0, out.getvalue()
    assert [(r["learner"], r["notebook"], r["status"]) for r in read_csv(report)][:1] == [
        ("ann", FILES["level1"], "ok")
    ]
    assert not (report / HOLDER).exists()  # a run that ended takes its file with it


def test_the_holders_file_names_it_only_while_the_process_that_wrote_it_runs(tmp_path):
    report = tmp_path / "report"
    report.mkdir(0o700)
    held = lock(report)  # this process holds the folder, as a run would
    try:
        claim(held, report, print)
        facts = json.loads((report / HOLDER).read_text())
        with speaking("ja"):
            message = refusal(report, "ja")
            assert names(message, report, os.getpid()) and " 秒前から実行中" in message, message
        # the same PID given since to another process: it did not start when the file says
        (report / HOLDER).write_text(json.dumps({**facts, "process": "1"}))
        assert refusal(report, "en") == plain(report, "en")
        dead = subprocess.Popen(["true"])  # a process that has ended, as a killed run has
        dead.wait()
        (report / HOLDER).write_text(json.dumps({**facts, "pid": dead.pid}))
        assert refusal(report, "en") == plain(report, "en")
        (report / HOLDER).write_text("not json")
        assert refusal(report, "ja") == plain(report, "ja")
        release(held)
        assert not (report / HOLDER).exists()
    finally:
        os.close(held)
