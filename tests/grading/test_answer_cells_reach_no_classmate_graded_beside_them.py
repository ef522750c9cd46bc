"""``grade-class --unsandboxed --jobs 2`` where nothing keeps one notebook's processes from another's.

Where the kernel gives a normal user no user namespace and Landlock keeps no signal in (Ubuntu 24.04's rule on a
kernel before 6.12), an answer cell runs as the grading user and sees every process of that user: with two
notebooks graded at once, it killed the processes grading its classmate on the other host, and the classmate's
row said their own notebook crashed (round seventeen's leftover; round four's "not covered"). There the command
now grades one notebook at a time, whatever ``--jobs`` says, and says so; the cell's own processes end with its
call (round seventeen), before the next notebook is graded.
"""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path

import pytest

import harness_lab.grading.class_catalog  # noqa: F401 (the note joins the catalog)
from harness_lab.text import CATALOG
from tests.grading import no_user_namespaces

pytestmark = no_user_namespaces.NEEDED

ROOT = Path(__file__).resolve().parents[2]
# In an answer cell, the first time it runs (a file in its folder tells): for 9 s (the cells have 10), kill every
# process below the grading command that names the host's module, is two or more below the command (what grades
# in a host, not the host) and is none of the cell's own ancestors: a classmate's judge, graded at the same time.
CLASSMATE_KILLER = """
import os, signal, time
def _parent(pid):
    with open(f"/proc/{pid}/stat", "rb") as f:
        return int(f.read().rsplit(b")", 1)[1].split()[1])
def _line(pid):
    with open(f"/proc/{pid}/cmdline", "rb") as f:
        return f.read()
def _below(pid, command):
    depth = 0
    while pid > 1:
        pid, depth = _parent(pid), depth + 1
        if pid == command:
            return depth
    return 0
mine, pid = [os.getpid()], os.getpid()
while pid > 1:
    pid = _parent(pid)
    mine.append(pid)
command = next((p for p in mine if b"grade-class" in _line(p)), 0)  # the nearest: the command itself
if command and not os.path.exists("hunted"):
    open("hunted", "w").close()
    end = time.monotonic() + 9
    while time.monotonic() < end:
        for name in os.listdir("/proc"):
            try:
                pid = int(name)
                if pid not in mine and b"harness_lab.grading.host" in _line(pid) and _below(pid, command) >= 2:
                    os.kill(pid, signal.SIGKILL)
            except (OSError, ValueError):
                pass
        time.sleep(0.005)
"""
# The command as a normal user (nobody, when the tests run as root) on a machine that ``prelude`` makes
AS_A_NORMAL_USER = "import subprocess, sys; done = subprocess.run(COMMAND); sys.exit(done.returncode)"


def _as_a_normal_user(folder: Path, command: list[str], prelude: str) -> subprocess.CompletedProcess:
    script = prelude + AS_A_NORMAL_USER.replace("COMMAND", repr(command))
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(folder)}
    nobody = {"user": 65534, "group": 65534, "extra_groups": []} if os.geteuid() == 0 else {}
    return subprocess.run(
        [sys.executable, "-P", "-c", script], env=env, capture_output=True, text=True, timeout=600, cwd=folder, **nobody
    )


def test_a_cell_graded_where_nothing_separates_notebooks_kills_no_classmates_judge(open_folder):
    subs = open_folder / "subs"
    for learner in ("adam", "bob"):
        (subs / learner).mkdir(parents=True)
        (subs / learner).chmod(0o755)
    subs.chmod(0o755)
    no_user_namespaces.with_a_cell(subs / "adam", CLASSMATE_KILLER)
    no_user_namespaces.with_a_cell(subs / "bob", "pass")
    out = open_folder / "out"
    command = [sys.executable, "-P", "-m", "harness_lab.cli", "grade-class", str(subs), "--out", str(out)]
    machine = no_user_namespaces.PRELUDE + no_user_namespaces.without_landlock("ENOSYS")
    done = _as_a_normal_user(open_folder, [*command, "--unsandboxed", "--lang", "en", "--jobs", "2"], machine)
    assert done.returncode == 0, done
    table = (out / "grades.csv").read_text(encoding="utf-8-sig").splitlines()
    rows = {row["learner"]: row for row in csv.DictReader(table) if row["exercise"] == "level1"}
    # was ("error", "0"): "The process running the answer cells ended before it returned a result", told as bob's
    assert (rows["bob"]["status"], rows["bob"]["score"]) == ("ok", "3"), done
    assert CATALOG["grade.class.one_at_a_time"][1] in done.stderr


@pytest.mark.parametrize(
    ("machine", "apart"),
    [
        (no_user_namespaces.PRELUDE + no_user_namespaces.without_landlock("ENOSYS"), False),
        (no_user_namespaces.PRELUDE + no_user_namespaces.without_landlock("EOPNOTSUPP"), False),
        (no_user_namespaces.without_landlock("ENOSYS"), True),
    ],
    ids=["no user namespace, no Landlock", "no user namespace, Landlock off", "a user namespace, no Landlock"],
)
def test_notebooks_are_told_apart_only_where_a_user_namespace_or_landlocks_signal_scope_keeps_them(
    open_folder, machine, apart
):
    if apart and os.geteuid() == 0 and not _nobody_makes_a_user_namespace(open_folder):
        pytest.skip("this machine gives a normal user no user namespace")
    probe = "from harness_lab.grading.isolation import Launch, notebooks_apart\nprint(notebooks_apart(Launch(None)))\n"
    done = subprocess.run(
        [sys.executable, "-P", "-c", machine + probe],
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(open_folder)},
        capture_output=True,
        text=True,
        timeout=60,
        cwd=open_folder,
        **({"user": 65534, "group": 65534, "extra_groups": []} if os.geteuid() == 0 else {}),
    )
    assert done.stdout.split() == [str(apart)], done


def _nobody_makes_a_user_namespace(folder: Path) -> bool:
    done = subprocess.run(
        ["unshare", "--user", "--pid", "--fork", "true"], capture_output=True, cwd=folder, user=65534, group=65534
    )
    return done.returncode == 0
