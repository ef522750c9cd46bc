"""The system calls learner code may not make in the grading sandbox: a seccomp filter (Linux).

Memory the kernel keeps for a socket's queue is charged to no memory cgroup for some socket
families: a pair of netlink sockets with 8 MB queues, filled over and over, took 5 GB of a grading
machine while its host's cgroup showed 21 MB. Learner code needs Unix sockets (asyncio makes a
pair) and may make inet ones (the notebook's network namespace has no interface up, so they
reach nothing); every other family is refused with ``EAFNOSUPPORT``, as a kernel without it
would. Some calls are refused whole with ``ENOSYS``, again as a kernel built without them would:

- ``io_uring_setup``: a ring makes sockets without the ``socket`` call;
- ``add_key``, ``request_key``, ``keyctl``: keyrings are no namespace's. The session keyring a
  process starts with survives bwrap, a change of uid and every namespace, and a user's own keyring
  is the same in all of them, so learner code could read and replace the instructor's keys (the
  host leaves the caller's session keyring too, ``host.py``);
- ``inotify_init``, ``inotify_init1``, ``fanotify_init``: their instances are counted per user up
  the user namespaces, so learner code run by a normal user could take every one of the
  instructor's (128), and the instructor's editors and Jupyter would stop seeing files change.

Calls that change a process's limits or scheduling (``prlimit64``, ``setpriority``,
``sched_setaffinity``, ``sched_setscheduler``, ``sched_setparam``, ``sched_setattr``,
``ioprio_set``) are let through for the calling process alone (a pid of 0, or for ``setpriority``
and ``ioprio_set`` "this process", 0) and refused with ``EPERM`` for any other: learner code runs as
the grading host's own user, and a lower memory or process limit, a nice of 19, one CPU or the idle
I/O class set on the host is inherited by every notebook it forks after (a PID namespace of the
notebook's own already hides the host, ``namespaces.py``; this holds where that failed). ``os.nice``,
``resource.setrlimit`` and ``os.sched_setaffinity(0, ...)`` still work.

A call from the other ABI of the machine (x32 on x86-64) is refused whole.

Without the sandbox (no user namespace to make one), ``refuse_sockets_and_permissions`` is the one filter:
the answer cells run as the instructor's user, on the machine's network, and have no business there. A
named Unix socket of their user's takes its requests from any process of that user: a Jupyter kernel on the
IPC transport (the hub's) runs code outside the job's Landlock domain, the session bus starts programs
(``systemd-run --user``), ssh-agent signs; and Landlock's network rules handle TCP alone, from ABI 4 (Linux
6.7), so UDP (and TCP on an older kernel) could carry what a cell found to anyone's listener. ``socket`` is
refused with ``EAFNOSUPPORT`` whatever its family, and ``io_uring_setup`` with ``ENOSYS`` (a ring makes and
connects sockets without the call); ``socketpair`` (asyncio's, the graders') still works. Landlock
(``landlock.keep_to``) keeps their writes to their own folder but has no rule for a file's mode, owner or
extended attributes (an ACL is one), so they could open the instructor's home, ``~/.bashrc`` or venv to
every account of the machine, for a learner's own login to write there later: every call that changes
them (``chmod``, ``fchmod``, ``fchmodat``, ``fchmodat2``, the ``chown`` and ``setxattr`` / ``removexattr``
families) is refused with ``EPERM``, and x32's calls whole (``ENOSYS``).
System V IPC (``shmget``, ``msgget``, ``semget`` and the calls on their ids) and POSIX message queues
(``mq_open`` ...) are refused with ``ENOSYS``: the sandbox gives each notebook an IPC namespace of its own,
but without it their objects are the instructor's namespace's, which no Landlock rule covers. A segment or a
queue outlives the job (16 MB segments stayed after the grade until the machine restarted, counted in no
limit), any later job may read it (a channel between two learners' jobs of a class run), and the caller's
own segments (an X server's images of the screen) are open to code of the caller's user.
Keyrings too (``add_key``, ``request_key``, ``keyctl``): where no user namespace is made, the user keyring
the job finds is the caller's own, which its user may clear and fill (a cell removed the instructor's key
and left 196 of its own, the user's quota, after its grade); and inotify's instances, counted per user up
the user namespaces: a cell held all 128 of the instructor's until its deadline, and the instructor's editors
and Jupyter could make none.
And ``OWN_ONLY``'s calls on any process but the caller: where no user namespace is made, the job sees and
may change every process of its user, the grading command among them (a cell set its open files to 4, and it
ended with a traceback before the next notebook) and the instructor's whole session
(``setpriority(PRIO_USER, 0, 19)``, which that user cannot undo).

``install`` runs in the notebook's supervisor after ``no_new_privs`` and before the job is forked:
the filter holds for every process below it and cannot be removed. Where the machine is not one
this module knows, nothing is installed and the probe (isolation.py) says so.
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform
import socket
import struct
from collections.abc import Callable

__all__ = ["OWN_ONLY", "REFUSED", "install", "number", "refuse_sockets_and_permissions", "sockets_refused_here"]

# Per machine: the audit architecture, and the numbers of the calls the filter looks at (aarch64
# has no inotify_init: its libc makes inotify_init1 do). ioprio_get is not filtered: the host reads it.
_MACHINES = {
    "x86_64": (
        0xC000003E,
        dict(socket=41, socketpair=53, io_uring_setup=425, add_key=248, request_key=249, keyctl=250)
        | dict(inotify_init=253, inotify_init1=294, fanotify_init=300)
        | dict(prlimit64=302, setpriority=141, sched_setaffinity=203, sched_setscheduler=144, sched_setparam=142)
        | dict(sched_setattr=314, ioprio_set=251, ioprio_get=252),
    ),
    "aarch64": (
        0xC00000B7,
        dict(socket=198, socketpair=199, io_uring_setup=425, add_key=217, request_key=218, keyctl=219)
        | dict(inotify_init1=26, fanotify_init=262)
        | dict(prlimit64=261, setpriority=140, sched_setaffinity=122, sched_setscheduler=119, sched_setparam=118)
        | dict(sched_setattr=274, ioprio_set=30, ioprio_get=31),
    ),
}
# What changes a file's mode, owner or extended attributes: the generic table has only the *at and f* forms.
_PERMISSIONS = {
    "x86_64": dict(chmod=90, fchmod=91, chown=92, fchown=93, lchown=94, setxattr=188, lsetxattr=189, fsetxattr=190)
    | dict(removexattr=197, lremovexattr=198, fremovexattr=199, fchownat=260, fchmodat=268),
    "aarch64": dict(setxattr=5, lsetxattr=6, fsetxattr=7, removexattr=14, lremovexattr=15, fremovexattr=16)
    | dict(fchmod=52, fchmodat=53, fchownat=54, fchown=55),
}
_PERMISSIONS_EVERYWHERE = dict(fchmodat2=452, setxattrat=463, removexattrat=466)  # numbered alike since 6.6
# System V IPC and POSIX message queues: their objects belong to the IPC namespace, not to a process, and
# outlive the job; ids and names are the namespace's, so a job can also reach the caller's own (an X server's
# shared images of the screen).
_IPC = {
    "x86_64": dict(shmget=29, shmat=30, shmctl=31, semget=64, semop=65, semctl=66, shmdt=67, msgget=68)
    | dict(msgsnd=69, msgrcv=70, msgctl=71, semtimedop=220)
    | dict(mq_open=240, mq_unlink=241, mq_timedsend=242, mq_timedreceive=243, mq_notify=244, mq_getsetattr=245),
    "aarch64": dict(mq_open=180, mq_unlink=181, mq_timedsend=182, mq_timedreceive=183, mq_notify=184)
    | dict(mq_getsetattr=185, msgget=186, msgctl=187, msgrcv=188, msgsnd=189, semget=190, semctl=191)
    | dict(semtimedop=192, semop=193, shmget=194, shmctl=195, shmat=196, shmdt=197),
}
REFUSED = ("io_uring_setup", "add_key", "request_key", "keyctl", "inotify_init", "inotify_init1", "fanotify_init")
# Calls allowed on the calling process alone: the arguments (offset in seccomp_data, value) that say so.
# setpriority(PRIO_PROCESS, 0) and ioprio_set(IOPRIO_WHO_PROCESS, 0); PRIO_USER would reach every
# process of the user, the host among them.
_SELF = ((16, 0),)
OWN_ONLY = {
    "prlimit64": _SELF,
    "sched_setaffinity": _SELF,
    "sched_setscheduler": _SELF,
    "sched_setparam": _SELF,
    "sched_setattr": _SELF,
    "setpriority": ((16, 0), (24, 0)),
    "ioprio_set": ((16, 1), (24, 0)),
}
_ALLOWED_FAMILIES = (1, 2, 10)  # AF_UNIX, AF_INET, AF_INET6
_X32_BIT = 0x40000000
_PR_SET_NO_NEW_PRIVS, _PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 38, 22, 2
_ALLOW, _ERRNO = 0x7FFF0000, 0x00050000
# BPF: load a word of seccomp_data, compare and jump, return.
_LOAD, _JEQ, _JGE, _RET = 0x20, 0x15, 0x35, 0x06
_ARCH, _NR, _ARG0 = 4, 0, 16  # offsets in seccomp_data (an argument's low 32 bits, little-endian: 16, 24, ...)


def number(name: str) -> int | None:
    """The number of the system call ``name`` on this machine (None where this module does not know it)."""
    known = _MACHINES.get(platform.machine())
    return None if known is None else known[1].get(name)


def _program(arch: int, numbers: dict[str, int]) -> list[tuple[int, int, int, int]]:
    """(code, jump if true, jump if false, k) instructions; jumps count the instructions skipped."""
    refuse_family = _ERRNO | errno.EAFNOSUPPORT
    missing = _ERRNO | errno.ENOSYS
    families = len(_ALLOWED_FAMILIES)
    program = [
        (_LOAD, 0, 0, _ARCH),
        (_JEQ, 1, 0, arch),
        (_RET, 0, 0, missing),  # another architecture's call: refused
        (_LOAD, 0, 0, _NR),
        (_JGE, 0, 1, _X32_BIT),
        (_RET, 0, 0, missing),
    ]
    for name in REFUSED:
        if name in numbers:
            program += [(_JEQ, 0, 1, numbers[name]), (_RET, 0, 0, missing)]
    program += _own_only(numbers)
    program += [
        (_JEQ, 1, 0, numbers["socket"]),
        (_JEQ, 0, families + 2, numbers["socketpair"]),  # neither: to the final ALLOW
        (_LOAD, 0, 0, _ARG0),
    ]
    for index, family in enumerate(_ALLOWED_FAMILIES):
        program.append((_JEQ, families - index, 0, family))  # an allowed family: to the final ALLOW
    program.append((_RET, 0, 0, refuse_family))
    program.append((_RET, 0, 0, _ALLOW))
    return program


def _own_only(numbers: dict[str, int]) -> list[tuple[int, int, int, int]]:
    """``OWN_ONLY``'s calls allowed on the calling process, refused with ``EPERM`` for any other. A block another
    call jumps over leaves its number loaded; the call it is for ends in its returns."""
    program = []
    for name, arguments in OWN_ONLY.items():
        tests = 2 * len(arguments)  # a load and a test per argument, then the two returns
        program.append((_JEQ, 0, tests + 2, numbers[name]))
        for index, (offset, value) in enumerate(arguments):
            program += [(_LOAD, 0, 0, offset), (_JEQ, 0, tests - 2 * index - 1, value)]
        program += [(_RET, 0, 0, _ALLOW), (_RET, 0, 0, _ERRNO | errno.EPERM)]
    return program


def _sockets_and_permissions_program(arch: int, numbers: dict[str, int]) -> list[tuple[int, int, int, int]]:
    """``socket`` refused whatever its family, and ``io_uring_setup``, and every call that changes a file's mode, owner or extended
    attributes, and System V IPC, POSIX message queues, keyrings and inotify; ``OWN_ONLY``'s calls on another process; x32's calls and another architecture's refused whole."""
    changes = {**_PERMISSIONS[platform.machine()], **_PERMISSIONS_EVERYWHERE}.values()
    program = [
        (_LOAD, 0, 0, _ARCH),
        (_JEQ, 1, 0, arch),
        (_RET, 0, 0, _ERRNO | errno.ENOSYS),
        (_LOAD, 0, 0, _NR),
        (_JGE, 0, 1, _X32_BIT),
        (_RET, 0, 0, _ERRNO | errno.ENOSYS),
    ]
    for call in changes:
        program += [(_JEQ, 0, 1, call), (_RET, 0, 0, _ERRNO | errno.EPERM)]
    # REFUSED's calls (io_uring_setup among them): keyrings, and inotify's instances, counted per user
    refused = [numbers[name] for name in REFUSED if name in numbers]
    for call in [*_IPC[platform.machine()].values(), *refused]:  # as a kernel built without them
        program += [(_JEQ, 0, 1, call), (_RET, 0, 0, _ERRNO | errno.ENOSYS)]
    return [
        *program,
        *_own_only(numbers),
        (_JEQ, 0, 1, numbers["socket"]),
        (_RET, 0, 0, _ERRNO | errno.EAFNOSUPPORT),
        (_RET, 0, 0, _ALLOW),
    ]


class _Prog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def install() -> bool:
    """Install the filter in this process (inherited by every child); False where the machine is unknown."""
    return _load(_program)


def refuse_sockets_and_permissions() -> bool:
    """Refuse ``socket`` (whatever its family), ``io_uring_setup``, every change of a file's mode, owner or extended attributes,
    System V IPC, POSIX message queues, keyrings, inotify, and another process's limits and scheduling to this process and every child; False where the machine is unknown or the kernel filters nothing (the run goes
    on without)."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:  # what lets a normal user filter
        return False
    try:
        return _load(_sockets_and_permissions_program)
    except OSError:
        return False


def sockets_refused_here() -> bool:
    """Whether ``refuse_sockets_and_permissions`` keeps a process of this machine off the network: tried in a
    child, which installs it and asks for a UDP socket. False on a machine the filter does not know, or where
    the kernel filters nothing (the grading command's note must not say "no network" there)."""
    if not hasattr(os, "fork"):
        return False
    child = os.fork()
    if child == 0:  # never returns into the caller's stack
        code = 1
        try:
            if refuse_sockets_and_permissions():
                try:
                    socket.socket(socket.AF_INET, socket.SOCK_DGRAM).close()
                except OSError as refused:
                    code = 0 if refused.errno == errno.EAFNOSUPPORT else 1
        finally:
            os._exit(code)
    _, status = os.waitpid(child, 0)
    return os.waitstatus_to_exitcode(status) == 0


def _load(make: Callable[[int, dict[str, int]], list[tuple[int, int, int, int]]]) -> bool:
    known = _MACHINES.get(platform.machine())
    if known is None:
        return False
    program = make(*known)
    code = b"".join(struct.pack("=HBBI", *instruction) for instruction in program)
    buffer = ctypes.create_string_buffer(code, len(code))
    prog = _Prog(len(program), ctypes.cast(buffer, ctypes.c_void_p))
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) != 0:
        failed = ctypes.get_errno()
        raise OSError(failed, f"seccomp: {errno.errorcode.get(failed, failed)}")
    return True
