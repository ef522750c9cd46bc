"""A grading host's limits and scheduling, out of learner code's reach (red team round six, item 1).

Every notebook a host grades is forked from it, so a host whose memory limit, process limit, nice,
CPUs or I/O class one notebook changed would grade every classmate after it under that change: a
right answer failed for memory, or the grader's own failure. Learner code runs as the host's own
user, so three walls stand in the way: a PID namespace per notebook, where the host is not there
to name (``namespaces.py``); a seccomp filter that refuses those changes for any process but the
caller (``syscall_filter.py``); and the host's own check after every call (``host.state``), the
one wall left without the sandbox. Behind them, a grading host's call is owed its whole memory
budget: less is the grader's failure, never a memory verdict (``processes.limit_memory``).
"""

from __future__ import annotations

import ctypes
import errno
import json
import os
import platform
import resource
import signal
import time

import pytest
from class_submissions import FILES, instructor_config, needs_sandbox, right  # noqa: F401
from test_hostile_class import assert_classmates_graded_as_alone, classmates, command, rows, with_code

from harness_lab.grading import syscall_filter
from harness_lab.grading.sandbox import run_limited
from tests.process_ids import namespaces_for_a_user

# Climb to the topmost ancestor of the learner's own user (the grading host, PID 1 of the sandbox
# before it gave each notebook a PID namespace; with one, the notebook's own PID 1), then give it
# the red team's changes: a memory limit at its present size, 8 processes, a nice of 19, one CPU.
CHANGE_THE_HOST = """
import os as _os, resource as _resource
def _field(pid, name):
    with open(f"/proc/{pid}/status") as f:
        return int(next(line for line in f if line.startswith(name)).split()[1])
_host = _os.getpid()
try:  # a process above may be gone or a kernel's own: then the host is out of reach anyway
    while (_above := _field(_host, "PPid:")) > 0 and _field(_above, "Uid:") == _os.getuid():
        _host = _above
    _size = _field(_host, "VmSize:") << 10
except (OSError, StopIteration):
    _host = None
for _change in () if _host is None else (
    lambda: _resource.prlimit(_host, _resource.RLIMIT_AS, (_size, _size)),
    lambda: _resource.prlimit(_host, _resource.RLIMIT_NPROC, (8, 8)),
    lambda: _os.setpriority(_os.PRIO_PROCESS, _host, 19),
    lambda: _os.sched_setaffinity(_host, {min(_os.sched_getaffinity(0))}),
):
    try:
        _change()
    except OSError:
        pass
"""

IOPRIO_SET = {"x86_64": 251, "aarch64": 30}  # the call's number (ioprio_get's is the next), known here
UNUSED_UID = 2_000_000_007  # a user no process runs as

# Every process learner code can see, by the process limit its /proc/PID/limits shows: the notebook
# sets its own (256), so a process with another is not the notebook's (the host, its supervisor).
OTHERS_IN_SIGHT = """
import os as _os
def _limit(pid):
    with open(f"/proc/{pid}/limits") as f:
        return next(line for line in f if line.startswith("Max processes"))
_mine = _limit("self")
_others = [p for p in _os.listdir("/proc") if p.isdigit() and _limit(p) != _mine]
raise RuntimeError(f"others in sight: {len(_others)}")
"""


@needs_sandbox
@pytest.mark.parametrize("unsandboxed", [False, True], ids=["sandboxed", "unsandboxed as root"])
def test_a_notebook_that_changes_its_hosts_limits_harms_no_classmate_and_gets_no_pass(tmp_path, unsandboxed):
    """Graded first on a worker of its own, the changing notebook once failed 4 of 6 classmates for memory."""
    if unsandboxed and os.geteuid() != 0:
        pytest.skip("unsandboxed, learner code runs as the caller: it could change the caller's own limits")
    subs, report = tmp_path / "subs", tmp_path / "report"
    plan = classmates(subs)  # ann, ben, cho: graded after the attacker ("aaa"), on the same host
    with_code(right("level2"), CHANGE_THE_HOST).write(subs, "aaa")
    extra = ["--unsandboxed"] if unsandboxed else []
    done = command("grade-class", subs, "--out", report, "--timeout", "20", "--jobs", "1", *extra, timeout=240)
    assert done.returncode == 0, done.stdout + done.stderr
    assert_classmates_graded_as_alone(report, plan)
    row = rows(report)["aaa", "level2"]
    # in the sandbox every change is refused, and the right answer is graded as one, and so without it where
    # learner code gets a PID namespace of its own (the host cannot be named); else the host finds itself
    # changed after the call: graded again alone, changed again, never a pass
    reached = unsandboxed and not namespaces_for_a_user(UNUSED_UID)
    expected = ("error", "grade.class.host_altered", "0") if reached else ("ok", "", "3")
    assert (row["status"], row["hint_keys"], row["score"]) == expected, row


@needs_sandbox
def test_learner_code_sees_no_process_but_its_own_notebooks(tmp_path):
    subs, report = tmp_path / "subs", tmp_path / "report"
    with_code(right("level1"), OTHERS_IN_SIGHT).write(subs, "mal")
    done = command("grade-class", subs, "--out", report, "--timeout", "20")
    assert done.returncode == 0, done.stdout + done.stderr
    message = rows(report)["mal", "level1"]["message"]
    assert "RuntimeError: others in sight: 0" in message, message


@pytest.mark.skipif(platform.machine() not in IOPRIO_SET, reason="a machine the syscall filter does not know")
def test_the_filter_refuses_another_processs_limits_and_scheduling_and_lets_a_process_set_its_own():
    """Each change sets what is already set, on a sleeping process of the test's own: should the filter
    let one through (as it did before), nothing moves. PRIO_USER names a user with no process."""
    target = os.fork()
    if target == 0:
        try:
            time.sleep(60)
        finally:
            os._exit(0)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            ioprio_set = IOPRIO_SET[platform.machine()]
            core, its_core = resource.getrlimit(resource.RLIMIT_CORE), resource.prlimit(target, resource.RLIMIT_CORE)
            nice, cpus = os.getpriority(os.PRIO_PROCESS, target), os.sched_getaffinity(target)
            io = {who: libc.syscall(ioprio_set + 1, 1, who) for who in (0, target)}  # ioprio_get, IOPRIO_WHO_PROCESS
            libc.prctl(38, 1, 0, 0, 0)  # PR_SET_NO_NEW_PRIVS: a filter without privileges
            syscall_filter.install()
            tries = {
                "own limits": lambda: resource.setrlimit(resource.RLIMIT_CORE, core),
                "own nice": lambda: os.nice(0),
                "own cpus": lambda: os.sched_setaffinity(0, os.sched_getaffinity(0)),
                "own policy": lambda: os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0)),
                "its limits": lambda: resource.prlimit(target, resource.RLIMIT_CORE, its_core),
                "its nice": lambda: os.setpriority(os.PRIO_PROCESS, target, nice),
                "a user's nice": lambda: os.setpriority(os.PRIO_USER, UNUSED_UID, 0),
                "its cpus": lambda: os.sched_setaffinity(target, cpus),
                "its policy": lambda: os.sched_setscheduler(target, os.SCHED_OTHER, os.sched_param(0)),
                "its priority": lambda: os.sched_setparam(target, os.sched_param(0)),
            }
            seen = []
            for name, change in tries.items():
                try:
                    change()
                    seen.append(f"{name}: ok")
                except OSError as exc:
                    seen.append(f"{name}: {errno.errorcode[exc.errno]}")
            for name, who in (("own I/O class", 0), ("its I/O class", target)):
                done = libc.syscall(ioprio_set, 1, who, io[who])
                seen.append(f"{name}: {'ok' if done == 0 else errno.errorcode[ctypes.get_errno()]}")
            os.write(write_end, "\n".join(seen).encode())
            code = 0
        finally:
            os._exit(code)
    os.close(write_end)
    try:
        assert os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0
        with os.fdopen(read_end) as f:
            seen = f.read().splitlines()
    finally:
        os.kill(target, signal.SIGKILL)
        os.waitpid(target, 0)
    own = [line for line in seen if line.startswith("own")]
    others = [line for line in seen if not line.startswith("own")]
    assert own and all(line.endswith(": ok") for line in own), seen
    assert len(others) == 7 and all(line.endswith(": EPERM") for line in others), seen


def test_a_calls_memory_budget_cut_short_by_its_host_is_the_graders_failure_not_a_verdict():
    """A limit lowered on the host bound every call it forked: their memory verdicts were the grader's doing."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            with open("/proc/self/status") as f:
                size = next(int(line.split()[1]) << 10 for line in f if line.startswith("VmSize:"))
            resource.setrlimit(resource.RLIMIT_AS, (size + (256 << 20), size + (256 << 20)))
            hosted = run_limited(lambda: "ran", 20.0, memory=1 << 30, setup=lambda: None)
            nested = run_limited(lambda: "ran", 20.0, memory=1 << 30)  # within a cap: it takes what is left
            os.write(write_end, json.dumps([hosted.status, hosted.error, nested.status]).encode())
            code = 0
        finally:
            os._exit(code)
    os.close(write_end)
    assert os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0
    with os.fdopen(read_end) as f:
        hosted_status, error, nested_status = json.loads(f.read())
    assert (hosted_status, nested_status) == ("unavailable", "ok"), error
    assert error.startswith("MemoryShort: the grading host may grow by ") and "not 1024 MB" in error, error
