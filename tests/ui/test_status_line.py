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


def _stopped(run, language):
    """The Stepper of ``run`` run to its stop, and its status line, in ``language``."""
    with speaking(language):
        s = Stepper(run, "メモを順に読んで")
        s.run_all()
        return s, s.status_text()


@pytest.mark.parametrize("language", ["ja", "en"])
@pytest.mark.parametrize("scenario, limits, cause", STOPS, ids=[cause for *_, cause in STOPS])
def test_a_stop_and_what_resume_needs_read_as_two_sentences(make_run, scenario, limits, cause, language):
    s, line = _stopped(make_run(scenario, **limits), language)
    assert s.outcome.cause == cause and s.resumable
    assert "）（" not in line and ") (" not in line and ")(" not in line, line
    assert ("。" if language == "ja" else ". ") in line.split(s.outcome.reason.rstrip("。. "), 1)[1], line
    assert not line.endswith(("。", "）")) if language == "ja" else line.endswith("."), line


# The words for stopping in each language: a status line says one of them once, where the reason says it.
STOPPING = {"ja": ("停止", "中断", "止ま"), "en": ("Stopped", "stopped", "Interrupted", "interrupted")}


def _said(line: str, language: str) -> int:
    return sum(line.count(word) for word in STOPPING[language])


@pytest.mark.parametrize("language", ["ja", "en"])
def test_an_interrupt_reads_as_one_stop_in_the_status_line_and_the_comparison(make_run, language):
    """「× 停止: 中断しました」 read as a run stopped, then interrupted: the reason the package wrote names
    its cause itself, so the line says it alone, and the comparison of a fork likewise."""
    with speaking(language):
        s = Stepper(make_run("never_ending"), "メモを順に読んで")
        s.step()
        s.stop()
        line = s.status_text()
        s.select(1)
        s.timeline.fork_button.click()
        compared = s.compare().text
    assert s.outcome.cause == "interrupted" and s.outcome.reason in line
    assert _said(line, language) == _said(s.outcome.reason, language) == 1, line
    (ending,) = [row for row in compared.splitlines() if s.outcome.reason in row]
    assert _said(ending, language) == 1, ending


@pytest.mark.parametrize("language", ["ja", "en"])
@pytest.mark.parametrize("scenario, limits, cause", STOPS, ids=[cause for *_, cause in STOPS])
def test_a_valves_stop_names_its_valve_once(make_run, scenario, limits, cause, language):
    s, line = _stopped(make_run(scenario, **limits), language)
    assert s.outcome.cause == cause and _said(line, language) == _said(s.outcome.reason, language), line


@pytest.mark.parametrize("language", ["ja", "en"])
def test_a_hand_written_loops_own_stop_message_keeps_the_valve_that_stopped_it(language):
    """A learner's stop message may not name its valve (「上限です」): the line names it before the message."""
    from harness_lab import lessons
    from harness_lab.emulator import emulated_client
    from harness_lab.ui.status import valve_label

    def loop(client, user_input, tools, tool_impls, approve=None):
        messages = [{"role": "user", "content": user_input}]
        client.messages.create(model="claude-sonnet-5", max_tokens=1024, messages=messages, tools=tools)
        return lessons.stopped("max_turns", "上限です", 0)
        yield  # a generator, as the lesson's loop is

    tools = [{"name": "read_file", "description": "Read a file.", "input_schema": {"type": "object"}}]
    with speaking(language):
        s = Stepper(lessons.HandWritten(loop, emulated_client("never_ending"), tools, {}), "メモを順に読んで")
        s.run_all()
        line, label = s.status_text(), valve_label("max_turns")
    assert s.outcome.cause == "max_turns" and label in line and line.endswith("上限です"), line
