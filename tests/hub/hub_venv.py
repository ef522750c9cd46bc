"""The course venv every learner's server and kernel run from, as the deployment asks for.

The project's own venv serves when a test learner can run it and import the course from it. A
checkout in a private place (under /root, or a 0700 temporary folder) cannot be read by another
account; then the test builds what docs/classroom.md tells an instructor to build, a venv outside
the checkout that everyone can read, and removes it afterwards.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from hub_accounts import as_user

NEEDED = "import harness_lab, ipykernel, jupyterhub"
BASES = ("/usr/bin/python3", "/usr/local/bin/python3")


def problem(venv: Path, user: str) -> str | None:
    """Why ``user`` cannot run the course from ``venv``, or None when they can."""
    done = as_user(user, str(venv / "bin" / "python"), "-c", NEEDED)
    if done.returncode == 0:
        return None
    return (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]


def build_shared(root: Path, user: str) -> Path:
    """A fresh venv under /var/tmp with the course, JupyterLab and JupyterHub, readable by all."""
    base = next((b for b in (sys._base_executable, *BASES) if _base_ok(b, user)), None)
    if base is None:
        raise RuntimeError(
            f"no Python 3.11+ with venv that {user} can run ({sys._base_executable}, {', '.join(BASES)})"
        )
    venv = Path(tempfile.mkdtemp(prefix="harness-lab-hub-venv-", dir="/var/tmp"))
    os.chmod(venv, 0o755)
    try:
        for command in (
            [base, "-m", "venv", str(venv)],
            [
                str(venv / "bin" / "python"),
                "-m",
                "pip",
                "install",
                "-q",
                "--disable-pip-version-check",
                str(root),
                "jupyterhub>=5.3",
                "jupyterlab>=4.2",
            ],
        ):
            done = subprocess.run(command, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=900)
            if done.returncode:
                raise RuntimeError(f"{' '.join(command[:3])} failed: {done.stderr.strip()[-1500:]}")
    except BaseException:
        shutil.rmtree(venv, ignore_errors=True)
        raise
    return venv


def _base_ok(python: str, user: str) -> bool:
    if not python or not Path(python).exists():
        return False
    probe = "import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 11))"
    return as_user(user, python, "-c", probe).returncode == 0
