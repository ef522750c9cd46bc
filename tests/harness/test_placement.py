"""Tool workers wait on their caller's CPU, and nobody stays pinned (harness_lab/tools/placement.py).

Pinning only moves threads, so these tests check what a user could notice: the caller gets its own
CPUs back whatever happened to its calls, a tool never runs pinned, a worker is woken where its
caller waits, and a kernel that refuses (or a system without affinity) changes nothing but speed.
"""

from __future__ import annotations

import ctypes
import os
import threading
import time

import pytest

from harness_lab.tools import execution, run_calls, run_tool, tool
from harness_lab.tools.placement import Placement

pytestmark = pytest.mark.skipif(
    not hasattr(os, "sched_setaffinity") or len(os.sched_getaffinity(0)) < 2,
    reason="CPU placement needs sched_setaffinity and two usable CPUs",
)


def current_cpu() -> int:
    return ctypes.CDLL(None).sched_getcpu()


@pytest.fixture(autouse=True)
def own_cpus_restored():
    """Each test starts with the CPUs this thread had, so one test's leak cannot hide another's."""
    mask = os.sched_getaffinity(0)
    yield
    os.sched_setaffinity(0, mask)


@pytest.fixture
def fresh_pool(monkeypatch):
    """A pool of its own, so a test that turns placement off leaves the shared pool as it was."""
    pool = execution._Workers(4)
    monkeypatch.setattr(execution, "_WORKERS", pool)
    return pool


@tool
def where(label: str) -> dict:
    """Report the CPU this call started on and the CPUs it may use."""
    return {"cpu": current_cpu(), "allowed": sorted(os.sched_getaffinity(0)), "label": label}


def test_the_caller_gets_its_cpus_back_after_results_errors_and_timeouts(fresh_pool):
    before = os.sched_getaffinity(0)
    stuck = threading.Event()

    @tool(timeout=0.05)
    def hang() -> str:
        """Wait until released."""
        stuck.wait(5)
        return "late"

    @tool
    def boom() -> str:
        """Fail."""
        raise RuntimeError("kaboom")

    try:
        answers = run_calls([(where, {"label": "a"}), (boom, {}), (hang, {}), (where, {"label": 1})])
    finally:
        stuck.set()
    assert [is_error for _, is_error in answers] == [False, True, True, True]
    assert os.sched_getaffinity(0) == before


def test_a_caller_with_fewer_cpus_keeps_exactly_those_and_so_do_its_workers(fresh_pool):
    chosen = {min(os.sched_getaffinity(0))}  # a caller held to one CPU (taskset -c 0, say)
    seen = {}

    def call() -> None:
        os.sched_setaffinity(0, chosen)
        seen["result"] = run_tool(where, {"label": "x"})
        seen["after"] = os.sched_getaffinity(0)

    worker = threading.Thread(target=call)
    worker.start()
    worker.join(10)
    assert seen["after"] == chosen
    assert f'"allowed": {sorted(chosen)}'.replace(" ", "") in seen["result"][0].replace(" ", "")


def test_a_tool_never_runs_pinned_first_call_or_reused_worker(fresh_pool):
    allowed = sorted(os.sched_getaffinity(0))
    for round_no in range(5):
        for text, is_error in run_calls([(where, {"label": str(round_no)}), (where, {"label": "b"})]):
            assert not is_error
            assert f'"allowed": {allowed}' in text, text


def test_an_abandoned_call_runs_unpinned_and_does_not_hold_the_callers_cpu(fresh_pool):
    release, inside = threading.Event(), {}

    @tool(timeout=0.05)
    def stuck() -> str:
        """Spin until released, as a hung tool does."""
        inside["allowed"] = os.sched_getaffinity(0)
        release.wait(5)
        return "late"

    before = os.sched_getaffinity(0)
    try:
        _, is_error = run_tool(stuck, {})
        assert is_error
        assert inside["allowed"] == before
        assert os.sched_getaffinity(0) == before
        assert run_tool(where, {"label": "next"})[1] is False  # the next call gets another worker
    finally:
        release.set()


def test_a_worker_is_woken_on_the_cpu_its_caller_waits_on(fresh_pool):
    run_tool(where, {"label": "warm"})  # the first call starts the worker wherever it lands
    same = 0
    for i in range(20):
        cpu = current_cpu()
        text, _ = run_tool(where, {"label": str(i)})
        same += f'"cpu": {cpu},' in text
    # Without placement the worker wakes on the CPU it last ran on, which is rarely the caller's.
    assert same >= 16, same


def test_a_kernel_that_refuses_turns_placement_off_and_calls_still_run(fresh_pool, monkeypatch):
    def refuse(*_):
        raise PermissionError(1, "Operation not permitted")

    before = os.sched_getaffinity(0)
    monkeypatch.setattr(os, "sched_setaffinity", refuse)
    assert run_tool(where, {"label": "x"})[1] is False
    assert fresh_pool.placement.on is False
    assert [e for _, e in run_calls([(where, {"label": "y"})] * 3)] == [False] * 3
    monkeypatch.undo()
    assert os.sched_getaffinity(0) == before


def test_without_affinity_calls_run_as_before(monkeypatch):
    monkeypatch.delattr(os, "sched_setaffinity")
    placement = Placement()
    with placement.caller_waits() as seat:
        assert seat is None
    monkeypatch.setattr(execution, "_WORKERS", execution._Workers(2))
    assert run_tool(where, {"label": "x"})[1] is False


def test_two_callers_at_once_each_get_their_own_answers_and_cpus(fresh_pool):
    before = os.sched_getaffinity(0)
    results: dict[str, list] = {"a": [], "b": []}

    def caller(name: str) -> None:
        for i in range(30):
            text, is_error = run_tool(where, {"label": f"{name}{i}"})
            results[name].append((f'"label": "{name}{i}"' in text, is_error))
        results[name].append(os.sched_getaffinity(0))

    threads = [threading.Thread(target=caller, args=(name,)) for name in results]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    for name, seen in results.items():
        assert seen[:-1] == [(True, False)] * 30, name
        assert seen[-1] == before


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_forked_child_runs_tools_with_the_parents_workers_gone(fresh_pool):
    run_tool(where, {"label": "parent"})  # the parent has an idle, placed worker now
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: only this thread exists
        try:
            ok = run_tool(where, {"label": "child"})[1] is False
            os.write(write, b"ok" if ok else b"no")
        finally:
            os._exit(0)
    os.close(write)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and os.waitpid(pid, os.WNOHANG) == (0, 0):
        time.sleep(0.01)
    if time.monotonic() >= deadline:  # a hung child: kill it, so the read below cannot block
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    assert os.read(read, 2) == b"ok"
