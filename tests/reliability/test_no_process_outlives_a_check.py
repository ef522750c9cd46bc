"""Every process learner code starts, even one that forks, stops or kills its supervisor, leaves its process
group or is started by a grader check, is gone when the check ends, a Ctrl-C in the caller included.
"""

from __future__ import annotations

import os
import signal
import time

import pytest

from harness_lab.grading import grade_level1, landlock, namespaces, run_limited
from tests.process_ids import landlock_scopes_jobs, seen_pid
from tests.reliability.test_grader_limits import (
    ANSWERS,
    DEFAULT_TIER,
    LIMIT,
    NET,
    POLICY,
    SLACK,
    _dies_soon,
    _running,
    floods,
    good_run_tool_uses,
    hard_exits,
    ignores_signals,
    loops,
)
from tests.safety_net import gives_up_after


def forks_a_spinning_child(pid_file: str, then_spin: bool):
    """Learner code that forks: the grandchild spins forever and holds the pipe open."""

    def job():
        if os.fork() == 0:
            # written whole, then renamed: the parent waits for the name, and must never read it half-written
            with open(pid_file + ".part", "w") as f:
                f.write(str(seen_pid()))
            os.rename(pid_file + ".part", pid_file)
            while True:
                pass
        while not os.path.exists(pid_file):
            time.sleep(0.01)
        while then_spin:
            pass
        return "answered"

    return job


@pytest.mark.parametrize("then_spin", [False, True], ids=["child answers", "child spins too"])
def test_a_forking_job_leaves_no_grandchild_and_answers_at_once(tmp_path, then_spin):
    pid_file = str(tmp_path / "grandchild.pid")
    # A child that answers gets a limit far past the net: waiting for the grandchild to close the
    # pipe would wait the limit out, and the net stops the test first.
    limit = LIMIT if then_spin else 60 * NET * SLACK
    try:
        with gives_up_after(NET * (LIMIT + SLACK), "the limited run"):
            outcome = run_limited(forks_a_spinning_child(pid_file, then_spin), timeout=limit)
        with open(pid_file) as f:
            grandchild = int(f.read())
        if then_spin:
            assert outcome.status == "timeout", outcome
        else:
            assert (outcome.status, outcome.value) == ("ok", "answered")
        assert _dies_soon(grandchild), "the forked grandchild is still running"
    finally:
        _kill_if_running(pid_file)


def signal_everything_above(signum: int) -> None:
    """Learner code's reach for its supervisor: ``signum`` to its parent and to every process above it in
    its session, found through ``/proc`` (what ``getppid()`` names may be another process)."""

    def parent_and_session(pid: int | str) -> tuple[int, int]:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[1]), int(fields[3])

    above, session = parent_and_session("self")
    targets = {os.getppid()}
    while above > 1:
        parent, theirs = parent_and_session(above)
        if theirs != session:  # the caller: the supervisor made a session of its own
            break
        targets.add(above)
        above = parent
    for pid in targets:
        try:
            os.kill(pid, signum)
        except OSError:
            pass


@pytest.fixture(params=["own PID namespace", "namespace refused", "namespace and Landlock refused"])
def namespace(request, monkeypatch):
    """The ways a limited run can go: in a PID namespace of its own; where the kernel refuses one, in a
    Landlock domain that keeps the job's signals in (Linux 6.12); where it has neither, with nothing
    between the job and its supervisor."""
    if request.param != "own PID namespace":
        monkeypatch.setattr(namespaces, "make", lambda: False)
    if request.param == "namespace and Landlock refused":
        monkeypatch.setattr(landlock, "confine", lambda: False)
    return request.param


@pytest.mark.parametrize("signum", [signal.SIGSTOP, signal.SIGKILL], ids=["stops it", "kills it"])
def test_a_job_that_stops_or_kills_its_supervisor_still_leaves_nothing_behind(tmp_path, signum, namespace):
    # Learner code can reach its supervisor (its parent). Stopped (SIGSTOP), the supervisor must be let
    # run again to end the job's tree when the caller gives up; killed, it cannot, and the caller ends
    # what is left of its session itself. Either way the job's own children must not outlive it.
    pid_file = str(tmp_path / "grandchild.pid")
    spinning = forks_a_spinning_child(pid_file, then_spin=False)

    def job():
        spinning()  # the grandchild spins from here on
        signal_everything_above(signum)
        while True:
            pass

    try:
        outcome = run_limited(job, timeout=LIMIT)
        assert outcome.status == "timeout"
        with open(pid_file) as f:
            grandchild = int(f.read())
        assert _dies_soon(grandchild), "the forked grandchild is still running"
    finally:
        _kill_if_running(pid_file)


def _kill_if_running(pid_file: str) -> None:
    try:
        with open(pid_file) as f:
            pid = int(f.read())
    except (OSError, ValueError):
        return
    if _running(pid):
        os.kill(pid, signal.SIGKILL)


def _pid_namespaces_given() -> bool:
    child = os.fork()
    if child == 0:
        os._exit(0 if namespaces.make() else 1)
    return os.waitstatus_to_exitcode(os.waitpid(child, 0)[1]) == 0


@pytest.mark.parametrize("namespace", ["own PID namespace", "namespace refused"], indirect=True)
@pytest.mark.parametrize("how", ["setsid", "double fork"])
@pytest.mark.parametrize("signum", [signal.SIGSTOP, signal.SIGKILL], ids=["stops it", "kills it"])
def test_a_daemon_is_gone_even_when_its_job_stopped_or_killed_the_supervisor(tmp_path, signum, how, namespace):
    if namespace == "own PID namespace" and not _pid_namespaces_given():
        pytest.skip("the kernel gives this user no PID namespace")
    if namespace == "namespace refused" and not landlock_scopes_jobs():
        pytest.skip("no namespace and no Landlock signal scope: the supervisor is then the learner's to kill")
    # Until round nine a daemon in a session of its own survived this: the supervisor, killed or kept
    # stopped, could not end it, and the caller's look at the supervisor's session missed it. Refused a
    # namespace, the job's Landlock domain (landlock.py) keeps its signals from the supervisor.
    pid_file = str(tmp_path / "daemon.pid")
    start_daemon = leaves_a_daemon(pid_file, how)

    def job():
        start_daemon()
        signal_everything_above(signum)
        return "answered"

    try:
        outcome = run_limited(job, timeout=5)
        assert (outcome.status, outcome.value) == ("ok", "answered")
        with open(pid_file) as f:
            assert _dies_soon(int(f.read())), "the learner's daemon outlived the check"
    finally:
        _kill_if_running(pid_file)


def test_no_child_process_is_left_behind():
    before = _children()
    for job in (loops, ignores_signals, hard_exits, floods):
        run_limited(job, timeout=0.5)
    assert _children() <= before


def _children() -> set[int]:
    """Live (not zombie) child processes of this process, from /proc."""
    me, found = os.getpid(), set()
    if not os.path.isdir("/proc"):
        return found
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == me:
                found.add(int(entry))
    return found


def leaves_a_daemon(pid_file: str, how: str):
    """Learner code that starts a process meant to outlive the check, then answers at once."""

    def job():
        if os.fork() == 0:
            os.setsid()  # out of the job's process group: a killpg no longer reaches it
            if how == "double fork" and os.fork() != 0:
                os._exit(0)  # the grandchild is orphaned, as a daemon would be
            # written whole, then renamed: the parent waits for the name, and must never read it half-written
            with open(pid_file + ".part", "w") as f:
                f.write(str(seen_pid()))
            os.rename(pid_file + ".part", pid_file)
            while True:
                time.sleep(0.05)
        deadline = time.monotonic() + 5
        while not os.path.exists(pid_file) and time.monotonic() < deadline:
            time.sleep(0.01)
        return "answered"

    return job


@pytest.mark.parametrize("how", ["setsid", "double fork"])
def test_a_process_that_left_the_group_is_gone_when_the_check_ends(tmp_path, how):
    pid_file = str(tmp_path / "daemon.pid")
    try:
        outcome = run_limited(leaves_a_daemon(pid_file, how), timeout=5)
        assert (outcome.status, outcome.value) == ("ok", "answered")
        with open(pid_file) as f:
            daemon = int(f.read())
        assert _dies_soon(daemon), "the learner's daemon outlived the check"
    finally:
        _kill_if_running(pid_file)


def test_a_daemon_started_by_a_grader_check_is_gone_too(tmp_path):
    pid_file = str(tmp_path / "daemon.pid")
    daemon = leaves_a_daemon(pid_file, "setsid")

    def learner(content, tool_impls, approve):
        if not os.path.exists(pid_file):
            daemon()
        return good_run_tool_uses(content, tool_impls, approve)

    try:
        assert grade_level1(POLICY, DEFAULT_TIER, learner, ANSWERS, timeout=5).passed
        with open(pid_file) as f:
            assert _dies_soon(int(f.read()))
    finally:
        _kill_if_running(pid_file)


def test_a_ctrl_c_in_the_caller_still_ends_every_process_the_check_started(tmp_path):
    # the kernel's interrupt button while a check runs: the check's daemon must not outlive it
    pid_file = str(tmp_path / "daemon.pid")
    start_daemon = leaves_a_daemon(pid_file, "setsid")

    def job():
        start_daemon()
        while True:
            time.sleep(0.05)

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 1.0)
    try:
        with pytest.raises(KeyboardInterrupt):
            run_limited(job, timeout=30)
        with open(pid_file) as f:
            assert _dies_soon(int(f.read()), within=1.0), "the daemon outlived an interrupted check"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        _kill_if_running(pid_file)


def test_a_run_nested_in_a_job_sees_its_own_processes_and_ends_its_daemon(tmp_path):
    # A notebook's grader check runs each criterion in a limited run of its own, inside the notebook's job.
    # Until the job's namespace had a /proc of its own, that nested supervisor looked the namespace's pids
    # up in the caller's /proc: it found none of its job's processes, and returned with the daemon running.
    if not _pid_namespaces_given():
        pytest.skip("the kernel gives this user no PID namespace")
    pid_file = str(tmp_path / "daemon.pid")

    def leaves_a_daemon_named_in_its_namespace():
        if os.fork() == 0:
            os.setsid()
            with open(pid_file + ".new", "w") as f:
                f.write(str(os.getpid()))
            os.replace(pid_file + ".new", pid_file)
            while True:
                time.sleep(0.05)
        while not os.path.exists(pid_file):
            time.sleep(0.01)
        return "answered"

    def job():
        seen = run_limited(lambda: (os.getpid(), os.readlink("/proc/self")), timeout=5)
        outcome = run_limited(leaves_a_daemon_named_in_its_namespace, timeout=5)
        with open(pid_file) as f:
            daemon = int(f.read())
        try:
            os.kill(daemon, 0)  # the nested supervisor reaps what it ends: no zombie answers this
        except ProcessLookupError:
            return seen.value, outcome.value, "daemon gone"
        return seen.value, outcome.value, "daemon running"

    outcome = run_limited(job, timeout=30)
    assert outcome.status == "ok", outcome
    (pid, link), answered, daemon = outcome.value
    assert (link, answered, daemon) == (str(pid), "answered", "daemon gone")
