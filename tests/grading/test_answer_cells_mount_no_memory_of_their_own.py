"""Answer cells graded without the sandbox mount no tmpfs: its memory would be counted by no limit.

Graded without the sandbox, a job that may have a user namespace (``namespaces.make``) is its root: every
capability in it, in a mount namespace it owns. Where a Landlock domain holds it (``host._keep_to``) no mount is
allowed; on a kernel without Landlock, a cell mounted a tmpfs in its folder and filled 3.2 GB of the machine's
memory in 7 s under the notebook's 1 GB limit (no process maps a tmpfs's pages, and the folder's walk sees the
empty folder below the mount). The job now holds no capability, and may make no user namespace of its own where
it would hold them again.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.grading import no_user_namespaces

ROOT = Path(__file__).resolve().parents[2]
# A tmpfs on a folder of the cell's, mounted where the cell runs (root of the job's user namespace), or in a user
# and mount namespace of its own below, where it would be root again.
MOUNT = """
import ctypes as _c, os as _os
_libc = _c.CDLL(None, use_errno=True)
if WAY == "below":
    _libc.unshare(0x10000000 | 0x00020000)  # CLONE_NEWUSER | CLONE_NEWNS
_os.makedirs("held", exist_ok=True)
if _libc.mount(b"none", b"held", b"tmpfs", 0, b"size=8g") == 0:
    raise RuntimeError("MOUNTED A TMPFS")
"""

pytestmark = no_user_namespaces.NEEDED


@pytest.mark.parametrize("way", ["here", "below"])
def test_answer_cells_graded_without_the_sandbox_or_landlock_mount_no_tmpfs(way):
    folder = Path(tempfile.mkdtemp())  # any user may enter it: the jobs run as a learner uid of the grader's own
    folder.chmod(0o777)
    try:
        cell = MOUNT.replace("WAY", repr(way))
        notebook = no_user_namespaces.with_a_cell(folder, cell)
        subs = folder / "subs" / "mal"
        subs.mkdir(parents=True)
        notebook.rename(subs / notebook.name)
        for path in (subs.parent, subs):
            path.chmod(0o755)
        command = [sys.executable, "-P", "-m", "harness_lab.cli", "grade-class", str(subs.parent)]
        command += ["--out", str(folder / "out"), "--unsandboxed", "--lang", "en", "--timeout", "60"]
        script = no_user_namespaces.without_landlock("ENOSYS")
        script += f"import subprocess, sys; sys.exit(subprocess.run({command!r}).returncode)"
        env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(folder)}
        done = subprocess.run(
            [sys.executable, "-P", "-c", script], env=env, capture_output=True, text=True, timeout=600, cwd=folder
        )
        report = (folder / "out" / "grades.csv").read_text(encoding="utf-8-sig")
    finally:
        shutil.rmtree(folder)
    # was "RuntimeError: MOUNTED A TMPFS" in the row's message, both ways
    assert "MOUNTED" not in report, report
    assert "mal,level1,level1_tiered_policy.ipynb,pass,pass,pass,,3,3,ok" in report, done.stdout + done.stderr
