"""A limited run's namespaces (Linux): a PID namespace for any job, and in the grading sandbox a
notebook's own mount, network, IPC, user and PID namespaces (see ``host.py``).

**Any job** (``make``, ``init``). Outside the grading sandbox (a try-it, check or grade cell in the
learner's own kernel, ``harness-lab grade`` where no sandbox works) learner code runs as its caller's
user, so it can kill or stop its supervisor, the one process that ends what the job started
(``processes.py``). A process it had put in a session of its own first (``setsid``, or a daemon's
double fork) was then no one's to end, and ran on after the grade: nothing but a namespace can hide
the supervisor from code of the same user. So the supervisor unshares a PID namespace before it forks
(as root plainly, else inside a user namespace that maps only the caller's own uid, as ``unshare -r``
would), and its child becomes that namespace's init (``init``), which starts the job and waits for it.
From inside, no process outside the namespace can be named, and the kernel delivers to its init no
signal it has not installed a handler for (it keeps none: SIGKILL and SIGSTOP from the job are
dropped). When the init ends, because the job did or because the supervisor killed it at the
deadline, the kernel kills every process left in the namespace, in whatever session or group it put
itself. The job is the init's child, not the init, so it still dies of its own
``os.kill(os.getpid(), SIGKILL)``. Where the kernel refuses (no user namespaces for normal users, a
container's filter) the run goes on with the subreaper and the session to end it. In a user namespace
of its own the init is that namespace's root: it mounts the ``/proc`` below, then gives up every capability and
forbids user namespaces below (``_seal``), so the job holds none, here or in a namespace it makes.

The init first takes a mount namespace of its own, all its mounts private (so nothing it mounts
reaches the caller's), with a ``/proc`` of the new PID namespace over the old: a limited run nested
in the job (a grader check runs each criterion in one) looks its job's processes up in ``/proc`` by the
pids it knows them by, which in the caller's ``/proc`` name other processes or none; its supervisor
then ended nothing the job had left in a session of its own, and waited its whole grace for it. The
supervisor and the caller (a learner's kernel) keep their mount namespace and ``/proc``. Where the
kernel refuses that ``/proc`` (a container that covers parts of its own: ``mount_too_revealing``) the
job sees the caller's, as before.

**A graded notebook in the sandbox** (``enter``).

bubblewrap starts the grading host once per worker, in a sandbox that sees the system, the course's
venv and the package read-only, with no network and its own process namespace. Each notebook the
host grades then gets namespaces of its own, made here by the limited run's supervisor before it
forks the job (``sandbox.run_limited(setup=...)``): a user namespace nested in the sandbox's (so
an unprivileged host may create the rest), a mount namespace where fresh, size-capped tmpfs are
mounted on ``/tmp``, ``/dev/shm`` and the notebook's folder ``/nb``, a network namespace with not
even a loopback up, and an IPC namespace. So nothing one notebook writes or leaves behind reaches
the next one the host grades, and the mounts the sandbox made stay read-only and in place: the
kernel locks mounts inherited by a less privileged namespace.

bwrap's ``/dev`` is a tmpfs of its own, and run by a normal user, the host owns it: learner code
could fill it with memory no size caps and leave it to the notebooks graded after it. So ``/dev``
becomes read-only (its device nodes, ``null``, ``zero``, ``urandom`` and the rest, are mounts of
their own and stay usable), and an empty read-only tmpfs covers ``/dev/pts``: the pseudo-terminals
behind ``/dev/ptmx`` come from one pool of the whole machine (``kernel.pty.max``), which learner
code could otherwise empty, and a job with no terminal needs none.

A venv, a Python or a checkout that lives under ``/tmp`` (a CI clone, a git worktree) is one of
the sandbox's read-only binds there, and the notebook's fresh ``/tmp`` would hide it: learner code
could then not run ``sys.executable`` nor import what the judge had not. Those binds are carried
over onto the fresh ``/tmp``, read-only still.

The notebook also gets a PID namespace of its own: the grading host is PID 1 of the sandbox's, and
runs as the learner code's own user, so in one namespace learner code could change the host's
limits, priority, CPUs or I/O class (``prlimit(1, ...)``), and every notebook the host forks after
would inherit them. ``unshare`` makes the *job* (``sandbox.py``), the first process the supervisor
forks, PID 1 of the new namespace; it runs ``enter``'s answer, ``in_job``, before anything else: a
mount namespace of its own (the supervisor, outside, keeps the ``/proc`` that shows it the job's
processes) with a ``/proc`` of the new PID namespace over the old. Run as root, bwrap covers parts
of its ``/proc`` (``sys``, ``irq``...) and the kernel refuses a new ``/proc`` where one is covered
(``mount_too_revealing``): the host removes those covers before it gives up root (``uncover_proc``).

The job then gives up the capabilities it holds in the nested user namespace (the bounding set,
then ``capset``) and sets ``no_new_privs``, so learner code below holds none; and that namespace
may have no user namespace below it, so learner code cannot get them back in one of its own (where
it could mount a tmpfs of any size, memory no limit here would count). Last, a seccomp filter
(``syscall_filter.py``) refuses the socket families whose queues no memory cgroup counts, keyrings,
inotify, and changing another process's limits or scheduling; ``/proc/keys`` is masked, and open
files are capped per process. The supervisor, which runs no learner code and which learner code
cannot name (it is outside the new PID namespace), keeps its capabilities.
"""

from __future__ import annotations

import ctypes
import functools
import os
import platform
import re
import signal
from collections.abc import Callable
from contextlib import suppress

from . import syscall_filter

# Imported here, as the grading host imports everything before it becomes its learner uid, which may
# not read the installation's folders (see host.py); missing on Windows, where sandbox.py imports this.
with suppress(ImportError):
    import resource

__all__ = ["FOLDER", "enter", "init", "make", "uncover_proc", "write_files"]

FOLDER = "/nb"  # the notebook's private folder inside the sandbox (bwrap creates the mount point)
TMPFS = {"/tmp": "64m", "/dev/shm": "8m", FOLDER: "64m"}
# Files and folders in each of them: an empty one takes no block of the size above but about a kilobyte of
# the kernel's memory, which no process of the job maps (tmpfs's own count is half the machine's pages).
TMPFS_INODES = 4096
FILE_LIMIT = 64 << 20  # bytes a learner process may write into one file (RLIMIT_FSIZE)
PROCESS_LIMIT = 256  # processes of the notebook's user namespace (RLIMIT_NPROC counts per namespace)
# Open files per process (RLIMIT_NOFILE, hard): the kernel's file table is the machine's, and 256
# processes of bwrap's 20,000 each once filled it, failing a classmate graded beside. 128 (x 256) is far
# below it, and keeps the epoll watches a process can make (about (files / 2) squared) under the
# per-user limit a normal user's run shares with the instructor.
OPEN_FILES = 128

_CLONE_NEWNS = 0x00020000
_CLONE_NEWIPC = 0x08000000
_CLONE_NEWUSER = 0x10000000
_CLONE_NEWPID = 0x20000000
_CLONE_NEWNET = 0x40000000
_MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_NOEXEC, _MS_REMOUNT, _MS_BIND = 1, 2, 4, 8, 32, 4096
_MS_REC, _MS_PRIVATE, _MNT_DETACH = 16384, 1 << 18, 2
# What bwrap, run as root, binds read-only over its /proc (the kernel then refuses a new /proc below)
_PROC_COVERS = ("sys", "sysrq-trigger", "irq", "bus")
_CAP_SETGID, _CAP_SETUID = 6, 7
_PR_SET_DUMPABLE, _PR_CAPBSET_DROP, _PR_SET_NO_NEW_PRIVS = 4, 24, 38
_CAP_LAST = 63
_CAPSET = {"x86_64": 126, "aarch64": 91, "riscv64": 91}  # the capset syscall's number per machine
_V3 = 0x20080522  # _LINUX_CAPABILITY_VERSION_3: two 32-bit words per set
_made_user_namespace = False  # set by ``make`` in the supervisor, read by ``init`` in its fork


class _Header(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _Data(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


@functools.cache  # once in a process: the supervisor loads it for its namespace, the init it forks inherits it
def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        number = ctypes.get_errno()
        raise OSError(number, f"{what}: {os.strerror(number)}")


def make() -> bool:
    """In a supervisor, before its fork: a new PID namespace for the next child; False where none is made.

    None is made either when ``setup`` already made one (``enter``) or when the kernel refuses.
    """
    global _made_user_namespace
    try:
        if os.readlink("/proc/self/ns/pid") != os.readlink("/proc/self/ns/pid_for_children"):
            return False
        libc = _libc()
        if libc.unshare(_CLONE_NEWPID) == 0:  # root (or holding CAP_SYS_ADMIN where it runs)
            return True
        dumpable = libc.prctl(_PR_SET_DUMPABLE, 1, 0, 0, 0) == 0
        try:
            _own_user_namespace(libc, _CLONE_NEWPID)
        finally:
            if dumpable:
                # Not dumpable from here on either way: learner code may still see this process in /proc,
                # and with the same uid could otherwise rewrite its memory through /proc/PID/mem.
                libc.prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)
        _made_user_namespace = True
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
    _own_proc()
    if _made_user_namespace:
        _seal()
    job = os.fork()
    if job == 0:
        start()
    while True:
        pid, status = os.waitpid(-1, 0)
        if pid == job:
            return os.waitstatus_to_exitcode(status)


def _own_proc() -> None:
    """A mount namespace of this init's (and so the job's) with a ``/proc`` of the new PID namespace, where
    the kernel allows one; else the view of the caller's, as before (see the module docstring)."""
    libc = _libc()
    if libc.unshare(_CLONE_NEWNS) != 0:
        return
    # Private first: a mount on /proc shared with the caller's namespace would cover the caller's /proc too
    if libc.mount(None, b"/", None, _MS_REC | _MS_PRIVATE, None) != 0:
        return
    # A less privileged namespace may not drop a flag the old /proc has (read-only, say): keep them all
    kept = os.statvfs("/proc").f_flag & (os.ST_RDONLY | os.ST_NOSUID | os.ST_NODEV | os.ST_NOEXEC)
    libc.mount(b"proc", b"/proc", b"proc", _MS_NOSUID | _MS_NODEV | _MS_NOEXEC | kept, None)


def _seal() -> None:
    """In the init of the user namespace ``make`` made, once its ``/proc`` is mounted and before the job is forked:
    no user namespace below it, and no capability left in it.

    The job would otherwise be root there, and could mount a tmpfs of any size in the init's mount namespace or in
    one of its own below: memory that no process maps, which no limit here counts (a cell graded without the
    sandbox filled 3.2 GB in 7 s under its 1 GB limit where no Landlock domain refused the mount). Where the kernel
    keeps the namespace's limit from being written (a ``/proc`` of the caller's, read-only), the capabilities
    still go."""
    with suppress(OSError), open("/proc/sys/user/max_user_namespaces", "w") as f:
        f.write("0")
    _drop_capabilities(_libc())


def _own_user_namespace(libc: ctypes.CDLL, flags: int) -> None:
    """Unshare a user namespace that maps only this process's uid and gid, with ``flags``' namespaces.

    The caller makes itself dumpable first: ``/proc/self/*_map`` belong to root while it is not.
    """
    uid, gid = os.getuid(), os.getgid()
    _check(libc.unshare(_CLONE_NEWUSER | flags), "unshare")
    for name, line in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"), ("gid_map", f"{gid} {gid} 1")):
        with open(f"/proc/self/{name}", "w") as f:
            f.write(line)


def enter(files: dict[str, bytes]) -> Callable[[], None]:
    """In the supervisor, before it forks the job: own namespaces, fresh folders, ``files`` in ``FOLDER``.

    Returns ``in_job``, which the job must run first (the PID namespace's own ``/proc``, capabilities
    given up, the seccomp filter). Raises OSError when the kernel refuses a step; the host then
    reports the sandbox as broken, and no learner code runs.
    """
    libc = _libc()
    _check(libc.prctl(_PR_SET_DUMPABLE, 1, 0, 0, 0), "prctl")
    try:
        _own_user_namespace(libc, _CLONE_NEWNS | _CLONE_NEWNET | _CLONE_NEWIPC | _CLONE_NEWPID)
    finally:
        _check(libc.prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0), "prctl")
    # No user namespace below this one: in one of its own, learner code would hold every capability
    # again and could mount a tmpfs of any size, memory no limit here counts (the kernel lets the
    # owner of a user namespace set its limits; they bind every namespace below it).
    with open("/proc/sys/user/max_user_namespaces", "w") as f:
        f.write("0")
    below_tmp = _binds_below("/tmp")  # opened before the fresh /tmp covers them
    try:
        for target, size in TMPFS.items():
            options = f"size={size},nr_inodes={TMPFS_INODES},mode=0700".encode()
            _check(libc.mount(b"tmpfs", target.encode(), b"tmpfs", _MS_NOSUID | _MS_NODEV, options), f"mount {target}")
        _bind_again(libc, below_tmp)
    finally:
        for fd in below_tmp.values():
            os.close(fd)
    _close_devices(libc)
    write_files(FOLDER, files)
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_LIMIT, FILE_LIMIT))
    resource.setrlimit(resource.RLIMIT_NPROC, (PROCESS_LIMIT, PROCESS_LIMIT))
    resource.setrlimit(resource.RLIMIT_NOFILE, (OPEN_FILES, OPEN_FILES))
    return _in_job


def _in_job() -> None:
    """In the job, PID 1 of the notebook's PID namespace, before anything else runs there."""
    libc = _libc()
    # A mount namespace of its own: the supervisor keeps the /proc that shows it the job's processes
    _check(libc.unshare(_CLONE_NEWNS), "unshare")
    _check(libc.mount(None, b"/", None, _MS_REC | _MS_PRIVATE, None), "mount /")
    sealed = _MS_NOSUID | _MS_NODEV | _MS_NOEXEC
    _check(libc.mount(b"proc", b"/proc", b"proc", sealed, None), "mount /proc")
    # /proc/keys lists the keys the caller's uid can view (id, name, size) even with keyctl refused:
    # the sandbox's user is the instructor's when a normal user grades. Masked as containers mask it.
    for listing in (b"/proc/keys", b"/proc/key-users"):
        _check(libc.mount(b"/dev/null", listing, None, _MS_BIND, None), f"mask {listing.decode()}")
    _drop_capabilities(libc)
    syscall_filter.install()  # uncounted socket queues, io_uring, keyrings, inotify, other processes' limits


def uncover_proc() -> None:
    """In the host, run as root in bwrap and before it becomes its learner uid: remove bwrap's read-only
    covers from ``/proc`` (see the module docstring), then give up ``CAP_SYS_ADMIN``, kept for this alone.

    The files they covered belong to root: the unprivileged user the host becomes cannot write them.
    """
    libc = _libc()
    for name in _PROC_COVERS:
        libc.umount2(f"/proc/{name}".encode(), _MNT_DETACH)  # EINVAL where bwrap covered nothing
    _keep_only(libc, (1 << _CAP_SETUID) | (1 << _CAP_SETGID))


def _binds_below(top: str) -> dict[str, int]:
    """The outermost mounts below ``top`` (the sandbox's binds of what lives there), each opened ``O_PATH``."""
    points = []
    with open("/proc/self/mountinfo", "rb") as f:
        for line in f:
            point = os.fsdecode(re.sub(rb"\\([0-7]{3})", lambda m: bytes([int(m[1], 8)]), line.split()[4]))
            if point.startswith(top + "/"):
                points.append(point)
    outermost = [p for p in sorted(set(points)) if not any(p.startswith(q + "/") for q in points)]
    return {point: os.open(point, os.O_PATH) for point in outermost}


def _bind_again(libc: ctypes.CDLL, found: dict[str, int]) -> None:
    """Bind what ``_binds_below`` opened at its old place in the fresh tmpfs (read-only, as it was: a
    bind keeps the flags the sandbox locked)."""
    for point, fd in found.items():
        os.makedirs(os.path.dirname(point), mode=0o755, exist_ok=True)
        if os.path.isdir(f"/proc/self/fd/{fd}"):
            os.mkdir(point, 0o755)
        else:
            os.close(os.open(point, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
        source = f"/proc/self/fd/{fd}".encode()
        _check(libc.mount(source, point.encode(), None, _MS_BIND | _MS_REC, None), f"bind {point}")


def _close_devices(libc: ctypes.CDLL) -> None:
    """No pseudo-terminal to open and no file to write in ``/dev`` (see the module docstring)."""
    sealed = _MS_RDONLY | _MS_NOSUID | _MS_NODEV | _MS_NOEXEC
    _check(libc.mount(b"tmpfs", b"/dev/pts", b"tmpfs", sealed, b"size=4k,mode=0755"), "mount /dev/pts")
    # The flags the sandbox gave /dev are locked in this less privileged namespace: a remount that
    # left one out would be refused. statvfs reports them with the mount flags' own bits.
    kept = os.statvfs("/dev").f_flag & (os.ST_NOSUID | os.ST_NODEV | os.ST_NOEXEC)
    _check(libc.mount(None, b"/dev", None, _MS_REMOUNT | _MS_BIND | _MS_RDONLY | kept, None), "remount /dev")


def write_files(folder: str, files: dict[str, bytes]) -> None:
    """Write ``files`` (plain names only) into ``folder`` and make it the working folder."""
    for name, data in files.items():
        if not name or name in (".", "..") or "/" in name or "\0" in name:
            raise ValueError(f"not a plain file name: {name!r}")
        fd = os.open(os.path.join(folder, name), os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
    os.chdir(folder)


def _drop_capabilities(libc: ctypes.CDLL) -> None:
    """Give up every capability of the nested namespace, for good (the bounding set first)."""
    _check(libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "prctl")
    for cap in range(_CAP_LAST + 1):
        libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0)  # EINVAL past the kernel's last capability
    _keep_only(libc, 0)


def _keep_only(libc: ctypes.CDLL, caps: int) -> None:
    """Keep only ``caps`` (a mask of the first 32) of this process's effective and permitted capabilities."""
    number = _CAPSET.get(platform.machine())
    if number is None:  # the bounding set and no_new_privs still keep an exec from gaining any
        return
    header = _Header(_V3, 0)
    data = (_Data * 2)()
    data[0].effective = data[0].permitted = caps
    _check(libc.syscall(number, ctypes.byref(header), ctypes.byref(data)), "capset")
