"""The grading command started without -P says that the working folder's modules come first (issue 29)."""

import subprocess
import sys


def _stderr(*flags):
    done = subprocess.run(
        [sys.executable, *flags, "-m", "harness_lab.grading", "--help"],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "HARNESS_LAB_LANG": "en"},
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stderr


def test_without_dash_p_the_command_says_how_to_start_it_safely():
    assert "Started without -P" in _stderr() and "harness-lab grade" in _stderr()
    assert _stderr("-P") == ""
