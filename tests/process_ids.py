"""The pid a test can look up, learned from inside a limited run.

A limited run's job lives in a PID namespace of its own where the system gives one
(``harness_lab/grading/namespaces.py``), with a ``/proc`` of that namespace: there ``os.getpid()``,
``os.fork()`` and ``/proc/self`` answer that namespace's numbers, which name other processes (or none)
in the test's ``/proc``. So the job asks the test process instead: it connects to a unix socket this
module listens on in the test process, and the kernel tells the listening side the connecting
process's pid in the listener's own namespace (``SO_PEERCRED``).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import socket
import struct
import tempfile
import threading


def _answer_pids(listener: socket.socket) -> None:
    while True:
        conn, _ = listener.accept()
        with conn, contextlib.suppress(OSError):  # a job killed while it asked: the next one is still answered
            pid, _, _ = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12))
            conn.sendall(str(pid).encode())


def _listen() -> str | None:
    """Listen (in a thread) on a socket of a fresh folder, before any job is forked: its address."""
    if not hasattr(socket, "SO_PEERCRED"):
        return None
    folder, owner = tempfile.mkdtemp(prefix="harness_lab_pids_"), os.getpid()
    # Removed by the test process alone: a forked child that ran its exit handlers would take it from the rest
    atexit.register(lambda: os.getpid() == owner and shutil.rmtree(folder, ignore_errors=True))
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(os.path.join(folder, "pid"))
    listener.listen(64)
    threading.Thread(target=_answer_pids, args=(listener,), daemon=True).start()
    return listener.getsockname()


_ADDRESS = _listen()


def seen_pid() -> int:
    """This process's pid as the test process sees it."""
    if _ADDRESS is None:
        return os.getpid()
    with socket.socket(socket.AF_UNIX) as conn:
        conn.connect(_ADDRESS)
        return int(conn.recv(32))


def namespaces_for_a_user(uid: int) -> bool:
    """Would a limited run started by ``uid`` (a grading host's own user, when the tests run as root) get a
    PID namespace of its own? Asked in a child that becomes that user."""
    from harness_lab.grading import namespaces

    child = os.fork()
    if child == 0:
        try:
            if os.geteuid() == 0:
                os.setgroups([])
                os.setgid(uid)
                os.setuid(uid)
            os._exit(0 if namespaces.make() else 1)
        finally:
            os._exit(2)
    return os.waitstatus_to_exitcode(os.waitpid(child, 0)[1]) == 0


def landlock_abi() -> int:
    """The kernel's Landlock ABI version; 0 or less where it has none."""
    import ctypes

    if not os.path.isdir("/proc"):
        return 0
    return int(ctypes.CDLL(None, use_errno=True).syscall(ctypes.c_long(444), None, 0, 1))  # ..._RULESET_VERSION


def landlock_scopes_jobs() -> bool:
    """Whether the kernel's Landlock can keep a job's signals and abstract sockets in its domain (ABI 6,
    Linux 6.12): where no namespace is made, the job's domain (``landlock.py``) is what keeps it from its
    caller and supervisor."""
    return landlock_abi() >= 6
