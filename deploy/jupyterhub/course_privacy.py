"""What learners may reach of the course: the venv their kernels run, never the checkout.

A harness_lab checkout holds the answers: exercises/solutions/, the graders' tests with right
answers (tests/grading/answers_*.py) and, in .git, every version of both. The hub reads the
checkout as root, so learners need no way into it. Their servers and kernels run from the course
venv, which must hold an installed copy of harness_lab (`pip install COURSE`): `pip install -e`
would send every kernel back into the checkout for the package and show each learner its path.
jupyterhub_config.py refuses to start on a layout that lets learners read the answers.
"""

from __future__ import annotations

import stat
from pathlib import Path


def reachable(path: Path) -> bool:
    """Whether an account other than root may pass through every folder from / down to ``path``."""
    path = path.resolve()
    for folder in (path, *path.parents):
        info = folder.stat()
        mode = info.st_mode
        if not (
            mode & stat.S_IXOTH
            or (mode & stat.S_IXGRP and info.st_gid != 0)
            or (mode & stat.S_IXUSR and info.st_uid != 0)
        ):
            return False
    return True


def _site_packages(venv: Path) -> list[Path]:
    return sorted(venv.glob("lib/python3*/site-packages"))


def editable(venv: Path) -> bool:
    """Whether ``venv`` lacks an installed copy of harness_lab or links to a checkout for it."""
    folders = _site_packages(venv)
    links = [
        p
        for sp in folders
        for pattern in ("__editable__*harness_lab*", "harness_lab*.egg-link")
        for p in sp.glob(pattern)
    ]
    return bool(links) or not any((sp / "harness_lab" / "__init__.py").is_file() for sp in folders)


def problems(course: Path, venv: Path) -> list[str]:
    """Why learners could read the answers, or could not run the course, with this layout."""
    found = []
    if reachable(course):
        found.append(
            f"learners can enter {course}, whose exercises/solutions/, tests/ and .git hold the answers: "
            f"`chmod 700 {course}` (the hub reads it as root; learners need only the venv)"
        )
    if not reachable(venv):
        found.append(
            f"learners cannot reach {venv}, the venv their servers run: make it outside the checkout, "
            f"`/usr/bin/python3 -m venv {course}-venv` (docs/classroom.md)"
        )
    if editable(venv):
        found.append(
            f"{venv} must hold an installed copy of harness_lab, not a link to a checkout (`pip install -e`): "
            f"`{venv}/bin/pip install {course}`"
        )
    return found
