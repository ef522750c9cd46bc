"""Running tool calls (lessons 2 and 6): in worker threads, in parallel, each with its own timeout.

A tool that raises, hangs or gets a bad input never takes the harness down: its failure is text the
model can read, marked ``is_error``, and every call gets its answer in call order. Which calls run at
all (valve 4, a fork's record) is decided before they get here (``tools/uses.py``).
"""

from __future__ import annotations

import asyncio
import copy
import inspect
import os
import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from dataclasses import dataclass
from typing import Any

from ..errors import describe
from ..messages import to_json_text
from ..text import t
from .definition import Tool, ToolError

__all__ = [
    "MAX_RESULT_CHARS",
    "MAX_THREADS",
    "PARALLEL_CALLS",
    "Limits",
    "answer_calls",
    "result_text",
    "run_calls",
    "run_tool",
]

# Past this many characters a result is cut: one runaway tool must not blow the token budget.
MAX_RESULT_CHARS = 20_000
# A turn's calls running at once; the rest wait their turn (their timeouts count from the start).
PARALLEL_CALLS = 8
# Worker threads in the whole process, those stuck in hung tools included (Python cannot kill them).
MAX_THREADS = 64
# The longest the caller sleeps at a time: a Ctrl-C that the OS handed to a worker thread reaches
# the main thread only when it next wakes, so it must not sleep through a whole tool timeout.
WAKE_EVERY = 0.1


@dataclass(frozen=True)
class Limits:
    """How long one call may take (a tool's own ``timeout`` wins) and how many of a turn run at once."""

    timeout: float | None = 30.0
    parallel: int = PARALLEL_CALLS


def result_text(value: Any) -> str:
    """Any output or error text as a tool_result's content: valid UTF-8 and of bounded size.

    A lone surrogate would make the next request unencodable, and a megabyte of output would make
    it too long, so both are mended here, before anything enters the history.
    """
    text = to_json_text(value).encode("utf-8", "backslashreplace").decode("utf-8")
    if len(text) > MAX_RESULT_CHARS:
        text = text[:MAX_RESULT_CHARS] + "\n" + t("result.truncated", limit=MAX_RESULT_CHARS, total=len(text))
    return text


def _invoke(one: Tool, tool_input: Any) -> tuple[str, bool]:
    """One call, answered as ``(text, is_error)``; runs inside a worker thread and never raises."""
    try:
        problem = one.problem_with(tool_input)
    except Exception as exc:  # the schema itself is broken ("type": "strin"): say so now, not at the timeout
        return result_text(t("result.bad_schema", name=one.name, error=describe(exc).split("\n", 1)[0])), True
    if problem:
        return result_text(t("result.invalid_input", name=one.name, problem=problem)), True
    try:
        # A copy: the history must keep the input exactly as the model sent it, whatever the tool does.
        value = one.fn(**copy.deepcopy(tool_input))
        if inspect.iscoroutine(value):  # an ``async def`` tool, as the lesson's own tools are
            value = asyncio.run(value)  # this worker thread has no event loop of its own
        return result_text(value), False
    except ToolError as exc:
        return result_text(t("result.failed", error=describe(exc).removeprefix("ToolError: "))), True
    except BaseException as exc:  # any tool failure (even SystemExit) becomes a result the model can read
        return result_text(t("result.failed", error=describe(exc))), True


class _Pool(Executor):
    """``concurrent.futures``' thread pool, made of daemon threads.

    ``ThreadPoolExecutor`` joins its workers when the interpreter exits, and Python cannot stop a
    thread: one tool hung past its timeout would then hang the ``harness-lab`` command, and a
    kernel's shutdown, for as long as the tool hangs. Daemon threads do not hold up exit (a hung tool
    is cut off there, as it was abandoned at its timeout). The rest is ``ThreadPoolExecutor``'s design:
    at most ``limit`` threads, an idle one reused before a new one starts (starting a thread costs
    as much as a model round trip on the emulator, docs/benchmarks.md), a job waits in the queue when
    every thread is busy, and a future cancelled before a thread takes it never runs.
    """

    def __init__(self, limit: int) -> None:
        self.limit, self.threads = limit, 0
        self.idle = self.queued = 0  # threads waiting for a job; jobs waiting for a thread
        self._jobs: queue.SimpleQueue[tuple[Future[Any], Callable[..., Any], tuple[Any, ...], dict[str, Any]]]
        self._jobs = queue.SimpleQueue()
        self._lock = threading.Lock()

    def full(self) -> bool:
        """True when a job submitted now would wait for a busy thread (none idle, no room for one more)."""
        with self._lock:
            return self.idle <= self.queued and self.threads >= self.limit

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        """Queue ``fn(*args)``; raises (and queues nothing) when a needed thread cannot start."""
        future: Future[Any] = Future()
        with self._lock:
            if self.idle <= self.queued and self.threads < self.limit:  # every idle thread has a job already
                threading.Thread(target=self._work, daemon=True, name="harness_lab-tool").start()
                self.threads += 1
            self.queued += 1
        self._jobs.put((future, fn, args, kwargs))
        return future

    def _work(self) -> None:
        while True:
            with self._lock:
                self.idle += 1
            future, fn, args, kwargs = self._jobs.get()
            with self._lock:
                self.idle, self.queued = self.idle - 1, self.queued - 1
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(fn(*args, **kwargs))
                except BaseException as exc:
                    future.set_exception(exc)
            del future, fn, args, kwargs  # an idle thread holds nothing of its last job


_POOL = _Pool(MAX_THREADS)


def _new_pool() -> None:
    # In a forked child (a grader's, say) the parent's threads do not exist, so jobs queued for
    # them would wait forever, and the pool's lock may have been held at the fork.
    global _POOL
    _POOL = _Pool(MAX_THREADS)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_new_pool)


def answer_calls(calls: list[tuple[Tool, Any]], limits: Limits) -> tuple[list[tuple[str, bool]], BaseException | None]:
    """Every call's ``(text, is_error)``, and what cut the wait short (Ctrl-C, say), if anything.

    At most ``limits.parallel`` calls run at once. Timeouts count from the moment the turn's calls
    start, so a call that waited for a free worker does not get longer. A call past its deadline is
    answered at once: if it is running it is abandoned (its late result is ignored), and if it has
    not started it never will. A call whose worker cannot be started fails alone; the others go on.
    """
    answers: dict[int, tuple[str, bool]] = {}
    running: dict[Future[tuple[str, bool]], int] = {}
    behind: set[int] = set()  # submitted while every worker was busy (only a timeout's wording reads it)
    waiting, begun = deque(range(len(calls))), time.monotonic()

    def seconds(i: int) -> float | None:
        one = calls[i][0]
        return one.timeout if one.timeout is not None else limits.timeout

    def overdue(i: int, now: float) -> bool:
        return (limit := seconds(i)) is not None and now >= begun + limit

    def time_out(i: int, waited: bool) -> None:
        answers[i] = (t("result.timeout_waiting" if waited else "result.timeout", seconds=seconds(i)), True)

    try:
        while len(answers) < len(calls):
            while waiting and len(running) < limits.parallel:
                i = waiting.popleft()
                try:
                    if _POOL.full():
                        behind.add(i)
                    running[_POOL.submit(_invoke, *calls[i])] = i
                except Exception as exc:  # e.g. "can't start new thread": this call fails, not the turn
                    answers[i] = (t("result.not_started", error=describe(exc)), True)
            now = time.monotonic()  # wake at the next deadline too: a 0.02 s timeout is not kept 0.1 s
            left = [begun + limit - now for i in [*running.values(), *waiting] if (limit := seconds(i)) is not None]
            done, _ = wait(running, timeout=max(0.0, min([WAKE_EVERY, *left])), return_when=FIRST_COMPLETED)
            for future in done:
                answers[running.pop(future)] = future.result()
            now = time.monotonic()
            for future, i in list(running.items()):
                if overdue(i, now) and not future.done():
                    del running[future]
                    # Cancelled: it had not started and never will; it waited if no worker was free for it.
                    time_out(i, waited=future.cancel() and i in behind)
            for i in [i for i in waiting if overdue(i, now)]:
                waiting.remove(i)
                time_out(i, waited=True)
    except BaseException as exc:
        cut = t("result.interrupted") if isinstance(exc, KeyboardInterrupt) else t("result.failed_harness")
        for future, i in running.items():
            if future.done() and not future.cancelled():
                answers.setdefault(i, future.result())  # it finished: its effect happened, keep its answer
            future.cancel()  # a call that has not started never will
        for i in range(len(calls)):
            answers.setdefault(i, (cut, True))
        return [answers[i] for i in range(len(calls))], exc
    return [answers[i] for i in range(len(calls))], None


def run_calls(
    calls: Iterable[tuple[Tool, Any]], timeout: float | None = None, parallel: int = PARALLEL_CALLS
) -> list[tuple[str, bool]]:
    """Run calls, at most ``parallel`` at once, each with its own timeout; answers in call order."""
    answers, cut = answer_calls(list(calls), Limits(timeout, parallel))
    if cut is not None:
        raise cut
    return answers


def run_tool(one: Tool, tool_input: Any, timeout: float | None = None) -> tuple[str, bool]:
    """One call outside a run: check the input, call the function, answer ``(content_text, is_error)``."""
    return run_calls([(one, tool_input)], timeout)[0]
