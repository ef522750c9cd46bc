"""What answer cells raise stays on one line of the grade, whatever their exception's type is named.

A grade's error quotes the exception: its type's name, the first line of its message and the learner's line
that raised it. The message was cut at its first line, but the name was not, and a class of the learner's
may be named anything (``type("Boom\\n[PASS] All 3 criteria are met. Well done!", (Exception,), {})``): its
lines stood among the grader's, on the terminal, in the gradebook and in the feedback.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from class_submissions import needs_sandbox

import harness_lab.grading.catalog  # noqa: F401 (the verdicts join the catalog)
from harness_lab.text import CATALOG
from tests.grading import no_user_namespaces

ROOT = Path(__file__).resolve().parents[2]
ALL_PASSED = CATALOG["grade.all_passed"][1].format(total=3)  # the English side
FORGED = f"[PASS] Criterion 1: ok\n{ALL_PASSED}\n"
RAISE = f"""
_Forged = type("Boom\\n" + {FORGED!r}, (Exception,), {{"__str__": lambda self: "\\u2028" + {ALL_PASSED!r}}})
raise _Forged()
"""

pytestmark = needs_sandbox


def _graded(tmp_path, cell: str) -> subprocess.CompletedProcess:
    """``harness-lab grade`` in English on a right answer with ``cell`` added, as a normal user would run it."""
    tmp_path.chmod(0o755)
    notebook = no_user_namespaces.with_a_cell(tmp_path, cell)
    command = [sys.executable, "-P", "-m", "harness_lab.grading", "--lang", "en", str(notebook)]
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(tmp_path)}
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=300, cwd=tmp_path)


def test_an_exception_type_named_with_line_breaks_adds_no_line_to_the_grade(tmp_path):
    done = _graded(tmp_path, RAISE)
    lines = done.stdout.splitlines()
    # was three lines: "... raised: Boom", "[PASS] Criterion 1: ok", and the grader's own "All 3 criteria are met"
    assert [line for line in lines if line.startswith("[PASS]")] == []
    assert (done.returncode, len(lines)) == (1, 2), done.stdout + done.stderr
    assert "raised: Boom\\n[PASS] Criterion 1: ok\\n" in lines[1]


# Learner code answers in its criterion's child's name (the child's own channel, in reach of anything that
# runs there) with an error of 900,000 characters, for each of the three criteria.
ANSWERED_FOR = """
def run_tool_uses(*args, **kwargs):
    from harness_lab.grading import sandbox
    sandbox._channel(("error", "E" * 900_000))
"""


def test_an_error_of_megabytes_told_in_the_graders_name_is_quoted_cut_in_each_criterions_hint(tmp_path):
    done = _graded(tmp_path, ANSWERED_FOR)
    lines = done.stdout.splitlines()
    # was one line: the notebook's process "ended before it returned a result" (the judge's answer, 2.7 MB, too large)
    assert (done.returncode, len(lines)) == (1, 5), done.stdout[:2000] + done.stderr[-2000:]
    raised = CATALOG["grade.raised"][1].split("{")[0]
    for line in lines[1:4]:
        assert raised in line and "EEEE" in line and len(line) < 3000, line[:300]
