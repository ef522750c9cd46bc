"""Where tool calls run: a bounded pool of worker threads that never outlives the interpreter, never
moves a thread to another CPU, never starts a call that was already answered, keeps hanging calls
from multiplying threads, fails alone a call whose thread cannot start, and works again in a forked
child (a lesson check's)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from harness_lab.drain import drain
from harness_lab.emulator import call, emulated_client, reply, say
from harness_lab.events import Finished
from harness_lab.loop import Run
from harness_lab.text import t
from harness_lab.tools import execution, make_http_post, run_calls, tool
from harness_lab.tools.execution import MAX_THREADS
from tests.history_check import history_problems

ROOT = Path(__file__).resolve().parents[2]

HUNG_RUN = textwrap.dedent(
    """
    import threading
    import harness_lab as hl
    from harness_lab.emulator import call, emulated_client, say

    @hl.tool(timeout=0.3)
    def hang() -> str:
        '''Never answers.'''
        threading.Event().wait()

    outcome = hl.run(emulated_client([call("hang"), say("あきらめました")]), "待って", tools=[hang])
    print(outcome.text, outcome.messages[2]["content"][0]["is_error"])
    """
)


def test_a_hung_tool_does_not_hold_up_the_interpreters_exit():
    # ThreadPoolExecutor would join its workers at exit: the command (or a kernel) would wait forever,
    # and run's timeout would fail the test.
    done = subprocess.run([sys.executable, "-c", HUNG_RUN], capture_output=True, text=True, cwd=ROOT, timeout=180)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "あきらめました True\n"


@pytest.mark.skipif(
    not hasattr(os, "sched_getaffinity") or len(os.sched_getaffinity(0)) < 2, reason="needs two usable CPUs"
)
def test_a_tool_call_moves_no_thread_to_another_cpu():
    allowed, caller = os.sched_getaffinity(0), threading.get_native_id()
    seen: list[tuple[set, set]] = []

    @tool
    def where() -> str:
        """Say which CPUs this worker and its caller may use, while the caller waits."""
        seen.append((os.sched_getaffinity(0), os.sched_getaffinity(caller)))
        return "here"

    for _ in range(5):
        assert run_calls([(where, {}), (where, {})]) == [("here", False)] * 2
    assert seen and all(mine == allowed and theirs == allowed for mine, theirs in seen)
    assert os.sched_getaffinity(0) == allowed


def test_a_call_answered_while_it_waited_for_a_worker_never_starts(monkeypatch):
    monkeypatch.setattr(execution, "_POOL", execution._Pool(1))  # one worker, about to be stuck
    release, started = threading.Event(), []

    @tool(timeout=0.2)
    def hang() -> str:
        """Holds the only worker until released."""
        release.wait(10)
        return "late"

    @tool(timeout=0.2)
    def mark() -> str:
        """Would leave a mark if it ran."""
        started.append(True)
        return "ran"

    try:
        assert run_calls([(hang, {})]) == [(t("result.timeout", seconds=0.2), True)]
        assert run_calls([(mark, {})]) == [(t("result.timeout_waiting", seconds=0.2), True)]
    finally:
        release.set()
    deadline = time.monotonic() + 5
    while (execution._POOL.idle, execution._POOL.queued) != (1, 0) and time.monotonic() < deadline:
        time.sleep(0.01)  # the worker is free again, and has taken (and dropped) the answered call
    assert (execution._POOL.idle, execution._POOL.queued) == (1, 0) and started == []


def posts(outbox: list) -> list[str]:
    return [p["url"] for p in outbox]


@pytest.fixture
def fresh_pool(monkeypatch):
    """A pool with no idle workers, so each call of a turn starts a thread of its own."""
    pool = execution._Pool(MAX_THREADS)
    monkeypatch.setattr(execution, "_POOL", pool)
    return pool


def test_a_thread_that_cannot_start_fails_its_call_alone_and_nothing_is_sent_twice(fresh_pool, monkeypatch):
    outbox: list = []
    http_post = make_http_post(outbox)
    hold = threading.Event()

    @tool
    def slow_post(url: str) -> str:
        """Send, slowly (each call keeps its worker busy, so the next call needs a new thread)."""
        hold.wait(5)
        return http_post.fn(url=url, body="")

    starts = {"n": 0}
    real_start = threading.Thread.start

    def start(thread):
        if thread.name == "harness_lab-tool":
            starts["n"] += 1
            if starts["n"] == 3:
                raise RuntimeError("can't start new thread")
        return real_start(thread)

    monkeypatch.setattr(threading.Thread, "start", start)
    urls = [f"https://example.com/{i}" for i in range(5)]
    script = [reply("送ります", *(call("slow_post", url=u) for u in urls)), say("送りました")]
    run = Run(emulated_client(script), [slow_post], [])
    threading.Timer(0.3, hold.set).start()
    end = drain(run.start("5件送って"))
    results = run.messages[2]["content"]
    assert [r.get("is_error", False) for r in results] == [False, False, True, False, False]
    assert results[2]["content"] == t("result.not_started", error="RuntimeError: can't start new thread")
    assert sorted(posts(outbox)) == sorted(urls[:2] + urls[3:])
    assert isinstance(end, Finished) and history_problems(run.messages, [slow_post.definition]) == []
    drain(run.resume())
    assert len(outbox) == 4  # nothing re-sent


def test_hanging_calls_wait_for_a_bounded_pool_and_every_call_is_answered(fresh_pool):
    release = threading.Event()

    @tool(timeout=0.3)
    def hang(n: int) -> str:
        """Never answers (until the test ends)."""
        release.wait(30)
        return "late"

    wide = [reply("全部調べます", *(call("hang", n=i) for i in range(1000)))]
    script = wide * 3 + [say("あきらめます")]
    run = Run(emulated_client(script), [hang], [], parallel_tools=8, max_tokens=20_000)

    def workers() -> set:
        return {th for th in threading.enumerate() if th.name == "harness_lab-tool"}

    # other tests' pools may still hold workers in this process: count only the ones started here
    before = workers()
    try:
        gen = run.start("調べて")
        for _ in range(3):
            results = next(gen).results
            assert len(results) == 1000 and all(r["is_error"] for r in results)
            waited = t("result.timeout_waiting", seconds=0.3)
            assert sum(r["content"] == waited for r in results) >= 1000 - 8
        assert len(workers() - before) <= 3 * 8 and fresh_pool.threads <= 3 * 8 <= MAX_THREADS
    finally:
        release.set()


def test_a_forked_child_runs_tools_even_when_the_parent_had_idle_workers():
    # The lessons' checks fork, then run a Run inside the child: the parent's idle workers are not there.
    from harness_lab.grading.sandbox import run_limited

    @tool
    def ping() -> str:
        """Answer."""
        return "pong"

    run = Run(emulated_client([call("ping"), say("はい")]), [ping], [])
    drain(run.start("ping して"))  # leaves idle workers in this process
    assert execution._POOL.threads >= 1

    def child() -> tuple[int, str]:
        again = Run(emulated_client([call("ping"), say("はい")]), [ping], [])
        return os.getpid(), drain(again.start("ping して")).text

    pid, text = run_limited(child, timeout=10).value
    assert pid != os.getpid() and text == "はい"  # it ran in the child, and its tool call was answered
