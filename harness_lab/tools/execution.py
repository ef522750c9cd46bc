"""Running the model's tool calls (lesson 6: ``runToolUses``): in parallel, each with a timeout.

Every call is answered ``(text, is_error)``: a tool that raises, hangs or gets a bad input never
takes the harness down with it, and its failure is text the model can read.
"""

from __future__ import annotations

import asyncio
import copy
import inspect
import queue
import threading
import time
from typing import Any, Callable, Iterable

from ..messages import to_json_text
from ..text import t
from .definition import Tool, ToolError

__all__ = ["MAX_RESULT_CHARS", "ToolsInterrupted", "describe", "result_text", "run_calls", "run_tool"]

# Past this many characters a result is cut: one runaway tool must not blow the token budget.
MAX_RESULT_CHARS = 20_000


class ToolsInterrupted(KeyboardInterrupt):
    """Ctrl-C arrived while calls were running; ``answers`` holds every call's answer so far.

    Calls that finished keep their real answer; the others get an ``is_error`` answer saying they
    were interrupted. The loop records these instead of forgetting them, so a resumed run never
    repeats a call whose effect (a write, a post) has already happened.
    """

    def __init__(self, answers: list[tuple[str, bool]]):
        super().__init__()
        self.answers = answers


def result_text(value: Any) -> str:
    """Any output or error text as a tool_result's content: valid UTF-8 and of bounded size.

    A lone surrogate would make the next request unencodable, and a megabyte of output would make
    it too long, so both are mended here, before anything enters the history.
    """
    text = to_json_text(value).encode("utf-8", "backslashreplace").decode("utf-8")
    if len(text) > MAX_RESULT_CHARS:
        text = text[:MAX_RESULT_CHARS] + "\n" + t("result.truncated", limit=MAX_RESULT_CHARS, total=len(text))
    return text


def describe(exc: BaseException) -> str:
    """``Type: message`` for the model; an exception whose ``__str__`` itself raises still gets a name."""
    try:
        message = str(exc)
    except Exception:
        message = ""
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


def _invoke(one: Tool, tool_input: Any) -> tuple[str, bool]:
    """One call, answered as ``(text, is_error)``; runs inside a worker thread."""
    problem = one.problem_with(tool_input)
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


class _Workers:
    """Daemon threads reused across calls: ``Thread.start`` waits until the new thread is scheduled,
    which on a busy machine costs as much as a model round trip on the emulator (docs/benchmarks.md).

    A worker stuck in a hung tool is simply not idle; the next call gets a new worker, so a hang
    never delays other calls, and daemon threads never keep the interpreter from exiting.
    """

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._idle = 0
        self._lock = threading.Lock()

    def submit(self, job: Callable[[], None]) -> threading.Event:
        done = threading.Event()
        with self._lock:
            if self._idle:
                self._idle -= 1
            else:
                threading.Thread(target=self._work, daemon=True, name="harness_lab-tool").start()
        self._jobs.put((job, done))
        return done

    def _work(self) -> None:
        while True:
            job, done = self._jobs.get()
            try:
                job()
            finally:  # whatever happened, the caller must not wait for this call forever
                done.set()
            with self._lock:
                self._idle += 1


_WORKERS = _Workers()


def _wait(event: threading.Event, deadline: float | None) -> bool:
    """``event.wait`` in short slices: a Ctrl-C that the OS handed to a worker thread reaches the
    main thread only when it next wakes, so it must not sleep through a whole tool timeout."""
    while not event.is_set():
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0:
            return False
        event.wait(0.1 if left is None else min(left, 0.1))
    return True


def run_calls(calls: Iterable[tuple[Tool, Any]], timeout: float | None = None) -> list[tuple[str, bool]]:
    """Run calls concurrently, each with its own timeout; answers come back in call order.

    A tool that hangs past its timeout is abandoned (Python cannot kill a thread): its answer is
    decided now, and a late result is ignored.
    """
    calls = list(calls)
    done: dict[int, tuple[str, bool]] = {}

    def job(i: int, one: Tool, tool_input: Any) -> Callable[[], None]:
        return lambda: done.__setitem__(i, _invoke(one, tool_input))

    finished: list[threading.Event] = []
    answers: list[tuple[str, bool]] = []
    try:  # from the first submit on: a call may already be running when Ctrl-C arrives
        for i, c in enumerate(calls):
            finished.append(_WORKERS.submit(job(i, *c)))
        started = time.monotonic()
        for i, ((one, _), event) in enumerate(zip(calls, finished)):
            limit = one.timeout if one.timeout is not None else timeout
            in_time = _wait(event, None if limit is None else started + limit)
            if not in_time:
                answers.append((t("result.timeout", seconds=limit), True))
            else:  # a job that died before answering (it cannot raise, but fail closed if it did)
                answers.append(done.get(i, (t("result.failed", error="internal error"), True)))
    except KeyboardInterrupt:
        cut = (t("result.interrupted"), True)
        answers += [done.get(i, cut) for i in range(len(answers), len(calls))]
        raise ToolsInterrupted(answers) from None
    return answers


def run_tool(one: Tool, tool_input: Any, timeout: float | None = None) -> tuple[str, bool]:
    """One call outside a run: check the input, call the function, answer ``(content_text, is_error)``."""
    return run_calls([(one, tool_input)], timeout)[0]
