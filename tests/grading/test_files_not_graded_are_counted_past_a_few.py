"""A learner folder of many files not graded names the first few and counts the rest (round fifteen).

Every file in a learner's folder that is not a notebook was a line of the page and of their feedback:
100,000 empty files made an 11 MB page and a 6 MB feedback file. Now each folder names at most
``not_graded.LISTED`` of them and says how many more there are; the summary still counts them all.
"""

from __future__ import annotations

import io

from harness_lab.grading.class_command import grade_class_command
from harness_lab.grading.not_graded import LISTED
from harness_lab.text import speaking, t

FILES = 2000


def test_a_folder_of_thousands_of_files_not_graded_names_a_few_and_counts_the_rest(tmp_path):
    subs, report = tmp_path / "subs", tmp_path / "report"
    (subs / "mal").mkdir(parents=True)
    (subs / "alice").mkdir()
    for i in range(FILES):
        (subs / "mal" / f"f{i:05d}.txt").touch()
    (subs / "alice" / "notes.txt").touch()
    with speaking("en"):  # nothing is graded: no learner code runs
        code = grade_class_command(subs, report, unsandboxed=True, stdout=io.StringIO(), stderr=io.StringIO())
        # the folder's own line ("no notebook") comes first and is one of the LISTED
        more = t("grade.class.skipped_more", count=FILES + 1 - LISTED, shown=LISTED)
        empty = t("grade.class.no_notebooks")
    assert code == 0
    html = (report / "index.html").read_text(encoding="utf-8")
    feedback = (report / "feedback" / "mal.txt").read_text(encoding="utf-8")
    for text in (html, feedback):
        named = [i for i in range(FILES) if f"f{i:05d}.txt" in text]
        assert named == list(range(LISTED - 1)), named[-3:]
        assert more in text
        assert empty in text  # what is said of the folder itself is never counted away
    assert "notes.txt" in html and "notes.txt" in (report / "feedback" / "alice.txt").read_text(encoding="utf-8")
    # every file counted, the listed and the rest; a folder's "no notebook" is no file (its exercises are "not handed in")
    assert f"files not graded: {FILES + 1}" in html
    assert len(html) < 40_000 and len(feedback) < 8_000, (len(html), len(feedback))
