"""Graders against hostile learner code: it fails its check within the limits, and the grader works after.

Learner code that raises, loops forever, prints megabytes, exits the process, ignores signals or
returns something that cannot travel back must each end as one failed criterion with a hint,
within the grader's time limit, with nothing flooding the cell; and grading a correct answer right
after must still pass (the process stayed usable). The same holds in a real kernel: see
test_notebook_kernel.py.

The limits of issue 12 each have a test here: learner objects (a POLICY whose ``__len__`` sleeps, an
endless MISSING generator, objects whose ``__eq__`` / ``__hash__`` / ``__str__`` never return) are
only touched under the time limit; every process learner code starts, even one that calls
``setsid`` or forks twice, is gone when the check ends; and a check's memory is capped, with a hint.
"""

from __future__ import annotations

import functools
import os
import signal
import sys
import time

import pytest

from harness_lab.grading import grade_level1, grade_level2, pid_namespace, run_limited, try_limited
from harness_lab.grading.sandbox import MEMORY_LIMIT
from harness_lab.text import t
from tests.process_ids import seen_pid
from tests.safety_net import gives_up_after

LIMIT = 1.0  # seconds per limited run
GRADE_LIMIT = 0.5  # per criterion run: the graders make a few limited runs each
SLACK = 3.0  # fork, pipe and reaping overhead on a loaded 2-core machine
# The tests check which way a run ended from its verdict and its processes, never from the clock
# (these machines are shared and noisy); a run still going at ten times its limits fails (safety_net).
NET = 10
# Code that ends by itself gets a limit it cannot reach even on a loaded machine (forking a large
# test process under CI's load took more than 0.5 s once), so its test is about the hint, not the clock.
ENDS_LIMIT = 5.0

# --- correct answers, written the way the exercises ask ----------------------------------------

POLICY = {
    "get_time": "allow",
    "read_file": "allow",
    "write_file": "ask",
    "delete_file": "ask",
    "http_post": "ask",
    "send_email": "deny",
}
DEFAULT_TIER = "ask"


def result(block, text, is_error=False):
    made = {"type": "tool_result", "tool_use_id": block.id, "content": text}
    if is_error:
        made["is_error"] = True
    return made


def good_run_tool_uses(content, tool_impls, approve):
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        tier = POLICY.get(block.name, DEFAULT_TIER)
        if tier == "deny":
            results.append(result(block, f"{block.name} はポリシーで禁止されています", True))
        elif tier == "ask" and not approve(block.name, block.input):
            results.append(result(block, "ユーザーが拒否しました", True))
        else:
            try:
                results.append(result(block, str(tool_impls[block.name](block.input))))
            except Exception as err:
                results.append(result(block, f"ツールの実行に失敗しました: {err}", True))
    return results


ANSWERS = {"step": "before_tool", "approval": "ask_reuses", "deny": "error_result"}
MISSING = {"stop_condition": "endless_turns", "no_progress": "spinning", "approval": "unchecked_action"}
MAX_TURNS = 3


def good_run_agent(client, user_input, tools, tool_impls):
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = client.messages.create(model="claude-sonnet-5", max_tokens=1024, tools=tools, messages=messages)
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS:
            return f"最大ターン数 {MAX_TURNS} に達したので停止します"
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append(
            {
                "role": "user",
                "content": [
                    result(b, str(tool_impls[b.name](b.input))) for b in response.content if b.type == "tool_use"
                ],
            }
        )
        response = client.messages.create(model="claude-sonnet-5", max_tokens=1024, tools=tools, messages=messages)
    return "".join(b.text for b in response.content if b.type == "text")


# --- hostile learner code ----------------------------------------------------------------------


def raises(*args):
    raise ValueError("学習者のバグ")


def loops(*args):
    while True:
        pass


def floods(*args):
    chunk = "出力" * 500_000  # 3 MB of UTF-8 per print
    for _ in range(20):
        print(chunk)
        sys.stderr.write(chunk)
    os.write(1, b"x" * 5_000_000)  # straight to the file descriptor, past sys.stdout
    while True:
        print(chunk)


def exits(*args):
    sys.exit("さようなら")


def hard_exits(*args):
    os._exit(7)


def ignores_signals(*args):
    for name in ("SIGTERM", "SIGINT", "SIGHUP"):
        signal.signal(getattr(signal, name), signal.SIG_IGN)
    while True:
        time.sleep(0.01)


def recurses(*args):
    return recurses(*args)


def interrupts(*args):
    raise KeyboardInterrupt


HOSTILE = [raises, loops, floods, exits, hard_exits, ignores_signals, recurses, interrupts]
NEVER_ENDS = {loops, floods, ignores_signals}


def limit_for(learner):
    return GRADE_LIMIT if learner in NEVER_ENDS else ENDS_LIMIT


# The hint each criterion must give (level 1's three, level 2's third). Level 1's criterion 1 tries
# the unlisted tool first, so an ordinary exception there is named as that tool's failure.
RAISED = "grade.raised"
HINTS = {
    raises: (("grade.l1.c1.unlisted_error", RAISED, RAISED), RAISED),
    loops: (("grade.timeout",) * 3, "grade.l2.c3.runaway"),
    floods: (("grade.timeout",) * 3, "grade.l2.c3.runaway"),
    exits: ((RAISED,) * 3, RAISED),
    hard_exits: (("grade.crashed",) * 3, "grade.crashed"),
    ignores_signals: (("grade.timeout",) * 3, "grade.l2.c3.runaway"),
    recurses: (("grade.l1.c1.unlisted_error", RAISED, RAISED), RAISED),
    interrupts: ((RAISED,) * 3, RAISED),
}


@pytest.fixture
def quiet(capfd):
    """Nothing the learner printed may reach the grader's own output."""
    yield
    out, err = capfd.readouterr()
    assert len(out) + len(err) < 10_000, f"{len(out)} + {len(err)} characters leaked into the cell"


def recording(learner, pid_file: str):
    """``learner``, noting the process each call runs in: a runaway's must be gone when its check ends."""

    @functools.wraps(learner)
    def recorded(*args):
        with open(pid_file, "a") as f:
            f.write(f"{seen_pid()}\n")
        return learner(*args)

    return recorded


def _left_running(pid_file: str) -> list[int]:
    with open(pid_file) as f:
        pids = {int(line) for line in f}
    return sorted(pid for pid in pids if not _dies_soon(pid))


@pytest.mark.parametrize("learner", HOSTILE, ids=[f.__name__ for f in HOSTILE])
def test_level1_fails_hostile_code_at_its_limit_and_still_grades_after(learner, quiet, tmp_path):
    limit, pid_file = limit_for(learner), str(tmp_path / "learner.pids")
    with gives_up_after(NET * (3 * limit + SLACK), "level 1's grade"):
        report = grade_level1(POLICY, DEFAULT_TIER, recording(learner, pid_file), ANSWERS, timeout=limit)
    assert not report.passed and report.failed() == [1, 2, 3], report.text()
    assert tuple(check.key for check in report.checks) == HINTS[learner][0], report.text()
    assert _left_running(pid_file) == []
    assert grade_level1(POLICY, DEFAULT_TIER, good_run_tool_uses, ANSWERS, timeout=5).passed


@pytest.mark.parametrize("learner", HOSTILE, ids=[f.__name__ for f in HOSTILE])
def test_level2_fails_hostile_code_at_its_limit_and_still_grades_after(learner, quiet, tmp_path):
    limit, pid_file = limit_for(learner), str(tmp_path / "learner.pids")
    with gives_up_after(NET * (limit + SLACK), "level 2's grade"):
        report = grade_level2(MISSING, recording(learner, pid_file), MAX_TURNS, timeout=limit)
    assert report.failed() == [3] and report.checks[2].key == HINTS[learner][1], report.text()
    assert _left_running(pid_file) == []
    assert grade_level2(MISSING, good_run_agent, MAX_TURNS, timeout=5).passed


def test_a_loop_with_no_cap_fails_within_the_limit():
    """The classic runaway: the bare loop. The scripted model or the clock ends it, never a hang."""

    def bare(client, user_input, tools, tool_impls):
        messages = [{"role": "user", "content": user_input}]
        response = client.messages.create(model="claude-sonnet-5", max_tokens=1024, tools=tools, messages=messages)
        while response.stop_reason == "tool_use":
            messages.append({"role": "assistant", "content": response.content})
            messages.append(
                {
                    "role": "user",
                    "content": [
                        result(b, str(tool_impls[b.name](b.input))) for b in response.content if b.type == "tool_use"
                    ],
                }
            )
            response = client.messages.create(model="claude-sonnet-5", max_tokens=1024, tools=tools, messages=messages)
        return "".join(b.text for b in response.content if b.type == "text")

    with gives_up_after(NET * (3 + SLACK), "level 2's grade of a bare loop"):
        report = grade_level2(MISSING, bare, MAX_TURNS, timeout=3)
    assert report.failed() == [3]


def unpicklable():
    return lambda: None


RUN_LIMITED = [
    (lambda: 42, "ok", 42),
    (lambda: raises(), "error", "ValueError: 学習者のバグ"),
    (lambda: loops(), "timeout", None),
    (lambda: floods(), "timeout", None),
    (lambda: ignores_signals(), "timeout", None),
    (lambda: exits(), "error", "SystemExit: さようなら"),
    (lambda: hard_exits(), "crashed", None),
    (lambda: recurses(), "error", "RecursionError"),
    (lambda: interrupts(), "error", "KeyboardInterrupt"),
    (unpicklable, "error", "could not send"),
]


@pytest.mark.parametrize(
    "job, status, shown",
    RUN_LIMITED,
    ids=[
        "ok",
        "raises",
        "loops",
        "floods",
        "ignores_signals",
        "exits",
        "hard_exits",
        "recurses",
        "interrupts",
        "unpicklable",
    ],
)
def test_run_limited_reports_each_way_a_job_can_end(job, status, shown, quiet):
    limit = LIMIT if status == "timeout" else ENDS_LIMIT
    with gives_up_after(NET * (limit + SLACK), "the limited run"):
        outcome = run_limited(job, timeout=limit)
    assert outcome.status == status, outcome
    if status == "ok":
        assert outcome.value == shown
    elif shown:
        assert shown in outcome.error
    assert run_limited(lambda: "still usable", timeout=5).value == "still usable"


def forks_a_spinning_child(pid_file: str, then_spin: bool):
    """Learner code that forks: the grandchild spins forever and holds the pipe open."""

    def job():
        if os.fork() == 0:
            with open(pid_file, "w") as f:
                f.write(str(seen_pid()))
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


@pytest.fixture(params=["own PID namespace", "namespace refused"])
def namespace(request, monkeypatch):
    """Both ways a limited run can go: in a PID namespace of its own, and where the kernel refuses one."""
    if request.param == "namespace refused":
        monkeypatch.setattr(pid_namespace, "make", lambda: False)
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


def _pid_namespaces_given() -> bool:
    child = os.fork()
    if child == 0:
        os._exit(0 if pid_namespace.make() else 1)
    return os.waitstatus_to_exitcode(os.waitpid(child, 0)[1]) == 0


@pytest.mark.parametrize("how", ["setsid", "double fork"])
@pytest.mark.parametrize("signum", [signal.SIGSTOP, signal.SIGKILL], ids=["stops it", "kills it"])
def test_a_daemon_is_gone_even_when_its_job_stopped_or_killed_the_supervisor(tmp_path, signum, how):
    if not _pid_namespaces_given():
        pytest.skip("the kernel gives this user no PID namespace: the supervisor is then the learner's to kill")
    # Until round nine a daemon in a session of its own survived this: the supervisor, killed or kept
    # stopped, could not end it, and the caller's look at the supervisor's session missed it.
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


def _dies_soon(pid: int, within: float = 10.0) -> bool:
    """Gone, or going: a kill's effect can lag its return; ``within`` is a net (the pids never end by themselves)."""
    deadline = time.monotonic() + within
    while _running(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def _running(pid: int) -> bool:
    """Alive and not a zombie (a killed orphan waits as a zombie until init collects it)."""
    if not os.path.isdir("/proc"):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _kill_if_running(pid_file: str) -> None:
    try:
        with open(pid_file) as f:
            pid = int(f.read())
    except (OSError, ValueError):
        return
    if _running(pid):
        os.kill(pid, signal.SIGKILL)


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


# --- issue 12's limits ------------------------------------------------------------------------
SLOW = 3600.0  # a learner method that takes this long: a grader that calls it outside the limit meets the net
# The criteria these objects leave alone must still pass within the limit: 0.5 s was once too short
# for a right criterion 1 on a 2-core machine busy with a browser and two grading hosts.
OBJECT_LIMIT = 2.0


def _slow(*args, **kwargs):
    time.sleep(SLOW)


class SlowPolicy(dict):
    """A POLICY whose ``__len__`` (and iteration, comparison, repr) takes half a minute."""

    __len__ = __iter__ = __eq__ = __repr__ = __bool__ = _slow
    __hash__ = None


class SlowStr(str):
    """A tier string whose ``__eq__``, ``__hash__`` and ``__str__`` take half a minute."""

    __eq__ = __ne__ = __hash__ = __str__ = __repr__ = _slow


class SlowInt(int):
    __eq__ = __ne__ = __hash__ = __repr__ = __index__ = _slow


class SlowKey:
    """A dict key that hashes fine once (so the dict can be built) but never compares or prints."""

    def __hash__(self):
        return 1

    __eq__ = __str__ = __repr__ = _slow


def endless_gaps():
    while True:
        yield "stop_condition"


def sleepy_gaps():
    yield "stop_condition"
    time.sleep(SLOW)


def slow_tier_of(name):
    return POLICY.get(name, SlowStr("ask"))


def slow_default_runner(content, tool_impls, approve):
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        tier = slow_tier_of(block.name)
        if tier == "deny":
            results.append(result(block, f"{block.name} はポリシーで禁止されています", True))
        elif tier == "ask" and not approve(block.name, block.input):
            results.append(result(block, "ユーザーが拒否しました", True))
        else:
            try:
                results.append(result(block, str(tool_impls[block.name](block.input))))
            except Exception as err:
                results.append(result(block, f"ツールの実行に失敗しました: {err}", True))
    return results


LEARNER_OBJECTS = {
    "POLICY whose __len__ sleeps": (
        lambda: grade_level1(SlowPolicy(POLICY), DEFAULT_TIER, good_run_tool_uses, ANSWERS, timeout=OBJECT_LIMIT),
        {1: "grade.timeout", 2: "grade.timeout"},  # criterion 2 reads it too: did a yes rewrite the policy?
    ),
    "DEFAULT_TIER whose __eq__ and __hash__ sleep": (
        lambda: grade_level1(POLICY, SlowStr("ask"), slow_default_runner, ANSWERS, timeout=OBJECT_LIMIT),
        {1: "grade.timeout"},
    ),
    "an ANSWERS value whose __str__ sleeps": (
        lambda: grade_level1(
            POLICY, DEFAULT_TIER, good_run_tool_uses, {**ANSWERS, "step": SlowKey()}, timeout=OBJECT_LIMIT
        ),
        {2: "grade.timeout"},
    ),
    "an endless MISSING generator": (
        lambda: grade_level2(endless_gaps(), good_run_agent, MAX_TURNS, timeout=OBJECT_LIMIT),
        {1: "grade.l2.endless", 2: "grade.l2.endless"},
    ),
    "a MISSING generator that sleeps": (
        lambda: grade_level2(sleepy_gaps(), good_run_agent, MAX_TURNS, timeout=OBJECT_LIMIT),
        {1: "grade.timeout", 2: "grade.timeout"},
    ),
    "a MISSING key whose __eq__ and __str__ sleep": (
        lambda: grade_level2({SlowKey(): "endless_turns"}, good_run_agent, MAX_TURNS, timeout=OBJECT_LIMIT),
        {1: "grade.timeout", 2: "grade.timeout"},
    ),
    "MAX_TURNS whose __eq__ and __repr__ sleep": (
        lambda: grade_level2(MISSING, good_run_agent, SlowInt(3), timeout=OBJECT_LIMIT),
        {3: "grade.timeout"},
    ),
}


@pytest.mark.parametrize("name", list(LEARNER_OBJECTS))
def test_learner_objects_are_touched_only_under_the_time_limit(name):
    grade, expected = LEARNER_OBJECTS[name]
    with gives_up_after(NET * (5 * OBJECT_LIMIT + SLACK), f"the grade of {name}"):
        report = grade()
    assert {c.number: c.key for c in report.checks if not c.passed} == expected, report.text()


def leaves_a_daemon(pid_file: str, how: str):
    """Learner code that starts a process meant to outlive the check, then answers at once."""

    def job():
        if os.fork() == 0:
            os.setsid()  # out of the job's process group: a killpg no longer reaches it
            if how == "double fork" and os.fork() != 0:
                os._exit(0)  # the grandchild is orphaned, as a daemon would be
            with open(pid_file, "w") as f:
                f.write(str(seen_pid()))
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


def hoards():
    return len(bytearray(3 << 30))  # far past the allowance, at once: no time limit is reached first


def test_memory_per_check_is_capped_with_a_clear_hint(capsys):
    outcome = run_limited(hoards, timeout=10)  # "memory", not "timeout": the cap stops it first
    assert outcome.status == "memory" and outcome.value == MEMORY_LIMIT >> 20, outcome
    report = grade_level2(MISSING, lambda *args: hoards(), MAX_TURNS, timeout=10)
    assert report.checks[2].key == "grade.memory"
    assert f"{MEMORY_LIMIT >> 20} MB" in report.checks[2].hint
    try_limited(hoards, timeout=10)
    assert capsys.readouterr().out == t("grade.try.memory", mb=MEMORY_LIMIT >> 20) + "\n"
    assert run_limited(lambda: len(bytearray(100 << 20)), timeout=10).value == 100 << 20  # room to work


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
