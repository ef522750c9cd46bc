"""The status line after a stop: the reason, then what Resume needs, as two sentences in either language.

A stop's reason often ends in its own parenthesis (「…可能性があります）」, "(12,345 used)."); the
hint after it used to open a second one right away."""

import pytest

from harness_lab.text import speaking
from harness_lab.ui import Stepper

# (scenario, make_run's limits): stopped by the turn limit, the token budget, and no progress.
STOPS = [
    ("never_ending", {"max_turns": 2}, "max_turns"),
    ("never_ending", {"budget": 3_000}, "token_budget"),
    ("spinning", {}, "no_progress"),
]


@pytest.mark.parametrize("language", ["ja", "en"])
@pytest.mark.parametrize("scenario, limits, cause", STOPS, ids=[cause for *_, cause in STOPS])
def test_a_stop_and_what_resume_needs_read_as_two_sentences(make_run, scenario, limits, cause, language):
    with speaking(language):
        s = Stepper(make_run(scenario, **limits), "メモを順に読んで")
        s.run_all()
        line = s.status_text()
    assert s.outcome.cause == cause and s.resumable
    assert "）（" not in line and ") (" not in line and ")(" not in line, line
    assert ("。" if language == "ja" else ". ") in line.split(s.outcome.reason.rstrip("。. "), 1)[1], line
    assert not line.endswith(("。", "）")) if language == "ja" else line.endswith("."), line
