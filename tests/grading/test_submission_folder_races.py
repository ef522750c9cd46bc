"""A learner who can rename their own folder in the submissions (an exchange folder with the sticky bit,
where each learner makes theirs) cannot have a folder of someone else's read as theirs.

A link in place of the folder is refused when the submissions are listed ("outside"); the race is to
swap the folder and a link to another folder (the instructor's solutions) back and forth while
``grade-class`` lists and then reads: listed as a folder, read through the link. ``renameat2`` with
``RENAME_EXCHANGE`` swaps the two names in one step, as fast as the learner's process can.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import sys
from pathlib import Path

import pytest

from harness_lab.grading.classroom import handed_editions

ROOT = Path(__file__).resolve().parents[2]
NAME = "level1_tiered_policy.ipynb"
TRIES = 100
# Learners listed after mal: the more there are, the longer between mal's folder listed and its notebook read.
AFTER = 100

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="renameat2 is Linux's")


def _notebook(folder: Path, edition: str) -> None:
    folder.mkdir(parents=True)
    notebook = json.loads((ROOT / "exercises" / "solutions" / NAME).read_text(encoding="utf-8"))
    notebook["metadata"]["harness_lab"] = {"lang": edition}
    (folder / NAME).write_text(json.dumps(notebook), encoding="utf-8")


def _swap_for_ever(submissions: str) -> None:
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    at_fdcwd, rename_exchange = -100, 2
    mine, link = os.path.join(submissions, "mal").encode(), os.path.join(submissions, ".mal-link").encode()
    while True:
        libc.renameat2(at_fdcwd, mine, at_fdcwd, link, rename_exchange)


def test_a_learner_folder_swapped_for_a_link_while_listed_is_never_read_through_it(tmp_path):
    submissions, theirs = tmp_path / "submissions", tmp_path / "solutions"
    _notebook(submissions / "mal", "ja")  # the learner's own notebook says Japanese
    _notebook(theirs, "en")  # the instructor's, beside it, English
    (submissions / ".mal-link").symlink_to(theirs)  # hidden: never listed itself
    for n in range(AFTER):
        (submissions / f"n{n:03}").mkdir()
        (submissions / f"n{n:03}" / NAME).write_bytes(b"not JSON: names no edition")
    racer = multiprocessing.get_context("fork").Process(target=_swap_for_ever, args=(str(submissions),), daemon=True)
    racer.start()
    try:
        seen = [handed_editions(submissions) for _ in range(TRIES)]
    finally:
        racer.kill()
        racer.join()
    # was {"en"} in about one list in ten (the instructor's notebook read as mal's), and {"ja"} or nothing
    # (the link refused) in the others
    assert [editions for editions in seen if "en" in editions] == []
    assert {"ja"} in seen  # the race ran: the learner's own folder was read in some of the tries


def test_a_learner_folder_that_is_a_link_is_listed_and_never_read(tmp_path):
    submissions, theirs = tmp_path / "submissions", tmp_path / "solutions"
    _notebook(theirs, "en")
    submissions.mkdir()
    (submissions / "mal").symlink_to(theirs)
    assert handed_editions(submissions) == set()  # held: the scan takes it for a file outside any learner's folder
