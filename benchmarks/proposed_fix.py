"""A prototype of the fix for the harness's main overhead, measured beside the package as it is.

The profile shows ``tools.run_calls`` starting a new thread for every tool call: ``Thread.start``
waits until the new thread is scheduled, which on a busy two-core machine costs about as much as a
model round trip on the emulator. Reusing daemon worker threads keeps the same behaviour (calls run
concurrently, each with its own timeout, a hung tool is abandoned and cannot block exit) without
that start-up. This module only patches ``harness_lab.loop.run_calls`` for the duration of one
benchmark run, so the "after" numbers come from the same process as the "before" ones; the real
fix belongs in ``harness_lab/tools.py``.
"""

from __future__ import annotations

import queue
import threading
import time
from typing import Any, Iterable

import harness_lab.loop as loop
from harness_lab.text import t
from harness_lab.tools import Tool, _invoke

from . import harness
from .contender import Outcome, Prepared

_jobs: queue.SimpleQueue = queue.SimpleQueue()
_idle = 0
_lock = threading.Lock()


def _worker() -> None:
    global _idle
    while True:
        job, done = _jobs.get()
        job()
        done.set()
        with _lock:
            _idle += 1


def _submit(job) -> threading.Event:
    global _idle
    done = threading.Event()
    with _lock:
        if _idle:
            _idle -= 1
        else:  # every worker is busy, or stuck in a tool past its timeout: add one
            threading.Thread(target=_worker, daemon=True).start()
    _jobs.put((job, done))
    return done


def run_calls(calls: Iterable[tuple[Tool, Any]], timeout: float | None = None) -> list[tuple[str, bool]]:
    """``tools.run_calls`` with reused workers: concurrent, per-call timeout, answers in call order."""
    calls = list(calls)
    done: dict[int, tuple[str, bool]] = {}
    finished = []
    for i, (one, tool_input) in enumerate(calls):
        def job(i=i, one=one, tool_input=tool_input) -> None:
            done[i] = _invoke(one, tool_input)
        finished.append(_submit(job))
    started = time.monotonic()
    answers = []
    for i, ((one, _), event) in enumerate(zip(calls, finished)):
        limit = one.timeout if one.timeout is not None else timeout
        ok = event.wait(None if limit is None else max(0.0, started + limit - time.monotonic()))
        answers.append(done[i] if ok else (t("result.timeout", seconds=limit), True))
    return answers


def prepare(rounds: int) -> Prepared:
    go_unpatched = harness.prepare(rounds)

    def go() -> Outcome:
        original = loop.run_calls
        loop.run_calls = run_calls
        try:
            return go_unpatched()
        finally:
            loop.run_calls = original

    return go
