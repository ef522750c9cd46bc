"""Names planted in the report folder reach the instructor's terminal and page escaped.

Graded without the sandbox by a normal user, answer cells run as the instructor and may write in
``REPORT``. The next write of the report removes a stray ``*.part`` there (a write cut short, or
something planted to block one) and says so on stderr and the page, naming it: a name the learner
chose, which may hold escape sequences (clear the screen, set the clipboard) and a line of its own.
"""

from __future__ import annotations

import io

from class_submissions import FILES, instructor_config  # noqa: F401

from harness_lab.grading.class_command import grade_class_command
from harness_lab.grading.classroom import MAX_NOTEBOOK_BYTES
from harness_lab.text import speaking

FAKE = "\x1b[2J\x1b[H\x1b]52;c;ZWNobyBwd25lZA==\x07\r\n[PASS] all criteria met\x1b[8m"


def test_a_stray_file_planted_in_the_report_is_named_escaped_on_the_terminal_and_the_page(tmp_path):
    subs, report = tmp_path / "subs", tmp_path / "report"
    (subs / "mal").mkdir(parents=True)
    with open(subs / "mal" / FILES["level1"], "wb") as huge:
        huge.truncate(MAX_NOTEBOOK_BYTES + (1 << 20))  # refused by its size: no learner code runs
    with speaking("en"):
        grade_class_command(subs, report, unsandboxed=True, stdout=io.StringIO(), stderr=io.StringIO())
        (report / f"index.html{FAKE}.part").write_text("", encoding="utf-8")
        (report / "feedback" / f"mal{FAKE}.part").write_text("", encoding="utf-8")
        stderr = io.StringIO()
        code = grade_class_command(subs, report, unsandboxed=True, stdout=io.StringIO(), stderr=stderr)
    said, shown = stderr.getvalue(), (report / "index.html").read_text(encoding="utf-8")
    assert code == 0
    # was the raw name on stderr: the screen cleared, the clipboard set, "[PASS] all criteria met" a line
    assert not any(c in said + shown for c in "\x1b\x07\r"), repr(said)
    assert said.count("\\x1b]52;c;") == 2 and "[PASS] all criteria met" not in said.splitlines(), said
    assert not (report / f"index.html{FAKE}.part").exists() and not (report / "feedback" / f"mal{FAKE}.part").exists()
