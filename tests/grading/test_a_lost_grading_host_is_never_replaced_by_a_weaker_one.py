"""A grading host lost in the middle of ``harness-lab grade`` is replaced by one of its own kind, or by none.

The command starts the strongest host it can (the sandbox, else a host without it) and says which. When a
notebook's grading lost the host, it started one again the same way, trying every kind down to none, and
where none started it graded the notebooks left in its own process: with its whole environment (the
caller's ``ANTHROPIC_API_KEY``), its network, and nothing said, since the note on stderr was chosen for the
first host. Where the kernel gives a normal user no user namespace and Landlock scopes no signal (Ubuntu
24.04's rule on a kernel before 6.12), an answer cell of the first notebook kills its host and leaves a
process of its own that kills every host the command starts after it: the next notebook, a learner's or a
classmate's, then ran in the command's process and read the key.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import harness_lab.grading.catalog  # noqa: F401 (the verdicts join the catalog)
from harness_lab.text import CATALOG
from tests.grading import no_user_namespaces
from tests.grading.caller_attacks import KEY

pytestmark = no_user_namespaces.NEEDED

ROOT = Path(__file__).resolve().parents[2]
SOLUTIONS = ROOT / "exercises" / "solutions"
# In an answer cell: a process in a session of its own, which writes its pid beside the notebook, then kills
# every process below the grading command that is a grading host or one of its children (their command lines
# name the host's module, bwrap's too), the ones grading this notebook first, until the command is gone.
# It kills nothing of anyone else's.
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
            if f.read().split(b"\\0")[:4][-1:] == [b"harness_lab.grading"]:
                return pid
def _depth(pid, command):
    depth = 0
    while pid > 1:
        pid, depth = _parent(pid), depth + 1
        if pid == command:
            return depth
    return 0
def _hunt(command):
    while os.path.exists(f"/proc/{command}"):
        found = []
        for name in os.listdir("/proc"):
            try:
                with open(f"/proc/{name}/cmdline", "rb") as f:
                    host = b"harness_lab.grading.host" in f.read()
                if host and int(name) != os.getpid() and _depth(int(name), command):
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
AS_A_NORMAL_USER = """
import os, subprocess, sys
done = subprocess.run(COMMAND, capture_output=True, env={**os.environ, "ANTHROPIC_API_KEY": SECRET})
sys.stdout.buffer.write(done.stdout)
sys.exit(done.returncode)
"""


def _handed(source: Path, path: Path, code: str) -> None:
    notebook = json.loads(source.read_text(encoding="utf-8"))
    cell = {"cell_type": "code", "metadata": {"tags": ["answer"]}, "outputs": [], "execution_count": None}
    cell["source"] = code
    notebook["cells"].insert(next(i for i, c in enumerate(notebook["cells"]) if c["cell_type"] == "code"), cell)
    path.write_text(json.dumps(notebook), encoding="utf-8")
    path.chmod(0o644)


def test_a_host_killed_by_an_answer_cell_leaves_the_next_notebook_ungraded_never_graded_in_the_command(open_folder):
    first, second = open_folder / "level1_tiered_policy.ipynb", open_folder / "level2_missing_gate.ipynb"
    _handed(SOLUTIONS / first.name, first, HUNTER.replace("PID_FILE", repr(str(open_folder / "hunter.pid"))))
    _handed(SOLUTIONS / second.name, second, PEEK)
    command = [sys.executable, "-P", "-m", "harness_lab.grading", "--lang", "en", str(first), str(second)]
    script = AS_A_NORMAL_USER.replace("COMMAND", repr(command)).replace("SECRET", repr(KEY))
    # no Landlock at all here; where it is before 6.12 (no scopes), the cell's kills are not refused either
    machine = no_user_namespaces.PRELUDE + no_user_namespaces.without_landlock("ENOSYS")
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(open_folder)}
    nobody = {"user": 65534, "group": 65534, "extra_groups": []} if os.geteuid() == 0 else {}
    try:
        done = subprocess.run(
            [sys.executable, "-P", "-c", machine + script],
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
            cwd=open_folder,
            **nobody,
        )
    finally:
        _end_hunter(open_folder)
    level2 = done.stdout.split("(level2) ==", 1)[-1]
    not_graded = CATALOG["grade.class.internal"][1].format(error=CATALOG["grade.nb.host_not_restarted"][1])
    # was "[FAIL] An answer cell (code cell 1) raised: AssertionError: saw the key": graded in the command
    assert "saw the key" not in done.stdout, done
    assert not_graded in level2, done


def _end_hunter(folder: Path) -> None:
    """The hunter ends with the command; should the command outlive the test, it is ended here, by its pid."""
    try:
        pid = int((folder / "hunter.pid").read_text())
    except (OSError, ValueError):
        return
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
