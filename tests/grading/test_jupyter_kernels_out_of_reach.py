"""Answer cells graded without the sandbox cannot have a Jupyter kernel of their user's run code for them.

Where the kernel gives a normal user no user namespace, ``harness-lab grade`` runs the answer cells as its
caller, in a Landlock domain (``landlock.py``) that keeps them from reading or signalling any process
outside it. A Jupyter kernel of that user (the instructor's own, its environment holding the API key)
is outside the domain, but takes code from anyone who holds its connection file: the file names its TCP
ports (or Unix sockets) and signing key, and the kernel's command line names the file (``-f …/kernel-*.json``).
The machine is made with a seccomp filter (``no_user_namespaces.py``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import harness_lab.grading.catalog  # noqa: F401 (the verdicts join the catalog)
from harness_lab.text import CATALOG
from tests.grading import no_user_namespaces
from tests.process_ids import landlock_abi

ROOT = Path(__file__).resolve().parents[2]
SOLUTION = ROOT / "exercises" / "solutions" / "level2_missing_gate.ipynb"
ALL_PASSED = CATALOG["grade.all_passed"][1].format(total=3)  # the English side
# Each transport the tests cover, and what a kernel of the instructor's on it holds in its environment.
KEYS = {"tcp": "sk-ant-api03-INSTRUCTORS-TCP-KERNEL-0000", "ipc": "sk-ant-api03-INSTRUCTORS-IPC-KERNEL-0000"}
# Before ABI 4 nothing can keep a cell from a TCP port: no kernel is started there, and its test is skipped.
TCP_RULES = landlock_abi() >= 4
# An answer cell that finds every connection file it can read (the runtime folders, and the command lines of
# the machine's processes) and asks each kernel, each from a child of its own, to add its environment's key
# to a file the cell's user reads. A file it cannot read names no kernel it could ask (the child's
# load_connection_file would fail): on a busy machine other users' kernels are many, and a child importing
# jupyter_client for each, all at once, kept the two that matter from asking in time, and the cell's wait
# (thirty sleeps, each woken late) from ending within the cells' 10 s. It waits by the clock, 6 s at most.
ASK_A_KERNEL = """
import glob, os
def _readable(path):
    try:
        with open(path, "rb"):
            return True
    except OSError:
        return False
def _ask_a_kernel(path):
    from jupyter_client import BlockingKernelClient
    client = BlockingKernelClient(connection_file=path)
    try:
        client.load_connection_file()
        client.start_channels()
        client.execute_interactive(
            "import os; open(STOLEN, 'a').write(os.environ.get('ANTHROPIC_API_KEY', ''))", timeout=4
        )
    except Exception:
        pass
    finally:
        client.stop_channels()
_found = set(glob.glob("/home/*/.local/share/jupyter/runtime/kernel-*.json"))
_found.update(glob.glob("/root/.local/share/jupyter/runtime/kernel-*.json"))
for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            words = f.read().split(b"\\0")
    except OSError:
        continue
    _found.update(w.decode() for w in words if w.endswith(b".json") and b"kernel-" in w)
import signal, time
_asking = []
for _path in filter(_readable, _found):  # each in a child: a socket refused may leave zmq waiting for good
    _asking.append(os.fork())
    if _asking[-1] == 0:
        _ask_a_kernel(_path)
        os._exit(0)
_until = time.monotonic() + 6
while _asking and time.monotonic() < _until:
    time.sleep(0.1)
    _asking = [pid for pid in _asking if not os.waitpid(pid, os.WNOHANG)[0]]
for _pid in _asking:
    os.kill(_pid, signal.SIGKILL)
    os.waitpid(_pid, 0)
"""
# The instructor: a kernel of theirs on TCP (Jupyter's default transport) and one on Unix sockets named in
# its runtime folder (the IPC transport, the hub's), each with its key in its environment; then the grading
# command, whose own environment holds no key at all.
INSTRUCTOR = """
import os, subprocess, sys
from jupyter_client import KernelManager
managers = []
for transport, key in KEYS.items():
    where = {"transport": "tcp"} if transport == "tcp" else {"transport": "ipc", "ip": os.path.join(RUNTIME, "kernel")}
    managers.append(KernelManager(connection_file=os.path.join(RUNTIME, f"kernel-{transport}.json"), **where))
    managers[-1].start_kernel(env={**os.environ, "ANTHROPIC_API_KEY": key})
clients = [manager.client() for manager in managers]
try:
    for client in clients:
        client.start_channels()
        client.wait_for_ready(timeout=120)
    done = subprocess.run(COMMAND, capture_output=True)
finally:
    for client, manager in zip(clients, managers):
        client.stop_channels()
        manager.shutdown_kernel(now=True)
sys.stdout.buffer.write(done.stdout)
sys.exit(done.returncode)
"""

pytestmark = no_user_namespaces.NEEDED


@pytest.fixture(scope="module")
def graded_beside_kernels():
    """One grading of a notebook whose answer cell asks every kernel it finds, the instructor's kernels (one
    per transport) running meanwhile: the command's run, and what the kernels wrote to the stolen file."""
    folder = Path(tempfile.mkdtemp())  # any user may enter it: the tests grade as a normal user
    folder.chmod(0o777)
    runtime, stolen = folder / "runtime", folder / "stolen.txt"
    runtime.mkdir(mode=0o777)
    runtime.chmod(0o777)
    notebook = json.loads(SOLUTION.read_text(encoding="utf-8"))
    cell = {"cell_type": "code", "metadata": {"tags": ["answer"]}, "outputs": [], "execution_count": None}
    cell["source"] = ASK_A_KERNEL.replace("STOLEN", repr(str(stolen)))
    notebook["cells"].insert(next(i for i, c in enumerate(notebook["cells"]) if c["cell_type"] == "code"), cell)
    path = folder / SOLUTION.name
    path.write_text(json.dumps(notebook), encoding="utf-8")
    path.chmod(0o644)
    command = [sys.executable, "-P", "-m", "harness_lab.grading", "--lang", "en", str(path)]
    keys = {transport: key for transport, key in KEYS.items() if transport != "tcp" or TCP_RULES}
    script = INSTRUCTOR.replace("RUNTIME", repr(str(runtime))).replace("KEYS", repr(keys))
    script = no_user_namespaces.PRELUDE + script.replace("COMMAND", repr(command))
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(folder)}
    nobody = {"user": 65534, "group": 65534, "extra_groups": []} if os.geteuid() == 0 else {}
    try:
        done = subprocess.run(
            [sys.executable, "-P", "-c", script],
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
            cwd=folder,
            **nobody,
        )
        yield done, stolen.read_text() if stolen.exists() else ""
    finally:
        shutil.rmtree(folder)


@pytest.mark.parametrize(
    "transport",
    [
        pytest.param(
            "tcp", marks=pytest.mark.skipif(not TCP_RULES, reason="the kernel's Landlock has no network rules (6.7)")
        ),
        "ipc",
    ],
)
def test_grade_without_namespaces_gets_no_jupyter_kernel_to_run_code_for_the_answer_cells(
    graded_beside_kernels, transport
):
    done, stolen = graded_beside_kernels
    # was the instructor's key in stolen.txt, written by their own kernel at the answer cell's request (both ways)
    assert KEYS[transport] not in stolen, stolen[:8]
    assert (done.returncode, ALL_PASSED in done.stdout) == (0, True), done.stdout
