"""The time limit and isolation the graders rely on (harness_lab/grading/sandbox.py)."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

import pytest

from harness_lab.grading import try_limited
from harness_lab.grading.sandbox import abort, describe_error, plain, run_limited
from tests.grading.caller_attacks import attacked_by_its_jobs
from tests.process_ids import seen_pid
from tests.safety_net import gives_up_after


def _learner_lookup():
    policy = {"get_time": "allow"}
    return policy["brand_new_tool"]


def test_returns_the_jobs_value():
    assert run_limited(lambda: {"rounds": 3}).value == {"rounds": 3}


def test_an_exception_becomes_one_line_naming_the_learners_line():
    outcome = run_limited(_learner_lookup)
    assert outcome.status == "error"
    assert outcome.error.startswith("KeyError: 'brand_new_tool'")
    assert 'policy["brand_new_tool"]' in outcome.error
    assert "\n" not in outcome.error and "Traceback" not in outcome.error


def test_an_endless_loop_is_killed_at_the_limit():
    def spin():
        while True:
            pass

    with gives_up_after(30, "the limited run"):  # never killed, it would never return
        outcome = run_limited(spin, timeout=0.5)
    assert outcome.status == "timeout"


def test_the_child_is_gone_after_a_timeout():
    def report_pid_then_hang():
        # the pid travels through a file because the pipe is only read at the end
        with open(path, "w") as f:
            f.write(str(seen_pid()))
        while True:
            time.sleep(0.01)

    path = f"/tmp/harness_lab_sandbox_{os.getpid()}.pid"
    run_limited(report_pid_then_hang, timeout=0.5)
    with open(path) as f:
        child = int(f.read())
    os.unlink(path)
    with pytest.raises(ProcessLookupError):
        os.kill(child, 0)


def test_printed_floods_stay_in_the_child(capfd):
    def noisy():
        for _ in range(20_000):
            print("x" * 100)
        os.write(1, b"raw bytes on fd 1\n")
        return "done"

    assert run_limited(noisy).value == "done"
    out, err = capfd.readouterr()
    assert out == "" and err == ""


def test_abort_hands_back_a_value_at_once():
    def runaway():
        for i in range(10**9):
            if i == 7:
                abort({"calls": i})

    outcome = run_limited(runaway, timeout=5)
    assert (outcome.status, outcome.value) == ("aborted", {"calls": 7})


def test_exit_and_unpicklable_results_are_clean_errors():
    assert run_limited(lambda: exit(3)).error == "SystemExit: 3"
    outcome = run_limited(lambda: lambda: None)
    assert outcome.status == "error" and "could not send" in outcome.error


def test_a_child_killed_from_outside_is_reported_as_crashed():
    outcome = run_limited(lambda: os.kill(os.getpid(), signal.SIGKILL))
    assert outcome.status == "crashed"


def test_abort_outside_a_limited_run_is_an_error():
    with pytest.raises(RuntimeError):
        abort(1)


def test_thread_fallback_without_fork(monkeypatch):
    monkeypatch.delattr(os, "fork")
    assert run_limited(lambda: 42).value == 42
    assert run_limited(_learner_lookup).status == "error"

    def runaway():
        abort("stopped")

    assert run_limited(runaway).value == "stopped"
    # Waited out, the sleep would end and answer "ok": "timeout" says the thread was left behind.
    assert run_limited(lambda: time.sleep(30), timeout=0.3).status == "timeout"


def test_an_abort_swallowed_in_the_thread_fallback_is_still_the_outcome(monkeypatch):
    # Where fork ends the job's process, the thread's abort only unwinds: code that catches BaseException
    # returned "ok", or went on asking until the time limit.
    monkeypatch.delattr(os, "fork")

    def returns():
        try:
            abort("first")
        except BaseException:
            return "went on"

    def asks_again():  # for two seconds: the thread outlives its run, and nothing can stop it
        for n in range(200):
            try:
                abort(f"stop {n}")
            except BaseException:
                time.sleep(0.01)

    outcome = run_limited(returns)
    assert (outcome.status, outcome.value) == ("aborted", "first")
    started = time.monotonic()
    outcome = run_limited(asks_again, timeout=5)
    assert (outcome.status, outcome.value) == ("aborted", "stop 0")
    assert time.monotonic() - started < 1  # at once, not when the job gave up


def test_api_errors_are_described_by_the_apis_own_message():
    import anthropic

    from harness_lab.emulator import emulated_client, say

    client = emulated_client([say("はい")])
    with pytest.raises(anthropic.BadRequestError) as caught:
        client.messages.create(
            model="claude-sonnet-5",
            max_tokens=10,
            messages=[{"role": "user", "content": "a"}, {"role": "user", "content": []}],
        )
    line = describe_error(caught.value)
    assert line.startswith("BadRequestError: ") and "{" not in line.split(": ", 1)[1][:1]


def test_try_limited_shows_what_the_job_printed_then_what_it_returned(capsys):
    def chatty():
        print("[実行] get_time({})")
        return "README.md の1行目は…"

    try_limited(chatty)
    assert capsys.readouterr().out == "[実行] get_time({})\nREADME.md の1行目は…\n"


def test_try_limited_ends_an_exception_with_one_line_after_the_prints(capsys):
    def broken():
        print("ここまでは動いた")
        return _learner_lookup()

    try_limited(broken)
    out = capsys.readouterr().out
    assert out.startswith("ここまでは動いた\n例外が送出されました: KeyError: 'brand_new_tool'")
    assert "Traceback" not in out and len(out.splitlines()) == 2


def test_try_limited_stops_an_endless_loop_and_says_so(capsys):
    def spin():
        while True:
            pass

    with gives_up_after(30, "the limited run"):
        try_limited(spin, timeout=0.5)
    out = capsys.readouterr().out
    # the cell's own limit stopped it, and what to look for: a loop with no end, or a long wait
    assert out.startswith("試すときの制限時間（0.5 秒）を過ぎても") and "ターン数の上限" in out and "sleep" in out
    assert len(out.splitlines()) == 1


def test_try_limited_shows_only_the_start_of_a_flood(capsys):
    def flood():
        for _ in range(20_000):
            print("x" * 1000)
        return "done"

    try_limited(flood)
    out = capsys.readouterr().out
    assert out.startswith("x" * 1000) and len(out) < 11_000
    assert out.endswith("\n（出力が長いので、最初の 10000 文字だけを表示しました）\ndone\n")


def test_try_limited_shows_only_the_start_of_a_long_return_value(capsys):
    try_limited(lambda: "y" * 50_000)
    out = capsys.readouterr().out
    assert out.startswith("y" * 2000 + "\n") and len(out) < 2_200
    assert out.endswith("（返り値が長いので、最初の 2000 文字だけを表示しました）\n")


class Sneaky(str):
    """A learner's str whose comparison would run learner code wherever it is compared."""

    def __eq__(self, other):
        raise AssertionError("learner code ran in the grader")

    __hash__ = str.__hash__


def test_only_plain_values_come_back_from_a_job():
    # an instance of a learner's class never reaches the caller: it would run its methods there
    outcome = run_limited(lambda: {"text": Sneaky("ok")})
    assert outcome.status == "error" and "could not send" in outcome.error
    assert run_limited(lambda: {"text": plain(Sneaky("ok"))}).value == {"text": "ok"}
    assert type(run_limited(lambda: plain(Sneaky("ok"))).value) is str


def test_the_callers_unpickler_builds_no_class():
    # learner code in the job can write its own message to the pipe: it must not build a class here
    import io
    import pickle

    from harness_lab.grading.wire import PlainOnly

    forged = pickle.dumps(("ok", Sneaky("x")))
    with pytest.raises(pickle.UnpicklingError):
        PlainOnly(io.BytesIO(forged)).load()
    plain_values = ("ok", {"a": [1, 2.5, None, True, b"x", ("t",), {"s"}, frozenset({"f"})]})
    assert PlainOnly(io.BytesIO(pickle.dumps(plain_values))).load() == plain_values


def _until_all_hold(held_by: int, children: int) -> None:
    """Wait until every child has written its memory, then give the watcher 3 s to see them all: on a loaded
    machine a fixed wait ended before six children had filled 150 MB each (a job "all held" at 900 MB)."""
    for _ in range(children):
        os.read(held_by, 1)
    time.sleep(3)


def _children_holding(megabytes: int, children: int = 4):
    """A job that starts ``children`` processes, each holding ``megabytes`` of its own, and waits for them."""

    def job():
        held_by, told = os.pipe()
        for _ in range(children):
            if os.fork() == 0:
                held = b"x" * (megabytes << 20)  # written, so resident
                os.write(told, b"1")
                time.sleep(30 if held else 0)
                os._exit(0)
        _until_all_hold(held_by, children)
        return "all held"

    return job


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_large_caller_does_not_count_twice_against_the_allowance():
    # The job starts as a copy of its caller, and the cap allows one copy plus the allowance; a PID
    # namespace's init is a second copy, and counted it made a 4 MB job "memory" under a caller of 300 MB
    # (a pytest worker late in a CI run).
    ballast = bytearray(300 << 20)
    ballast[::4096] = b"\1" * len(ballast[::4096])  # written, so resident
    sandboxed = {"setup": lambda: None, "memory": 512 << 20}
    assert run_limited(_children_holding(4, children=1), timeout=20, **sandboxed).value == "all held"
    del ballast


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_in_the_sandbox_the_job_and_its_children_together_are_held_to_their_allowances():
    """RLIMIT_AS caps each process alone; a job that starts many is stopped when they hold more together."""
    sandboxed = {"setup": lambda: None, "memory": 512 << 20}  # setup: what the sandbox runs first
    outcome = run_limited(_children_holding(150, children=6), timeout=20, **sandboxed)
    assert (outcome.status, outcome.value) == ("memory", 512)  # the allowance, shown in MB
    assert run_limited(_children_holding(4, children=1), timeout=20, **sandboxed).value == "all held"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="oom_score_adj is Linux's")
def test_a_job_asks_to_be_the_first_process_ended_when_memory_runs_out():
    adjustment = Path("/proc/self/oom_score_adj")
    assert run_limited(lambda: adjustment.read_text().strip(), timeout=10).value == "1000"
    assert adjustment.read_text().strip() != "1000"  # the caller's own is as it was


def _children_sharing(megabytes: int, children: int = 4):
    """A job whose children each fill a shared anonymous mapping of their own (shared memory is no file's)."""

    def job():
        import mmap

        held_by, told = os.pipe()
        for _ in range(children):
            if os.fork() == 0:
                shared = mmap.mmap(-1, megabytes << 20, flags=mmap.MAP_SHARED)
                for _ in range(megabytes):  # a megabyte at a time: no private copy of it all
                    shared.write(b"x" * (1 << 20))
                os.write(told, b"1")
                time.sleep(30)
                os._exit(0)
        _until_all_hold(held_by, children)
        return "all held"

    return job


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_shared_mappings_count_toward_the_jobs_allowance_too():
    sandboxed = {"setup": lambda: None, "memory": 512 << 20}
    outcome = run_limited(_children_sharing(400, children=2), timeout=20, **sandboxed)
    assert (outcome.status, outcome.value) == ("memory", 512)


def _session_keys(libc, keyctl: int) -> int:
    """How many keys the session keyring links (KEYCTL_READ of KEY_SPEC_SESSION_KEYRING)."""
    import ctypes

    ids = ctypes.create_string_buffer(4096)
    return max(libc.syscall(keyctl, 11, ctypes.c_long(-3), ids, 4096), 0) // 4


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="keyrings are Linux's")
def test_a_grading_host_leaves_the_callers_session_keyring_for_an_empty_one():
    """A login's session keyring outlives bwrap, a change of uid and every namespace (an API key may be in it)."""
    import ctypes

    from harness_lab.grading.host import leave_keyring
    from harness_lab.grading.syscall_filter import number

    keyctl, add_key = number("keyctl"), number("add_key")
    if keyctl is None or add_key is None:
        pytest.skip("a machine the syscall filter does not know")
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # in a child: the tests' own session keyring stays as it is
        code = 1
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            code = 77
            if libc.syscall(keyctl, 1, b"hl-test-login", None) >= 0:  # KEYCTL_JOIN_SESSION_KEYRING
                libc.syscall(add_key, b"user", b"hl-test-key", b"secret", 6, ctypes.c_long(-3))
                before = _session_keys(libc, keyctl)
                leave_keyring()
                os.write(write_end, f"{before} {_session_keys(libc, keyctl)}".encode())
                code = 0
        finally:
            os._exit(code)
    os.close(write_end)
    code = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    with os.fdopen(read_end, "rb") as f:
        seen = f.read().decode()
    if code == 77:
        pytest.skip("no session keyring can be made here")
    assert (code, seen) == (0, "1 0")


@pytest.fixture(scope="module")
def attacked():
    """Where the kernel makes namespaces: one caller, every attack of ``caller_attacks`` but the abstract
    socket's (a kernel without Landlock's scopes leaves that one to the network namespace, which no job gets)."""
    return attacked_by_its_jobs(("environ", "output", "everyone"))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="user and PID namespaces are Linux's")
@pytest.mark.parametrize(
    "attack, outcomes",
    [  # the caller's pid names nothing in the job's /proc; where the kernel refused it one, the caller's is shut
        ("environ", {"error None FileNotFoundError False", "error None PermissionError False"}),
        ("output", {"error None FileNotFoundError False", "error None PermissionError False"}),
        ("everyone", {"error None ProcessLookupError False"}),
    ],
)
def test_learner_code_run_by_a_normal_user_cannot_reach_its_caller(attacked, attack, outcomes):
    """Without a namespace, learner code run by a normal user's run_limited reaches every process of that
    user: it reads the caller's environment (the key the user exports), writes into the caller's output (a
    verdict of its own, where an instructor's script reads the grade) and kills the caller."""
    done, seen = attacked
    if seen.get("namespaces") == "refused":
        pytest.skip("the kernel gives this user no namespace: learner code reaches what its user can")
    # was: "ok key False", "ok written True" and a caller killed (-9)
    assert seen.get(attack) in outcomes, done
    if attack == "everyone":
        assert done.returncode == 0, done
