"""Answer cells graded without user namespaces leave their user's keyring as they found it.

Where the kernel gives a normal user no user namespace (``no_user_namespaces.py``), the answer cells run as the
user who grades, and the user keyring they find is that user's own (the sandbox refuses keyrings whole, and a
user namespace has a user keyring of its own): a cell could clear it, removing the instructor's keys, and fill
the user's quota of keys with its own, which stay after the grade.
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

ROOT = Path(__file__).resolve().parents[2]
ALL_PASSED = CATALOG["grade.all_passed"][1].format(total=3)  # the English side
# Clears the user keyring (-4, KEY_SPEC_USER_KEYRING) and adds keys to it until the quota refuses; says what held.
CLEAR_AND_FILL = """
import ctypes as _c
_libc = _c.CDLL(None, use_errno=True)
_cleared = _libc.syscall(KEYCTL, 7, -4) == 0  # KEYCTL_CLEAR
_planted = 0
while _planted < 300 and _libc.syscall(ADD_KEY, b"user", b"planted-%d" % _planted, b"x", 1, -4) >= 0:
    _planted += 1
if _cleared or _planted:
    raise RuntimeError("KEYRING: cleared %r, planted %d" % (_cleared, _planted))
"""
# Run as the grading user around the grade: a key of the instructor's in the user keyring before, then which of
# the instructor's and the planted keys are still there.
KEYS = """
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
if sys.argv[1] == "add":
    assert libc.syscall(ADD_KEY, b"user", b"instructor-token", b"secret", 6, -4) > 0
    sys.exit(0)
found = lambda name: libc.syscall(KEYCTL, 10, -4, b"user", name, 0) > 0  # KEYCTL_SEARCH
print(found(b"instructor-token"), found(b"planted-0"))
libc.syscall(KEYCTL, 7, -4)  # what the test and the cell left
"""
NUMBERS = {"x86_64": {"ADD_KEY": "248", "KEYCTL": "250"}, "aarch64": {"ADD_KEY": "217", "KEYCTL": "219"}}

pytestmark = no_user_namespaces.NEEDED


def _with_numbers(source: str) -> str:
    for name, value in NUMBERS[os.uname().machine].items():
        source = source.replace(name, value)
    return source


def test_answer_cells_graded_without_namespaces_neither_clear_nor_fill_the_users_keyring():
    folder = Path(tempfile.mkdtemp())  # any user may enter it: the tests grade as a normal user
    folder.chmod(0o777)
    nobody = {"user": 65534, "group": 65534, "extra_groups": []} if os.geteuid() == 0 else {}
    keys = [sys.executable, "-c", _with_numbers(KEYS)]
    try:
        subprocess.run([*keys, "add"], check=True, **nobody)
        notebook = no_user_namespaces.with_a_cell(folder, _with_numbers(CLEAR_AND_FILL))
        done = no_user_namespaces.grade(folder, notebook, no_user_namespaces.PRELUDE)
        after = subprocess.run([*keys, "look"], capture_output=True, text=True, check=True, **nobody).stdout.split()
    finally:
        shutil.rmtree(folder)
    # was ['False', 'True']: the instructor's key gone, 196 planted (the quota), and "KEYRING: cleared True"
    assert after == ["True", "False"]
    assert (done.returncode, ALL_PASSED in done.stdout, "KEYRING" in done.stdout) == (0, True, False), done.stdout
