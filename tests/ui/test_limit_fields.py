"""A limit typed into the panel reaches the run as the number the learner meant, or is refused by name.

ipywidgets' IntText dropped the point of 2.5 in the browser, so the kernel got 25 and raised the limit
tenfold; the fields are text now, read here. Each test types what a learner would."""

import pytest

from harness_lab.text import t
from harness_lab.ui import Stepper


def stopped_at_two_turns(make_run):
    s = Stepper(make_run("never_ending", max_turns=2), "メモを順に読んで")
    s.run_all()
    assert s.outcome.cause == "max_turns"
    return s


@pytest.mark.parametrize("typed", ["2.5", "25.5", "abc", "-3", "1,5", "6 7", "4,00"])
def test_a_new_limit_that_is_no_whole_number_is_refused_by_name_and_changes_nothing(make_run, typed):
    s = stopped_at_two_turns(make_run)
    s.limit_input.value = typed
    s.resume_button.click()
    assert s.outcome.cause == "max_turns" and s.run.valves[0].limit == 2
    assert s.notice == t("ui.limit.not_whole", label=t("ui.limit.label"), got=typed) and s.notice in s.status.value


@pytest.mark.parametrize("typed", ["", "   ", "\u3000"])
def test_an_emptied_limit_field_is_said_to_be_empty(make_run, typed):
    # It read 「」は整数として読めません: a number that failed to read, where nothing was written.
    s = stopped_at_two_turns(make_run)
    s.limit_input.value = typed
    s.resume_button.click()
    assert s.outcome.cause == "max_turns" and s.run.valves[0].limit == 2
    assert s.notice == t("ui.limit.empty", label=t("ui.limit.label"))


@pytest.mark.parametrize("typed", ["9" * 5000, "1" + "0" * 13, "１" * 20])
def test_a_limit_too_large_for_any_run_is_refused_in_the_editions_words(make_run, typed):
    # 5,000 nines (a key held down) reached int(), and its English refusal, quoting every digit, was
    # the Japanese panel's notice.
    s = stopped_at_two_turns(make_run)
    s.limit_input.value = typed
    s.resume_button.click()
    assert s.outcome.cause == "max_turns" and s.run.valves[0].limit == 2
    shown = typed if len(typed) <= 40 else typed[:39] + "…"
    assert s.notice == t("ui.limit.too_large", label=t("ui.limit.label"), got=shown, most="1,000,000,000,000")


@pytest.mark.parametrize(
    "typed, limit",
    [
        ("1,000,000,000,000", 10**12),
        ("6", 6),
        ("40,000", 40_000),
        ("40 000", 40_000),
        ("４", 4),
        ("１，０００", 1000),
        (" 7 ", 7),
        ("5.0", 5),
    ],
)
def test_a_new_limit_reads_as_people_write_counts(make_run, typed, limit):
    s = stopped_at_two_turns(make_run)
    s.limit_input.value = typed
    s.resume_button.click()
    assert s.outcome is None and s.run.valves[0].limit == limit


def test_leading_zeros_are_no_size(make_run):
    s = stopped_at_two_turns(make_run)
    s.limit_input.value = "0" * 5000 + "6"
    s.resume_button.click()
    assert s.outcome is None and s.run.valves[0].limit == 6


def test_a_raised_limit_reads_back_as_it_was_typed(make_run):
    s = stopped_at_two_turns(make_run)
    s.limit_input.value = "40,000"
    s.resume_button.click()
    assert s.turns_label.value == "2 / 40,000"  # it read 2 / 40000 beside a token gauge with separators


def test_a_fork_limit_that_is_no_whole_number_makes_no_fork(make_run):
    s = stopped_at_two_turns(make_run)
    s.select(1)
    field = s.timeline.limit_inputs["max_turns"]
    field.value = "2.5"
    s.timeline.fork_button.click()  # the button's error is shown in the panel's status line
    assert s.forks == [] and t("ui.limit.not_whole", label=field.description, got="2.5") in s.status.value
    field.value = "3"
    s.timeline.fork_button.click()
    (fork,) = s.forks
    assert fork.run.valves[0].limit == 3
