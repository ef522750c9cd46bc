"""A limited run's caller looks through the machine's processes for what the job left only when its supervisor
could not say it saw the job's whole tree gone.

The look (``processes.end_session``) reads every process's ``/proc/PID/stat``: about 4 ms of the caller's CPU per
run on a machine of 150 processes, more on a busier one, paid by every check of every test and every graded cell.
A supervisor that ended the tree it adopted (the subreaper) says so by its exit code; a killed one cannot, and one
without a subreaper cannot know, so the caller still looks then (``test_no_process_outlives_a_check.py`` covers
the killed supervisor).
"""

from __future__ import annotations

import os
import time

import pytest

from harness_lab.grading import namespaces, run_limited, sandbox
from tests.process_ids import seen_pid
from tests.reliability.test_grader_limits import _dies_soon, _running

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc"), reason="no /proc to look through")


def test_a_run_whose_supervisor_ended_everything_reads_no_other_process(monkeypatch):
    looked = []
    listdir = os.listdir

    def recording(path="."):
        looked.append(os.fspath(path))
        return listdir(path)

    run_limited(lambda: 1)  # the first run loads what the forks inherit; not counted
    monkeypatch.setattr(os, "listdir", recording)  # this process's only: a fork's calls land in its own copy
    outcome = run_limited(lambda: 1)
    assert (outcome.status, outcome.value) == ("ok", 1)
    assert "/proc" not in looked


def leaves_a_child_outside_its_group(pid_file: str):
    """Learner code whose child leaves the job's process group (but not its session) and spins."""

    def job():
        if os.fork() == 0:
            os.setpgid(0, 0)
            with open(pid_file + ".part", "w") as f:
                f.write(str(seen_pid()))
            os.rename(pid_file + ".part", pid_file)
            while True:
                pass
        while not os.path.exists(pid_file):
            time.sleep(0.01)
        return "answered"

    return job


def test_without_a_subreaper_a_child_that_left_the_jobs_group_is_still_ended(tmp_path, monkeypatch):
    # Where the system has no subreaper the supervisor kills only the job's group, and no PID namespace ends the rest
    # here: the child in a group of its own is found in the supervisor's session by the caller's look, which a
    # supervisor that cannot know it ended everything must still ask for.
    monkeypatch.setattr(sandbox, "become_subreaper", lambda: False)
    monkeypatch.setattr(namespaces, "make", lambda: False)
    pid_file = str(tmp_path / "child.pid")
    try:
        outcome = run_limited(leaves_a_child_outside_its_group(pid_file), timeout=10)
        assert (outcome.status, outcome.value) == ("ok", "answered")
        with open(pid_file) as f:
            child = int(f.read())
        assert _dies_soon(child), "the child outside the job's group outlived the check"
    finally:
        if os.path.exists(pid_file):
            with open(pid_file) as f:
                child = int(f.read())
            if _running(child):
                os.kill(child, 9)
