"""A Landlock domain of its own for a limited run's job: no signal, ``/proc`` look or abstract socket outside it.

Where the kernel gives a normal user no user namespace (Ubuntu 24.04's AppArmor rule, a container's
filter), the job has no PID namespace either (``namespaces.py``), and learner code runs as its
caller's user: it could read ``/proc/<caller>/environ`` (the key), write into ``/proc/<caller>/fd/1``
(a verdict of its own), stop or kill its supervisor, and ``kill(-1)`` every process of that user.

Landlock needs no namespace and no privilege, only ``no_new_privs``. A process in a domain may not
trace, nor read the memory, environment or descriptors of, a process outside it (the kernel's ptrace
check, which ``/proc/PID/environ``, ``mem`` and ``fd`` go through), and with ``LANDLOCK_SCOPE_SIGNAL``
(ABI 6, Linux 6.12) may not signal one either: ``kill(-1)`` reaches only the job's own processes.
``LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET`` (the same ABI) keeps it from connecting to an abstract unix
socket made outside (they have no owner or mode: any process of the machine's network namespace could
otherwise reach one of its caller's, or another user's).
The job's own children inherit the domain, so it still ends what it started, and its supervisor, outside,
still ends it. No file access is restricted: the ruleset handles none.

A process outside the domain may still run code for the job: a Jupyter kernel of the same user (the
instructor's, its environment holding the key) takes code from whoever reads its connection file, which
the kernel's command line names, and it listens on TCP ports of 127.0.0.1. ``no_tcp`` (ABI 4, Linux
6.7) enters a layer that handles binding and connecting TCP sockets and allows no port: a grading host
without the sandbox, whose answer cells have no business on the network, calls it for every notebook.
A kernel on Jupyter's IPC transport (Unix sockets in its runtime folder) is not covered: Landlock has no
rule for connecting to a named socket yet.

Where the kernel is older, has Landlock off, or a nested run is past the kernel's 16 layers, nothing
changes and ``confine`` and ``no_tcp`` say False.
"""

from __future__ import annotations

import ctypes
import os
import platform
import sys

__all__ = ["confine", "no_tcp"]

# The generic table's numbers, which x86, ARM, RISC-V, POWER and s390 share; alpha and MIPS offset theirs,
# so there 444 is another call or none, and nothing is tried.
_CREATE_RULESET, _RESTRICT_SELF = 444, 446
_OFFSET_TABLES = ("alpha", "mips")
_SCOPE_ABSTRACT_UNIX_SOCKET, _SCOPE_SIGNAL = 1 << 0, 1 << 1
_NET_BIND_TCP, _NET_CONNECT_TCP = 1 << 0, 1 << 1
_CREATE_RULESET_VERSION = 1 << 0
_PR_SET_NO_NEW_PRIVS = 38


class _Ruleset(ctypes.Structure):
    _fields_ = [
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),
        ("scoped", ctypes.c_uint64),
    ]


def confine() -> bool:
    """Put this process (and what it starts from now on) in a new Landlock domain scoped for signals and
    abstract unix sockets; False where the kernel cannot."""
    return _restrict(_Ruleset(0, 0, _SCOPE_SIGNAL | _SCOPE_ABSTRACT_UNIX_SOCKET))


def no_tcp() -> bool:
    """Put this process (and what it starts from now on) in a Landlock layer where no TCP socket binds or
    connects to any port; False where the kernel cannot (before ABI 4 the network field is unknown)."""
    return _restrict(_Ruleset(0, _NET_BIND_TCP | _NET_CONNECT_TCP, 0), needs=4)


def _restrict(ruleset: _Ruleset, needs: int = 1) -> bool:
    if sys.platform != "linux" or platform.machine().startswith(_OFFSET_TABLES):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.syscall(ctypes.c_long(_CREATE_RULESET), None, 0, _CREATE_RULESET_VERSION) < needs:
            return False
        fd = libc.syscall(ctypes.c_long(_CREATE_RULESET), ctypes.byref(ruleset), ctypes.sizeof(ruleset), 0)
        if fd < 0:  # before ABI 6 the scope is unknown, and a ruleset that handles nothing is refused
            return False
        try:
            if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
                return False
            return bool(libc.syscall(ctypes.c_long(_RESTRICT_SELF), fd, 0) == 0)
        finally:
            os.close(fd)
    except (OSError, AttributeError):
        return False
