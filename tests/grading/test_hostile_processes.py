"""Hostile hand-ins against the grading processes: stopping or killing every process in sight, a check out of
time, a host that dies or that its last notebook broke; the batch goes on and only the attacker loses.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time

import pytest
from attacks import KILL_THE_GRADERS, STOP_EVERYTHING
from class_submissions import answer_cells, needs_sandbox, right
from test_classroom import gone, named, named_hang
from test_hostile_class import (
    ROOT,
    TIMEOUT,
    assert_classmates_graded_as_alone,
    classmates,
    command,
    rows,
    verdict,
    with_code,
)

from harness_lab.grading.isolation import LEARNER_UID, UIDS_PER_RUN
from harness_lab.text import t
from tests.process_ids import landlock_scopes_jobs, namespaces_for_a_user

pytestmark = needs_sandbox


AS_ROOT = pytest.mark.parametrize(
    "unsandboxed", [False, True], ids=["sandboxed", "unsandboxed as root: a user of its own per worker"]
)


def unsandboxed_only_as_root(unsandboxed: bool) -> list[str]:
    if unsandboxed and os.geteuid() != 0:  # learner code would run as the one running the tests
        pytest.skip("unsandboxed, learner code runs as the caller, and could stop or kill the caller's processes")
    return ["--unsandboxed"] if unsandboxed else []


@AS_ROOT
def test_stopping_every_process_in_sight_does_not_hang_the_batch(tmp_path, unsandboxed):
    subs, report = tmp_path / "subs", tmp_path / "report"
    plan = classmates(subs)
    with_code(right("level2"), STOP_EVERYTHING).write(subs, "mal")
    extra = unsandboxed_only_as_root(unsandboxed)
    args = ["grade-class", subs, "--out", report, "--timeout", TIMEOUT, "--jobs", "2", *extra]
    proc = subprocess.Popen(
        [sys.executable, "-m", "harness_lab.cli", *map(str, args)],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        out, err = proc.communicate(timeout=150)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, out + err
    assert_classmates_graded_as_alone(report, plan)
    # Where Landlock scopes the cells (Linux 6.12), every process it sees is outside their domain: each
    # SIGSTOP is refused and passed over, and its right answer is graded as written. Without Landlock,
    # sandboxed, it stopped only its own notebook's processes: its own timeout; unsandboxed too where its
    # user gets a PID namespace. Without one it stopped its grading host too, which the pool replaced: the
    # grader's failure, graded again next run.
    own = (
        ""
        if landlock_scopes_jobs()
        else "grade.class.worker_died"
        if unsandboxed and not namespaces_for_a_user(LEARNER_UID)
        else "grade.nb.timeout"
    )
    assert rows(report)["mal", "level2"]["hint_keys"] == own
    first = LEARNER_UID + proc.pid * UIDS_PER_RUN  # the command's own block of uids
    assert left_behind(range(first, first + 2)) == []  # nothing left behind, stopped or not


def left_behind(uids: range, grace: float = 10.0) -> list[int]:
    """Processes of ``uids`` still there ``grace`` seconds after the command: a SIGKILL is delivered
    and the dead are reaped asynchronously, so a tree killed as the command ends may take a moment."""
    deadline = time.monotonic() + grace
    while (found := owned_by(uids)) and time.monotonic() < deadline:
        time.sleep(0.2)
    return found


def owned_by(uids: range) -> list[int]:
    """Processes whose real uid is in ``uids``."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/status") as f:
                uid = next(int(line.split()[1]) for line in f if line.startswith("Uid:"))
        except (OSError, ValueError, StopIteration):
            continue
        if uid in uids:
            found.append(int(entry))
    return found


@AS_ROOT
def test_killing_every_grading_process_in_sight_hurts_only_the_killer(tmp_path, unsandboxed):
    subs, report = tmp_path / "subs", tmp_path / "report"
    plan = classmates(subs)
    with_code(right("level1"), KILL_THE_GRADERS).write(subs, "mal")
    extra = unsandboxed_only_as_root(unsandboxed)
    done = command("grade-class", subs, "--out", report, "--timeout", TIMEOUT, "--jobs", "2", *extra, timeout=150)
    assert done.returncode == 0, done.stdout + done.stderr
    assert_classmates_graded_as_alone(report, plan)
    # Where Landlock scopes the cells, each kill is refused, and unsandboxed in a PID namespace of its own it
    # names no other process: either way its right answer graded as one. Else it crashes its own notebook
    # (sandboxed) or kills its grading host (unsandboxed without a namespace).
    own = (
        ""
        if landlock_scopes_jobs() or (unsandboxed and namespaces_for_a_user(LEARNER_UID))
        else "grade.nb.crashed"
        if not unsandboxed
        else "grade.class.worker_died"
    )
    assert rows(report)["mal", "level1"]["hint_keys"] == own


# Slow until a moment on the clock, as a right answer is while a classmate's processes fill every core.
SLOW_UNTIL = """
import time as _time
_right_run_agent = run_agent


def run_agent(client, user_input, tools, tool_impls):
    if _time.time() < {deadline}:
        _time.sleep(6)  # longer than a check's limit
    return _right_run_agent(client, user_input, tools, tool_impls)
"""


def test_a_check_that_ran_out_of_time_beside_others_is_graded_again_alone(tmp_path):
    """A time limit that ran out while other notebooks were graded beside it may be theirs (a learner's
    answer can fill every core: 240 spinning processes, each in a session of its own, failed a classmate's
    right answer in two runs of three). Such a notebook is graded again, alone, and that grade stands.
    Here the right answer is slow until a moment that its first grading comes before and its second after."""
    subs, report = tmp_path / "subs", tmp_path / "report"
    plan = {"ben": right("level2"), "cho": right("level1")}
    deadline = time.time() + 7  # the first check starts within seconds; the second after a 5 s timeout
    plan["ann"] = right("level2")
    answer_cells(plan["ann"].notebook)[-1].source += SLOW_UNTIL.format(deadline=deadline)  # after its run_agent
    for learner, handed in plan.items():
        handed.write(subs, learner)
    done = command("grade-class", subs, "--out", report, "--timeout", "60", "--jobs", "2", timeout=200)
    assert done.returncode == 0, done.stdout + done.stderr
    assert_classmates_graded_as_alone(report, plan)


def test_a_host_that_dies_is_the_graders_failure_and_is_graded_again(tmp_path):
    subs, report = tmp_path / "subs", tmp_path / "report"
    right("level1").write(subs, "ann")
    hang = f"hl-infra-{os.getpid()}"[:15]
    named_hang(hang).write(subs, "zed")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "harness_lab.cli",
            "grade-class",
            subs,
            "--out",
            report,
            "--timeout",
            "60",
            "--jobs",
            "1",
        ],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        for _ in ("graded", "graded again at the end, alone"):  # the machine, not the learner, takes both hosts away
            deadline = time.monotonic() + 120
            while not named(hang):
                assert time.monotonic() < deadline and proc.poll() is None
                time.sleep(0.1)
            for pid in hosts_of(proc.pid):
                with contextlib.suppress(ProcessLookupError):  # a host that ended on its own meanwhile
                    os.kill(pid, signal.SIGKILL)
            while named(hang):
                assert time.monotonic() < deadline
                time.sleep(0.1)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, out + err
    assert gone(hang)
    row = rows(report)["zed", "level2"]
    assert row["message"] == t("grade.class.worker_died") and row["hint_keys"] == "grade.class.worker_died"
    assert "答え" in row["message"]  # it says the answer is not at fault
    done = command("grade-class", subs, "--out", report, "--timeout", "2")
    assert done.returncode == 0
    assert t("grade.class.done", total=2, seconds="@", graded=1, reused=1).split("@")[1] in done.stdout
    assert rows(report)["zed", "level2"]["status"] == "timeout"


def hosts_of(root: int) -> list[int]:
    """Grading hosts below process ``root``."""
    found, todo = [], [root]
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat") as f:
                children.setdefault(int(f.read().rsplit(")", 1)[1].split()[1]), []).append(int(entry))
        except (OSError, ValueError, IndexError):
            continue
    while todo:
        for pid in children.get(todo.pop(), []):
            todo.append(pid)
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    if b"harness_lab.grading.host" in f.read():
                        found.append(pid)
            except OSError:
                pass
    return found


def test_a_host_its_last_notebook_broke_costs_the_next_classmate_no_grade(tmp_path):
    """Unsandboxed, learner code is its grading host's own user: an answer that locked the host's folder
    (chmod 500) made the host fail the next notebook, an honest classmate's, whose row said "not graded"
    (grade.class.worker_died). A grader's failure is now graded again at the end, alone, on a fresh host."""
    subs, report = tmp_path / "subs", tmp_path / "report"
    lock = "import os\ntry:\n    os.chmod(os.path.dirname(os.path.dirname(os.environ['HOME'])), 0o500)\nexcept OSError:\n    pass\n"
    with_code(right("level2"), lock).write(subs, "aaa")  # graded first on the one host
    plan = classmates(subs)
    done = command("grade-class", subs, "--out", report, "--timeout", "30", "--jobs", "1", "--unsandboxed", timeout=200)
    assert done.returncode == 0, done.stdout + done.stderr
    assert_classmates_graded_as_alone(report, plan)
    assert verdict(rows(report)["aaa", "level2"])[-2:] == ("3", "ok")
