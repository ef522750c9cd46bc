"""A PID namespace of its own for a limited run's job, where the system gives one (Linux).

Outside the grading sandbox (a try-it, check or grade cell in the learner's own kernel, ``harness-lab
grade`` where no sandbox works) learner code runs as its caller's user, so it can kill or stop its
supervisor, the one process that ends what the job started (``processes.py``). A process it had put
in a session of its own first (``setsid``, or a daemon's double fork) was then no one's to end, and
ran on after the grade: nothing but a namespace can hide the supervisor from code of the same user.

So the supervisor unshares a PID namespace before it forks (as root plainly, else inside a user
namespace that maps only the caller's own uid, as ``unshare -r`` would), and its child becomes that
namespace's init: a few lines of this module, which start the job and wait for it. From inside, no
process outside the namespace can be named, the supervisor and the caller included, and the kernel
delivers to its init no signal it has not installed a handler for (it keeps none: SIGKILL and
SIGSTOP from the job are dropped). When the init ends, because the job did or because the
supervisor killed it at the deadline, the kernel kills every process left in the namespace, in
whatever session or group it put itself. The job is the init's child, not the init, so it still
dies of its own ``os.kill(os.getpid(), SIGKILL)`` as it did before.

Where the kernel refuses (no user namespaces for normal users, a container's filter) the run goes on
as before, with the subreaper and the session to end it.
"""

from __future__ import annotations

import ctypes
import os
import signal
from collections.abc import Callable

__all__ = ["init", "make"]

_CLONE_NEWUSER = 0x10000000
_CLONE_NEWPID = 0x20000000
_PR_SET_DUMPABLE = 4


def make() -> bool:
    """In the supervisor, before its fork: a new PID namespace for the next child; False where none is made.

    None is made either when ``setup`` already made one (the sandbox's, ``namespaces.py``) or when
    the kernel refuses.
    """
    try:
        if os.readlink("/proc/self/ns/pid") != os.readlink("/proc/self/ns/pid_for_children"):
            return False
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.unshare(_CLONE_NEWPID) == 0:  # root (or holding CAP_SYS_ADMIN where it runs)
            return True
        uid, gid = os.getuid(), os.getgid()
        # /proc/self/*_map belong to root while the process is not dumpable (a grading host made itself so)
        dumpable = libc.prctl(_PR_SET_DUMPABLE, 1, 0, 0, 0) == 0
        try:
            if libc.unshare(_CLONE_NEWUSER | _CLONE_NEWPID) != 0:
                return False
            for name, line in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"), ("gid_map", f"{gid} {gid} 1")):
                with open(f"/proc/self/{name}", "w") as f:
                    f.write(line)
        finally:
            if dumpable:
                # Not dumpable from here on either way: learner code may still see this process in /proc,
                # and with the same uid could otherwise rewrite its memory through /proc/PID/mem.
                libc.prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)
        return True
    except (OSError, AttributeError):
        return False


def init(start: Callable[[], None]) -> int:
    """As PID 1 of the new namespace: fork ``start`` (the job; it never returns), reap every process
    that ends, and return the job's exit code once it has ended (the caller then exits with it)."""
    # A handler the caller or the supervisor installed would let the job signal this process: every
    # signal back to its default, which the kernel does not deliver to an init from inside.
    for signum in signal.valid_signals():
        if callable(signal.getsignal(signum)):
            signal.signal(signum, signal.SIG_DFL)
    job = os.fork()
    if job == 0:
        start()
    while True:
        pid, status = os.waitpid(-1, 0)
        if pid == job:
            return os.waitstatus_to_exitcode(status)
