"""Run a learner's code under a time limit, away from the kernel (lesson 6 exercises).

A grader must never hang the learner's kernel or CI, and an exception in the learner's code must
become one readable line, not a traceback wall. So each check runs in a forked child process: the
child inherits the learner's objects as they are (no pickling of functions), runs the job with its
output swallowed, and sends back one small picklable summary over a pipe. The parent waits at most
``timeout`` seconds and kills the child after that, so ``while True: pass`` fails the check.

The child leads its own process group, and the parent kills the whole group: learner code that forks
leaves no looping grandchild behind. A grandchild also keeps the pipe open, so the summary carries
its length and the parent stops reading once it is whole, instead of waiting for an end of file.

``try_limited`` is the same run for a notebook's try-it cell: it shows what the job printed and
returned, or one line saying why it did not finish, so a runaway never hangs that cell either.

Where ``os.fork`` is missing (Windows) the job runs in a daemon thread instead: the time limit still
returns control to the grader, though the runaway thread cannot be killed.
"""

from __future__ import annotations

import io
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

from ..text import t

__all__ = ["JobResult", "abort", "describe_error", "run_limited", "try_limited"]

# Where the running child sends its answer; set only inside a child (or the fallback thread).
_channel: Callable[[tuple], None] | None = None
# The child's answer is prefixed with its length in this many bytes.
_HEADER = 8
# How much of what a try-it job prints is shown in the cell.
_SHOWN_CHARS = 10_000


@dataclass(frozen=True)
class JobResult:
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


class _Capture(_Sink):
    """A stdout/stderr stand-in that keeps the first ``limit`` characters printed and drops the rest."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.kept = io.StringIO()
        self.dropped = False

    def write(self, text: str) -> int:
        room = self.limit - self.kept.tell()
        self.kept.write(text[:max(room, 0)])
        self.dropped = self.dropped or len(text) > room
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def text(self) -> str:
        return self.kept.getvalue() + ("\n" + t("grade.try.cut", limit=self.limit) if self.dropped else "")


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
        text += t("grade.raised_at", function=own.name, line=line)
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


def run_limited(job: Callable[[], Any], timeout: float = 5.0) -> JobResult:
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
            _own_group(0)
            _child(job, write_end)
        finally:
            os._exit(0)
    _own_group(pid)  # both sides set it, so the group exists whichever runs first
    os.close(write_end)
    try:
        data, timed_out = _read_until(read_end, time.monotonic() + timeout)
    finally:
        os.close(read_end)
        _reap(pid)
    if data:
        try:
            status, value = pickle.loads(data)
        except Exception:  # garbled: a forked job whose two processes both answered at once
            status, value = "crashed", None
        if status == "error":
            return JobResult("error", error=value)
        return JobResult(status, value=value)
    return JobResult("timeout") if timed_out else JobResult("crashed")


def try_limited(job: Callable[[], Any], timeout: float = 5.0) -> None:
    """A try-it cell's run: ``job()`` under ``run_limited``, then what it printed and returned, here.

    The learner's prints are caught in the child (the first ``_SHOWN_CHARS`` of them) and shown
    after it ends; a returned value other than None is printed as ``print`` would. An exception,
    a timeout or a crash ends with one line instead of a traceback or a hung cell.
    """
    if not hasattr(os, "fork"):  # the thread fallback prints straight into the cell already
        outcome = run_limited(job, timeout)
        shown, value, error = "", outcome.value, outcome.error
    else:
        outcome = run_limited(lambda: _printed_and_returned(job), timeout)
        shown, value, error = outcome.value if outcome.status == "ok" else ("", None, outcome.error)
    if shown:
        print(shown, end="" if shown.endswith("\n") else "\n")
    if error:
        print(t("grade.try.raised", error=error))
    elif outcome.status == "timeout":
        print(t("grade.try.timeout", seconds=f"{timeout:g}"))
    elif outcome.status == "crashed":
        print(t("grade.crashed"))
    elif value is not None:
        print(value)


def _printed_and_returned(job: Callable[[], Any]) -> tuple[str, str | None, str]:
    """Inside the child: run ``job`` with its prints caught; (printed, str(returned) or None, error)."""
    caught = _Capture(_SHOWN_CHARS)
    sys.stdout = sys.stderr = caught
    try:
        value = job()
        returned = None if value is None else str(value)
    except BaseException as exc:  # the prints before the exception are worth showing too
        return caught.text(), None, describe_error(exc)
    return caught.text(), returned, ""


def _child(job: Callable[[], Any], write_end: int) -> None:
    global _channel
    _silence()

    def send(message: tuple) -> None:
        try:
            payload = pickle.dumps(message)
        except Exception as exc:  # the job returned something that cannot travel
            payload = pickle.dumps(("error", f"grader could not send the result: {exc}"))
        view = memoryview(len(payload).to_bytes(_HEADER, "big") + payload)
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


def _own_group(pid: int) -> None:
    """Make ``pid`` (0: this process) the leader of a new process group, named by its pid."""
    try:
        os.setpgid(pid, pid)
    except OSError:  # the other side got there first, or the child is already gone
        pass


def _read_until(fd: int, deadline: float) -> tuple[bytes, bool]:
    """Read the child's message until it is whole, EOF or the deadline; returns (payload, timed_out).

    A payload shorter than its header announced (the child died mid-write) comes back as b"".
    """
    data = b""
    while True:
        if len(data) >= _HEADER and len(data) >= _HEADER + int.from_bytes(data[:_HEADER], "big"):
            return data[_HEADER:], False
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return b"", True
        ready, _, _ = select.select([fd], [], [], remaining)
        if not ready:
            continue
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return b"", False
        data += chunk


def _reap(pid: int) -> None:
    """Kill the child's process group and collect the child, so no zombie or runaway stays behind.

    The group goes before ``waitpid``: until the child is collected its pid, which names the group,
    cannot be handed to another process.
    """
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:  # no group (the child never got to set it): kill the child alone
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass


def _run_in_thread(job: Callable[[], Any], timeout: float) -> JobResult:
    box: list[JobResult] = []

    def send(message: tuple) -> None:
        raise _Abort(message[1])

    def target() -> None:
        global _channel
        _channel = send
        try:
            box.append(JobResult("ok", value=job()))
        except _Abort as stop:
            box.append(JobResult("aborted", value=stop.value))
        except BaseException as exc:
            box.append(JobResult("error", error=describe_error(exc)))

    worker = threading.Thread(target=target, daemon=True)
    worker.start()
    worker.join(timeout)
    return box[0] if box else JobResult("timeout")
