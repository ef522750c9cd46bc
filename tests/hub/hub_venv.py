"""The course venv every learner's server and kernel run from, as the deployment asks for.

The deployment (docs/classroom.md) installs a copy of harness_lab, not an editable link, into a
venv outside the checkout that everyone can read: the hub refuses a venv that would lead learners
into the checkout and its answers. `pip install` of JupyterLab and JupyterHub takes minutes, so
when a test learner can run the project's own venv, ``installed_copy`` builds that layout from it
in a second; otherwise (a checkout under /root, or HARNESS_HUB_TEST_FRESH_VENV=1) ``build_shared``
runs pip as an instructor would. Either is removed afterwards.
"""

from __future__ import annotations

import compileall
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


def installed_copy(root: Path, base: Path) -> Path:
    """A venv under /var/tmp holding a copy of ``root``'s harness_lab, its other packages ``base``'s.

    It runs ``base``'s interpreter (a copy of its executables and pyvenv.cfg), reaches ``base``'s
    installed packages through a .pth line (the editable link among them is a .pth of ``base``'s
    own, which Python reads only in a venv's own site-packages), and shares its share/ and etc/
    (JupyterLab's assets, the kernel spec, the server extensions). harness_lab is a copy in its own
    site-packages, as `pip install` would leave it, so kernels find no path into the checkout.
    """
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    venv = Path(tempfile.mkdtemp(prefix="harness-lab-hub-venv-", dir="/var/tmp"))
    os.chmod(venv, 0o755)
    try:
        shutil.copy2(base / "pyvenv.cfg", venv / "pyvenv.cfg")
        (venv / "bin").mkdir()
        for name in ("python", "python3", version):
            if os.path.lexists(base / "bin" / name):
                shutil.copy2(base / "bin" / name, venv / "bin" / name, follow_symlinks=False)
        site = venv / "lib" / version / "site-packages"
        site.mkdir(parents=True)
        shutil.copytree(root / "harness_lab", site / "harness_lab", ignore=shutil.ignore_patterns("__pycache__"))
        # byte-compiled, as pip leaves what it installs: learners cannot write here, and every server
        # and kernel of theirs would otherwise compile the package again
        compileall.compile_dir(site / "harness_lab", quiet=1)
        (site / "course-dependencies.pth").write_text(f"{base / 'lib' / version / 'site-packages'}\n")
        for shared in ("share", "etc"):
            if (base / shared).exists():
                (venv / shared).symlink_to(base / shared)
        server = venv / "bin" / "jupyterhub-singleuser"
        server.write_text(
            f"#!{venv / 'bin' / 'python'}\nimport sys\nfrom jupyterhub.singleuser import main\nsys.exit(main())\n"
        )
        server.chmod(0o755)
    except BaseException:
        shutil.rmtree(venv, ignore_errors=True)
        raise
    return venv


def _base_ok(python: str, user: str) -> bool:
    if not python or not Path(python).exists():
        return False
    probe = "import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 11))"
    return as_user(user, python, "-c", probe).returncode == 0
