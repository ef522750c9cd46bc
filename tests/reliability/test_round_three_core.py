"""Round three of the attack run, the core's part (issue 16 items 2, 3 and 6).

- A failure after a tool ran never makes a resume run it again: a thread that cannot start, a
  failure inside the harness while tools run, a tool input nested 300 deep.
- A lone surrogate is refused at the door (``start``, ``steer``), never stored in the history.
- Hanging calls cannot multiply threads: a run's calls wait for a bounded pool, timeouts still per call.
"""

from __future__ import annotations

import threading
import time

import pytest

from harness_lab.drain import drain
from harness_lab.emulator import call, emulated_client, reply, say
from harness_lab.events import Finished
from harness_lab.loop import Run
from harness_lab.text import t
from harness_lab.tools import execution, make_http_post, tool
from harness_lab.tools.execution import MAX_THREADS
from tests.history_check import history_problems


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


def test_a_failure_in_the_harness_while_tools_run_commits_what_ran(monkeypatch):
    outbox: list = []
    http_post = make_http_post(outbox)

    @tool
    def post_then_log(url: str) -> str:
        """Send, then write a log line (slowly: the harness is still waiting when it fails)."""
        http_post.fn(url=url, body="x")
        time.sleep(0.3)
        return "sent"

    script = [call("post_then_log", url="https://example.com/a"), say("送りました")]
    run = Run(emulated_client(script), [post_then_log], [])
    real_wait, armed = threading.Event.wait, {"on": True}

    def wait(event, timeout=None):
        if armed["on"] and timeout == 0.1 and outbox:  # the loop waiting for results, after the post ran
            armed["on"] = False
            raise MemoryError("harness ran out of memory")
        return real_wait(event, timeout)

    monkeypatch.setattr(threading.Event, "wait", wait)
    gen = run.start("送って")
    with pytest.raises(MemoryError):
        while True:
            next(gen)
    assert run.state.pending is None and run.state.turns == 1  # the turn is recorded
    assert history_problems(run.messages, [post_then_log.definition]) == []
    assert run.messages[2]["content"][0]["content"] == t("result.failed_harness")  # its outcome is unknown
    end = drain(run.resume())
    assert isinstance(end, Finished) and posts(outbox) == ["https://example.com/a"]


def test_a_deeply_nested_tool_input_runs_once_and_the_history_stays_valid():
    deep: dict = {}
    node = deep
    for _ in range(300):
        node["a"] = {}
        node = node["a"]
    ran = []

    @tool
    def store(data: dict) -> str:
        """Store a document."""
        ran.append(1)
        return "stored"

    run = Run(emulated_client([call("store", data=deep), say("保存しました")]), [store], [])
    end = drain(run.start("保存して"))
    assert ran == [1] and isinstance(end, Finished)
    assert [b["input"] for b in run.messages[1]["content"] if b["type"] == "tool_use"] == [{"data": deep}]
    drain(run.resume())
    assert ran == [1]


@pytest.mark.parametrize("bad", ["x\udcff", ["ok", "\ud800"], [{"type": "text", "text": "a\udfffb"}]])
def test_a_lone_surrogate_is_refused_at_start_and_nothing_is_stored(bad):
    run = Run(emulated_client([say("はい")]), [], [])
    with pytest.raises(ValueError, match="UTF-8"):
        run.start(bad)
    assert run.messages == []
    assert isinstance(drain(run.start("ふつうの質問")), Finished)  # the run is still usable


def test_a_lone_surrogate_is_refused_by_steer_and_resume_still_works():
    run = Run(emulated_client([call("get_time"), say("はい")]), [tool(lambda: "now", name="get_time")], [])
    gen = run.start("時刻は？")
    with pytest.raises(ValueError, match="UTF-8"):
        run.steer("急いで\udcff")
    assert run.state.pending_user == []
    assert isinstance(drain(gen), Finished)


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
    began = time.monotonic()
    try:
        gen = run.start("調べて")
        for _ in range(3):
            results = next(gen).results
            assert len(results) == 1000 and all(r["is_error"] for r in results)
            waited = t("result.timeout_waiting", seconds=0.3)
            assert sum(r["content"] == waited for r in results) >= 1000 - 8
        assert len(workers() - before) <= 3 * 8 and fresh_pool.threads <= 3 * 8 <= MAX_THREADS
        assert time.monotonic() - began < 10  # three turns of 0.3 s timeouts, not 3,000 threads
    finally:
        release.set()


def test_a_forked_child_runs_tools_even_when_the_parent_had_idle_workers():
    # The lessons' checks fork, then run a Run inside the child: the parent's idle workers are not there.
    import os

    from harness_lab.grading.sandbox import run_limited

    @tool
    def ping() -> str:
        """Answer."""
        return "pong"

    run = Run(emulated_client([call("ping"), say("はい")]), [ping], [])
    drain(run.start("ping して"))  # leaves idle workers in this process
    assert execution._POOL.threads >= 1

    def child() -> str:
        again = Run(emulated_client([call("ping"), say("はい")]), [ping], [])
        return drain(again.start("ping して")).text

    assert run_limited(child, timeout=10).value == "はい" and os.getpid()
