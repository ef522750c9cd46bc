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
still ends it. ``confine`` restricts no file access: its ruleset handles none.

A process outside the domain may still run code for the job: a Jupyter kernel of the same user (the
instructor's, its environment holding the key) takes code from whoever reads its connection file, which
the kernel's command line names, and it listens on TCP ports of 127.0.0.1. ``keep_to``'s layer handles
binding and connecting TCP sockets (ABI 4, Linux 6.7) and allows no port: a grading host without the
sandbox, whose answer cells have no business on the network, enters it for every notebook. A kernel on
Jupyter's IPC transport (Unix sockets in its runtime folder) is not covered: Landlock has no rule for
connecting to a named socket yet (the host's seccomp filter refuses ``socket(AF_UNIX)`` instead).

The same host's answer cells run as the instructor's user, so they could also write the instructor's files
(``~/.bashrc``, an IPython start-up file, a ``.pth`` in a venv: code run later as the instructor; a
classmate's notebook, the report) and read them (the solutions, classmates' notebooks, a key kept in a
file). ``keep_to`` is one layer for both: no TCP where the kernel has network rules, and files (ABI 1,
Linux 5.13) read only beneath the folders the sandbox would show (``isolation.readable``) and written only
beneath the job's own folder. Landlock does not cover ``chmod``, ``chown``, ``utime`` or extended
attributes, nor, before ABI 3, ``truncate`` by name.

Where the kernel is older, has Landlock off, or a nested run is past the kernel's 16 layers, nothing
changes and ``confine`` and ``keep_to`` say False.
"""

from __future__ import annotations

import ctypes
import functools
import os
import platform
import stat
import sys
from collections.abc import Iterable

__all__ = ["available", "confine", "keep_to", "scopes_signals"]

# The generic table's numbers, which x86, ARM, RISC-V, POWER and s390 share; alpha and MIPS offset theirs,
# so there 444 is another call or none, and nothing is tried.
_CREATE_RULESET, _ADD_RULE, _RESTRICT_SELF = 444, 445, 446
_OFFSET_TABLES = ("alpha", "mips")
_SCOPE_ABSTRACT_UNIX_SOCKET, _SCOPE_SIGNAL = 1 << 0, 1 << 1
_NET_BIND_TCP, _NET_CONNECT_TCP = 1 << 0, 1 << 1
_CREATE_RULESET_VERSION = 1 << 0
_RULE_PATH_BENEATH = 1
# Files: execute, write, read, list, then removing and making each kind of entry (ABI 1); linking or
# renaming across folders (``REFER``, ABI 2); truncating (ABI 3). ``IOCTL_DEV`` (ABI 5) is left unhandled.
_FS_READS = (1 << 0) | (1 << 2) | (1 << 3)
_FS_ALL = {1: (1 << 13) - 1, 2: (1 << 14) - 1, 3: (1 << 15) - 1}
_FS_FILE_ONLY = (1 << 0) | (1 << 1) | (1 << 2) | (1 << 14)  # the rights a rule on a file (not a folder) may give
_PR_SET_NO_NEW_PRIVS = 38


class _Ruleset(ctypes.Structure):
    _fields_ = [
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),
        ("scoped", ctypes.c_uint64),
    ]


def available() -> bool:
    """Whether the kernel has Landlock's file rules, which ``keep_to`` would enter."""
    return _abi() >= 1


def scopes_signals() -> bool:
    """Whether ``confine`` would keep this process's signals to its own domain (ABI 6, Linux 6.12)."""
    return _abi() >= 6


def confine() -> bool:
    """Put this process (and what it starts from now on) in a new Landlock domain scoped for signals and
    abstract unix sockets; False where the kernel cannot."""
    return _restrict(_Ruleset(0, 0, _SCOPE_SIGNAL | _SCOPE_ABSTRACT_UNIX_SOCKET))


def keep_to(writable: Iterable[str], readable: Iterable[str]) -> bool:
    """Put this process (and what it starts from now on) in a Landlock layer where files are read only beneath
    ``readable`` or ``writable`` and written only beneath ``writable`` (a file there, such as ``/dev/null``,
    is that file alone), and, from ABI 4, no TCP socket binds or connects to any port; False where the kernel
    cannot. A path that does not exist, or that the kernel will not take a rule for, is out of reach."""
    abi = _abi()
    if abi < 1:
        return False
    handled = _FS_ALL[min(abi, 3)]
    network = _NET_BIND_TCP | _NET_CONNECT_TCP if abi >= 4 else 0
    rules = [(path, handled) for path in writable] + [(path, _FS_READS) for path in readable]
    return _restrict(_Ruleset(handled, network, 0), rules)


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


# Both asked once in a process and inherited by its forks: a limited run's job confines itself first thing, and
# loading libc and asking the kernel twice there took 0.6 ms of CPU of every run.
@functools.cache
def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


@functools.cache
def _abi() -> int:
    if sys.platform != "linux" or platform.machine().startswith(_OFFSET_TABLES):
        return 0
    try:
        return int(_libc().syscall(ctypes.c_long(_CREATE_RULESET), None, 0, _CREATE_RULESET_VERSION))
    except (OSError, AttributeError):
        return 0


def _restrict(ruleset: _Ruleset, rules: Iterable[tuple[str, int]] = ()) -> bool:
    if _abi() < 1:
        return False
    try:
        libc = _libc()
        fd = libc.syscall(ctypes.c_long(_CREATE_RULESET), ctypes.byref(ruleset), ctypes.sizeof(ruleset), 0)
        if fd < 0:  # before ABI 6 the scope is unknown, and a ruleset that handles nothing is refused
            return False
        try:
            for path, access in rules:
                _allow(libc, fd, path, access)
            if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
                return False
            return bool(libc.syscall(ctypes.c_long(_RESTRICT_SELF), fd, 0) == 0)
        finally:
            os.close(fd)
    except (OSError, AttributeError):
        return False


def _allow(libc: ctypes.CDLL, ruleset: int, path: str, access: int) -> None:
    """Add the rule for ``path``; one that does not exist, or that the kernel refuses, allows nothing (the layer
    still holds for the rest: closed, not open)."""
    try:
        held = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return
    try:
        if not stat.S_ISDIR(os.fstat(held).st_mode):
            access &= _FS_FILE_ONLY
        rule = _PathBeneath(access, held)
        libc.syscall(ctypes.c_long(_ADD_RULE), ruleset, _RULE_PATH_BENEATH, ctypes.byref(rule), 0)
    finally:
        os.close(held)
