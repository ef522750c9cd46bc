"""Where learner code runs when a grading command runs it: the bubblewrap sandbox, and its proof (issue 24).

``Launch`` says how the grading hosts (``host.py``) are started. With ``bwrap`` found on ``PATH``
(Debian/Ubuntu: ``apt-get install bubblewrap``) a host runs inside ``bwrap`` with:

- the system (``/usr``, the ``/lib*`` links, a few ``/etc`` files), the Python installation and the
  course's venv (their ``bin``, ``lib`` and ``pyvenv.cfg``: not a ``pip.conf``, ``.env`` or conda's
  ``conda-meta`` kept at either root, nor a base installation's other environments) and
  this package's own folder bound read-only, and nothing else of the machine: no
  home, no submissions, no report, no ``/tmp`` of the caller (an editable install's source is
  bound read-only too, so learner code cannot rewrite the grader);
- its own process, network, IPC and UTS namespaces: no network at all, no process of the caller,
  of the worker pool or of another notebook to see or signal, and the host as the namespace's init;
- an environment of ``ENVIRONMENT`` only (never ``ANTHROPIC_API_KEY`` or any other variable of the
  caller's), a new session (no controlling terminal), and death with its parent.

Run as root, the host is started as root inside the sandbox (so the bind mounts can reach a Python
under ``/root``) with every capability dropped but ``setuid``/``setgid`` and ``sys_admin`` (which
it uses once, to take bwrap's covers off ``/proc``, and then gives up: ``namespaces.uncover_proc``),
and becomes an unprivileged user of its own per worker (``Launch.uid_of``) before any learner code
runs; run as a normal user, it is that user in its own user namespace. Each notebook then gets
namespaces of its own inside the host, a PID namespace among them (``namespaces.py``).

``probe`` is the proof: before a sandboxed host gets any learner code, the runner has it run, in
the same private namespaces learner code gets, a call that tries to read a file the runner placed
outside, to connect to a port the runner listens on, to find a variable of the caller's
environment, to write into the package, to open a terminal (``/dev/tty`` or a new one through
``/dev/ptmx``), to see a process of the caller, to make a user namespace of its own, to open a
netlink socket, to reach a keyring, to write a file into ``/dev`` and to name the grading host: the
call must be PID 1 of a PID namespace of its own, and a process below it must not be able to change
PID 1's limits or scheduling. Anything that works is a finding, and a sandbox with a finding is
refused (``runner.py``).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import socket
import sys
from dataclasses import dataclass
from pathlib import Path

from . import landlock

__all__ = [
    "ENVIRONMENT",
    "LEARNER_UID",
    "UIDS_PER_RUN",
    "Launch",
    "find_bwrap",
    "fingerprint",
    "host_command",
    "notebooks_apart",
    "probe",
    "readable",
]

# The caller's variables a host inherits; everything else is left behind.
PASSED_ON = ("HARNESS_LAB_LANG",)
ENVIRONMENT = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
# Run as root, learner code runs as a user of its own per worker: LEARNER_UID + the command's pid x
# UIDS_PER_RUN + the worker's slot. Far above the ids of real accounts and of container runtimes'
# ranges, below 2**31, and apart for two grading commands running at once (pids are at most 2**22).
LEARNER_UID = 1_999_000_000
UIDS_PER_RUN = 32
_TOPS = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")
_ETC = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "nsswitch.conf", "passwd", "group", "hosts", "ssl")


@dataclass(frozen=True)
class Launch:
    """How grading hosts start: inside ``bwrap`` (its path) or without isolation (None); as which uid."""

    bwrap: str | None
    uid: int | None = None  # when the command runs as root: the first unprivileged uid of its block

    @property
    def sandboxed(self) -> bool:
        return self.bwrap is not None

    @classmethod
    def choose(cls, unsandboxed: bool = False) -> Launch:
        uid = LEARNER_UID + os.getpid() * UIDS_PER_RUN if os.geteuid() == 0 else None
        return cls(None if unsandboxed else find_bwrap(), uid)

    def uid_of(self, slot: int) -> int | None:
        """The uid worker ``slot``'s learner code runs as (None: the caller's own)."""
        return None if self.uid is None else self.uid + slot % UIDS_PER_RUN


def find_bwrap() -> str | None:
    """bubblewrap on ``PATH`` (Linux only), or None."""
    if not sys.platform.startswith("linux"):
        return None
    return shutil.which("bwrap")


def host_command(launch: Launch, slot: int, home: str) -> tuple[list[str], dict[str, str]]:
    """(argv, environment) that start one host; ``home`` is its HOME and TMPDIR when unsandboxed."""
    python = [_python(), "-I", "-X", "utf8", "-m", "harness_lab.grading.host"]
    uid = launch.uid_of(slot)
    env = dict(ENVIRONMENT)
    env.update({name: os.environ[name] for name in PASSED_ON if name in os.environ})
    if launch.bwrap is None:
        env.update(HOME=home, TMPDIR=home)
        return python + ([] if uid is None else ["--uid", str(uid)]), env
    env.update(HOME="/tmp", TMPDIR="/tmp")
    args = [launch.bwrap, *_namespaces(uid), *_filesystem()]
    args += ["--clearenv"] + [item for name, value in sorted(env.items()) for item in ("--setenv", name, value)]
    args += ["--chdir", "/", "--", *python, "--sandboxed"] + ([] if uid is None else ["--uid", str(uid)])
    return args, env


def _python() -> str:
    """The interpreter by a path the sandbox has: its folder resolved, as ``_filesystem`` binds it (a
    ``.venv`` that is a link is bound at its target), its own name kept, since a venv's ``python`` is a
    link whose target would leave the venv."""
    folder, name = os.path.split(sys.executable)
    return os.path.join(os.path.realpath(folder), name)


def _namespaces(uid: int | None) -> list[str]:
    args = ["--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"]
    args += ["--die-with-parent", "--new-session", "--as-pid-1"]
    if uid is None:  # a normal user: bwrap needs a user namespace, and the host is that user in it
        return ["--unshare-user", *args]
    # root: keep only what it takes to become ``uid`` and to uncover /proc; the host drops these too
    caps = [item for cap in ("CAP_SETUID", "CAP_SETGID", "CAP_SYS_ADMIN") for item in ("--cap-add", cap)]
    return [*args, "--cap-drop", "ALL", *caps]


def readable() -> list[str]:
    """What of the machine the sandbox shows learner code, read-only: the system, the Python installation,
    the venv, this package's folder, the ``/lib*`` links and a few ``/etc`` files (``landlock.keep_to`` keeps
    learner code graded without the sandbox to the same)."""
    tops = [f"/{name}" for name in _TOPS]
    return _binds() + [top for top in tops if os.path.isdir(top)] + [f"/etc/{name}" for name in _ETC]


# What Python needs of a venv and of the installation it is made from (or that runs the course directly: a conda
# environment): its interpreter and scripts, its packages and libraries, and the file that makes a venv one. The
# rest of either root (a pip.conf holding an index's token, a .env, Jupyter's settings; conda's conda-meta/state,
# where ``conda env config vars set`` keeps an environment's variables, and a base installation's other envs/) is
# no answer cell's to read.
_PYTHON = ("bin", "lib", "lib64", "pyvenv.cfg")


def _binds() -> list[str]:
    import harness_lab

    python = [os.path.join(root, name) for root in {sys.prefix, sys.base_prefix} for name in _PYTHON]
    wanted = ["/usr", *python, str(Path(harness_lab.__file__).resolve().parent)]
    wanted += [os.path.dirname(os.path.realpath(sys.executable))]
    found = sorted({os.path.realpath(b) for b in wanted if os.path.isdir(b) or os.path.isfile(b)})
    return [b for b in found if not any(Path(b).is_relative_to(other) and b != other for other in found)]


def _filesystem() -> list[str]:
    """Read-only binds of what Python and the graders need; fresh /proc, /dev, /tmp; the rest read-only."""
    binds = _binds()
    # Fresh /proc, /dev and /tmp first: a venv or checkout that lives under /tmp is bound on top of it.
    args, made = ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"], set()
    for path in binds:
        for parent in reversed(Path(path).parents):  # parents bwrap would make 0700 as root
            if str(parent) != "/" and str(parent) not in made:
                made.add(str(parent))
                args += ["--perms", "0755", "--dir", str(parent)]
        args += ["--ro-bind", path, path]
    for name in _TOPS:
        top = f"/{name}"
        if os.path.islink(top):
            args += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top) and top not in binds:
            args += ["--ro-bind", top, top]
    for name in _ETC:
        args += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
    args += ["--perms", "0755", "--dir", "/nb"]
    return [*args, "--remount-ro", "/"]


# --- the probe: runs where learner code runs --------------------------------------------------------


def probe(folder: str, outside: str, port: int, secrets: list[tuple[str, str]], caller: int) -> list[str]:
    """In a host's private namespaces: what learner code here could reach; [] when nothing.

    ``outside`` is a file the runner made readable by everyone, ``port`` a TCP port it listens on
    at 127.0.0.1, ``secrets`` the variables of its environment as (name, SHA-256 of the value),
    ``caller`` its own pid.
    """
    import harness_lab

    found = []
    try:
        with open(outside, "rb"):
            found.append("read")
    except OSError:
        pass
    try:  # the socket itself may be refused (a host without the sandbox: its seccomp filter)
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as connection:
            connection.settimeout(1)
            connection.connect(("127.0.0.1", port))
            found.append("connect")
    except OSError:
        pass
    if any(fingerprint(os.environ.get(name, "")) == value for name, value in secrets):
        found.append("environment")
    # what is bound (the venv's parts, not its root: under /tmp that is a folder of the notebook's own tmpfs)
    if any(os.access(path, os.W_OK) for path in [os.path.dirname(harness_lab.__file__), *_binds()]):
        found.append("write")
    for terminal in ("/dev/tty", "/dev/ptmx"):  # ptmx: a new pseudo-terminal from the machine's one pool
        try:
            os.close(os.open(terminal, os.O_RDWR | os.O_NOCTTY))
            found.append("terminal")
        except OSError:
            pass
    if _sees(caller):
        found.append("processes")
    if _capabilities():
        found.append("capabilities")
    if _makes_user_namespace():
        found.append("user_namespace")
    try:
        socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 2).close()  # NETLINK_USERSOCK: queues no cgroup counts
        found.append("netlink")
    except (OSError, AttributeError):
        pass
    if os.geteuid() == 0 and os.path.exists("/proc/self/uid_map") and _real_root():
        found.append("root")
    if _reaches_keyring():
        found.append("keyring")
    if _names_the_host():
        found.append("host")
    planted = f"/dev/.harness-lab-probe-{os.getpid()}"
    try:  # a tmpfs no size caps, kept for the notebooks graded after this one
        os.close(os.open(planted, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        found.append("dev")
        os.unlink(planted)
    except OSError:
        pass
    return found


def fingerprint(value: str) -> str:
    """A variable's value as the probe compares it: never the value itself."""
    return hashlib.sha256(value.encode("utf-8", "surrogateescape")).hexdigest()


def _sees(pid: int) -> bool:
    """Whether the runner's process, known by its pid outside, is visible here (no own PID namespace)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return b"harness_lab.grading.host" not in f.read()
    except OSError:
        return False


def _names_the_host() -> bool:
    """Whether this call is not PID 1 of a PID namespace of its own (the host, PID 1 of the sandbox's,
    could then be named), or a process below it can change PID 1's limits or scheduling. Each change
    tried sets what is already set: should it work, nothing moves."""
    if os.getpid() != 1:
        return True
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            import resource

            tries = (
                lambda: resource.prlimit(1, resource.RLIMIT_CORE, resource.prlimit(1, resource.RLIMIT_CORE)),
                lambda: os.setpriority(os.PRIO_PROCESS, 1, os.getpriority(os.PRIO_PROCESS, 1)),
                lambda: os.sched_setaffinity(1, os.sched_getaffinity(1)),
            )
            for change in tries:
                try:
                    change()
                    code = 1
                except OSError:
                    pass
        finally:
            os._exit(code)
    return os.waitpid(pid, 0)[1] != 0


def _capabilities() -> bool:
    """Whether this process holds any capability (in whatever user namespace it is in)."""
    try:
        with open("/proc/self/status") as f:
            return any(line.startswith("CapEff:") and int(line.split()[1], 16) != 0 for line in f)
    except OSError:
        return False


def notebooks_apart(launch: Launch) -> bool:
    """Whether the answer cells of a notebook graded beside another reach none of the other's processes: in the
    sandbox, run as root (a uid per host), or where a normal user's host gives each notebook a PID namespace
    (in a user namespace, ``namespaces.make``) or a Landlock domain that keeps its signals in (``landlock.confine``,
    Linux 6.12). Elsewhere they run as the grading user beside a classmate's judge, and may kill it."""
    if launch.sandboxed or launch.uid is not None or not hasattr(os, "fork"):
        return True
    return landlock.scopes_signals() or _makes_user_namespace(0x20000000)  # CLONE_NEWPID with it


def _makes_user_namespace(more: int = 0) -> bool:
    """Whether a process here can make a user namespace of its own (with the namespaces ``more`` names too;
    tried in a child, which then ends)."""
    import ctypes

    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            code = 0 if ctypes.CDLL(None, use_errno=True).unshare(0x10000000 | more) == 0 else 1  # CLONE_NEWUSER
        finally:
            os._exit(code)
    return os.waitpid(pid, 0)[1] == 0


def _reaches_keyring() -> bool:
    """Whether a keyring is within reach here (the session keyring's id, asked for with ``keyctl``)."""
    import ctypes

    from .syscall_filter import number

    keyctl = number("keyctl")
    try:  # the keys' names and sizes, which /proc lists without any keyctl
        with open("/proc/keys", "rb") as f:
            if f.read(1):
                return True
    except OSError:
        pass
    if keyctl is None:  # a machine the filter does not know: the netlink finding already says so
        return False
    get_keyring_id, session_keyring = 0, -3
    return ctypes.CDLL(None, use_errno=True).syscall(keyctl, get_keyring_id, ctypes.c_long(session_keyring), 0) >= 0


def _real_root() -> bool:
    """Whether uid 0 here is root outside too (the identity map of the first user namespace)."""
    with open("/proc/self/uid_map") as f:
        return any(line.split()[:2] == ["0", "0"] for line in f)
