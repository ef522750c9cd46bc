"""``harness-lab grade`` where no sandbox works: someone else's notebook never sees the caller's key.

A learner may hand their notebook to a classmate or a teaching assistant to grade. Where bubblewrap
is missing or refused (a laptop, Ubuntu's AppArmor rule on user namespaces), the command graded it
in its own process, with the caller's whole environment: an answer cell read ``ANTHROPIC_API_KEY``.
Now a grading host without the sandbox runs it, with the allow-listed environment grade-class's
hosts get, and the command says on stderr that the notebook was not isolated.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from harness_lab.grading import command, isolation
from harness_lab.text import speaking, t
from tests.grading import no_user_namespaces

ROOT = Path(__file__).resolve().parents[2]

SOLUTION = ROOT / "exercises" / "solutions" / "level2_missing_gate.ipynb"
KEY = "sk-ant-api03-CALLERS-OWN-KEY-0000"
# An answer cell that fails its notebook when it can read the key, or finds the caller's HOME
SNOOP = (
    "import os\n"
    f"assert os.environ.get('ANTHROPIC_API_KEY') != {KEY!r}, 'saw the key'\n"
    "assert os.environ.get('HOME') != {home!r}, 'ran in the caller\\'s home'\n"
)

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="grading hosts run on Linux")


@pytest.fixture
def no_sandbox(monkeypatch, tmp_path):
    """A machine without bwrap, graded by a normal user (as root the command already used a user of its own)."""
    empty = tmp_path / "no-bwrap"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    monkeypatch.setattr(isolation.os, "geteuid", lambda: 1000)
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert isolation.Launch.choose() == isolation.Launch(None, None)


def _snooping_notebook(folder: Path) -> Path:
    notebook = json.loads(SOLUTION.read_text(encoding="utf-8"))
    cell = {
        "cell_type": "code",
        "metadata": {"tags": ["answer"]},
        "source": SNOOP.format(home=str(folder)),
        "outputs": [],
        "execution_count": None,
    }
    notebook["cells"].insert(next(i for i, c in enumerate(notebook["cells"]) if c["cell_type"] == "code"), cell)
    path = folder / "level2_missing_gate.ipynb"
    path.write_text(json.dumps(notebook), encoding="utf-8")
    return path


def test_a_notebook_graded_without_a_sandbox_never_sees_the_callers_key(no_sandbox, tmp_path, capsys):
    path = _snooping_notebook(tmp_path)
    out = io.StringIO()
    with speaking("en"):
        code = command.grade_files([str(path)], out=out)
        warning = t("grade.sandbox.not_isolated")
    assert code == 0, out.getvalue()  # was 1: "AssertionError: saw the key"
    assert "saw the key" not in out.getvalue()
    assert warning in capsys.readouterr().err
    assert "no sandbox" in warning.lower() and "rights" in warning


def test_the_note_that_nothing_was_isolated_is_in_the_notebooks_language(no_sandbox, monkeypatch, capsys):
    from harness_lab import text

    english = SOLUTION.parent / "en" / SOLUTION.name
    monkeypatch.delenv("HARNESS_LAB_LANG", raising=False)
    monkeypatch.setattr(text, "_chosen", None)  # nobody chose a language: the notebook's edition speaks
    assert command.grade_files([str(english)], out=io.StringIO()) == 0
    with speaking("en"):
        warning = t("grade.sandbox.not_isolated")
    assert warning in capsys.readouterr().err  # it was the Japanese note under an English report


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
# The grading command run by a normal user, its output a pipe of that user's (as a terminal is). The key
# is in the command's environment alone: what a shell above it holds is the user's own to guard.
GRADE_AS_A_NORMAL_USER = """
import os, subprocess, sys
command = [sys.executable, "-P", "-m", "harness_lab.grading", "--lang", "en", NOTEBOOK]
done = subprocess.run(command, capture_output=True, env={**os.environ, "ANTHROPIC_API_KEY": KEY})
sys.stdout.buffer.write(done.stdout)
sys.exit(done.returncode)
"""


@pytest.mark.skipif(not no_user_namespaces.KNOWN, reason="a machine the test's seccomp filter does not know")
def test_without_namespaces_the_grading_commands_key_and_output_are_out_of_an_answer_cells_reach():
    """Where the kernel gives a normal user no user namespace, neither bubblewrap nor a PID namespace
    hides the command from the answer cells, which run as its user."""
    folder = Path(tempfile.mkdtemp())
    try:
        folder.chmod(0o755)  # the normal user's to read
        path = _snooping_notebook(folder)
        notebook = json.loads(path.read_text(encoding="utf-8"))
        answer = next(c for c in notebook["cells"] if "answer" in c["metadata"].get("tags", []))
        answer["source"] = CLIMB.replace("KEY", repr(KEY))
        path.write_text(json.dumps(notebook), encoding="utf-8")
        path.chmod(0o644)
        env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(folder)}
        nobody = {"user": 65534, "group": 65534, "extra_groups": []} if os.geteuid() == 0 else {}
        script = GRADE_AS_A_NORMAL_USER.replace("NOTEBOOK", repr(str(path))).replace("KEY", repr(KEY))
        script = no_user_namespaces.PRELUDE + script
        command = [sys.executable, "-P", "-c", script]
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300, cwd=folder, **nobody)
    finally:
        shutil.rmtree(folder)
    # was exit 1, "AssertionError: saw the key" and, before it, the forged line
    assert "FORGED" not in done.stdout, done
    assert (done.returncode, "saw the key" in done.stdout) == (0, False), done
