"""Answer cells graded without the sandbox leave no System V IPC object or POSIX message queue behind.

The sandbox gives each notebook an IPC namespace of its own, which goes with its last process. Without it the
answer cells share the caller's: a shared memory segment, a message queue, a semaphore set or a POSIX queue
they make is the machine's until someone removes it (16 MB segments stayed after the grade, counted in no
memory limit), a later learner's job may read it, and the caller's own segments are theirs to attach. Tried
where the kernel gives a normal user no user namespace (``no_user_namespaces.py``), and with
``grade-class --unsandboxed``, whose jobs have a user namespace but the caller's IPC namespace.
"""

from __future__ import annotations

import ctypes
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import harness_lab.grading.catalog  # noqa: F401 (the verdicts join the catalog)
from harness_lab.text import CATALOG
from tests.grading import no_user_namespaces

ROOT = Path(__file__).resolve().parents[2]
ALL_PASSED = CATALOG["grade.all_passed"][1].format(total=3)  # the English side
# Makes a 16 MB segment (touched, so it holds memory), a message queue with a message in it, a semaphore
# set and a POSIX queue, each under the test's own key or name, and says which it made.
MAKE = """
import ctypes as _c
_libc = _c.CDLL(None, use_errno=True)
_libc.shmat.restype = _c.c_void_p
_made = []
_shm = _libc.shmget(KEY, 16 << 20, 0o1600)
if _shm >= 0:
    _at = _libc.shmat(_shm, None, 0)
    if _at not in (None, 2 ** 64 - 1):
        _c.memset(_at, 1, 16 << 20)
        _libc.shmdt(_c.c_void_p(_at))
    _made.append("shm")
_msg = _libc.msgget(KEY, 0o1600)
if _msg >= 0:
    _made.append("msg")
if _libc.semget(KEY, 4, 0o1600) >= 0:
    _made.append("sem")
if _libc.mq_open(NAME, 0o102, 0o600, None) >= 0:  # O_CREAT | O_RDWR
    _made.append("mq")
if _made:
    raise RuntimeError("IPC MADE: " + " ".join(_made))
"""

pytestmark = no_user_namespaces.NEEDED


def left_behind(key: int, name: bytes) -> list[str]:
    """What of the cell's objects the machine still holds (read in the test's own IPC namespace, the caller's)."""
    found = []
    for kind in ("shm", "msg", "sem"):
        rows = Path(f"/proc/sysvipc/{kind}").read_text().splitlines()[1:]
        found += [kind for row in rows if int(row.split()[0]) == key]
    libc = ctypes.CDLL(None, use_errno=True)
    queue = libc.mq_open(name, os.O_RDONLY)
    if queue >= 0:
        found.append("mq")
        os.close(queue)
    return found


def remove(key: int, name: bytes) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    for get, remove_id in ((libc.shmget, libc.shmctl), (libc.msgget, libc.msgctl)):
        made = get(key, 0, 0)
        if made >= 0:
            remove_id(made, 0, None)  # IPC_RMID
    made = libc.semget(key, 0, 0)
    if made >= 0:
        libc.semctl(made, 0, 0)
    libc.mq_unlink(name)


def grade_class(folder: Path, notebook: Path) -> subprocess.CompletedProcess:
    """``harness-lab grade-class --unsandboxed --lang en`` over one learner's ``notebook``, as the tests' user (as
    root, the jobs run as a learner uid of the grader's own, in a user namespace, the caller's IPC namespace)."""
    subs = folder / "subs"
    (subs / "mal").mkdir(parents=True)
    notebook.rename(subs / "mal" / notebook.name)
    for path in (subs, subs / "mal"):
        path.chmod(0o755)
    command = [sys.executable, "-P", "-m", "harness_lab.cli", "grade-class", str(subs), "--out", str(folder / "out")]
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(folder)}
    return subprocess.run(
        [*command, "--unsandboxed", "--lang", "en", "--timeout", "60"],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        cwd=folder,
    )


@pytest.mark.parametrize("how", ["grade without user namespaces", "grade-class --unsandboxed"])
def test_answer_cells_graded_without_the_sandbox_leave_no_shared_memory_or_queue_behind(how):
    key, name = 0x4C000000 | secrets.randbelow(1 << 24), f"/hl-ipc-{secrets.token_hex(6)}".encode()
    folder = Path(tempfile.mkdtemp())  # any user may enter it: the tests grade as a normal user
    folder.chmod(0o777)
    try:
        cell = MAKE.replace("KEY", str(key)).replace("NAME", repr(name))
        notebook = no_user_namespaces.with_a_cell(folder, cell)
        if how == "grade-class --unsandboxed":
            done = grade_class(folder, notebook)
            report = (folder / "out" / "grades.csv").read_text(encoding="utf-8-sig")
            graded = "mal,level1,level1_tiered_policy.ipynb,pass,pass,pass,,3,3,ok" in report
        else:
            done = no_user_namespaces.grade(folder, notebook, no_user_namespaces.PRELUDE)
            report, graded = done.stdout, ALL_PASSED in done.stdout
        found = left_behind(key, name)
    finally:
        remove(key, name)
        shutil.rmtree(folder)
    # was ['shm', 'msg', 'sem', 'mq'] left on the machine after the grade, and "IPC MADE: shm msg sem mq"
    assert found == [], how
    assert (done.returncode, graded, "IPC MADE" in report) == (0, True, False), done.stdout + done.stderr
