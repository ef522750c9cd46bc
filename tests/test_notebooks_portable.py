"""The stored lesson outputs hold on a machine that is not the one that built them.

CI clones into a deeper folder than a developer's checkout, and an instructor in Japan runs with a
+09:00 clock. Once, an OS error text carrying the absolute checkout path reached the emulated model
and shifted a stored token count by a few tokens, so nbval passed here and failed in CI. This copies
the project to a long, unlike path and re-runs the strict nbval suite there under another time zone.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from dev import NOT_FOR_TESTS

ROOT = Path(__file__).resolve().parents[1]
LEFT_BEHIND = shutil.ignore_patterns(
    ".venv", ".git", "__pycache__", ".pytest_cache", ".ipynb_checkpoints", "*.egg-info"
)


def test_lessons_replay_identically_from_another_checkout_and_time_zone(tmp_path):
    copy = tmp_path / "a checkout" / "placed much deeper than the one that built the notebooks"
    shutil.copytree(ROOT, copy, ignore=LEFT_BEHIND)
    env = {k: v for k, v in os.environ.items() if k not in NOT_FOR_TESTS}
    env["TZ"] = "Asia/Tokyo"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "--color=no",
            "-p",
            "no:cacheprovider",
            "--nbval",
            "--nbval-current-env",
            "--nbval-sanitize-with",
            "notebooks/sanitize.cfg",
            "notebooks",
        ],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
