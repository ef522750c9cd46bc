"""A grading host lost in the middle of ``harness-lab grade`` is replaced by one of its own kind, or by none.

The command starts the strongest host it can (the sandbox, else a host without it) and says which. When a
notebook's grading lost the host, it started one again the same way, trying every kind down to none, and
where none started it graded the notebooks left in its own process: with its whole environment (the
caller's ``ANTHROPIC_API_KEY``), its network, and nothing said, since the note on stderr was chosen for the
first host. Where the kernel gives a normal user no user namespace and Landlock scopes no signal (Ubuntu
24.04's rule on a kernel before 6.12), an answer cell of the first notebook kills its host and leaves a
process of its own that kills every host the command starts after it: the next notebook, a learner's or a
classmate's, then ran in the command's process and read the key.

Run as a command, the grading command now adopts that process once every process between them is gone
(a child subreaper) and ends it before it starts the next host, and when it ends: the next notebook is
graded in a host, and nothing of the answer cell's outlives the grade. A caller that imports the command
into a process of its own adopts nothing (its other children are its own): there a lost host is still
replaced by none, and the notebooks left are still never graded in the caller's process.
"""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
from contextlib import suppress
from pathlib import Path

import pytest

import harness_lab.grading.catalog  # noqa: F401 (the verdicts join the catalog)
from harness_lab.text import CATALOG
from tests.grading import no_user_namespaces
from tests.grading.caller_attacks import KEY

pytestmark = no_user_namespaces.NEEDED

ROOT = Path(__file__).resolve().parents[2]
SOLUTIONS = ROOT / "exercises" / "solutions"
# In an answer cell: a process in a session of its own, which writes its pid beside the notebook, then kills
# every process below the grading command (its nearest ancestor naming harness_lab that is no host) that is a
# grading host or one of its children (their command lines name the host's module, bwrap's too), the ones
# grading this notebook first, for 60 s: it does not end with the command. For its first SPARE seconds it
# spares the hosts themselves (the command's children) and kills only what grades in them, this notebook's
# supervisors first: its own grade then ends as a crash, the host lives, and the next notebook's judge is
# killed in its turn. It kills nothing of anyone else's.
HUNTER = """
import os, signal, time
def _parent(pid):
    with open(f"/proc/{pid}/stat", "rb") as f:
        return int(f.read().rsplit(b")", 1)[1].split()[1])
def _command():
    pid = os.getpid()
    while pid > 1:
        pid = _parent(pid)
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            line = f.read()
        if b"harness_lab" in line and b"harness_lab.grading.host" not in line:
            return pid
def _depth(pid, command):
    depth = 0
    while pid > 1:
        pid, depth = _parent(pid), depth + 1
        if pid == command:
            return depth
    return 0
def _hunt(command):
    start, pid, ancestors = time.monotonic(), os.getpid(), []
    while (pid := _parent(pid)) not in (command, 0, 1):
        ancestors.append(pid)
    # at once, the nearest first, before their run ends this one: each stopped first, all of them before any is
    # killed, since a supervisor whose job or parent dies ends every process below it, this one too, if it runs
    doomed = ancestors[: -1 if SPARE else None]
    for sig in (signal.SIGSTOP, signal.SIGKILL):
        for pid in doomed:
            try:
                os.kill(pid, sig)
            except OSError:
                pass
    while time.monotonic() < start + 60:
        least = 2 if time.monotonic() < start + SPARE else 1  # the depth of what it kills: 1, the hosts too
        found = []
        for name in os.listdir("/proc"):
            try:
                with open(f"/proc/{name}/cmdline", "rb") as f:
                    host = b"harness_lab.grading.host" in f.read()
                if host and int(name) != os.getpid() and _depth(int(name), command) >= least:
                    found.append((_depth(int(name), command), int(name)))
            except (OSError, ValueError):
                pass
        for _, pid in sorted(found, reverse=True):  # the deepest first: a supervisor whose parent dies ends its tree
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.005)
command = _command()
if command and os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        with open(PID_FILE, "w") as f:
            f.write(str(os.getpid()))
        _hunt(command)
    os._exit(0)
time.sleep(30)
"""
PEEK = "import os\nassert 'ANTHROPIC_API_KEY' not in os.environ, 'saw the key'\n"
# The grading command run as a normal user, with the key in its environment; whether the hunter's process
# still runs the moment the command has returned is the last line
AS_A_NORMAL_USER = """
import os, subprocess, sys
done = subprocess.run(COMMAND, capture_output=True, env={**os.environ, "ANTHROPIC_API_KEY": SECRET})
sys.stdout.buffer.write(done.stdout)
try:
    with open(PID_FILE) as f, open(f"/proc/{int(f.read())}/stat", "rb") as stat:
        running = stat.read().rsplit(b")", 1)[1].split()[0] != b"Z"
except (OSError, ValueError):
    running = False
print("hunter running:", running)
sys.exit(done.returncode)
"""
# The command as a caller runs it in a process of its own (a test, a notebook): imported, not the command
IMPORTED = "import sys; from harness_lab.grading.command import main; sys.exit(main(sys.argv[1:]))"


def _handed(source: Path, path: Path, code: str) -> None:
    notebook = json.loads(source.read_text(encoding="utf-8"))
    cell = {"cell_type": "code", "metadata": {"tags": ["answer"]}, "outputs": [], "execution_count": None}
    cell["source"] = code
    notebook["cells"].insert(next(i for i, c in enumerate(notebook["cells"]) if c["cell_type"] == "code"), cell)
    path.write_text(json.dumps(notebook), encoding="utf-8")
    path.chmod(0o644)


def _hunter(folder: Path, spare: float = 0) -> str:
    return HUNTER.replace("PID_FILE", repr(str(folder / "hunter.pid"))).replace("SPARE", repr(spare))


def _grade(folder: Path, command: list[str], spare: float = 0) -> tuple[str, str]:
    """(the level 2 notebook's part of what ``command`` printed, the last line) for the two notebooks, the first
    holding the hunter, the second an answer cell that fails if it sees the key, graded as a normal user on a
    machine with no user namespaces and no Landlock."""
    first, second = folder / "level1_tiered_policy.ipynb", folder / "level2_missing_gate.ipynb"
    _handed(SOLUTIONS / first.name, first, _hunter(folder, spare))
    _handed(SOLUTIONS / second.name, second, PEEK)
    done = _as_a_normal_user(folder, [*command, "--lang", "en", str(first), str(second)])
    assert "saw the key" not in done.stdout, done  # never graded in the command, whose environment holds it
    head, _, last = done.stdout.rstrip("\n").rpartition("\n")
    return head.split("(level2) ==", 1)[-1], last


def _as_a_normal_user(folder: Path, command: list[str]) -> subprocess.CompletedProcess:
    """``command`` run as a normal user (``AS_A_NORMAL_USER``) on a machine with no user namespaces and no Landlock;
    the hunter whose pid is in ``folder`` is ended after it, should it still run."""
    script = AS_A_NORMAL_USER.replace("COMMAND", repr(command)).replace("SECRET", repr(KEY))
    script = script.replace("PID_FILE", repr(str(folder / "hunter.pid")))
    # no Landlock at all here; where it is before 6.12 (no scopes), the cell's kills are not refused either
    machine = no_user_namespaces.PRELUDE + no_user_namespaces.without_landlock("ENOSYS")
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(folder)}
    nobody = {"user": 65534, "group": 65534, "extra_groups": []} if os.geteuid() == 0 else {}
    try:
        return subprocess.run(
            [sys.executable, "-P", "-c", machine + script],
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
            cwd=folder,
            **nobody,
        )
    finally:
        _end_hunter(folder)


@pytest.mark.parametrize("spare", [0, 20], ids=["killing the hosts", "sparing the hosts"])
def test_a_process_an_answer_cell_leaves_to_kill_the_hosts_ends_before_the_next_notebook_which_is_graded(
    open_folder, spare
):
    level2, last = _grade(open_folder, [sys.executable, "-P", "-m", "harness_lab.grading"], spare)
    # was, killing the hosts, the grader's failure "… could not be started again, so this notebook was not
    # graded …"; sparing them, "The process running the answer cells ended before it returned a result" (a
    # crash, told as the notebook's own); and the process running on after the command, for the next run
    assert CATALOG["grade.all_passed"][1].format(total=3) in level2
    assert last == "hunter running: False"


def test_a_host_killed_by_an_answer_cell_leaves_the_next_notebook_ungraded_never_graded_in_the_command(open_folder):
    level2, last = _grade(open_folder, [sys.executable, "-P", "-c", IMPORTED])
    not_graded = CATALOG["grade.class.internal"][1].format(error=CATALOG["grade.nb.host_not_restarted"][1])
    # was "[FAIL] An answer cell (code cell 1) raised: AssertionError: saw the key": graded in the command
    assert not_graded in level2
    assert last == "hunter running: True"  # a caller's process adopts nothing: the test ends it


def _end_hunter(folder: Path) -> None:
    """The hunter runs for 60 s: should it outlive the command, it is ended here, by its pid."""
    try:
        pid = int((folder / "hunter.pid").read_text())
    except (OSError, ValueError):
        return
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


@pytest.mark.parametrize("spare", [0, 20], ids=["killing the hosts", "sparing the hosts"])
def test_grade_class_unsandboxed_ends_what_an_answer_cell_left_to_kill_its_hosts_and_grades_the_class(
    open_folder, spare
):
    subs = open_folder / "subs"
    for learner in ("adam", "bob", "carol"):  # adam's graded first
        (subs / learner).mkdir(parents=True)
    for path in (subs, *subs.iterdir()):
        path.chmod(0o755)
    name = "level1_tiered_policy.ipynb"
    _handed(SOLUTIONS / name, subs / "adam" / name, _hunter(open_folder, spare))
    for learner in ("bob", "carol"):
        _handed(SOLUTIONS / name, subs / learner / name, PEEK)
    out = open_folder / "out"
    command = [sys.executable, "-P", "-m", "harness_lab.cli", "grade-class", str(subs), "--out", str(out)]
    done = _as_a_normal_user(open_folder, [*command, "--unsandboxed", "--lang", "en", "--jobs", "1"])
    # was, killing the hosts, exit 2, "Could not start a grading process, so nothing was graded", no report;
    # sparing them, bob's and carol's grades crashes, told as their own; and the process running on after it
    assert done.returncode == 0, done
    table = (out / "grades.csv").read_text(encoding="utf-8-sig").splitlines()
    rows = {(row["learner"], row["exercise"]): row for row in csv.DictReader(table)}
    graded = [rows[learner, "level1"] for learner in ("bob", "carol")]
    assert [(row["status"], row["score"]) for row in graded] == [("ok", "3")] * 2
    assert done.stdout.rstrip("\n").rpartition("\n")[2] == "hunter running: False"


def test_a_child_the_grading_command_had_before_it_started_is_not_ended_with_what_it_adopted(tmp_path):
    # a shell's job, left to the command by exec: the caller's, not the answer cells'
    pid_file = tmp_path / "sleep.pid"
    command = f"{sys.executable} -P -m harness_lab.grading --lang en {SOLUTIONS / 'level1_tiered_policy.ipynb'}"
    script = f"sleep 120 >/dev/null 2>&1 & echo $! > {pid_file}; exec {command}"  # not holding the output's pipe
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(tmp_path)}
    done = subprocess.run(["sh", "-c", script], env=env, capture_output=True, text=True, timeout=600, cwd=tmp_path)
    pid = int(pid_file.read_text())
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            state = stat.read().rsplit(b")", 1)[1].split()[0]
    except FileNotFoundError:
        state = b"gone"
    finally:
        with suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    assert CATALOG["grade.all_passed"][1].format(total=3) in done.stdout, done
    # was gone: killed with what the command had adopted, when it ended
    assert state == b"S"
