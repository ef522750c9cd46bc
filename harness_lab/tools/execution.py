"""Running the model's tool calls (lesson 6: ``runToolUses``): decided one by one, run in parallel.

Every tool_use gets exactly one tool_result, in call order. Each call is decided right before it
would run (valve 4: allow, ask or deny); the allowed ones then run in worker threads, each with its
own timeout. A tool that raises, hangs or gets a bad input never takes the harness down: its
failure is text the model can read, marked ``is_error``.
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
from collections.abc import Callable, Generator, Iterable
from typing import Any

from ..errors import describe
from ..events import TIERS, ApprovalRequest, Decision
from ..messages import to_json_text, tool_calls, tool_result
from ..text import t
from .definition import Tool, ToolError
from .placement import Placement, Seat

__all__ = [
    "MAX_RESULT_CHARS",
    "MAX_THREADS",
    "PARALLEL_CALLS",
    "ToolsFailed",
    "ToolsInterrupted",
    "result_text",
    "run_calls",
    "run_tool",
    "run_tool_uses",
]

# Past this many characters a result is cut: one runaway tool must not blow the token budget.
MAX_RESULT_CHARS = 20_000
# A turn's calls running at once; the rest wait their turn (their timeouts count from the start).
PARALLEL_CALLS = 8
# Worker threads in the whole process, those stuck in hung tools included (Python cannot kill them).
MAX_THREADS = 64


class ToolsInterrupted(KeyboardInterrupt):
    """Ctrl-C arrived while calls were running; ``results`` answers every call of the turn.

    Calls that finished keep their real result; the others get an ``is_error`` result saying they
    were interrupted. The loop records these instead of forgetting them, so a resumed run never
    repeats a call whose effect (a write, a post) has already happened.
    """

    def __init__(self, results: list[dict]):
        super().__init__()
        self.results = results


class ToolsFailed(Exception):
    """Something other than a tool failed after calls had started (``cause``); ``results`` as above."""

    def __init__(self, results: list[dict], cause: BaseException):
        super().__init__(describe(cause))
        self.results, self.cause = results, cause


def result_text(value: Any) -> str:
    """Any output or error text as a tool_result's content: valid UTF-8 and of bounded size.

    A lone surrogate would make the next request unencodable, and a megabyte of output would make
    it too long, so both are mended here, before anything enters the history.
    """
    text = to_json_text(value).encode("utf-8", "backslashreplace").decode("utf-8")
    if len(text) > MAX_RESULT_CHARS:
        text = text[:MAX_RESULT_CHARS] + "\n" + t("result.truncated", limit=MAX_RESULT_CHARS, total=len(text))
    return text


def run_tool_uses(
    content: Any,
    tools: dict[str, Tool],
    gates: Iterable = (),
    *,
    request_number: int = 0,
    timeout: float | None = 30.0,
    parallel: int = PARALLEL_CALLS,
    edited: dict | None = None,
    decided: dict | None = None,
    replay: dict | None = None,
    ran: dict | None = None,
    asked: dict | None = None,
) -> Generator[ApprovalRequest, Any, list[dict]]:
    """Lesson 6's ``runToolUses``: the tool_result of every tool_use in ``content``, in call order.

    ``gates`` are the valves at ``before_each_tool``; a call one of them marks ``ask`` is put to
    its approver, or yielded as an ``ApprovalRequest`` for the caller to ``.send()`` a decision
    (a plain ``next()`` denies). A fork passes what it already knows: ``edited`` results given by
    the learner, ``decided`` answers from the original run, ``replay`` results of calls that ran
    there (never run twice). ``ran`` collects the result of every call that ran here, ``asked``
    every answer given to an ask.
    """
    calls, gates = tool_calls(content), list(gates)
    edited, decided, replay, asked = edited or {}, decided or {}, replay or {}, asked if asked is not None else {}
    results: list[dict | None] = [None] * len(calls)
    to_run: list[int] = []
    for i, call in enumerate(calls):
        one = tools.get(call["name"])
        if call["id"] in edited:
            results[i] = edited[call["id"]]
        elif one is None:
            known = ", ".join(tools) or "-"
            results[i] = tool_result(call["id"], t("result.unknown_tool", name=call["name"], known=known), True)
        elif (refusal := (yield from _decide(call, one, gates, request_number, decided, asked))) is not None:
            results[i] = refusal
        elif call["id"] in replay:
            results[i] = replay[call["id"]]
        else:
            to_run.append(i)
    answers, cut = _run([(tools[calls[i]["name"]], calls[i]["input"]) for i in to_run], timeout, parallel)
    for i, (text, is_error) in zip(to_run, answers):
        results[i] = tool_result(calls[i]["id"], text, is_error)
        if ran is not None:
            ran[calls[i]["id"]] = results[i]
    if isinstance(cut, KeyboardInterrupt):  # what ran is recorded; the loop commits it, then stops
        raise ToolsInterrupted(results) from None
    if cut is not None:
        raise ToolsFailed(results, cut) from cut
    return results


def _decide(
    call: dict, one: Tool, gates: list, request_number: int, decided: dict, asked: dict
) -> Generator[ApprovalRequest, Any, dict | None]:
    """Valve 4 for one call, before it runs: None to run it, else the tool_result that answers it."""
    decision = decided.get(call["id"])
    if decision is None:
        tiers = [gate.tier(call["name"], call["input"], one.high_impact) for gate in gates]
        tier = max(tiers, key=TIERS.index) if tiers else "allow"
        if tier == "deny":  # forbidden by policy: the function is never entered
            return tool_result(call["id"], t("result.forbidden", name=call["name"]), True)
        if tier == "allow":
            return None
        request = ApprovalRequest(request_number, call["id"], call["name"], call["input"])
        decision = next((d for gate in gates if (d := gate.ask(request)) is not None), None)
        if decision is None:
            decision = Decision.coerce((yield request))  # the caller answers; next() sends None: deny
        asked[call["id"]] = decision
    if decision.allowed:
        return None
    why = t("result.denied_reason", reason=decision.reason) if decision.reason else t("result.denied")
    return tool_result(call["id"], result_text(why), True)  # bounded, valid UTF-8


def _invoke(one: Tool, tool_input: Any) -> tuple[str, bool]:
    """One call, answered as ``(text, is_error)``; runs inside a worker thread."""
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


class _Workers:
    """Daemon threads reused across calls, at most ``limit`` of them in the process.

    ``Thread.start`` waits until the new thread is scheduled, which on a busy machine costs as much
    as a model round trip on the emulator (docs/benchmarks.md), so idle workers are kept. A worker
    stuck in a hung tool is simply not idle; past ``limit`` a job waits in the queue for a worker to
    come free, and its caller's deadline decides how long that may take.
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.forget()

    def forget(self) -> None:
        """Start with no workers: in a forked child (a grader's, say) the parent's threads do not exist,
        so jobs queued for them would wait forever, and their lock may have been held at the fork."""
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._idle = self._threads = 0
        self._lock = threading.Lock()
        self.placement = Placement()

    def submit(self, job: Callable[[], None], seat: Seat | None = None) -> bool:
        """Queue ``job`` for a worker woken on the caller's ``seat``; True when a worker is there for
        it, False when it waits behind busy ones."""
        with self._lock:
            free = self._idle > 0 or self._threads < self.limit
            if self._idle:
                self._idle -= 1
                self.placement.gather(seat)
            elif free:
                threading.Thread(target=self._work, args=(seat,), daemon=True, name="harness_lab-tool").start()
                self._threads += 1
        self._jobs.put(job)
        return free

    def _work(self, seat: Seat | None) -> None:
        placement = self.placement
        with self._lock:
            placement.started(seat)
        while True:
            job = self._jobs.get()
            with self._lock:
                placement.busy()
            job()
            with self._lock:
                self._idle += 1
                placement.idle()


_WORKERS = _Workers(MAX_THREADS)
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=lambda: _WORKERS.forget())


def run_calls(
    calls: Iterable[tuple[Tool, Any]], timeout: float | None = None, parallel: int = PARALLEL_CALLS
) -> list[tuple[str, bool]]:
    """Run calls, at most ``parallel`` at once, each with its own timeout; answers in call order."""
    answers, cut = _run(list(calls), timeout, parallel)
    if cut is not None:
        raise cut
    return answers


def _run(
    calls: list[tuple[Tool, Any]], timeout: float | None, parallel: int
) -> tuple[list[tuple[str, bool]], BaseException | None]:
    """The answers, and what cut the wait short (Ctrl-C, say): every call is answered either way.

    Timeouts count from the moment the turn's calls start, so a call that waited for a free worker
    does not get longer. A call past its deadline is answered now: if it is running, it is abandoned
    (its late result is ignored); if it has not started, it never will. A worker that cannot be
    started answers that one call with an error; the others go on.
    """
    with _WORKERS.placement.caller_waits() as seat:  # the hand-offs stay on one CPU (tools/placement.py)
        return _answers(calls, timeout, parallel, seat)


def _answers(
    calls: list[tuple[Tool, Any]], timeout: float | None, parallel: int, seat: Seat | None
) -> tuple[list[tuple[str, bool]], BaseException | None]:
    answers: dict[int, tuple[str, bool]] = {}
    started: set[int] = set()
    lock, changed = threading.Lock(), threading.Event()
    begun = time.monotonic()
    waiting, running, queued = deque(range(len(calls))), set(), set()

    def job(i: int) -> Callable[[], None]:
        def go() -> None:
            with lock:
                if i in answers:  # answered while it waited (timed out): it must never run
                    return
                started.add(i)
            answer = _invoke(*calls[i])
            with lock:
                answers.setdefault(i, answer)
            changed.set()

        return go

    try:
        while True:
            changed.clear()  # before looking: a call that finishes from here on wakes the wait below
            while waiting and len(running) < parallel:
                i = waiting.popleft()
                try:
                    if not _WORKERS.submit(job(i), seat):
                        queued.add(i)
                    running.add(i)
                except Exception as exc:  # e.g. "can't start new thread": this call fails, not the turn
                    answers[i] = (t("result.not_started", error=describe(exc)), True)
            now = time.monotonic()
            # Short waits: a Ctrl-C that the OS handed to a worker thread reaches the main thread
            # only when it next wakes, so it must not sleep through a whole tool timeout.
            wait = 0.1
            with lock:
                for i in [*running, *waiting]:
                    one = calls[i][0]
                    limit = one.timeout if one.timeout is not None else timeout
                    if i in answers or limit is None:
                        continue
                    if now - begun >= limit:
                        waited = i in waiting or (i in queued and i not in started)
                        key = "result.timeout_waiting" if waited else "result.timeout"
                        answers[i] = (t(key, seconds=limit), True)
                    else:  # wake at the next deadline, so a 0.02 s timeout is not kept 0.1 s
                        wait = min(wait, begun + limit - now)
                running -= answers.keys()
                for i in [i for i in waiting if i in answers]:
                    waiting.remove(i)
            if len(answers) == len(calls):
                break
            changed.wait(wait)
    except BaseException as exc:
        with lock:
            cut = t("result.interrupted") if isinstance(exc, KeyboardInterrupt) else t("result.failed_harness")
            for i in range(len(calls)):
                answers.setdefault(i, (cut, True))  # a call that had not started never will
        return [answers[i] for i in range(len(calls))], exc
    return [answers[i] for i in range(len(calls))], None


def run_tool(one: Tool, tool_input: Any, timeout: float | None = None) -> tuple[str, bool]:
    """One call outside a run: check the input, call the function, answer ``(content_text, is_error)``."""
    return run_calls([(one, tool_input)], timeout)[0]
