"""Learner code where the kernel gives a normal user no user namespace: it cannot read its caller's key,
write into its caller's output or kill its caller.

There neither bubblewrap nor a PID namespace hides the command from the answer cells (``harness-lab
grade``'s host without the sandbox, ``grade-class --unsandboxed``), which run as its user: while the
command was dumpable, a cell read ``ANTHROPIC_API_KEY`` in ``/proc/PID/environ`` and wrote a forged
verdict into ``/proc/PID/fd/1``; and ``run_limited``'s job, run as its caller's user, reached its caller
(a learner's kernel, where nothing else hides it) the same way, killed it or connected to its abstract
sockets. The machine is made with a seccomp filter (``no_user_namespaces.py``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.grading import no_user_namespaces
from tests.grading.caller_attacks import KEY, attacked_by_its_jobs
from tests.grading.class_submissions import ALL_PASSED
from tests.process_ids import landlock_scopes_jobs

ROOT = Path(__file__).resolve().parents[2]
SOLUTION = ROOT / "exercises" / "solutions" / "level2_missing_gate.ipynb"
# An answer cell that climbs from its own process to every one above it: it looks for the caller's key
# in each one's environment and writes a verdict of its own into each one's output.
CLIMB = """
import os
def _climb():
    stolen, pid = False, os.getppid()
    while pid > 1:
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                stolen = stolen or KEY.encode() in f.read()
        except OSError:
            pass
        try:
            with open(f"/proc/{pid}/fd/1", "w") as f:
                f.write("FORGED: 3 of 3 criteria met\\n")
        except OSError:
            pass
        with open(f"/proc/{pid}/stat", "rb") as f:
            pid = int(f.read().rsplit(b")", 1)[1].split()[1])
    assert not stolen, "saw the key"
_climb()
"""
# A grading command run by a normal user, its output a pipe of that user's (as a terminal is). The key
# is in the command's environment alone: what a shell above it holds is the user's own to guard.
AS_A_NORMAL_USER = """
import os, subprocess, sys
done = subprocess.run(COMMAND, capture_output=True, env={**os.environ, "ANTHROPIC_API_KEY": KEY})
sys.stdout.buffer.write(done.stdout)
sys.exit(done.returncode)
"""

pytestmark = no_user_namespaces.NEEDED


def _climbing_notebook(shared: Path, path: Path) -> None:
    notebook = json.loads(SOLUTION.read_text(encoding="utf-8"))
    cell = {"cell_type": "code", "metadata": {"tags": ["answer"]}, "outputs": [], "execution_count": None}
    cell["source"] = CLIMB.replace("KEY", repr(KEY))
    notebook["cells"].insert(next(i for i, c in enumerate(notebook["cells"]) if c["cell_type"] == "code"), cell)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(notebook), encoding="utf-8")
    for folder in path.relative_to(shared).parents:
        (shared / folder).chmod(0o777)
    path.chmod(0o644)


def _as_a_normal_user(command: list[str], folder: Path) -> subprocess.CompletedProcess:
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(folder)}
    nobody = {"user": 65534, "group": 65534, "extra_groups": []} if os.geteuid() == 0 else {}
    script = AS_A_NORMAL_USER.replace("COMMAND", repr(command)).replace("KEY", repr(KEY))
    started = [sys.executable, "-P", "-c", no_user_namespaces.PRELUDE + script]
    return subprocess.run(started, env=env, capture_output=True, text=True, timeout=600, cwd=folder, **nobody)


def test_grade_keeps_its_key_and_output_from_the_answer_cells(open_folder):
    path = open_folder / SOLUTION.name
    _climbing_notebook(open_folder, path)
    done = _as_a_normal_user(
        [sys.executable, "-P", "-m", "harness_lab.grading", "--lang", "en", str(path)], open_folder
    )
    # was exit 1, "AssertionError: saw the key" and, before it, the forged line
    assert "FORGED" not in done.stdout, done
    assert (done.returncode, "saw the key" in done.stdout) == (0, False), done


def test_grade_class_unsandboxed_keeps_its_key_and_output_from_the_answer_cells(open_folder):
    _climbing_notebook(open_folder, open_folder / "submissions" / "alice" / SOLUTION.name)
    out = open_folder / "report"
    command = [sys.executable, "-P", "-m", "harness_lab.cli", "grade-class", "--unsandboxed", "--lang", "en"]
    done = _as_a_normal_user([*command, str(open_folder / "submissions"), "--out", str(out)], open_folder)
    feedback = (out / "feedback" / "alice.txt").read_text(encoding="utf-8")
    # was "FORGED: 3 of 3 criteria met" above the command's own lines, and the key seen in the feedback
    assert "FORGED" not in done.stdout, done
    assert (done.returncode, "saw the key" in feedback, ALL_PASSED in feedback) == (0, False, True), feedback


@pytest.fixture(scope="module")
def attacked():
    """On the machine without user namespaces: one caller, every attack of ``caller_attacks``."""
    return attacked_by_its_jobs(machine=no_user_namespaces.PRELUDE)


@pytest.mark.skipif(not landlock_scopes_jobs(), reason="the kernel has no Landlock scopes (Linux 6.12)")
@pytest.mark.parametrize(
    "attack, outcome",
    [
        ("environ", "error None PermissionError False"),
        ("output", "error None PermissionError False"),
        ("abstract", "error None PermissionError False"),
        ("everyone", "ok None  False"),
    ],
)
def test_without_namespaces_a_job_cannot_reach_its_caller(attacked, attack, outcome):
    done, seen = attacked
    assert seen.get("namespaces") == "refused", done  # the machine is what the test says it is
    # was "ok key  False", "ok written  True", "ok connected  False" and a caller killed (-9)
    assert seen.get(attack) == outcome, done
    if attack == "everyone":
        assert done.returncode == 0, done


@pytest.mark.parametrize("refusal", ["ENOSYS", "EOPNOTSUPP"], ids=["Landlock not built", "Landlock off at boot"])
def test_without_landlock_either_a_job_still_runs_and_answers(refusal):
    """Nothing left to keep the caller's key from the job there (docs/reliability.md, round nine): the run
    goes on as before, and its answer says the kernel's Landlock was not there to refuse."""
    machine = no_user_namespaces.PRELUDE + no_user_namespaces.without_landlock(refusal)
    done, seen = attacked_by_its_jobs(("environ",), machine)
    assert (done.returncode, seen.get("environ")) == (0, "ok key  False"), done
