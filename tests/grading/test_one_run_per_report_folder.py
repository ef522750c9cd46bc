"""Two grade-class runs on one report folder: the second is refused while the first writes it, and a run that
died (``kill -9``) leaves nothing that refuses the next one."""

from __future__ import annotations

import io
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
from harness_lab.text import t

pytestmark = needs_sandbox


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
        err = io.StringIO()
        assert grade_class_command(subs, report, timeout=1, stdout=io.StringIO(), stderr=err) == 2
        assert err.getvalue().strip() == t("grade.class.out_busy", out=report)
        assert sorted(os.listdir(report)) == before  # nothing of the second run's in it
    finally:
        os.killpg(first.pid, signal.SIGKILL)  # as a crash ends it: no handler runs, nothing is cleaned up
        first.wait()
    assert gone(hang, within=30)
    out = io.StringIO()
    assert grade_class_command(subs, report, timeout=1, stdout=out, stderr=io.StringIO()) == 0, out.getvalue()
    assert [(r["learner"], r["notebook"], r["status"]) for r in read_csv(report)][:1] == [
        ("ann", FILES["level1"], "ok")
    ]
