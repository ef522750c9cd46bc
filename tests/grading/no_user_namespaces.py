"""A machine whose kernel gives a normal user no user namespace, made for one process tree.

Ubuntu 24.04's AppArmor rule, a container's seccomp profile or ``user.max_user_namespaces=0`` all
leave ``unshare`` and ``clone`` refusing a new user namespace; the sysctl would change the whole
machine, so the tests refuse the calls with a seccomp filter of their own instead: ``unshare`` with
``EPERM``, ``clone`` with ``CLONE_NEWUSER`` with ``EPERM``, and ``clone3`` (whose flags a filter
cannot read) with ``ENOSYS``, as Docker's default profile does, so libc falls back to ``clone``.

``PRELUDE`` goes first in a ``python -c`` script; it holds for that process and everything it starts
(bubblewrap included: no sandbox can be made, as on such a machine). ``without_landlock`` makes a
kernel without Landlock the same way, with or without it.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOLUTION = ROOT / "exercises" / "solutions" / "level1_tiered_policy.ipynb"
KNOWN = platform.machine() in ("x86_64", "aarch64")
# What a test that grades on such a machine needs: its pytestmark.
NEEDED = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="grading hosts and seccomp are Linux's"),
    pytest.mark.skipif(not KNOWN, reason="a machine the test's seccomp filter does not know"),
]


# Both filters' installer, which each script defines (either may go alone).
_INSTALL = """
import ctypes as _ctypes, errno as _errno, platform as _platform, struct as _struct
def _install(program):
    code = b"".join(_struct.pack("=HBBI", *step) for step in program)
    buffer = _ctypes.create_string_buffer(code, len(code))

    class Prog(_ctypes.Structure):
        _fields_ = [("len", _ctypes.c_ushort), ("filter", _ctypes.c_void_p)]

    prog = Prog(len(program), _ctypes.cast(buffer, _ctypes.c_void_p))
    libc = _ctypes.CDLL(None, use_errno=True)
    assert libc.prctl(38, 1, 0, 0, 0) == 0  # PR_SET_NO_NEW_PRIVS: a normal user may then filter
    assert libc.prctl(22, 2, _ctypes.byref(prog), 0, 0) == 0  # PR_SET_SECCOMP, SECCOMP_MODE_FILTER
"""

PRELUDE = (
    _INSTALL
    + """
def _refuse_user_namespaces():
    arch, unshare, clone, clone3 = {
        "x86_64": (0xC000003E, 272, 56, 435), "aarch64": (0xC00000B7, 97, 220, 435)
    }[_platform.machine()]
    allow, eperm, enosys = 0x7FFF0000, 0x00050000 | _errno.EPERM, 0x00050000 | _errno.ENOSYS
    load, jeq, jset, ret = 0x20, 0x15, 0x45, 0x06
    program = [
        (load, 0, 0, 4), (jeq, 1, 0, arch), (ret, 0, 0, allow), (load, 0, 0, 0),
        (jeq, 0, 1, unshare), (ret, 0, 0, eperm),
        (jeq, 0, 1, clone3), (ret, 0, 0, enosys),
        (jeq, 0, 3, clone), (load, 0, 0, 16), (jset, 0, 1, 0x10000000), (ret, 0, 0, eperm),
        (ret, 0, 0, allow),
    ]
    _install(program)
_refuse_user_namespaces()
"""
)


def without_landlock(refusal: str) -> str:
    """A kernel without Landlock, alone or after ``PRELUDE``: its three calls (444-446, the generic table's, on
    both machines) answer ``refusal``: ``"ENOSYS"`` where it was not built, ``"EOPNOTSUPP"`` where it is off
    at boot (``lsm=`` without it)."""
    return (
        _INSTALL
        + f"""
def _refuse_landlock():
    refused = 0x00050000 | getattr(_errno, {refusal!r})
    arch = {{"x86_64": 0xC000003E, "aarch64": 0xC00000B7}}[_platform.machine()]
    load, jeq, ret, allow = 0x20, 0x15, 0x06, 0x7FFF0000
    program = [
        (load, 0, 0, 4), (jeq, 1, 0, arch), (ret, 0, 0, allow), (load, 0, 0, 0),
        (jeq, 3, 0, 444), (jeq, 2, 0, 445), (jeq, 1, 0, 446), (ret, 0, 0, allow), (ret, 0, 0, refused),
    ]
    _install(program)
_refuse_landlock()
"""
    )


def grade(
    folder: Path, notebook: Path, prelude: str, launcher: tuple[str, ...] = (), also: tuple[Path, ...] = ()
) -> subprocess.CompletedProcess:
    """``harness-lab grade --lang en notebook [also...]`` run in ``folder`` on the machine ``prelude`` makes, as
    a normal user (``nobody`` when the tests run as root), through ``launcher`` (``setarch linux32``, say) if given."""
    command = [*launcher, sys.executable, "-P", "-m", "harness_lab.grading", "--lang", "en", str(notebook)]
    command += [str(path) for path in also]
    script = prelude + f"import subprocess, sys; sys.exit(subprocess.run({command!r}).returncode)"
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(folder)}
    nobody = {"user": 65534, "group": 65534, "extra_groups": []} if os.geteuid() == 0 else {}
    return subprocess.run(
        [sys.executable, "-P", "-c", script], env=env, capture_output=True, text=True, timeout=600, cwd=folder, **nobody
    )


def with_a_cell(folder: Path, source: str, handed_in: Path = SOLUTION) -> Path:
    """``handed_in`` (the level 1 solution) with one more answer cell after its last one, saved in ``folder``."""
    notebook = json.loads(handed_in.read_text(encoding="utf-8"))
    cell = {"cell_type": "code", "metadata": {"tags": ["answer"]}, "outputs": [], "execution_count": None}
    cell["source"] = source
    last_answer = max(i for i, c in enumerate(notebook["cells"]) if "answer" in c["metadata"].get("tags", []))
    notebook["cells"].insert(last_answer + 1, cell)
    path = folder / handed_in.name
    path.write_text(json.dumps(notebook), encoding="utf-8")
    path.chmod(0o644)
    return path
