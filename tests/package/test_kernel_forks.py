"""The suite's warm kernels (tests/kernel_forks) are the kernels a notebook would get, only started sooner.

A kernel forked from the warm process must read its own environment, folder and arguments, take
Jupyter's interrupts and die with its stand-in; a kernel whose folder holds a module named like one
the warm process imported must start the ordinary way, so it imports what a fresh kernel would.
"""

from __future__ import annotations

import json
import os
import signal
import time

import pytest
from jupyter_client.manager import KernelManager

from tests.kernel_forks import server

pytestmark = pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="the forker needs pidfd_open (Linux)")


def _sdk_imported(pid: int) -> bool:
    """Whether process ``pid`` has imported the SDK: pydantic's compiled core is mapped into it."""
    with open(f"/proc/{pid}/maps", encoding="utf-8") as maps:
        return "pydantic_core" in maps.read()


@pytest.fixture(scope="module")
def forker():
    """A forker of this module's own, and the environment its kernels start with (so no other
    test's leftovers in this process's environment can make it refuse one). It imports the SDK when
    the first kernel is asked for, not before."""
    environment = {k: v for k, v in os.environ.items() if k != "ANTHROPIC_API_KEY"}
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [environment.get("PYTHONPATH"), server.HERE]))
    launched = server.launch(environment)
    assert launched is not None, "the forker did not start"
    process, address = launched
    assert not _sdk_imported(process.pid)  # a run that starts no kernel (one file while you work) pays nothing for it
    yield process.pid, {**environment, server.ADDRESS: address}
    process.stdin.close()
    process.wait(timeout=30)


def started(folder, environment: dict, **extra: str) -> tuple[KernelManager, object]:
    manager = KernelManager(kernel_name="python3")
    manager.start_kernel(cwd=str(folder), env={**environment, **extra})
    client = manager.client()
    client.start_channels()
    client.wait_for_ready(timeout=60)
    return manager, client


def run(client, code: str, timeout: float = 60) -> str:
    said: list[str] = []
    client.execute_interactive(code, timeout=timeout, output_hook=lambda m: said.append(m["content"].get("text", "")))
    return "".join(said)


def stopped(manager: KernelManager, client) -> None:
    client.stop_channels()
    if manager.is_alive():
        manager.shutdown_kernel(now=True)


REPORT = (
    "import json, os, sys\n"
    "print(json.dumps({'ppid': os.getppid(), 'cwd': os.getcwd(), 'mine': os.environ.get('ONLY_THIS_KERNEL'),"
    " 'warm': 'anthropic' in sys.modules, 'path0': sys.path[0]}))"
)


def test_a_forked_kernel_reads_its_own_environment_and_folder(tmp_path, forker):
    pid, environment = forker
    manager, client = started(tmp_path, environment, ONLY_THIS_KERNEL="yes")
    try:
        seen = json.loads(run(client, REPORT))
    finally:
        stopped(manager, client)
    assert seen["ppid"] == pid and seen["warm"] and _sdk_imported(pid)
    assert (seen["cwd"], seen["mine"]) == (str(tmp_path), "yes")
    # ipykernel_launcher takes the working folder off sys.path, as `python -m` put it there
    assert seen["path0"] != str(tmp_path)


def test_a_module_in_the_kernels_folder_named_like_a_warm_one_gets_a_fresh_kernel(tmp_path, forker):
    pid, environment = forker
    (tmp_path / "anthropic.py").write_text("PLANTED = True\n", encoding="utf-8")
    manager, client = started(tmp_path, environment)
    try:
        said = run(client, "import os, anthropic; print(getattr(anthropic, 'PLANTED', False), os.getppid())")
    finally:
        stopped(manager, client)
    planted, parent = said.split()
    assert planted == "True" and int(parent) != pid


def test_an_interrupt_reaches_the_forked_kernel(tmp_path, forker):
    pid, environment = forker
    manager, client = started(tmp_path, environment)
    try:
        assert int(run(client, "import os; print(os.getppid())")) == pid
        code = "import time\ntry:\n    print('asleep', flush=True)\n    time.sleep(60)\nexcept KeyboardInterrupt:\n    print('interrupted')"
        client.execute(code)
        said = []
        deadline = time.monotonic() + 20
        for awaited in ("asleep", "interrupted"):  # interrupted once inside the try, not after a guessed second
            while awaited not in "".join(said) and time.monotonic() < deadline:
                message = client.get_iopub_msg(timeout=20)
                said.append(message["content"].get("text", ""))
            if awaited == "asleep":
                manager.interrupt_kernel()
        assert "interrupted" in "".join(said)
    finally:
        stopped(manager, client)


def test_killing_the_stand_in_kills_the_kernel(tmp_path, forker):
    pid, environment = forker
    manager, client = started(tmp_path, environment)
    try:
        kernel, parent = map(int, run(client, "import os; print(os.getpid(), os.getppid())").split())
        assert parent == pid  # forked, so the stand-in is not the kernel
        stand_in = manager.provisioner.process.pid
        assert kernel != stand_in
        os.kill(stand_in, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while os.path.exists(f"/proc/{kernel}") and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not os.path.exists(f"/proc/{kernel}")
    finally:
        stopped(manager, client)
