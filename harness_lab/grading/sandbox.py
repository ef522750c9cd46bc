"""Run a learner's code under a time limit, away from the kernel (lesson 6 exercises).

A grader must never hang the learner's kernel or CI, and an exception in the learner's code must
become one readable line, not a traceback wall. So each check runs in a forked child process: the
child inherits the learner's objects as they are (no pickling of functions), runs the job with its
output swallowed, and sends back one small picklable summary over a pipe. The parent waits at most
``timeout`` seconds and kills the child after that, so ``while True: pass`` fails the check.

Where ``os.fork`` is missing (Windows) the job runs in a daemon thread instead: the time limit still
returns control to the grader, though the runaway thread cannot be killed.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import sys
import threading
import time
import traceback
import warnings
from dataclasses import dataclass
from typing import Any, Callable

__all__ = ["Outcome", "abort", "describe_error", "run_limited"]

# Where the running child sends its answer; set only inside a child (or the fallback thread).
_channel: Callable[[tuple], None] | None = None


@dataclass(frozen=True)
class Outcome:
    """What came back from a limited run.

    ``status``: "ok" (the job returned ``value``), "error" (the job raised: ``error`` is one line),
    "aborted" (a detector inside the job called ``abort(value)``), "timeout", or "crashed" (the child
    died without answering, e.g. killed by the system).
    """

    status: str
    value: Any = None
    error: str = ""


class _Abort(BaseException):
    """Unwinds the fallback thread when ``abort`` is called there."""

    def __init__(self, value: Any) -> None:
        self.value = value


class _Sink:
    """A stdout/stderr stand-in that drops what the learner's code prints.

    Printing megabytes must neither flood the notebook nor fill a pipe, and ipykernel would
    otherwise forward a forked child's prints into the cell, out of order.
    """

    encoding = "utf-8"
    errors = "replace"

    def write(self, text: str) -> int:
        return len(text)

    def writelines(self, lines: Any) -> None:
        for _ in lines:
            pass

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        raise OSError("output is captured by the grader")


def describe_error(exc: BaseException) -> str:
    """One line for an exception: type, message and, when known, the learner's line that raised it.

    Frames inside harness_lab, the SDK or the standard library are skipped, so the line named is
    the learner's own (notebook cells are registered in ``linecache`` by IPython).
    """
    kind = type(exc).__name__
    message = _api_message(exc) or (str(exc).strip().splitlines()[0] if str(exc).strip() else "")
    text = f"{kind}: {message}" if message else kind
    if len(text) > 200:
        text = text[:197] + "..."
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    own = None
    for frame in traceback.extract_tb(exc.__traceback__):
        path = os.path.abspath(frame.filename)
        if path.startswith(here) or "site-packages" in path or path.startswith(os.path.dirname(os.__file__)):
            continue
        own = frame
    if own is not None and own.line:
        line = own.line.strip()
        line = line if len(line) <= 60 else line[:59] + "…"
        text += f"（{own.name} の `{line}` の行）"
    return text


def _api_message(exc: BaseException) -> str:
    """The API's own words for an SDK status error (the 400's message), without the JSON around it."""
    body = getattr(exc, "body", None)
    if isinstance(body, dict) and isinstance(body.get("error"), dict):
        return str(body["error"].get("message", ""))
    return ""


def abort(value: Any) -> None:
    """From inside a limited job: stop the job now and hand ``value`` back as an "aborted" outcome.

    A runaway detector (say, a scripted model counting its calls) uses this to end a loop that would
    otherwise run until the timeout. Outside a limited run it raises RuntimeError.
    """
    if _channel is None:
        raise RuntimeError("abort() is only meaningful inside run_limited()")
    _channel(("aborted", value))


def run_limited(job: Callable[[], Any], timeout: float = 5.0) -> Outcome:
    """Run ``job()`` in a child process for at most ``timeout`` seconds; never raises for the job.

    ``job`` must return something picklable (a summary of what it saw, not the learner's objects).
    """
    if not hasattr(os, "fork"):
        return _run_in_thread(job, timeout)
    read_end, write_end = os.pipe()
    with warnings.catch_warnings():
        # Python 3.12+ warns that forking a threaded process (a Jupyter kernel is one) may deadlock;
        # the child only runs the job and exits, and the warning would land in the graded output.
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid == 0:  # child: never return into the caller's stack
        try:
            os.close(read_end)
            _child(job, write_end)
        finally:
            os._exit(0)
    os.close(write_end)
    try:
        data, timed_out = _read_until(read_end, time.monotonic() + timeout)
    finally:
        os.close(read_end)
        _reap(pid)
    if data:
        try:
            status, value = pickle.loads(data)
        except Exception:  # a partial message from a child killed mid-write
            status, value = "crashed", None
        if status == "error":
            return Outcome("error", error=value)
        return Outcome(status, value=value)
    return Outcome("timeout") if timed_out else Outcome("crashed")


def _child(job: Callable[[], Any], write_end: int) -> None:
    global _channel
    _silence()

    def send(message: tuple) -> None:
        try:
            payload = pickle.dumps(message)
        except Exception as exc:  # the job returned something that cannot travel
            payload = pickle.dumps(("error", f"grader could not send the result: {exc}"))
        view = memoryview(payload)
        while view:
            view = view[os.write(write_end, view):]
        os._exit(0)

    _channel = send
    try:
        value = job()
    except BaseException as exc:  # SystemExit and KeyboardInterrupt from learner code included
        try:
            line = describe_error(exc)
        except BaseException:  # an exception whose str() itself fails
            line = type(exc).__name__
        send(("error", line))
    send(("ok", value))


def _silence() -> None:
    """Point every output channel of the child at nothing (Python streams and file descriptors)."""
    sys.stdout = sys.stderr = _Sink()
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        try:
            os.dup2(devnull, fd)
        except OSError:
            pass
    sys.stdin = open(os.devnull)


def _read_until(fd: int, deadline: float) -> tuple[bytes, bool]:
    """Read the child's message until EOF or the deadline; returns (bytes, timed_out)."""
    chunks: list[bytes] = []
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return b"".join(chunks), True
        ready, _, _ = select.select([fd], [], [], remaining)
        if not ready:
            continue
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return b"".join(chunks), False
        chunks.append(chunk)


def _reap(pid: int) -> None:
    """Kill the child if it is still there and collect it, so no zombie or runaway stays behind."""
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass


def _run_in_thread(job: Callable[[], Any], timeout: float) -> Outcome:
    box: list[Outcome] = []

    def send(message: tuple) -> None:
        raise _Abort(message[1])

    def target() -> None:
        global _channel
        _channel = send
        try:
            box.append(Outcome("ok", value=job()))
        except _Abort as stop:
            box.append(Outcome("aborted", value=stop.value))
        except BaseException as exc:
            box.append(Outcome("error", error=describe_error(exc)))

    worker = threading.Thread(target=target, daemon=True)
    worker.start()
    worker.join(timeout)
    return box[0] if box else Outcome("timeout")
