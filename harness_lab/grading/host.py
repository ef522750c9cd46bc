"""The grading host: the one program the grading commands start to run learner-facing calls (issue 24).

``runner.py`` starts it as ``python -I -X utf8 -m harness_lab.grading.host``, inside bubblewrap
(``--sandboxed``, see ``isolation.py``) or, where the instructor chose to grade without isolation,
as a plain process; either way with an allow-listed environment and no terminal. ``-I`` keeps the
working folder, the script's folder, ``PYTHONPATH`` and the user's site-packages off ``sys.path``,
so no module a learner could have planted is ever imported.

On start the host leaves the caller's session keyring for a new, empty one of its own
(``leave_keyring``): that keyring survives bwrap, a change of uid and every namespace, and an
instructor's login may keep an API key in it. Next it imports everything the judge will need
(``prepare_judge``), so that the judging process, forked from it, imports nothing once learner
code may have run, then (run as root, with ``--uid``) becomes that unprivileged user and says it
is ready. It then answers one request at a time on its standard input: a call
``target(folder, *args)`` (a function of this package, named ``module:function``) run under
``sandbox.run_limited`` with the request's files in a private folder: in the sandbox, the
supervisor gives the call its own namespaces (``namespaces.py``); without it, a fresh temporary
folder. The reply is the limited run's outcome, as plain values.

In the sandbox the host is the process namespace's init (``bwrap --as-pid-1``): the kernel delivers
to it no signal from inside the namespace that it has not installed a handler for, and it installs
none, so learner code can neither kill nor stop it; each call then runs in a PID namespace of its
own, where the host is not even there to name. After each call it kills every other process in
the namespace (``kill(-1)``) and reaps them: nothing a notebook started outlives its grading. Run as
root without the sandbox, the host is a user of its own (``--uid``), and ``kill(-1)`` after each call
reaches exactly that call's processes too.

Every notebook is forked from the host and inherits its limits, priority, CPUs and I/O class, so
one that changed them (a memory limit at the host's own size, a process limit of 8, a nice of 19, one
CPU, the idle I/O class) would change the grading of every notebook after it on that worker: a right
answer failed for memory, or the grader's own failure. The sandbox keeps learner code from them (a
PID namespace per notebook, a seccomp filter); the host's own check is behind both, and the one there
is without the sandbox, where learner code runs as the host's own user: after each call it compares
them with what they were when it got ready (``state``). If a call changed them, the host answers
``("altered", names)`` instead of the call's outcome and ends: that outcome is void, and the runner
grades the notebook again on a new host (``runner.HostAltered``).
"""

from __future__ import annotations

import argparse
import ctypes
import errno
import gc
import importlib
import os
import pkgutil
import shutil
import signal
import sys
import tempfile
from collections.abc import Callable
from typing import Any

from . import isolation, landlock, namespaces
from .processes import die_with_parent, keep_private
from .sandbox import MEMORY_LIMIT, Setup, run_limited
from .syscall_filter import number, refuse_sockets_and_permissions
from .wire import receive, send

__all__ = ["leave_keyring", "main", "prepare_judge", "state"]

_PACKAGE = "harness_lab."
_DEVICES = ("/dev/zero", "/dev/urandom", "/dev/random", "/dev/full")  # read; /dev/null is written too
_NOT_IMPORTED = {"harness_lab.grading.__main__"}  # runs the grading command when imported
# Standard modules the judge or an answer cell may want later: jsonschema's error text needs pprint,
# a host name encodings.idna. Run as root, the host may then be a user who cannot read the
# installation's folders (a Python under /root), so what is not imported now cannot be later.
_STANDARD = (
    "pprint",
    "encodings.idna",
    "encodings.unicode_escape",
    "math",
    "random",
    "datetime",
    "decimal",
    "fractions",
    "statistics",
    "textwrap",
    "difflib",
    "csv",
    "uuid",
    "hashlib",
    "string",
    "itertools",
    "functools",
    "operator",
    "concurrent.futures.thread",  # a thread pool running a turn's tools: a right answer's style
)


def prepare_judge() -> None:
    """Import what judging will need, and let the SDK import its own lazy helpers, before any learner code runs.

    A module imported later by the judging process would be looked up on ``sys.path`` after learner
    code had its chance to write there (round five's planted ``pprint.py``).
    """
    import io

    # The SDK imports aiohttp where it is installed (JupyterHub brings it) to offer a transport over
    # the network, which a judge never has: left out, a host starts on 1.7 CPU-s, not 1.8.
    sys.modules.setdefault("aiohttp", None)  # type: ignore[arg-type]  # the import then fails at once
    import harness_lab.emulator  # here, not above: the grading commands import this module and drive no model

    from ..json_schema import jsonschema_module
    from .scenarios import content_of

    for name in _STANDARD:
        importlib.import_module(name)
    for package in (harness_lab.grading, harness_lab.emulator):
        for found in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if found.name not in _NOT_IMPORTED:
                importlib.import_module(found.name)
    for package in (harness_lab, harness_lab.grading):  # the names they load on first use (lazy.py)
        for name in package.__all__:
            getattr(package, name)
    jsonschema_module()
    real_stderr, sys.stderr = sys.stderr, io.StringIO()  # the SDK may warn once on its first request
    try:
        content_of("ready")  # the first request through the SDK imports its tracing helpers
    finally:
        sys.stderr = real_stderr


def leave_keyring() -> None:
    """Join a new anonymous session keyring: the caller's keys are then out of this process's reach.

    The seccomp filter keeps learner code from every keyring call (``syscall_filter.py``); this keeps
    the caller's keyring from the grader itself, and from learner code run as root without the sandbox
    (a change of uid keeps the session keyring, and its keys' possessor rights with it).
    """
    keyctl = number("keyctl")
    if keyctl is None:
        return
    libc = ctypes.CDLL(None, use_errno=True)
    join_session_keyring = 1
    if libc.syscall(keyctl, join_session_keyring, None) < 0:
        failed = ctypes.get_errno()
        if failed not in (errno.ENOSYS, errno.EPERM):  # no keyrings here, or none for anyone (a container's filter)
            raise OSError(failed, f"keyctl: {os.strerror(failed)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness_lab.grading.host")
    parser.add_argument("--sandboxed", action="store_true", help="inside bubblewrap: own namespaces per call")
    parser.add_argument("--uid", type=int, default=None, help="run as root: the unprivileged user to become")
    args = parser.parse_args(argv)
    leave_keyring()  # before anything else runs here, and as root before the change of uid
    if args.sandboxed and os.getuid() == 0 and os.getpid() == 1:  # root in bwrap, never on the machine itself
        namespaces.uncover_proc()
    requests, replies = _private_channel()
    # The imports make a million objects and next to no garbage, so collecting meanwhile is wasted: a
    # seventh of the host's start (2.0 CPU-s, 1.7 with collection paused). Frozen afterwards, those
    # objects are never walked again, so a judging child that allocates enough for a full collection
    # neither pays for walking them nor copies every page they sit on (0.5 s against 0.14 s).
    gc.disable()
    prepare_judge()
    gc.freeze()
    gc.enable()
    if args.uid is not None and os.getuid() == 0:
        os.setgroups([])
        os.setgid(args.uid)
        os.setuid(args.uid)
    die_with_parent(signal.SIGKILL)  # bwrap's --die-with-parent, cleared by a change of uid (runner.py ends it then)
    keep_private()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the runner decides; as init we take no signal from inside
    os.dup2(os.open(os.devnull, os.O_WRONLY), 2)  # the runner reads stderr only until ready
    ready = state()
    send(replies, ("ready", os.getuid()))
    while True:
        request, end = receive(requests)
        if end != "whole":  # the runner is done: nothing here to flush, and no need to wait for atexit
            os._exit(0)
        reply = _serve(request, args.sandboxed, dedicated=args.uid is not None)
        now = state()
        altered = sorted(name for name in ready.keys() | now.keys() if ready.get(name) != now.get(name))
        if altered:  # every later call would inherit the change: this one's outcome is void, and the host done
            send(replies, ("altered", altered))
            os._exit(0)
        send(replies, reply)


def state() -> dict[str, Any]:
    """This process's limits and scheduling, as plain values (what the platform can tell)."""
    found: dict[str, Any] = {}
    try:
        import resource
    except ImportError:  # Windows: no forked notebooks, nothing to inherit
        return found
    for name in sorted(n for n in dir(resource) if n.startswith("RLIMIT_")):
        try:
            found[name] = resource.getrlimit(getattr(resource, name))
        except (OSError, ValueError):
            continue
    found["nice"] = os.getpriority(os.PRIO_PROCESS, 0)
    if hasattr(os, "sched_getscheduler"):
        found["policy"] = (os.sched_getscheduler(0), os.sched_getparam(0).sched_priority)
    if hasattr(os, "sched_getaffinity"):
        found["cpus"] = sorted(os.sched_getaffinity(0))
    ioprio_get = number("ioprio_get")
    if ioprio_get is not None:
        io_who_process = 1
        found["io"] = ctypes.CDLL(None, use_errno=True).syscall(ioprio_get, io_who_process, 0)
    return found


def _private_channel() -> tuple[int, int]:
    """The runner's pipes on descriptors of their own; 0 and 1 then point at nothing."""
    requests, replies = os.dup(0), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    sys.stdin = open(os.devnull)  # noqa: SIM115 (for the host's life)
    sys.stdout = open(os.devnull, "w")  # noqa: SIM115
    return requests, replies


def _serve(request: Any, sandboxed: bool, dedicated: bool = False) -> tuple:
    """One call: ``("call", target, files, args, timeout, memory)`` -> ``("done", status, value, error)``."""
    try:
        kind, target, files, args, timeout, memory = request
        function = _function(target)
        if kind != "call" or type(files) is not dict or type(args) is not tuple:
            raise ValueError("not a call")
    except (TypeError, ValueError, AttributeError) as exc:
        return ("refused", str(exc))
    setup: Setup
    if sandboxed:
        folder, scratch = namespaces.FOLDER, None
        setup = lambda: namespaces.enter(files)  # noqa: E731
    else:
        scratch = tempfile.mkdtemp(prefix="call-")
        folder = os.path.join(scratch, "nb")
        setup = lambda: _unsandboxed(scratch, files)  # noqa: E731
    try:
        job = lambda: function(folder, *args)  # noqa: E731
        outcome = run_limited(job, timeout, memory=memory or MEMORY_LIMIT, setup=setup, watched=scratch)
    finally:
        # the sandbox's init, or a user of the grader's own (run as root): every other process it can
        # signal belongs to this call
        if (sandboxed and os.getpid() == 1) or (dedicated and os.getuid() != 0):
            _end_everything_else()
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)
    return ("done", outcome.status, outcome.value, outcome.error)


def _function(target: str) -> Any:
    """A function of this package, already imported, from ``module:function``."""
    module, _, name = target.partition(":")
    if not module.startswith(_PACKAGE) or module not in sys.modules or not name.isidentifier():
        raise ValueError(f"not a grading function: {target}")
    function = getattr(sys.modules[module], name)
    if not callable(function):
        raise ValueError(f"not a grading function: {target}")
    return function


def _unsandboxed(scratch: str, files: dict[str, bytes]) -> Callable[[], None]:
    """Without the sandbox: a folder and a temporary folder of the call's own, and for the job, no network,
    no Unix socket made by name, no file outside that folder written and no file's permissions changed (``_keep_to``)."""
    folder, tmp = os.path.join(scratch, "nb"), os.path.join(scratch, "tmp")
    os.mkdir(folder, 0o700)
    os.mkdir(tmp, 0o700)
    os.environ["TMPDIR"] = os.environ["HOME"] = tmp
    tempfile.tempdir = None
    namespaces.write_files(folder, files)
    return lambda: _keep_to(scratch)


def _keep_to(scratch: str) -> None:
    """In the job: no network, nothing outside its domain that listens (a Jupyter kernel of the caller's, with the caller's
    key) can be asked to run code, and the caller's files are neither written (``~/.bashrc``, a classmate's
    notebook) nor read (the solutions), where Landlock has the rules (``landlock.py``), nor opened to other
    accounts (``syscall_filter.refuse_sockets_and_permissions``).

    ``/proc/self`` is the job's own folder there (its ``oom_score_adj``; what the job starts inherits the
    value); ``/proc`` is read as the judge reads its own memory, the caller's files in it being out of the
    domain's reach (``landlock.confine``)."""
    import resource  # not on Windows, where no job is forked

    writable = [scratch, os.devnull, os.path.realpath("/proc/self")]
    landlock.keep_to(writable, [*isolation.readable(), "/proc", *_DEVICES])
    refuse_sockets_and_permissions()
    # the sandbox's limit on one file (its folders are in memory, size-capped); this folder is on the caller's
    # disk, which a cell could otherwise fill. A write past it fails with EFBIG: Python ignores SIGXFSZ, and so
    # does what the job runs.
    resource.setrlimit(resource.RLIMIT_FSIZE, (namespaces.FILE_LIMIT, namespaces.FILE_LIMIT))


def _end_everything_else() -> None:
    """Kill every other process this one may signal (the call's, nothing else) and reap its children."""
    try:
        os.kill(-1, signal.SIGKILL)
    except ProcessLookupError:
        pass
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return


if __name__ == "__main__":
    sys.exit(main())
