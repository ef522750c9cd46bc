"""Learner folders whose names look alike are named in the run's notes (grade-class).

Where learners make their own folders, one may make a second folder named like a classmate's, with a
failing notebook in it: ``alice`` and ``alice`` with a zero-width space after it read as one name in the
gradebook, on the page and on the terminal, and nothing said there were two. Both are still graded (which
is the real one cannot be told from the files); the notes, on the page and on stderr, name them, with what
shows as nothing written as an escape.
"""

from __future__ import annotations

import html
import io

from class_submissions import (
    instructor_config,  # noqa: F401  # the record's key in a folder of the tests' own
    needs_sandbox,
    right,
    wrong,
)

from harness_lab.grading.class_command import grade_class_command
from harness_lab.grading.gradebook_cell import in_gradebook
from harness_lab.grading.look_alike import look_alike, shown
from harness_lab.text import speaking, t


@needs_sandbox
def test_learner_folders_named_alike_but_for_invisible_characters_width_or_case_are_named_in_the_notes(tmp_path):
    subs, report = tmp_path / "subs", tmp_path / "report"
    right("level1").write(subs, "alice")
    for imitation in ("alice\u200b", "\uff41lice", "Alic\u200de"):  # zero-width space, full-width a, ZWJ and case
        wrong("level1", "deny result that does not say why").write(subs, imitation)
    right("level1").write(subs, "alicia")  # another name: not named
    stderr = io.StringIO()
    with speaking("en"):
        grade_class_command(subs, report, jobs=1, stdout=io.StringIO(), stderr=stderr)
        note = t("grade.class.look_alike", names="Alic\\u200de, alice, alice\\u200b, \uff41lice")
    # was nothing: four rows the reader takes for "alice", one of them 3 of 3, and no word of it
    assert note in stderr.getvalue()
    assert html.escape(note) in (report / "index.html").read_text(encoding="utf-8")
    assert "alicia" not in stderr.getvalue()


def test_names_with_cyrillic_or_greek_letters_drawn_as_latin_ones_are_taken_for_their_latin_twins():
    learners = ["alice", "\u0430lice", "\u0391lice", "bob", "\u0412ob", "\u0410\u043d\u043d\u0430", "anna"]
    # was [] for these: a Cyrillic а or a Greek Α reads as a, and В as B, but only invisibles, width and case were read
    assert look_alike(learners) == [["alice", "\u0430lice", "\u0391lice"], ["bob", "\u0412ob"]]
    assert [shown(name) for name in ("\u0430lice", "\u0412ob")] == ["\\u0430lice", "\\u0412ob"]


def test_folder_names_the_gradebook_writes_alike_are_taken_for_one_another_and_shown_apart():
    # a folder named "a" + ESC and one named in the four characters a, \, x, 1, b; "=x", which gets its
    # leading ', and "'=x": each pair is one cell of grades.csv, and so one key of the next run's changes
    pairs = [["a\x1b", "a\\x1b"], ["=x", "'=x"]]
    assert [in_gradebook(one) == in_gradebook(other) for one, other in pairs] == [True, True]
    # was []: neither reads alike once NFKC, case and what shows as nothing are set aside
    assert look_alike([*pairs[0], "b", *pairs[1]]) == pairs
    # the note tells them apart: the name's own backslash doubled
    assert [shown(name) for name in pairs[0]] == ["a\\x1b", "a\\\\x1b"]


def test_folder_names_whose_gradebook_cells_differ_only_by_a_leading_quote_are_taken_for_one_another():
    # the formula guard writes "=x" as "'=x": a reader who knows it takes a cell's leading ' for none of the
    # name, and reads a folder named "'x" as "x" (round seventeen left them apart); "x'" keeps its own '
    assert [in_gradebook(name) for name in ("x", "'x", "=x")] == ["x", "'x", "'=x"]
    assert look_alike(["x", "b", "'x", "x'", "'b'"]) == [["x", "'x"]]
