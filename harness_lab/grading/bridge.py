"""The grader's eyes on one side of a socket, the learner's code on the other (lesson 6 exercises).

``sandbox.run_limited`` keeps learner code from hanging or crashing the grader, but anything that
runs in the child beside it can be changed by it: a ``run_tool_uses`` that rebinds the grader's
judging function, or writes a verdict of its own into the answer pipe, would pass. So a graded run
is split in two. The *job*, in a limited child, only calls the learner's code and reports what
it returned. The spies it hands that code (tools, approver, the model behind the client) are
proxies: each call crosses a socket to the caller, who writes it down and answers it. The caller
then judges from its own log and from the results as the SDK put them on the wire. Learner code
can misreport only its own output, which is what it is graded on anyway.

    outcome = observe(job, spies.answer, timeout)   # the caller: answers every message, then judges
    ask(("impl", tag, name, given))                 # inside the job: one round trip to the caller

Messages are plain values only, both ways (the caller's unpickler builds no class). Where
``os.fork`` is missing the job runs in a thread of the caller, with the same messages.
"""

from __future__ import annotations

import os
import select
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

import anthropic
import httpx2

from ..emulator.transport import BASE_URL, DUMMY_KEY
from .sandbox import (
    GRACE,
    MEMORY_LIMIT,
    JobResult,
    Started,
    abort,
    describe_error,
    plain,
    run_in_thread,
)
from .wire import check_plain, framed, receive

__all__ = ["BridgeError", "Stop", "ask", "bridged_client", "observe", "serve_http"]

# A message bigger than this from the job is the job breaking the link (a history is far smaller).
_MAX_MESSAGE = 16 << 20


class Stop(Exception):
    """Raised by the caller's ``answer`` to end the job now: the outcome is "aborted" with ``value``."""

    def __init__(self, value: Any) -> None:
        super().__init__(value)
        self.value = value


class BridgeError(RuntimeError):
    """Raised inside the job when the caller could not read a message (the learner's code sent it)."""


_link: Callable[[tuple], Any] | None = None  # inside a job: one round trip to the caller


def ask(message: tuple) -> Any:
    """From inside an observed job: send ``message`` to the caller and return its answer."""
    if _link is None:
        raise RuntimeError("ask() is only meaningful inside observe()")
    return _link(message)


def observe(
    job: Callable[[], Any], answer: Callable[[tuple], Any], timeout: float, *, memory: int | None = MEMORY_LIMIT
) -> JobResult:
    """Run ``job()`` limited like ``run_limited``, answering each ``ask`` from it with ``answer(message)``.

    ``answer`` runs here, in the caller; it may raise ``Stop(value)`` to end the job at once.
    """
    if not hasattr(os, "fork"):
        return _in_thread(job, answer, timeout)
    mine, theirs = socket.socketpair()

    def linked() -> Any:
        global _link
        mine.detach()  # the job closed every descriptor it inherited but ``theirs`` already
        _link = _Link(theirs).round_trip
        return job()

    started = Started(linked, timeout, memory, keep=(theirs.fileno(),))
    theirs.close()
    until = started.deadline + GRACE
    watched: list[socket.socket | int] = [mine, started.read_end]
    try:
        while True:
            ready, _, _ = select.select(watched, [], [], max(until - time.monotonic(), 0))
            if not ready or started.read_end in ready:
                return started.finish(until)
            message, _ = receive(mine.fileno(), until, _MAX_MESSAGE)
            if type(message) is not tuple or not message:  # closed or garbled by the job's side: its answer decides
                watched.remove(mine)
                continue
            try:
                reply = ("ok", answer(message))
            except Stop as stop:
                started.stop()
                return JobResult("aborted", value=stop.value)
            except Exception as exc:  # a message the spies cannot read
                reply = ("error", plain(describe_error(exc), 300))
            if not _send(mine, reply, until):
                watched.remove(mine)
    finally:
        mine.close()


class _Link:
    """The job's end of the socket; one round trip at a time, whichever thread asks."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock, self.lock = sock, threading.Lock()

    def round_trip(self, message: tuple) -> Any:
        check_plain(message)
        with self.lock:
            self.sock.sendall(framed(message))
            reply, end = receive(self.sock.fileno())
        if end != "whole":
            raise BridgeError("the grader closed the link")
        status, value = reply
        if status == "error":
            raise BridgeError(value)
        return value


def _send(sock: socket.socket, reply: tuple, until: float) -> bool:
    try:
        sock.settimeout(max(until - time.monotonic(), 0.01))
        sock.sendall(framed(reply))
    except OSError:  # the job stopped reading: its answer (or the clock) decides
        return False
    finally:
        sock.settimeout(None)
    return True


def _in_thread(job: Callable[[], Any], answer: Callable[[tuple], Any], timeout: float) -> JobResult:
    """Without fork: the job runs in a thread here, and its messages are plain calls."""
    lock = threading.Lock()

    def direct(message: tuple) -> Any:
        check_plain(message)
        with lock:
            try:
                return answer(message)
            except Stop as stop:  # the outcome at once, even if the job swallows the unwinding
                abort(stop.value)
            except Exception as exc:
                raise BridgeError(plain(describe_error(exc), 300)) from None

    def linked() -> Any:
        global _link
        _link = direct
        return job()

    global _link
    try:
        return run_in_thread(linked, timeout)
    finally:
        _link = None  # the caller's process: ask() outside observe() must stay an error


def bridged_client(tag: str, **client_kwargs: Any) -> anthropic.Anthropic:
    """Inside a job: a real ``anthropic.Anthropic`` whose HTTP requests the caller answers (``"http"``)."""

    def handle(request: httpx2.Request) -> httpx2.Response:
        status, headers, content = ask(
            (
                "http",
                tag,
                request.method,
                str(request.url),
                [(k, v) for k, v in request.headers.multi_items()],
                request.content,
            )
        )
        return httpx2.Response(status, headers=headers, content=content)

    http_client = httpx2.Client(transport=httpx2.MockTransport(handle))
    return anthropic.Anthropic(api_key=DUMMY_KEY, base_url=BASE_URL, http_client=http_client, **client_kwargs)


def serve_http(handler: Callable[[httpx2.Request], httpx2.Response]) -> Callable[..., tuple]:
    """The caller's side of ``bridged_client``: a MockTransport handler answering the job's requests."""

    def answer(method: str, url: str, headers: list, content: bytes) -> tuple:
        request = httpx2.Request(
            plain(method), plain(url), headers=[(plain(k), plain(v)) for k, v in headers], content=bytes(content)
        )
        response = handler(request)
        return response.status_code, list(response.headers.multi_items()), response.read()

    return answer
