"""Answer cells read what Python needs of its installation, and nothing else kept at its root.

Round thirteen kept answer cells to a venv's ``bin``, ``lib`` and ``pyvenv.cfg``, but the Python installation the
venv is made from (``sys.base_prefix``), or that the course runs in directly (a conda environment, the
docker-stacks image's ``/opt/conda``), was bound whole in the sandbox. Its root is where conda keeps an
environment's variables (``conda env config vars set ANTHROPIC_API_KEY=...`` writes them to ``conda-meta/state``),
and a base installation holds every other environment under ``envs/``: an answer cell read such a file whole.
A file of the test's at the installation's root stands for them. ``grade-class`` in the sandbox, run by the tests'
user: as root (CI), the host finds the installation before it becomes its learner uid, and bwrap makes each of
the installation's parents ``0755`` (a normal user's host cannot read a Python under a ``0700`` home at all).
"""

from __future__ import annotations

import io
import os
import sys
import uuid
from pathlib import Path

import pytest
from class_submissions import (
    breaking,
    instructor_config,  # noqa: F401  # the record's key in a folder of the tests' own
    needs_sandbox,
)

from harness_lab.grading.class_command import grade_class_command
from harness_lab.text import speaking

# Raises with what it read of the file at the installation's root, or with why it could not.
READ = """
import os as _os, sys as _sys
try:
    with open(_os.path.join(_sys.base_prefix, NAME)) as _f:
        _found = "READ " + _f.read()
except OSError as _refused:
    _found = "REFUSED " + type(_refused).__name__
raise RuntimeError(_found)
"""

pytestmark = [
    needs_sandbox,
    pytest.mark.skipif(sys.base_prefix in ("/usr", "/"), reason="the system's Python: /usr is the system, bound whole"),
    pytest.mark.skipif(
        not os.access(sys.base_prefix, os.W_OK), reason="the Python installation is not the tests' to write"
    ),
]


def test_answer_cells_read_no_file_kept_at_the_python_installations_root(tmp_path):
    secret = f"sk-ant-env-var-{uuid.uuid4().hex}"
    name = f"harness-lab-test-{uuid.uuid4().hex}.state"
    kept = Path(sys.base_prefix) / name
    kept.write_text(secret, encoding="utf-8")
    kept.chmod(0o644)
    subs, report = tmp_path / "subs", tmp_path / "report"
    breaking("level1", READ.replace("NAME", repr(name)), "error", "grade.nb.cell_raised").write(subs, "mal")
    try:
        with speaking("en"):
            grade_class_command(subs, report, jobs=1, stdout=io.StringIO(), stderr=io.StringIO())
    finally:
        kept.unlink()
    feedback = (report / "feedback" / "mal.txt").read_text(encoding="utf-8")
    # was "RuntimeError: READ sk-ant-env-var-...": the file read whole
    assert secret not in feedback
    assert "REFUSED" in feedback, feedback
