"""Answer cells graded without user namespaces change no other process's limits or priority.

Where the kernel gives a normal user no user namespace (``no_user_namespaces.py``), the answer cells run as the
user who grades, in the machine's PID namespace: they see every process of that user, the grading command that
started them among them. A cell that set the command's open files to 4 ended it with a traceback before the
next notebook, and ``setpriority(PRIO_USER, 0, 19)`` set every process of the user (the instructor's whole
session) to nice 19, which that user cannot undo. The cell's own limits and priority stay its own to change.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import harness_lab.grading.catalog  # noqa: F401 (the verdicts join the catalog)
from harness_lab.text import CATALOG
from tests.grading import no_user_namespaces

ROOT = Path(__file__).resolve().parents[2]
ALL_PASSED = CATALOG["grade.all_passed"][1].format(total=3)  # the English side
# Its own nice and open files first (these must work), then every process of its user to nice 19, and every
# process above it to 4 open files.
MEDDLE = """
import ctypes as _c, os as _os, resource as _r
_os.nice(1)
_r.setrlimit(_r.RLIMIT_NOFILE, (100, _r.getrlimit(_r.RLIMIT_NOFILE)[1]))
_c.CDLL(None).setpriority(2, 0, 19)  # PRIO_USER, this user
_pid = _os.getppid()
while _pid > 1:
    try:
        _r.prlimit(_pid, _r.RLIMIT_NOFILE, (4, 4))
    except OSError:
        pass
    _pid = int(open(f"/proc/{_pid}/stat").read().rsplit(")", 1)[1].split()[1])
"""

pytestmark = no_user_namespaces.NEEDED


def nice_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])


def test_answer_cells_graded_without_namespaces_change_neither_the_grader_nor_the_users_other_processes():
    folder = Path(tempfile.mkdtemp())  # any user may enter it: the tests grade as a normal user
    folder.chmod(0o777)
    nobody = {"user": 65534, "group": 65534, "extra_groups": []} if os.geteuid() == 0 else {}
    second = folder / "second"
    second.mkdir(mode=0o777)
    honest = second / "level2_missing_gate.ipynb"
    shutil.copy(ROOT / "exercises" / "solutions" / honest.name, honest)
    honest.chmod(0o644)
    bystander = subprocess.Popen(["sleep", "300"], **nobody)  # the grading user's other work
    started_at = nice_of(bystander.pid)  # the suite's own nice (0, or what `nice python3 dev.py test` gave it)
    try:
        meddling = no_user_namespaces.with_a_cell(folder, MEDDLE)
        done = no_user_namespaces.grade(folder, meddling, no_user_namespaces.PRELUDE, also=(honest,))
        niced = nice_of(bystander.pid)
    finally:
        bystander.kill()
        bystander.wait()
        shutil.rmtree(folder)
    # was 19: the user's other process reniced for good
    assert niced == started_at
    # was exit 1, "OSError: [Errno 24] Too many open files" before the second notebook
    assert (done.returncode, done.stdout.count(ALL_PASSED)) == (0, 2), done.stdout + done.stderr
