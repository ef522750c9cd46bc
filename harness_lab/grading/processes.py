"""The process tree of one limited run: a supervisor that outlives the job and leaves nothing behind.

``sandbox.run_limited`` forks a *supervisor*, which forks the *job*. Learner code runs only in the
job and whatever it starts. On Linux the supervisor is a child subreaper (``prctl``): a process the
job starts, even one that calls ``os.setsid()`` to leave the job's process group or forks twice to
become a daemon, is re-parented to the supervisor instead of to init when its parent dies. So when
the job ends (answered, raised, or killed at the deadline) the supervisor can find every descendant
under ``/proc`` and kill it. Elsewhere (no ``prctl`` or no ``/proc``) it kills the job's process
group, which catches everything but a process that left the group.

Where the system gives one, the job lives in a PID namespace of its own (``namespaces.py``), from
which its supervisor cannot be named, and with a ``/proc`` of that namespace: a run nested in the job
finds its own processes there by the pids its ``fork`` returned. Elsewhere learner code can kill its supervisor, or stop it again
each time it is let run. Its caller then ends the supervisor's session itself (``end_session``): every
process the job started is in it, unless it called ``os.setsid()`` too.

The job's address space is capped (``RLIMIT_AS``) at what it had at the fork plus a budget, so a
learner's ever-growing list raises MemoryError in the job instead of eating the machine. Both
processes print into nothing (``silence``), and the job starts with none of its caller's descriptors
open but its answer pipe (``close_inherited``).
"""

from __future__ import annotations

import os
import select
import signal
import sys
import time
from typing import Any

from . import folder_use, landlock

__all__ = [
    "Sink",
    "close_inherited",
    "become_subreaper",
    "descendants",
    "die_with_parent",
    "end_session",
    "end_tree",
    "exit_code",
    "kill_group",
    "first_to_go",
    "keep_private",
    "limit_memory",
    "MemoryShort",
    "prepare",
    "private_memory",
    "room_left",
    "silence",
    "tree_memory",
    "wait_for",
    "watch",
]

_PR_SET_PDEATHSIG = 1
_PR_SET_DUMPABLE = 4
_PR_SET_CHILD_SUBREAPER = 36
_prctl = None  # libc's prctl, loaded on first use (Linux only)


def _call_prctl(option: int, value: int) -> bool:
    global _prctl
    if not os.path.isdir("/proc"):  # not Linux: prctl does not exist
        return False
    try:
        if _prctl is None:
            import ctypes

            _prctl = ctypes.CDLL(None, use_errno=True).prctl
        return _prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def prepare() -> None:
    """Load what the forked processes will need, once, in the caller: each fork then inherits it."""
    _call_prctl(-1, 0)  # an unknown option: only loads libc's prctl
    landlock.available()  # the job's question to the kernel, asked here once (landlock.py)
    try:
        import resource  # noqa: F401
    except ImportError:
        pass


def become_subreaper() -> bool:
    """Make this process adopt its orphaned descendants; False where the system cannot."""
    return _call_prctl(_PR_SET_CHILD_SUBREAPER, 1)


def keep_private() -> bool:
    """Close this process's ``/proc/PID/fd`` and memory to other processes of the same user (Linux).

    A grader's pipes could otherwise be reopened for writing through ``/proc`` by the learner's code
    it runs in a child; only root can still reach them (see docs/classroom.md).
    """
    return _call_prctl(_PR_SET_DUMPABLE, 0)


def first_to_go() -> None:
    """Ask the kernel to end this process (and what it starts) first when memory runs out, before the
    grader or anything else of the machine's (Linux; elsewhere nothing). Run before ``keep_private``:
    a process that is not dumpable cannot write its own ``/proc`` files."""
    dumpable = _call_prctl(_PR_SET_DUMPABLE, 1)
    try:
        with open("/proc/self/oom_score_adj", "w") as f:
            f.write("1000")
    except OSError:
        pass
    if dumpable:
        _call_prctl(_PR_SET_DUMPABLE, 0)


def die_with_parent(signum: int) -> None:
    """Have the kernel send ``signum`` to this process when its parent dies (Linux; else nothing)."""
    _call_prctl(_PR_SET_PDEATHSIG, signum)


class MemoryShort(Exception):
    """The address space this process may still grow by is less than the budget its run was promised."""


def limit_memory(budget: int | None, whole: bool = False) -> int | None:
    """Cap this process's address space at its present size plus ``budget`` bytes; the cap, or None.

    The hard limit is lowered too, so the job cannot raise it back; a nested limited run asks for
    no more than the cap it inherited. With ``whole`` (a grading host's call, whose budget is owed
    in full) a hard limit below that raises ``MemoryShort`` instead: something lowered the host's own
    limit, and a memory verdict under it would be the grader's doing, not the learner's.
    """
    if not budget:
        return None
    try:
        import resource

        size = _address_space()
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        cap = size + budget
        if hard != resource.RLIM_INFINITY and hard < cap:
            if whole:
                raise MemoryShort(f"the grading host may grow by {max(hard - size, 0) >> 20} MB, not {budget >> 20} MB")
            cap = hard
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
        return cap
    except (ImportError, OSError, ValueError, StopIteration):  # no /proc, no resource module
        return None


def room_left() -> int | None:
    """Bytes this process's address space may still grow by under its cap; None where it has no cap or
    that cannot be read."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        return None if soft == resource.RLIM_INFINITY else max(soft - _address_space(), 0)
    except (ImportError, OSError, ValueError, StopIteration):
        return None


def _address_space() -> int:
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmSize:"))


def wait_for(pid: int, deadline: float) -> bool:
    """Wait until child ``pid`` has ended or ``deadline`` (monotonic) passes; True if it ended.

    The child is left unreaped, so its pid (which names its process group) stays taken until
    ``end_tree`` has killed that group.
    """
    fd = None
    if hasattr(os, "pidfd_open"):
        try:
            fd = os.pidfd_open(pid)
        except OSError:
            fd = None
    try:
        while True:
            if os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
                return True
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            if fd is not None:
                select.select([fd], [], [], remaining)
            else:
                time.sleep(min(remaining, 0.005))
    finally:
        if fd is not None:
            os.close(fd)


def exit_code(pid: int) -> int:
    """The exit code of child ``pid``, which has ended, or minus the signal that killed it; left unreaped."""
    ended = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
    assert ended is not None  # without WNOHANG it waits
    return ended.si_status if ended.si_code == os.CLD_EXITED else -ended.si_status


def watch(pid: int, deadline: float, memory: int | None, root: int | None = None, folder: str | None = None) -> str:
    """Wait as ``wait_for`` does: "ended" or "deadline"; with ``memory``, also "memory" as soon as the
    descendants of ``root`` (default: this process) together hold more than ``memory`` bytes, and with
    ``folder``, "folder" as soon as it holds more than ``folder_use.over`` allows (checked every
    ``WATCH_EVERY`` s).

    ``RLIMIT_AS`` caps each process alone, and a job may start hundreds; this is the cap on them all.
    """
    if memory is None and folder is None:
        return "ended" if wait_for(pid, deadline) else "deadline"
    while True:
        if wait_for(pid, min(deadline, time.monotonic() + WATCH_EVERY)):
            return "ended"
        if time.monotonic() >= deadline:
            return "deadline"
        if memory is not None and tree_memory(os.getpid() if root is None else root) > memory:
            return "memory"
        if folder is not None and folder_use.over(folder):
            return "folder"


WATCH_EVERY = 0.05


def tree_memory(root: int) -> int:
    """Bytes of private memory the live processes below ``root`` hold in RAM together."""
    return sum(private_memory(pid) for pid in descendants(root))


def private_memory(pid: int | str) -> int:
    """Bytes of memory process ``pid`` holds in RAM but for files' pages, a page shared with other
    processes counted as its share (``Pss_Anon`` and ``Pss_Shmem``): a job forked from a large caller
    shares the caller's pages, and counted whole in each forked copy they stopped a small job under a
    large caller. Where the kernel has no ``smaps_rollup``, ``RssAnon`` and ``RssShmem`` (each copy whole,
    the cautious side); 0 once it is gone."""
    for name, keys in (("smaps_rollup", ("Pss_Anon:", "Pss_Shmem:")), ("status", ("RssAnon:", "RssShmem:"))):
        try:
            with open(f"/proc/{pid}/{name}") as f:
                found = [int(line.split()[1]) << 10 for line in f if line.startswith(keys)]
        except FileNotFoundError:
            continue
        except (OSError, IndexError, ValueError):
            return 0
        if found:
            return sum(found)
    return 0


def kill_group(pid: int) -> None:
    """SIGKILL the process group ``pid`` leads, and ``pid`` itself (which may have left it)."""
    for kill in (os.killpg, os.kill):
        try:
            kill(pid, signal.SIGKILL)
        except OSError:
            pass


def end_tree(job: int, adopted: bool, within: float = 2.0) -> bool:
    """Kill the job, its process group and (when ``adopted``) every descendant; reap them all. True when
    the whole tree is seen gone.

    With the subreaper set, a live descendant always has a live ancestor among this process's
    children, so "no child left to wait for" means the whole tree is gone. Without it, a process
    that left the job's group may still run: False.
    """
    kill_group(job)
    try:
        os.waitpid(job, 0)
    except ChildProcessError:
        pass
    deadline = time.monotonic() + within
    while (left := _reap_children()) and adopted and time.monotonic() < deadline:
        _kill_each(descendants(os.getpid()))
        time.sleep(0.002)
    return adopted and not left


def end_session(session: int, within: float = 2.0) -> None:
    """Kill every live process of ``session`` (a supervisor's pid: it called ``setsid``) until none is left.

    The caller runs this before it reaps the supervisor, so the number cannot have been reused.
    """
    if not os.path.isdir("/proc"):
        return
    deadline = time.monotonic() + within
    while (found := [pid for pid, fields in _live() if int(fields[3]) == session]) and time.monotonic() < deadline:
        _kill_each(found)
        time.sleep(0.002)


def _kill_each(pids: list[int]) -> None:
    """SIGKILL each of ``pids``; one that has already gone is no error."""
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def _reap_children() -> bool:
    """Collect every child that has ended; True while some child is still running."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return False
        if pid == 0:
            return True


def _live() -> list[tuple[int, list[bytes]]]:
    """Live processes (zombies left out: they only wait to be reaped) with their ``/proc/PID/stat``
    fields after the name: state, parent, group, session, ..."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[0] != b"Z":
            found.append((int(entry), fields))
    return found


def descendants(root: int) -> list[int]:
    """Live processes below ``root``, from /proc."""
    children: dict[int, list[int]] = {}
    for pid, fields in _live():
        children.setdefault(int(fields[1]), []).append(pid)
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), ()):
            found.append(child)
            todo.append(child)
    return found


class Sink:
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


def close_inherited(keep: set[int]) -> None:
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


def silence() -> None:
    """Point every output channel of the child at nothing (Python streams and file descriptors)."""
    sys.stdout = sys.stderr = Sink()
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        try:
            os.dup2(devnull, fd)
        except OSError:
            pass
    sys.stdin = open(os.devnull)  # noqa: SIM115 (stays open for the child's life)
