"""Learner text in a grade: secrets and classmates' work cut out, control characters shown (issue 26, item 3;
issue 29, item 4), and the terminal reset before each verdict line."""

from __future__ import annotations

import io
import json
import os
import pty
import random
import select
import string
import sys
import time
from pathlib import Path

import pytest
from class_submissions import answer_cells, solution

from harness_lab.grading import batch, run_limited
from harness_lab.grading.command import grade_files
from harness_lab.grading.isolation import Launch
from harness_lab.grading.notebook import NotebookGrade
from harness_lab.grading.redact import Redactor
from harness_lab.grading.report import Check, Report
from harness_lab.scrub import REDACTED
from harness_lab.terminal import visible
from harness_lab.text import speaking, t

ROOT = Path(__file__).resolve().parents[2]
KEY = "sk-ant-api03-a1b2c3d4e5f6a7b8c9d0"
THEIRS = "def run_tool_uses(content, impls, approve):  # ben's own take on the tiers"


def test_a_value_of_the_callers_environment_is_cut_out_whole_and_in_part():
    redactor = Redactor([KEY, "short"], [])
    assert redactor.clean(f"RuntimeError: KEY={KEY}") == f"RuntimeError: KEY={REDACTED}"
    assert REDACTED in redactor.clean(f"half {KEY[:16]} of it")  # 16 characters of it: still cut
    assert redactor.clean("a short word stays") == "a short word stays"  # values under 8 characters are not secrets


@pytest.mark.parametrize(
    "spelled",
    [
        "|".join(KEY[i : i + 11] for i in range(0, len(KEY), 11)),  # chunks under the window, joined
        " ".join(KEY),
        KEY.upper(),
        KEY[::-1],
        "-".join(KEY[i : i + 3] for i in range(0, len(KEY), 3))[::-1].swapcase(),
    ],
)
def test_a_secret_cut_up_recased_or_reversed_is_cut_out_too(spelled):
    cleaned = Redactor([KEY], []).clean(f"RuntimeError: {spelled}")
    assert REDACTED in cleaned and cleaned.startswith("RuntimeError: ")
    kept = "".join(c.lower() for c in cleaned if c.isalnum())
    assert not any(part in kept or part[::-1] in kept for part in ("a1b2c3d4e5f6", "api03a1b2c3d"))
    # the learner's own words around it stay, and so does a text that only shares short runs with it
    assert Redactor([KEY], []).clean("NameError: name 'api_key' is not defined") == (
        "NameError: name 'api_key' is not defined"
    )


def test_a_classmates_answer_is_cut_out_but_the_learners_own_text_stays():
    own = "def run_tool_uses(content, tool_impls, approve):\n    return []\n"
    redactor = Redactor([], [THEIRS, own])
    leaked = redactor.clean(f"ValueError: {THEIRS}", own)
    assert "ben's own take" not in leaked and REDACTED in leaked
    assert leaked.startswith("ValueError: def run_tool_uses(content, ")  # the part both notebooks share stays
    assert redactor.clean("NameError: name 'tool_impls' is not defined", own) == (
        "NameError: name 'tool_impls' is not defined"
    )


@pytest.mark.parametrize("language", ["ja", "en"])
def test_the_graders_own_words_stay_in_a_hint_when_a_classmates_answer_holds_them(language):
    # Unsandboxed, the level 1 hint's own fix, POLICY.get(name, DEFAULT_TIER), read
    # "POLICY.get(name, DEFAULT_TIER[REDACTED]" in a class where a classmate's answer held that line.
    classmate = (
        "\n\n".join(cell.source for cell in answer_cells(solution("level1"))) + "\n# ben's own take on the tiers"
    )
    error = "KeyError: 'brand_new_tool' (ben's own take on the tiers)"
    with speaking(language):
        hint = t("grade.l1.c1.unlisted_error", tool="brand_new_tool", error=error)
        cleaned = Redactor([KEY], [classmate]).clean(hint)
        assert cleaned == t(
            "grade.l1.c1.unlisted_error", tool="brand_new_tool", error=f"KeyError: 'brand_new_tool' ({REDACTED})"
        )


def test_pythons_own_words_in_an_error_stay_when_a_classmates_answer_holds_them():
    # Graded --unsandboxed (round twenty), a learner's write to /tmp read "[REDACTED]: [Errno 13] Permission
    # denied" because a classmate's answer raised PermissionError: no learner's words, Python's.
    classmate = "raise PermissionError('Permission denied by the policy')  # ben's own take on the tiers"
    redactor = Redactor([KEY], [classmate, "try:\n    import yaml\nexcept ModuleNotFoundError: pass"])
    for error in (
        "PermissionError: [Errno 13] Permission denied: '/tmp/big1'",
        "ModuleNotFoundError: No module named 'glob'",
    ):
        assert redactor.clean(error) == error
    assert REDACTED in redactor.clean("ValueError: ben's own take on the tiers")


@pytest.mark.parametrize("redactor", [Redactor(), Redactor([KEY], [THEIRS])], ids=["sandboxed", "unsandboxed"])
def test_a_learners_huge_text_is_cut_to_what_a_hint_can_show(redactor):
    # 20,000 characters of a hint once kept a class waiting minutes in the search through the notebook
    huge = "ValueError: " + "x" * 100_000 + KEY
    own = Searched("y" * 4_000_000)
    cleaned = redactor.clean(huge, own)
    assert cleaned == huge[:2000] + "…"
    # and a notebook of megabytes keeps nobody waiting: it was searched once for each of the hint's
    # windows (25 s on a loaded machine for this one text); only windows that decide something are
    # looked for in it now, and none of this hint's does
    assert own.searches == 0


class Searched(str):
    """A learner's notebook text that counts how often something is looked for in it."""

    searches = 0

    def __contains__(self, part: object) -> bool:
        self.searches += 1
        return super().__contains__(part)  # type: ignore[operator]

    def find(self, *args, **kwargs) -> int:  # type: ignore[override]
        self.searches += 1
        return super().find(*args, **kwargs)


def test_control_characters_are_shown_not_sent():
    assert visible("\x1b[8m○ 合格\x1b[0m\r", lines=True) == "\\x1b[8m○ 合格\\x1b[0m\\r"
    assert visible("行1\n\t行2 \u202e", lines=True) == "行1\n\t行2 \\u202e"


def test_every_text_of_a_grade_is_cleaned():
    check = Check(1, "title", False, hint=f"returned {KEY!r}", warning="\x1b[2J")
    grade = NotebookGrade("x.ipynb", "level1", "ok", (Report("level1", (check,)),), error=KEY, notes=(KEY,))
    clean = Redactor([KEY]).grade(grade)
    assert KEY not in clean.text() and "\x1b" not in clean.text()
    assert clean.reports[0].checks[0].warning == "\\x1b[2J" and clean.error == REDACTED


def in_a_terminal(code: str, within: float = 120) -> str:
    """Run ``python -c code`` with a pseudo-terminal as its controlling terminal; everything it showed there."""
    pid, leader = pty.fork()
    if pid == 0:
        os.chdir(ROOT)
        os.execv(sys.executable, [sys.executable, "-c", code])
    seen, deadline = b"", time.monotonic() + within
    try:
        while time.monotonic() < deadline:
            if select.select([leader], [], [], 0.2)[0]:
                try:
                    chunk = os.read(leader, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                seen += chunk
            elif os.waitpid(pid, os.WNOHANG)[0]:
                break
    finally:
        os.close(leader)
        try:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        except (OSError, ChildProcessError):
            pass
    return seen.decode("utf-8", "replace")


def test_a_limited_job_has_no_controlling_terminal():
    code = (
        "import os\nfrom harness_lab.grading import run_limited\n"
        "def job():\n    fd = os.open('/dev/tty', os.O_WRONLY)\n    os.write(fd, b'FAKE VERDICT\\n')\n    return 'opened'\n"
        "print('OUTCOME', run_limited(job, timeout=10).status)\n"
    )
    shown = in_a_terminal(code)
    assert "OUTCOME error" in shown and "FAKE VERDICT" not in shown, shown
    assert run_limited(lambda: "still usable", timeout=10).value == "still usable"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="bubblewrap is Linux only")
def test_fake_verdicts_written_to_the_terminal_never_show_and_real_lines_reset_it(tmp_path):
    nb = solution("level1")
    fake = "\\x1b[8m"  # concealed text from here on: the real verdicts would be invisible
    answer_cells(nb)[0].source += (
        "\nimport os\ntry:\n    _fd = os.open('/dev/tty', os.O_WRONLY)\n"
        f"    os.write(_fd, '○ 合格 FAKE\\n○ 合格 FAKE\\n{fake}'.encode())\nexcept OSError:\n    pass\n"
    )
    import nbformat

    path = tmp_path / "level1_tiered_policy.ipynb"
    nbformat.write(nb, path)
    shown = in_a_terminal(f"from harness_lab.cli import main\nmain(['grade', {str(path)!r}])\n")
    assert "FAKE" not in shown, shown
    lines = [line for line in shown.replace("\r\n", "\n").splitlines() if line]
    assert lines and all(line.startswith("\x1b[0m") for line in lines), lines


def test_one_learners_megabytes_of_answer_cells_do_not_slow_every_classmates_hint(tmp_path):
    # Graded --unsandboxed, each hint of the class was searched through everything every notebook's
    # answer cells hold: one learner's 7 MB of comments made that 1.5 s a hint (a class of 8: 25 s -> 100 s).
    letters = random.Random(7)
    comments = "".join("# " + "".join(letters.choices(string.ascii_letters, k=98)) + "\n" for _ in range(70_000))
    big = json.loads((ROOT / "exercises/solutions/level1_tiered_policy.ipynb").read_text(encoding="utf-8"))
    answer = next(c for c in big["cells"] if "answer" in c["metadata"].get("tags", []))
    answer["source"] = "# 講座のメモ\n" + comments + "".join(answer["source"])
    theirs = json.loads((ROOT / "exercises/solutions/level2_missing_gate.ipynb").read_text(encoding="utf-8"))
    answer = next(c for c in theirs["cells"] if "answer" in c["metadata"].get("tags", []))
    answer["source"] = THEIRS + "\n" + "".join(answer["source"])
    paths = [tmp_path / "big.ipynb", tmp_path / "theirs.ipynb"]
    for path, notebook in zip(paths, (big, theirs), strict=True):
        path.write_text(json.dumps(notebook), encoding="utf-8")
    protected = batch._answers(paths, lambda p: p.read_bytes())
    # What every hint is searched through is bounded per notebook (7 MB before), not by its author.
    assert [len(text) for text in protected] == [batch.PROTECTED_CHARS, len(protected[1])]
    assert len(protected[1]) < batch.PROTECTED_CHARS
    redactor = Redactor.for_launch(Launch(None), lambda: protected)
    hints = [f"Criterion {n}: a model that never stopped got {n + 3} requests in all" for n in range(20)]
    assert [redactor.clean(hint) for hint in hints] == hints
    assert REDACTED in redactor.clean(f"ValueError: {THEIRS}")  # a classmate's answer is still cut out


def test_a_notebooks_file_name_heads_its_verdict_with_its_escapes_shown(tmp_path):
    # A notebook handed over to be graded names itself: an OSC 52 in the name wrote the grader's
    # clipboard, and a bidi override reordered the header line the verdicts stand under.
    name = "level1_\x1b]52;c;cm0gLXJmIH4K\x07\u202egnp.ipynb"
    path = tmp_path / name
    path.write_text(json.dumps({"cells": [], "metadata": {}}), encoding="utf-8")
    out = io.StringIO()
    assert grade_files([str(path)], out=out) == 1
    shown = out.getvalue()
    assert "\x1b" not in shown and "\u202e" not in shown and "\x07" not in shown, repr(shown)
    assert visible(name) in shown


def test_the_noun_an_english_count_names_stays_when_a_classmates_answer_holds_it():
    # An English entry names what it counts in its placeholder ("{done:completed turns}", text.t); cut with the
    # placeholder, those words were no longer the course's, and a classmate's note holding them cut them out of
    # another learner's message: "this Run has 2[REDACTED]ompleted turns".
    classmate = "# my note: completed turns and more characters, more files and the shortest names"
    redactor = Redactor([KEY], [classmate])
    for count in (1, 2):
        with speaking("en"):
            said = [
                t("usage.fork_at", at=count + 1, turns=count),
                t("grade.try.cut", limit=count),
                t("grade.class.skipped_more", count=count, shown=count),
            ]
        for text in said:
            assert redactor.clean(text) == text
