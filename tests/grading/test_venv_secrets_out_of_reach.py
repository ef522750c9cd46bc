"""Answer cells read what Python needs of the course's venv, and nothing else kept at its root.

The sandbox binds the venv read-only, and graded without it Landlock lets the answer cells read beneath the
same folders (``isolation.readable``). The venv's root is where pip looks for a ``pip.conf`` of the venv's own
(an index's URL with its token) and where a ``.env`` may be kept: both were read whole by an answer cell,
sandboxed or not. A file of the test's at the root stands for them (not named ``pip.conf``: a pip run meanwhile
would read it). The grading runs as a normal user (``nobody`` when the tests run as root): in the sandbox, and on
a machine that gives it no user namespace (``no_user_namespaces.py``).
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import uuid
from pathlib import Path

import pytest

import harness_lab.grading.catalog  # noqa: F401 (the notes join the catalog)
from harness_lab.grading import isolation, landlock
from harness_lab.text import CATALOG
from tests.grading import no_user_namespaces

ROOT = Path(__file__).resolve().parents[2]
# Raises with what it read of the file at the venv's root, or with why it could not.
READ = """
import os as _os, sys as _sys
try:
    with open(_os.path.join(_sys.prefix, NAME)) as _f:
        _found = "READ " + _f.read()
except OSError as _refused:
    _found = "REFUSED " + type(_refused).__name__
raise RuntimeError(_found)
"""
MACHINES = {
    "sandbox": "",
    "no user namespaces": no_user_namespaces.PRELUDE,
}

pytestmark = [
    *no_user_namespaces.NEEDED,
    pytest.mark.skipif(sys.prefix == sys.base_prefix, reason="the tests run in no venv"),
]


@pytest.mark.parametrize("machine", list(MACHINES))
def test_answer_cells_read_no_file_kept_at_the_venvs_root(machine):
    if machine == "sandbox" and isolation.find_bwrap() is None:
        pytest.skip("no bubblewrap")
    if machine != "sandbox" and not landlock.available():
        pytest.skip("the kernel has no Landlock: graded without the sandbox, the answer cells read their user's files")
    secret = f"index-token-{uuid.uuid4().hex}"
    name = f"harness-lab-test-{uuid.uuid4().hex}.conf"
    kept = Path(sys.prefix) / name
    kept.write_text(secret, encoding="utf-8")
    kept.chmod(0o644)
    folder = Path(tempfile.mkdtemp())
    folder.chmod(0o777)
    try:
        notebook = no_user_namespaces.with_a_cell(folder, READ.replace("NAME", repr(name)))
        done = no_user_namespaces.grade(folder, notebook, MACHINES[machine])
    finally:
        kept.unlink()
        shutil.rmtree(folder)
    unsandboxed = any(CATALOG[key][1] in done.stderr for key in CATALOG if key.startswith("grade.sandbox.not_isolated"))
    assert unsandboxed == (machine != "sandbox"), done.stderr
    # was "RuntimeError: READ index-token-...": the file read whole, in both
    assert secret not in done.stdout + done.stderr
    assert "REFUSED" in done.stdout, done.stdout + done.stderr
