"""The grading command started without -P says that the working folder's modules come first (issue 29)."""

import subprocess
import sys


def _stderr(*flags, language="en", args=("--help",)):
    done = subprocess.run(
        [sys.executable, *flags, "-m", "harness_lab.grading", *args],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "HARNESS_LAB_LANG": language},
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stderr


def test_without_dash_p_the_command_says_how_to_start_it_safely():
    assert "Started without -P" in _stderr() and "harness-lab grade" in _stderr()
    assert _stderr("-P") == ""


def test_the_warning_speaks_the_language_asked_for_on_the_command_line():
    # it is printed before the arguments are parsed, yet in the --lang they name
    assert _stderr(language="ja", args=("--lang", "en", "--help")).startswith("[NOTE] Started without -P")
    assert _stderr(language="ja", args=("--help", "--lang=en")).startswith("[NOTE] Started without -P")
    assert _stderr(language="en", args=("--lang", "ja", "--help")).startswith("△ 注意: -P なしで")
