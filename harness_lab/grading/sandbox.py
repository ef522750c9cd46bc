"""Run a learner's code under a time and memory limit, away from the kernel (lesson 6 exercises).

A grader must never hang the learner's kernel or CI, and an exception in the learner's code must
become one readable line, not a traceback wall. So each check runs in a forked process: it
inherits the learner's objects as they are (no pickling of functions), runs the job with its output
swallowed, and sends back one small summary over a pipe. The caller waits at most ``timeout``
seconds. Only the forked side ever touches the learner's objects: calling them, but also ``len``,
``==``, ``str`` or iterating, since any of those may be learner code that loops.

Two processes are forked (see ``processes.py``): a supervisor, which enforces the deadline and at the
end kills every process the job started, including one that left the process group with
``setsid``; and under it the job, whose address space is capped (``memory``) so that runaway growth
ends as a MemoryError with a hint.

The summary travels as a pickle of plain values only (str, int, float, bool, None, bytes, and
lists, tuples, sets and dicts of them, each of exactly that type): the job side refuses anything
else, and the caller's unpickler can build no class at all, so nothing the learner defined (a str
subclass with its own ``__eq__``, say) comes back to run in the kernel.

``try_limited`` is the same run for a notebook's try-it cell: it shows what the job printed and
returned (both capped, with a note), or one line saying why it did not finish.

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
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..text import t
from .processes import become_subreaper, die_with_parent, end_tree, keep_private, limit_memory, prepare, wait_for

__all__ = [
    "JobResult",
    "MEMORY_LIMIT",
    "Started",
    "abort",
    "describe_error",
    "plain",
    "run_limited",
    "try_limited",
]

# Where the running job sends its answer; set only inside a job (or the fallback thread).
_channel: Callable[[tuple], None] | None = None
# Inside a job: the write end of its own answer pipe. A run started from the job closes it in its
# children, so learner code below can never answer in the job's name.
_answer_fd: int | None = None
# The job's answer is prefixed with its length in this many bytes.
HEADER = 8
# How much of what a try-it job prints, and of the value it returns, is shown in the cell.
_SHOWN_CHARS = 10_000
_SHOWN_VALUE_CHARS = 2_000
# Bytes a job may add to its address space beyond what it had at the fork.
MEMORY_LIMIT = 1 << 30
# How long the caller waits past the deadline for the supervisor to clean up before killing it.
GRACE = 2.0
# The supervisor's exit code when it killed the job at the deadline.
_TIMED_OUT = 3
_PLAIN = (str, int, float, bool, bytes, type(None))


@dataclass(frozen=True)
class JobResult:
    """What came back from a limited run.

    ``status``: "ok" (the job returned ``value``), "error" (the job raised: ``error`` is one line),
    "aborted" (a detector inside the job called ``abort(value)``), "timeout", "memory" (the job
    went over its memory cap: ``value`` is the cap in MB), or "crashed" (the job died without
    answering, e.g. killed by the system).
    """

    status: str
    value: Any = None
    error: str = ""


class Aborted(BaseException):
    """Unwinds the fallback thread when ``abort`` is called there."""

    def __init__(self, value: Any) -> None:
        self.value = value


class _Stop(BaseException):
    """Raised in the supervisor by SIGTERM: the caller gave up; clean up and leave."""


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
        text = plain(text) if isinstance(text, str) else ""
        room = self.limit - self.kept.tell()
        self.kept.write(text[: max(room, 0)])
        self.dropped = self.dropped or len(text) > room
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def text(self) -> str:
        return self.kept.getvalue() + ("\n" + t("grade.try.cut", limit=self.limit) if self.dropped else "")


class PlainOnly(pickle.Unpickler):
    """An unpickler that builds no class: only the plain values pickle encodes without one."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"{module}.{name} is not a plain value")


def framed(message: Any) -> bytes:
    """``message`` as it travels: its pickle's length in ``HEADER`` bytes, then the pickle."""
    payload = pickle.dumps(message)
    return len(payload).to_bytes(HEADER, "big") + payload


def unframed(payload: bytes) -> Any:
    """A framed message's pickle read back, building no class (raises for anything else)."""
    return PlainOnly(io.BytesIO(payload)).load()


def plain(value: Any, limit: int | None = None) -> str:
    """``value`` as an exact ``str`` (a str subclass's own methods left behind), cut at ``limit``.

    Call it on the job side, on anything the learner produced that goes into a summary. A value
    that is not a str is shown with ``repr``.
    """
    if not isinstance(value, str):
        value = repr(value)
    if type(value) is not str:
        value = str.__getitem__(value, slice(None))  # str's own slice: an exact copy
    if limit is not None and len(value) > limit:
        value = value[: limit - 3] + "..."
    return value


def check_plain(value: Any, depth: int = 0) -> None:
    kind = type(value)
    if kind in _PLAIN:
        return
    if depth > 20 or kind not in (list, tuple, set, frozenset, dict):
        raise TypeError(f"{kind.__name__} is not a plain value")
    items = [x for pair in value.items() for x in pair] if kind is dict else value
    for item in items:
        check_plain(item, depth + 1)


def describe_error(exc: BaseException) -> str:
    """One line for an exception: type, message and, when known, the learner's line that raised it.

    Frames inside harness_lab, the SDK or the standard library are skipped, so the line named is
    the learner's own (notebook cells are registered in ``linecache`` by IPython).
    """
    kind = plain(type(exc).__name__)
    message = _api_message(exc) or _first_line(exc)
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


def _first_line(exc: BaseException) -> str:
    text = plain(str(exc)).strip()
    return text.splitlines()[0] if text else ""


def _api_message(exc: BaseException) -> str:
    """The API's own words for an SDK status error (the 400's message), without the JSON around it."""
    body = getattr(exc, "body", None)
    if type(body) is dict and type(body.get("error")) is dict:
        return plain(body["error"].get("message", ""))
    return ""


def abort(value: Any) -> None:
    """From inside a limited job: stop the job now and hand ``value`` back as an "aborted" outcome.

    A runaway detector (say, a scripted model counting its calls) uses this to end a loop that would
    otherwise run until the timeout. Outside a limited run it raises RuntimeError.
    """
    if _channel is None:
        raise RuntimeError("abort() is only meaningful inside run_limited()")
    _channel(("aborted", value))


def run_limited(job: Callable[[], Any], timeout: float = 5.0, *, memory: int | None = MEMORY_LIMIT) -> JobResult:
    """Run ``job()`` in a child process for at most ``timeout`` seconds; never raises for the job.

    ``job`` must return plain values (see the module docstring): a summary of what it saw, not
    the learner's objects. ``memory`` is the job's allowance in bytes beyond its size at the fork
    (None: no cap).
    """
    if not hasattr(os, "fork"):
        return run_in_thread(job, timeout)
    started = Started(job, timeout, memory)
    return started.finish(started.deadline + GRACE)


class Started:
    """A limited run under way: ``read_end`` becomes readable when the job has answered or died.

    ``bridge.observe`` talks to the job while it runs and then calls ``finish``; ``run_limited``
    only waits. ``finish(until)`` reads the answer until ``until``; ``stop()`` gives up on the job.
    """

    def __init__(self, job: Callable[[], Any], timeout: float, memory: int | None, keep: tuple[int, ...] = ()) -> None:
        prepare()
        read_end, write_end = os.pipe()
        with warnings.catch_warnings():
            # Python 3.12+ warns that forking a threaded process (a Jupyter kernel is one) may
            # deadlock; the child only runs the job and exits, and the warning would land in the
            # graded output.
            warnings.simplefilter("ignore", DeprecationWarning)
            supervisor = os.fork()
        if supervisor == 0:  # never return into the caller's stack
            code = 1
            try:
                os.close(read_end)
                if _answer_fd is not None:
                    os.close(_answer_fd)
                code = _supervise(job, write_end, timeout, memory, keep)
            finally:
                os._exit(code)
        os.close(write_end)
        self.supervisor, self.read_end = supervisor, read_end
        self.deadline = time.monotonic() + timeout

    def finish(self, until: float) -> JobResult:
        timed_out = True
        try:
            data, timed_out = _read_until(self.read_end, until)
        finally:
            os.close(self.read_end)
            code = _collect(self.supervisor, gently=not timed_out)
        if data:
            try:
                status, value = unframed(data)
            except Exception:  # garbled: learner code wrote to the pipe itself
                status, value = "crashed", None
            if status == "error":
                return JobResult("error", error=value)
            return JobResult(status, value=value)
        return JobResult("timeout") if timed_out or code == _TIMED_OUT else JobResult("crashed")

    def stop(self) -> None:
        """End the job's whole tree now, its answer unread."""
        os.close(self.read_end)
        _collect(self.supervisor, gently=False)


def try_limited(job: Callable[[], Any], timeout: float = 5.0) -> None:
    """A try-it cell's run: ``job()`` under ``run_limited``, then what it printed and returned, here.

    The learner's prints are caught in the child (the first ``_SHOWN_CHARS`` of them) and shown
    after it ends; a returned value other than None is printed as ``print`` would, cut at
    ``_SHOWN_VALUE_CHARS``. An exception, a timeout, too much memory or a crash ends with one line
    instead of a traceback or a hung cell.
    """
    if not hasattr(os, "fork"):  # the thread fallback prints straight into the cell already
        outcome = run_limited(job, timeout)
        shown, value, error = "", outcome.value, outcome.error
        value = None if value is None else _capped(str(value))
    else:
        outcome = run_limited(lambda: _printed_and_returned(job), timeout)
        shown, value, error = outcome.value if outcome.status == "ok" else ("", None, outcome.error)
    if shown:
        print(shown, end="" if shown.endswith("\n") else "\n")
    if error:
        print(t("grade.try.raised", error=error))
    elif outcome.status == "timeout":
        print(t("grade.try.timeout", seconds=f"{timeout:g}"))
    elif outcome.status == "memory":
        print(t("grade.try.memory", mb=outcome.value))
    elif outcome.status == "crashed":
        print(t("grade.crashed"))
    elif value is not None:
        print(value)


def _capped(text: str) -> str:
    if len(text) <= _SHOWN_VALUE_CHARS:
        return text
    return text[:_SHOWN_VALUE_CHARS] + "\n" + t("grade.try.value_cut", limit=_SHOWN_VALUE_CHARS)


def _printed_and_returned(job: Callable[[], Any]) -> tuple[str, str | None, str]:
    """Inside the child: run ``job`` with its prints caught; (printed, returned as text or None, error)."""
    caught = _Capture(_SHOWN_CHARS)
    sys.stdout = sys.stderr = caught
    try:
        value = job()
        returned = None if value is None else _capped(plain(str(value)))
    except MemoryError:
        raise  # the job's own handler names the cap
    except BaseException as exc:  # the prints before the exception are worth showing too
        return caught.text(), None, describe_error(exc)
    return caught.text(), returned, ""


def _supervise(
    job: Callable[[], Any], write_end: int, timeout: float, memory: int | None, keep: tuple[int, ...] = ()
) -> int:
    """The supervisor: fork the job, wait for it until the deadline, then end its whole tree."""
    _silence()
    os.setpgid(0, 0)
    adopted = become_subreaper()

    def stop(signum: int, frame: Any) -> None:
        raise _Stop()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the caller decides; a Ctrl-C reaches it, not us
    die_with_parent(signal.SIGTERM)
    deadline = time.monotonic() + timeout
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid == 0:
        code = 1
        try:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.setpgid(0, 0)
            die_with_parent(signal.SIGKILL)
            _child(job, write_end, memory if limit_memory(memory) else None, keep)
        finally:
            os._exit(code)
    try:
        os.setpgid(pid, pid)  # both sides set it, so the group exists whichever runs first
    except OSError:
        pass
    os.close(write_end)  # the caller sees the end of the pipe once the job's side is gone
    ended = False
    try:
        ended = wait_for(pid, deadline)
    except _Stop:
        pass
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        end_tree(pid, adopted)
    return 0 if ended else _TIMED_OUT


def _child(job: Callable[[], Any], write_end: int, budget: int | None, keep: tuple[int, ...] = ()) -> None:
    global _channel, _answer_fd
    _close_inherited({write_end, *keep})
    _silence()
    keep_private()
    _answer_fd = write_end

    def send(message: tuple) -> None:
        try:
            check_plain(message)
            frame = framed(message)
        except Exception as exc:  # the job returned something that cannot travel
            frame = framed(("error", f"grader could not send the result: {plain(str(exc))}"))
        view = memoryview(frame)
        while view:
            view = view[os.write(write_end, view) :]
        os._exit(0)

    _channel = send
    try:
        value = job()
    except MemoryError as exc:
        exc.__traceback__ = None  # let the frames that held the memory go before answering
        del exc
        send(("memory", (budget or 0) // (1 << 20)))
    except BaseException as exc:  # SystemExit and KeyboardInterrupt from learner code included
        try:
            line = describe_error(exc)
        except BaseException:  # an exception whose str() itself fails
            line = plain(type(exc).__name__)
        send(("error", line))
    send(("ok", value))


def _close_inherited(keep: set[int]) -> None:
    """Close every descriptor the job inherited but ``keep``: the caller's files, sockets and pipes
    (a report being written, a kernel's channels) are not the learner code's to write to."""
    try:
        names = os.listdir("/proc/self/fd")
        inherited = sorted(int(name) for name in names if name.isdigit())
    except OSError:
        inherited = list(range(3, 1024))
    for fd in inherited:
        if fd > 2 and fd not in keep:
            try:
                os.close(fd)
            except OSError:
                pass


def _silence() -> None:
    """Point every output channel of the child at nothing (Python streams and file descriptors)."""
    sys.stdout = sys.stderr = _Sink()
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        try:
            os.dup2(devnull, fd)
        except OSError:
            pass
    sys.stdin = open(os.devnull)  # noqa: SIM115 (stays open for the child's life)


def _read_until(fd: int, deadline: float) -> tuple[bytes, bool]:
    """Read the job's message until it is whole, EOF or the deadline; returns (payload, timed_out).

    A payload shorter than its header announced (the job died mid-write) comes back as b"".
    """
    data = b""
    while True:
        if len(data) >= HEADER and len(data) >= HEADER + int.from_bytes(data[:HEADER], "big"):
            return data[HEADER : HEADER + int.from_bytes(data[:HEADER], "big")], False
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


def _collect(supervisor: int, gently: bool) -> int | None:
    """Wait for the supervisor to clean up and exit; its exit code (None if it had to be killed).

    When the caller gave up (deadline, Ctrl-C), the supervisor is asked first with SIGTERM, so it
    still ends the job's tree; SIGKILL on its process group is the last resort.
    """
    if not gently:
        try:
            os.kill(supervisor, signal.SIGTERM)
        except OSError:
            pass
    if wait_for(supervisor, time.monotonic() + GRACE):
        _, status = os.waitpid(supervisor, 0)
        return os.waitstatus_to_exitcode(status)
    for kill in (lambda: os.killpg(supervisor, signal.SIGKILL), lambda: os.kill(supervisor, signal.SIGKILL)):
        try:
            kill()
        except OSError:
            pass
    try:
        os.waitpid(supervisor, 0)
    except ChildProcessError:
        pass
    return None


def run_in_thread(job: Callable[[], Any], timeout: float) -> JobResult:
    box: list[JobResult] = []

    def send(message: tuple) -> None:
        raise Aborted(message[1])

    def target() -> None:
        global _channel
        _channel = send
        try:
            box.append(JobResult("ok", value=job()))
        except Aborted as stop:
            box.append(JobResult("aborted", value=stop.value))
        except MemoryError:
            box.append(JobResult("memory", value=0))
        except BaseException as exc:
            box.append(JobResult("error", error=describe_error(exc)))

    global _channel
    worker = threading.Thread(target=target, daemon=True)
    worker.start()
    try:
        worker.join(timeout)
    finally:
        _channel = None  # this process is the caller's: abort() outside a run must stay an error
    return box[0] if box else JobResult("timeout")
