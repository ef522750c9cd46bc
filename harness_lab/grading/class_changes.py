"""What changed since the last run of grade-class on a report folder: whose grade, from what to what.

A rerun (late hand-ins collected, a learner's fix) wrote the report anew and the page did not say what
had moved: an instructor who had copied grades into an LMS had to compare two CSV files by hand. So the
report keeps the last run's gradebook as ``grades.previous.csv`` (one run back, no more) and its page
lists each learner and exercise whose status or score differs between the two, at most ``SHOWN`` of them.

The comparison reads both gradebooks as ``class_report.gradebook`` writes them (names as shown there), so
a learner renamed between runs is one row gone and one row new. The previous file is read from the report
folder, which learner code graded without the sandbox could write: only to be compared and shown, escaped.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

__all__ = ["PREVIOUS_CSV", "SHOWN", "Change", "changes"]

PREVIOUS_CSV = "grades.previous.csv"
SHOWN = 200  # changes listed on the page; the rest are counted, and the two CSV files hold them all


@dataclass(frozen=True)
class Change:
    """One learner's exercise whose grade moved. ``before``/``after`` are (status, score, max_score), or None
    when the row was not in that run's gradebook (a learner or an exercise added, or gone)."""

    learner: str
    exercise: str
    before: tuple[str, str, str] | None
    after: tuple[str, str, str] | None


def changes(previous: bytes, current: str) -> list[Change]:
    """The rows of ``current`` (the gradebook's text) whose grade differs from ``previous`` (its bytes)."""
    try:
        before = _grades(previous.decode("utf-8-sig", "replace"))
    except csv.Error:  # not a gradebook (a field over csv's limit, say): every row is new
        before = {}
    after = _grades(current)
    moved = [key for key in {**before, **after} if before.get(key) != after.get(key)]
    return [Change(*key, before.get(key), after.get(key)) for key in sorted(moved)]


def _grades(text: str) -> dict[tuple[str, str], tuple[str, str, str]]:
    # a row's exercise is "" when no exercise could be told (a file that is not JSON): its notebook then
    found = {}
    for row in csv.DictReader(io.StringIO(text, newline="")):
        learner, exercise = row.get("learner") or "", row.get("exercise") or row.get("notebook") or ""
        found[learner, exercise] = (row.get("status") or "", row.get("score") or "", row.get("max_score") or "")
    return found
