"""A resume never runs a tool call again: not after the harness itself failed while tools ran (the
turn is committed with what ran, its unknown outcome said), nor after a tool input nested 300 deep."""

from __future__ import annotations

import threading
import time

import pytest

from harness_lab.drain import drain
from harness_lab.emulator import call, emulated_client, say
from harness_lab.events import Finished
from harness_lab.loop import Run
from harness_lab.text import t
from harness_lab.tools import make_http_post, tool
from tests.history_check import history_problems


def posts(outbox: list) -> list[str]:
    return [p["url"] for p in outbox]


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
