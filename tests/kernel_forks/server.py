"""The test suite's kernel forker: Jupyter kernels forked from one warm process (issue 23).

A kernel spends about three CPU seconds on imports before it runs a cell, two of them on the SDK
(pydantic building its models), and the suite starts a hundred kernels on two cores. This process
imports the SDK once;
``sitecustomize.py`` (beside it) turns each ``python -m ipykernel_launcher`` the tests start into a
request, and the kernel is forked from here with the requester's environment, working folder,
``sys.path``, arguments and standard streams: the same kernel, started warm. Nothing of harness_lab
is imported here, so a kernel reads its language and settings from its own environment, as a
fresh one does. The requester stays as the kernel's stand-in for Jupyter (signals, exit code);
if the stand-in is killed, the kernel's process group goes with it.

``start()`` runs it for a pytest session (tests/conftest.py); the kernels of the notebooks'
strict suite, of nbval in subprocesses and of the browser test's JupyterLab all come here.
"""

from __future__ import annotations

import atexit
import importlib
import json
import os
import random
import runpy
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path

ADDRESS = "HARNESS_LAB_TEST_KERNELS"


def read_at_start(name: str) -> bool:
    """Whether the interpreter, or a module imported here, reads ``name`` from the environment once,
    at start or import (the SDK's log level, pydantic's build switches, aiohttp's and its helpers'
    ``*_NO_EXTENSIONS``): a kernel whose environment differs in one starts the ordinary way.
    ``PYTHONPATH`` is not one: the kernel gets the requester's ``sys.path``."""
    return name != "PYTHONPATH" and (
        name.startswith(("PYTHON", "PYDANTIC", "LC_"))
        or name.endswith("_NO_EXTENSIONS")
        or name in ("LANG", "ANTHROPIC_LOG", "DEFER_PYDANTIC_BUILD")
    )


HERE = str(Path(__file__).resolve().parent)


def start() -> subprocess.Popen | None:
    """Start the forker for this process and its children (the environment names its socket)."""
    if os.environ.get(ADDRESS) or not hasattr(os, "pidfd_open"):
        return None
    launched = launch(dict(os.environ))
    if launched is None:
        return None
    server, address = launched
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [os.environ.get("PYTHONPATH"), HERE]))
    os.environ[ADDRESS] = address
    return server


def launch(environment: dict[str, str]) -> tuple[subprocess.Popen, str] | None:
    """A forker whose kernels start from ``environment``; its socket's address (None if it failed)."""
    folder = tempfile.mkdtemp(prefix="hl-kernels-")  # 0700: no other user's kernel can ask
    address = os.path.join(folder, "socket")
    quiet = {k: v for k, v in environment.items() if k != "ANTHROPIC_API_KEY"}  # a fork's memory holds this
    server = subprocess.Popen([sys.executable, __file__, address], stdin=subprocess.PIPE, env=quiet)
    deadline = time.monotonic() + 60
    while not os.path.exists(address):
        if server.poll() is not None or time.monotonic() > deadline:
            server.kill()
            return None
        time.sleep(0.05)
    return server, address


def stop(server: subprocess.Popen | None) -> None:
    if server is not None:
        os.environ.pop(ADDRESS, None)
        server.stdin.close()
        server.wait(timeout=30)


def _warm() -> None:
    # Only the SDK: two of a kernel's three seconds, and it reads no setting of ours when imported.
    # ipykernel, ipywidgets and matplotlib are left out: each reads its environment at import
    # (ipykernel its parent's pid, matplotlib its backend), which a fork would take from here.
    import gc

    import anthropic  # noqa: F401

    # Frozen, the SDK's objects are left out of every collection a kernel makes, so the kernel neither
    # walks them nor copies the pages they sit on (tests/lessons: 124 CPU-s of the machine, 117 so).
    gc.freeze()


def _refusal(request: dict) -> str | None:
    if request["executable"] != sys.executable:
        return "another interpreter"
    if request["flags"] != list(sys.flags):
        return "other interpreter flags"
    names = {*request["env"], *os.environ}
    if any(request["env"].get(name) != os.environ.get(name) for name in names if read_at_start(name)):
        return "another start-up environment"
    # a folder the kernel would search that this process did not: any module there named like one
    # imported here would have been the kernel's, so it starts fresh
    loaded = {name.partition(".")[0] for name in sys.modules}
    for folder in request["path"]:
        if folder in sys.path or not os.path.isdir(folder):
            continue
        for entry in os.listdir(folder):
            if entry.partition(".")[0] in loaded:
                return f"{entry} in {folder}"
    return None


def _become_kernel(request: dict, streams: list[int]) -> None:
    """In the forked child: take the requester's world, then run ipykernel as `-m` would."""
    code = 1
    try:
        os.setsid()
        for number, stream in enumerate(streams):
            os.dup2(stream, number)
            os.close(stream)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        time.tzset()
        sys.path[:] = request["path"]
        importlib.invalidate_caches()
        random.seed()
        threading.Thread(target=_die_with, args=(request["pid"],), daemon=True).start()
        sys.argv = ["ipykernel_launcher", *request["argv"]]
        runpy.run_module("ipykernel_launcher", run_name="__main__", alter_sys=True)
        code = 0
    except SystemExit as exit:
        code = exit.code if isinstance(exit.code, int) else (0 if exit.code is None else 1)
    except BaseException:
        traceback.print_exc()
    finally:
        atexit._run_exitfuncs()
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
        os._exit(code)


def _die_with(pid: int) -> None:
    """The stand-in gone (killed by Jupyter, as a kernel is), the kernel and its children go too."""
    try:
        handle = os.pidfd_open(pid)
    except ProcessLookupError:
        handle = None
    if handle is not None:
        selector = selectors.DefaultSelector()
        selector.register(handle, selectors.EVENT_READ)
        selector.select()
    os.killpg(0, signal.SIGKILL)


def _read(connection: socket.socket) -> tuple[dict, list[int]]:
    data, streams, _, _ = socket.recv_fds(connection, 1 << 20, 3)
    size = int.from_bytes(data[:8], "big")
    body = data[8:]
    while len(body) < size:
        more = connection.recv(size - len(body))
        if not more:
            raise ConnectionError("the request was cut short")
        body += more
    return json.loads(body), list(streams)


def serve(address: str) -> None:
    # Listening before warming, and warming at the first request: ``start`` waits only for the socket, so
    # a pytest run that starts no kernel (one test file while you work) neither waits for the SDK's import
    # nor pays for it; the first kernel asked for waits for the import instead.
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(address + ".new")
    listener.listen(64)
    os.rename(address + ".new", address)
    warm = False
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ, "accept")
    selector.register(wake_r, selectors.EVENT_READ, "reap")
    selector.register(sys.stdin, selectors.EVENT_READ, "end")
    waiting: dict[int, socket.socket] = {}
    while True:
        for key, _ in selector.select():
            if key.data == "end":  # the pytest run is over: leave no socket folder behind
                os.unlink(address)
                os.rmdir(os.path.dirname(address))
                return
            if key.data == "reap":
                os.read(wake_r, 4096)
                _reap(waiting)
                continue
            connection, _ = listener.accept()
            if not warm:
                _warm()
                assert threading.active_count() == 1, "a thread here would be half-copied into every kernel"
                warm = True
            try:
                request, streams = _read(connection)
            except (OSError, ValueError):
                connection.close()
                continue
            refusal = _refusal(request)
            if refusal is not None:
                for stream in streams:
                    os.close(stream)
                _tell(connection, {"refused": refusal})
                connection.close()
                continue
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                signal.set_wakeup_fd(-1)
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                for kept in (listener, connection, *waiting.values()):
                    kept.close()
                selector.close()
                os.close(wake_r)
                os.close(wake_w)
                _become_kernel(request, streams)
            for stream in streams:
                os.close(stream)
            waiting[pid] = connection
            _tell(connection, {"pid": pid})  # a stand-in gone already: the kernel sees it and ends
        _reap(waiting)


def _reap(waiting: dict[int, socket.socket]) -> None:
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        connection = waiting.pop(pid, None)
        if connection is not None:
            _tell(connection, {"exit": os.waitstatus_to_exitcode(status)})
            connection.close()


def _tell(connection: socket.socket, answer: dict) -> None:
    """Answer a stand-in; one that was killed meanwhile must not end the forker."""
    try:
        connection.sendall(json.dumps(answer).encode() + b"\n")
    except OSError:
        pass


if __name__ == "__main__":
    serve(sys.argv[1])
