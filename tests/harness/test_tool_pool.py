"""Where tool calls run: a bounded pool of worker threads that never outlives the interpreter, never
moves a thread to another CPU, and never starts a call that was already answered."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from harness_lab.text import t
from harness_lab.tools import execution, run_calls, tool

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
    # ThreadPoolExecutor would join its workers at exit: the command (or a kernel) would wait forever.
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", HUNG_RUN], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "あきらめました True\n"
    assert time.monotonic() - started < 30


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
