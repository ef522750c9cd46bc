"""What learner code leaves behind its grading host, adopted and ended by the grading command (Linux).

Where a normal user gets no user namespace (so no PID namespace for the job) and Landlock scopes no signal,
an answer cell can start a process in a session of its own and kill every process between it and the
command: its supervisor, which would have ended it, and the grading host. It then outlived the grade and
killed every host the command started after it (round sixteen): ``harness-lab grade`` graded no notebook
after it, ``grade-class --unsandboxed`` stopped at once, and a later run met the same process.

A process whose parent dies goes to its nearest living ancestor that is a child subreaper. The command,
run as a command (``adopt``), is one: such a process comes to it once everything between them is gone,
and the command ends it, with all it started, after every notebook's call (so before the next is graded:
one that spared the host and killed only its own judge would kill the next notebook's, a crash told as that
learner's) and when it ends. A caller that imports the graders into a process of its own (a test, a
notebook) adopts nothing and ends nothing.
"""

from __future__ import annotations

import os
import time
from collections.abc import Collection

from .processes import become_subreaper, descendants, kill_group

__all__ = ["adopt", "end_adopted"]

_PR_GET_CHILD_SUBREAPER = 37
# Children this process had before it adopted anything: a shell's, when it ran `sleep 9 & exec harness-lab grade`.
# Never ended here, and never reaped, so their numbers cannot name another process.
_theirs: set[int] = set()


def adopt() -> None:
    """Make this process, the grading command, the one its hosts' orphaned descendants come to."""
    _theirs.update(_children())
    become_subreaper()


def end_adopted(keep: Collection[int] = (), within: float = 2.0) -> None:
    """Kill and reap every child of this process but ``keep`` (the grading hosts still at work) and those it had
    before ``adopt``, with all it started; nothing where this process adopts no orphans (``adopt``), whose other
    children are the caller's."""
    if not _adopts():
        return
    deadline = time.monotonic() + within
    keep = {*keep, *_theirs}
    while (adopted := [pid for pid in _children() if pid not in keep]) and time.monotonic() < deadline:
        for pid in adopted:
            for each in [pid, *descendants(pid)]:  # what a killed one started comes here next: caught sooner
                kill_group(each)
        time.sleep(0.002)
        for pid in adopted:  # a child of this process: its number is not reused before it is reaped here
            try:
                os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                pass


def _adopts() -> bool:
    """Whether this process is a child subreaper."""
    if not os.path.isdir("/proc"):
        return False
    try:
        import ctypes

        flag = ctypes.c_int(0)
        if ctypes.CDLL(None, use_errno=True).prctl(_PR_GET_CHILD_SUBREAPER, ctypes.byref(flag), 0, 0, 0) != 0:
            return False
    except (OSError, AttributeError):
        return False
    return flag.value != 0


def _children() -> list[int]:
    """This process's children, ended ones not yet reaped among them."""
    me, found = os.getpid(), []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                if int(f.read().rsplit(b")", 1)[1].split()[1]) == me:
                    found.append(int(entry))
        except (OSError, IndexError, ValueError):
            continue
    return found
