"""Run a learner's code under a time and memory limit, away from the kernel (lesson 6 exercises).

A grader must never hang the learner's kernel or CI, and an exception in the learner's code must
become one readable line, not a traceback wall. So each check runs in a forked process: it
inherits the learner's objects as they are (no pickling of functions), runs the job with its output
swallowed, and sends back one small summary over a pipe. The caller waits at most ``timeout``
seconds. Only the forked side ever touches the learner's objects: calling them, but also ``len``,
``==``, ``str`` or iterating, since any of those may be learner code that loops.

A supervisor is forked (see ``processes.py``), in a session of its own (so neither it nor the job has a
controlling terminal to write fake verdicts on); it enforces the deadline and at the end kills every process
the job started, including one that left the process group with ``setsid``, and says by its exit code that
it saw them all gone. Under it runs the job (where the system allows, the child of a PID namespace's init,
``namespaces.py``, so it cannot reach its supervisor, and what it started dies with that init), its address
space capped (``memory``) so that runaway growth ends as a MemoryError with a hint.

The summary is plain values only (``wire.py``): nothing the learner defined runs in the kernel.
``try_limited`` (``try_it.py``) is the same run for a try-it cell. A grading host (``host.py``)
passes ``setup``, which the supervisor calls before it forks the job: a private folder, namespaces;
what it returns, the job calls first (in the notebook's own PID namespace, ``namespaces.py``). There
the budget is owed in full: a hard limit inherited below it is the grader's failure, not a verdict.

Where ``os.fork`` is missing (Windows) the job runs in a daemon thread instead: the time limit still
returns control to the grader, though the runaway thread cannot be killed.
"""

from __future__ import annotations

import os
import signal
import threading
import time
import warnings
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from typing import Any, NoReturn

from . import folder_use, landlock, namespaces
from .processes import (
    become_subreaper,
    close_inherited,
    die_with_parent,
    end_session,
    end_tree,
    exit_code,
    first_to_go,
    keep_private,
    kill_group,
    limit_memory,
    prepare,
    private_memory,
    silence,
    wait_for,
    watch,
)
from .wire import HEADER, check_plain, describe_error, framed, plain, receive, send, write_all

__all__ = ["ANSWER_LIMIT", "JobResult", "MEMORY_LIMIT", "Started", "abort", "describe_error", "plain", "run_limited"]

# What a grading host prepares in the supervisor; what it returns, the job runs first.
Setup = Callable[[], Callable[[], None] | None]
# Where the running job sends its answer; set only inside a job (or the fallback thread).
_channel: Callable[[tuple], NoReturn] | None = None
# Inside a job: the write end of its own answer pipe. A run started from the job closes it in its
# children, so learner code below can never answer in the job's name.
_answer_fd: int | None = None
# Bytes a job may add to its address space beyond what it had at the fork.
MEMORY_LIMIT = 1 << 30
# Bytes of the one message a job answers with. What the graders send is a summary of kilobytes; a
# larger message comes from learner code that writes to its answer pipe itself, and unread it costs
# nothing: a judge that read and passed on 30 MB of it made its host too slow to answer in time.
ANSWER_LIMIT = 1 << 20
# How long the caller waits past the deadline for the supervisor to clean up before killing it.
GRACE = 2.0
# The supervisor's exit code when it killed the job at the deadline.
_TIMED_OUT = 3
# ... and when, in the sandbox, the job and everything it starts held more than its allowance
# together (RLIMIT_AS caps each process alone, and a job may start hundreds).
_OUT_OF_MEMORY = 4
# ... and when, graded without the sandbox, the job's folder held more than ``folder_use`` allows.
_FOLDER_FULL = 5
# ... plus this when it did not see the job's whole tree gone: the caller then ends what is left in its session.
_LEFT_SOME = 16


@dataclass(frozen=True)
class JobResult:
    """What came back from a limited run.

    ``status``: "ok" (the job returned ``value``), "error" (the job raised: ``error`` is one line),
    "aborted" (a detector inside the job called ``abort(value)``), "timeout", "memory" (the job
    went over its memory cap: ``value`` is the cap in MB), "folder" (the folder watched held more than
    ``folder_use`` allows: ``value`` is its limits, MB and entries), "crashed" (the job died without
    answering, e.g. killed by the system), "tampered" (what came back is no answer ``_child`` sends:
    garbled, over ``ANSWER_LIMIT`` or of another shape, written to the pipe by learner code), or
    "unavailable" (``setup`` or the memory cap failed: ``error`` says why).
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


def abort(value: Any) -> NoReturn:
    """From inside a limited job: stop the job now and hand ``value`` back as an "aborted" outcome.

    A runaway detector (say, a scripted model counting its calls) uses this to end a loop that would
    otherwise run until the timeout. Outside a limited run it raises RuntimeError.
    """
    if _channel is None:
        raise RuntimeError("abort() is only meaningful inside run_limited()")
    _channel(("aborted", value))


def run_limited(
    job: Callable[[], Any],
    timeout: float = 5.0,
    *,
    memory: int | None = MEMORY_LIMIT,
    setup: Setup | None = None,
    watched: str | None = None,
) -> JobResult:
    """Run ``job()`` in a child process for at most ``timeout`` seconds; never raises for the job.

    ``job`` must return plain values (see the module docstring): a summary of what it saw, not
    the learner's objects. ``memory`` is the job's allowance in bytes beyond its size at the fork
    (None: no cap). ``setup()`` runs in the supervisor before it forks the job (no learner code
    has run there); if it raises, the outcome is "unavailable" and the job never starts. ``watched``: a
    folder on the caller's disk whose total the supervisor bounds (``folder_use``).
    """
    if not hasattr(os, "fork"):
        return run_in_thread(job, timeout)
    started = Started(job, timeout, memory, setup=setup, watched=watched)
    return started.finish(started.deadline + GRACE)


class Started:
    """A limited run under way: ``read_end`` becomes readable when the job has answered or died.

    ``bridge.observe`` talks to the job while it runs and then calls ``finish``; ``run_limited``
    only waits. ``finish(until)`` reads the answer until ``until``; ``stop()`` gives up on the job.
    """

    def __init__(
        self,
        job: Callable[[], Any],
        timeout: float,
        memory: int | None,
        keep: tuple[int, ...] = (),
        setup: Setup | None = None,
        watched: str | None = None,
    ) -> None:
        prepare()
        read_end, write_end = os.pipe()
        with warnings.catch_warnings():
            # Python 3.12+ warns that forking a threaded process (a Jupyter kernel is one) may deadlock; the
            # child only runs the job and exits, and the warning would land in the graded output.
            warnings.simplefilter("ignore", DeprecationWarning)
            supervisor = os.fork()
        if supervisor == 0:  # never return into the caller's stack
            code = 1
            try:
                os.close(read_end)
                if _answer_fd is not None:
                    os.close(_answer_fd)
                code = _supervise(job, write_end, timeout, memory, keep, setup, watched)
            finally:
                os._exit(code)
        os.close(write_end)
        self.supervisor, self.read_end = supervisor, read_end
        self.deadline = time.monotonic() + timeout
        self.tree_cap = memory if memory and setup is not None else None

    def finish(self, until: float) -> JobResult:
        message, end = None, "late"
        try:
            message, end = receive(self.read_end, until, ANSWER_LIMIT)
        finally:
            os.close(self.read_end)
            code = _collect(self.supervisor, gently=end in ("whole", "garbled", "ended"))
        if end == "whole":
            try:
                status, value = message
            except (TypeError, ValueError):  # learner code wrote to the pipe itself
                return JobResult("tampered")
            if status in ("error", "unavailable"):
                return JobResult(status, error=value)
            return JobResult(status, value=value)
        if end in ("garbled", "oversized"):  # as above: no answer the job's own code sends
            return JobResult("tampered")
        if code == _OUT_OF_MEMORY and self.tree_cap:
            return JobResult("memory", value=self.tree_cap >> 20)
        if code == _FOLDER_FULL:
            return JobResult("folder", value=(folder_use.BYTES >> 20, folder_use.ENTRIES))
        return JobResult("timeout") if end == "late" or code == _TIMED_OUT else JobResult("crashed")

    def stop(self) -> None:
        """End the job's whole tree now, its answer unread."""
        os.close(self.read_end)
        _collect(self.supervisor, gently=False)


def _supervise(
    job: Callable[[], Any],
    write_end: int,
    timeout: float,
    memory: int | None,
    keep: tuple[int, ...] = (),
    setup: Setup | None = None,
    watched: str | None = None,
) -> int:
    """The supervisor: fork the job, wait for it until the deadline, then end its whole tree."""
    silence()
    os.setsid()  # a session of its own: no controlling terminal for the job and what it starts
    adopted = become_subreaper()
    inside = None
    if setup is not None:
        try:
            inside = setup()
        except BaseException as exc:  # the caller learns why; no learner code ever ran
            send(write_end, ("unavailable", describe_error(exc)))
            return 0

    def stop(signum: int, frame: Any) -> None:
        raise _Stop()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the caller decides; a Ctrl-C reaches it, not us
    die_with_parent(signal.SIGTERM)
    # Watched only in the sandbox (``setup`` made the notebook's namespaces): there the process table
    # holds just this host's processes, so a look at it every few milliseconds is cheap. The job
    # starts as a copy of this process: its size now, plus the allowance, for the whole tree.
    tree_cap = private_memory("self") + memory if setup and memory else None
    deadline = time.monotonic() + timeout
    # The outermost run only (and where setup made none): a run nested in a job is inside that job's
    # namespace already, which ends with it, and each namespace costs a fork and tens of milliseconds.
    alone = _answer_fd is None and namespaces.make()

    def start_job() -> None:
        code = 1
        try:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.setpgid(0, 0)
            die_with_parent(signal.SIGKILL)
            _child(job, write_end, _entered(write_end, inside, memory, whole=setup is not None), keep)
        finally:
            os._exit(code)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid == 0:
        if not alone:
            start_job()
        code = 1
        try:
            die_with_parent(signal.SIGKILL)
            code = namespaces.init(start_job)
        finally:
            os._exit(code)
    with suppress(OSError):
        os.setpgid(pid, pid)  # both sides set it, so the group exists whichever runs first
    os.close(write_end)  # the caller sees the end of the pipe once the job's side is gone
    outcome = "deadline"
    try:
        # Below a namespace's init only: the init is one more copy of this process, which the cap (one
        # copy plus the allowance) would otherwise count against the learner.
        outcome = watch(pid, deadline, tree_cap, root=pid if alone else None, folder=watched)
    except _Stop:
        pass
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        swept = end_tree(pid, adopted)
    code = {"ended": 0, "deadline": _TIMED_OUT, "memory": _OUT_OF_MEMORY, "folder": _FOLDER_FULL}[outcome]
    return code if swept else code | _LEFT_SOME


def _entered(write_end: int, inside: Callable[[], None] | None, memory: int | None, whole: bool) -> int | None:
    """In the job, first: ``inside`` (``setup``'s answer), the memory cap; its budget or None. On failure: "unavailable"."""
    try:
        if inside is not None:
            inside()
        return memory if limit_memory(memory, whole=whole) else None
    except BaseException as exc:
        send(write_end, ("unavailable", describe_error(exc)))
        os._exit(0)


def _child(job: Callable[[], Any], write_end: int, budget: int | None, keep: tuple[int, ...] = ()) -> None:
    global _channel, _answer_fd
    close_inherited({write_end, *keep})
    silence()
    first_to_go()
    keep_private()
    landlock.confine()  # where no PID namespace hides its caller and supervisor, the kernel still keeps them
    _answer_fd = write_end
    answering = os.getpid()

    def send(message: tuple) -> NoReturn:
        if os.getpid() != answering:  # a copy the job forked and left running: two answers would garble
            os._exit(0)
        try:
            check_plain(message)
            frame = framed(message)
        except Exception as exc:  # the job returned something that cannot travel
            frame = framed(("error", f"grader could not send the result: {plain(str(exc))}"))
        # No grader answers with more: learner code sent it in the grader's name, and its header alone tells
        # the caller so (read no further), without the job blocking on a pipe nobody empties.
        write_all(write_end, frame if len(frame) <= HEADER + ANSWER_LIMIT else frame[:HEADER])
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


def _collect(supervisor: int, gently: bool) -> int | None:
    """Wait for the supervisor to clean up and exit; its exit code (None if it had to be killed).

    When the caller gave up (deadline, Ctrl-C), the supervisor is asked first with SIGTERM, so it
    still ends the job's tree; SIGKILL on its process group is the last resort. Learner code can
    stop its supervisor (SIGSTOP to its parent), so the SIGTERM comes with a SIGCONT: a supervisor
    killed while stopped would leave the job's own children running.
    """
    if not gently:
        for signum in (signal.SIGTERM, signal.SIGCONT):
            with suppress(OSError):
                os.kill(supervisor, signum)
    if wait_for(supervisor, time.monotonic() + GRACE):
        code = exit_code(supervisor)  # read before it is reaped, while its number still names its session
        # Killed by learner code, or it saw some of the job's tree left: end the rest (a look at every process)
        if code not in (0, _TIMED_OUT, _OUT_OF_MEMORY, _FOLDER_FULL):
            end_session(supervisor)
        os.waitpid(supervisor, 0)
        return code & ~_LEFT_SOME if code > 0 else code
    kill_group(supervisor)
    end_session(supervisor)  # kept stopped, it could not end the job's tree itself
    with suppress(ChildProcessError):
        os.waitpid(supervisor, 0)
    return None


def run_in_thread(job: Callable[[], Any], timeout: float) -> JobResult:
    box: list[JobResult] = []
    done = threading.Event()

    def send(message: tuple) -> NoReturn:
        # The first abort is the outcome at once: code under test that catches BaseException would swallow
        # the unwinding (where a forked job's abort ends the process) and return, or ask again until the timeout.
        if not box:
            box.append(JobResult("aborted", value=message[1]))
        done.set()
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
        done.set()

    global _channel
    worker = threading.Thread(target=target, daemon=True)
    worker.start()
    try:
        done.wait(timeout)
    finally:
        _channel = None  # this process is the caller's: abort() outside a run must stay an error
    return box[0] if box else JobResult("timeout")
