"""Answer cells graded without the sandbox take none of their user's inotify instances.

inotify's instances are counted per user, up the user namespaces (128 by default): an answer cell graded
as the instructor's user (``no_user_namespaces.py``) could make them all and hold them until its deadline,
and meanwhile the instructor's editors and Jupyter could make none (they stop seeing files change). The
sandbox refuses the calls; without it the job's filter now does too.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import harness_lab.grading.catalog  # noqa: F401 (the verdicts join the catalog)
from harness_lab.text import CATALOG
from tests.grading import no_user_namespaces

ALL_PASSED = CATALOG["grade.all_passed"][1].format(total=3)  # the English side
# Makes instances until refused, and holds them a few seconds.
HOLD = """
import ctypes as _c, time as _time
_libc = _c.CDLL(None, use_errno=True)
_held = []
while len(_held) < 1000 and (_fd := _libc.inotify_init1(0)) >= 0:
    _held.append(_fd)
if _held:
    _time.sleep(4)
    raise RuntimeError("INOTIFY HELD: %d" % len(_held))
"""
# The grading user's other work: tries to make an instance every 50 ms while the grade runs; says if one failed.
BYSTANDER = """
import ctypes, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
refused = False
while not os.path.exists(sys.argv[1]):
    fd = libc.inotify_init1(0)
    if fd < 0:
        refused = True
    else:
        os.close(fd)
    time.sleep(0.05)
print(refused)
"""

pytestmark = no_user_namespaces.NEEDED


def test_answer_cells_graded_without_namespaces_leave_the_users_inotify_instances_free():
    folder = Path(tempfile.mkdtemp())  # any user may enter it: the tests grade as a normal user
    folder.chmod(0o777)
    nobody = {"user": 65534, "group": 65534, "extra_groups": []} if os.geteuid() == 0 else {}
    done_marker = folder / "graded"
    bystander = subprocess.Popen(
        [sys.executable, "-c", BYSTANDER, str(done_marker)], stdout=subprocess.PIPE, text=True, **nobody
    )
    try:
        done = no_user_namespaces.grade(
            folder, no_user_namespaces.with_a_cell(folder, HOLD), no_user_namespaces.PRELUDE
        )
        done_marker.touch()
        refused = bystander.communicate(timeout=60)[0].strip()
    finally:
        bystander.kill()
        shutil.rmtree(folder)
    # was "True": the user's other processes could make no instance while the cell held all 128
    assert refused == "False"
    assert (done.returncode, ALL_PASSED in done.stdout, "INOTIFY HELD" in done.stdout) == (0, True, False), done.stdout
