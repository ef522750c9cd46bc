"""The pid a test can look up, written from inside a limited run.

A limited run's job lives in a PID namespace of its own where the system gives one
(``harness_lab/grading/namespaces.py``): there ``os.getpid()`` and ``os.fork()`` answer that
namespace's numbers, which name other processes (or none) in the test's ``/proc``. ``/proc/self``
is resolved in the namespace ``/proc`` was mounted for, the test's.
"""

from __future__ import annotations

import os


def seen_pid() -> int:
    """This process's pid as the test process sees it."""
    return int(os.readlink("/proc/self")) if os.path.isdir("/proc") else os.getpid()


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
