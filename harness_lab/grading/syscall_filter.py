"""The system calls learner code may not make in the grading sandbox: a seccomp filter (Linux).

Memory the kernel keeps for a socket's queue is charged to no memory cgroup for some socket
families: a pair of netlink sockets with 8 MB queues, filled over and over, took 5 GB of a grading
machine while its host's cgroup showed 21 MB. Learner code needs Unix sockets (asyncio makes a
pair) and may make inet ones (the notebook's network namespace has no interface up, so they
reach nothing); every other family is refused with ``EAFNOSUPPORT``, as a kernel without it
would. ``io_uring`` is refused too: it makes sockets without the ``socket`` call. A call from the
other ABI of the machine (x32 on x86-64) is refused whole.

``install`` runs in the notebook's supervisor after ``no_new_privs`` and before the job is forked:
the filter holds for every process below it and cannot be removed. Where the machine is not one
this module knows, nothing is installed and the probe (isolation.py) says so.
"""

from __future__ import annotations

import ctypes
import errno
import platform
import struct

__all__ = ["install"]

# Per machine: the audit architecture, and the numbers of socket, socketpair and io_uring_setup.
_MACHINES = {"x86_64": (0xC000003E, 41, 53, 425), "aarch64": (0xC00000B7, 198, 199, 425)}
_ALLOWED_FAMILIES = (1, 2, 10)  # AF_UNIX, AF_INET, AF_INET6
_X32_BIT = 0x40000000
_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 22, 2
_ALLOW, _ERRNO = 0x7FFF0000, 0x00050000
# BPF: load a word of seccomp_data, compare and jump, return.
_LOAD, _JEQ, _JGE, _RET = 0x20, 0x15, 0x35, 0x06
_ARCH, _NR, _ARG0 = 4, 0, 16  # offsets in seccomp_data (the first argument's low 32 bits, little-endian)


def _program(arch: int, socket: int, socketpair: int, io_uring: int) -> list[tuple[int, int, int, int]]:
    """(code, jump if true, jump if false, k) instructions; jumps count the instructions skipped."""
    refuse_family = _ERRNO | errno.EAFNOSUPPORT
    families = len(_ALLOWED_FAMILIES)
    program = [
        (_LOAD, 0, 0, _ARCH),
        (_JEQ, 1, 0, arch),
        (_RET, 0, 0, _ERRNO | errno.ENOSYS),  # another architecture's call: refused
        (_LOAD, 0, 0, _NR),
        (_JGE, 0, 1, _X32_BIT),
        (_RET, 0, 0, _ERRNO | errno.ENOSYS),
        (_JEQ, 0, 1, io_uring),
        (_RET, 0, 0, _ERRNO | errno.ENOSYS),
        (_JEQ, 1, 0, socket),
        (_JEQ, 0, families + 2, socketpair),  # neither: to the final ALLOW
        (_LOAD, 0, 0, _ARG0),
    ]
    for index, family in enumerate(_ALLOWED_FAMILIES):
        program.append((_JEQ, families - index, 0, family))  # an allowed family: to the final ALLOW
    program.append((_RET, 0, 0, refuse_family))
    program.append((_RET, 0, 0, _ALLOW))
    return program


class _Prog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def install() -> bool:
    """Install the filter in this process (inherited by every child); False where the machine is unknown."""
    known = _MACHINES.get(platform.machine())
    if known is None:
        return False
    program = _program(*known)
    code = b"".join(struct.pack("=HBBI", *instruction) for instruction in program)
    buffer = ctypes.create_string_buffer(code, len(code))
    prog = _Prog(len(program), ctypes.cast(buffer, ctypes.c_void_p))
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) != 0:
        number = ctypes.get_errno()
        raise OSError(number, f"seccomp: {errno.errorcode.get(number, number)}")
    return True
