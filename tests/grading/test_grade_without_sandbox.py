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
import sys
from pathlib import Path

import pytest

from harness_lab.grading import command, isolation
from harness_lab.text import speaking, t

SOLUTION = Path(__file__).resolve().parents[2] / "exercises" / "solutions" / "level2_missing_gate.ipynb"
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
