"""The Stepper's stops and resume: an exception ends the panel and names it, a stop right after resume, a no-
progress stop asks for an instruction, resume raises the limit that stopped the run.
"""

import asyncio
import html
import time

import pytest

from harness_lab.events import Finished
from harness_lab.text import t
from harness_lab.ui import Stepper
from tests.ui.conftest import PROMPT, Breaks, click


def test_an_exception_inside_the_run_ends_the_panel_and_names_it(make_run):
    run = make_run("never_ending")
    bug = Breaks(from_turn=1)
    run.valves.append(bug)
    s = Stepper(run, "メモを順に読んで")
    s.next_button.click()
    assert run.state.turns == 1
    returned = s.step()  # the valve raises before turn 2: returned, not raised
    assert isinstance(returned, ZeroDivisionError) and s.error is returned and s.done
    line = t("ui.status.error", error="ZeroDivisionError: learner bug")
    assert s.status_text() == line and html.escape(line) in s.status.value
    assert repr(s).splitlines()[0] == line and "Traceback" not in repr(s)
    assert s.next_button.disabled and s.all_button.disabled and s.stop_button.disabled
    click(s.stop_button)  # nothing is left to interrupt: no KeyboardInterrupt out of the handler
    click(s.next_button)
    assert s.outcome is None and s.error is returned and s.status_text() == line
    assert run.state.turns == 1 and len(run.messages) == 3 and run.messages[-1]["role"] == "user"
    bug.fixed = True
    s.resume()
    s.step()
    assert run.state.turns == 2 and s.error is None and not s.next_button.disabled


def test_an_exception_during_run_to_end_gives_the_buttons_back(make_run):
    run = make_run("never_ending", max_turns=50)
    run.valves.append(Breaks(from_turn=2))
    s = Stepper(run, "メモを順に読んで")
    unhandled = []

    async def click_all():
        asyncio.get_running_loop().set_exception_handler(lambda _, context: unhandled.append(context))
        s.all_button.click()
        deadline = time.monotonic() + 10
        while not s.done and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        click(s.stop_button)

    asyncio.run(click_all())
    assert s.status_text() == t("ui.status.error", error="ZeroDivisionError: learner bug")
    assert t("ui.status.running") not in s.status.value and s.outcome is None
    assert isinstance(s.error, ZeroDivisionError) and unhandled == []
    assert run.state.turns == 2 and run.messages[-1]["role"] == "user"


def test_stop_right_after_resume_stops_cleanly(make_run):
    run = make_run("never_ending", max_turns=2)
    s = Stepper(run, "メモを順に読んで")
    s.run_all()
    run.valves[0].limit = 5
    s.resume()
    click(s.stop_button)  # the fresh generator has not started: nothing inside could catch Ctrl-C
    assert s.outcome.cause == "interrupted" and run.state.turns == 2
    s.resume()
    s.step()
    assert run.state.turns == 3 and s.outcome is None


def test_a_denial_marks_the_approval_valve_on_that_turn_only(make_run):
    s = Stepper(make_run("high_impact"), PROMPT)
    s.step()
    assert s.acted() is None and "hl-acted" not in s.diagram_html.value
    s.deny("まだ保存しないで")
    assert s.acted() == "approval" and "hl-valve-approval hl-acted" in s.diagram_html.value
    s.step()
    assert isinstance(s.outcome, Finished) and s.acted() is None and "hl-acted" not in s.diagram_html.value
    approved = Stepper(make_run("high_impact"), PROMPT)
    approved.step()
    approved.approve()
    assert approved.acted() is None


def test_an_interrupt_is_shown_as_a_stop_not_as_a_valve(make_run):
    s = Stepper(make_run("never_ending"), "メモを順に読んで")
    s.step()
    s.stop()
    assert t("ui.stop_name.interrupted") in s.diagram_html.value
    assert t("ui.diagram.fired") not in s.diagram_html.value


# --- issue 14: resume, carry on, pacing, the small items ------------------------------------------


def test_resume_appears_after_a_stop_and_its_click_goes_on(make_run):
    run = make_run("never_ending", max_turns=8)
    s = Stepper(run, "メモを順に読んで")
    assert s.resume_button.layout.display == "none"  # nothing to resume yet
    s.step()
    click(s.stop_button)
    assert s.outcome.cause == "interrupted" and s.resume_button.layout.display is None
    assert s.limit_input.layout.display == "none"  # an interrupt has no limit to raise
    click(s.resume_button)
    assert s.outcome is None and not s.next_button.disabled and t("ui.notice.resumed") in s.status.value
    click(s.next_button)
    assert run.state.turns == 2 and s.resume_button.layout.display == "none"


def test_a_no_progress_stop_asks_for_an_instruction_and_resume_sends_it(make_run):
    s = Stepper(make_run("spinning"), "notes.txt を読んで")
    s.run_all()
    assert s.outcome.cause == "no_progress" and s.needs_steer()
    assert s.steer_input.layout.display is None and s.limit_input.layout.display == "none"
    assert t("ui.status.hint_steer") in s.status_text()
    calls = s.run.state.model_calls
    click(s.resume_button)  # nothing written: the repeat would stop the run again at once
    assert s.outcome.cause == "no_progress" and t("ui.notice.steer_first") in s.status.value
    assert s.run.state.model_calls == calls
    s.steer_input.value = "もう notes.txt は読まなくていいので、そこで終えて"
    click(s.resume_button)
    assert s.outcome is None and s.steer_input.value == "" and s.steer_input.layout.display == "none"
    s.run_all()
    assert isinstance(s.outcome, Finished) and s.run.state.model_calls == calls + 1
    sent = s.run.messages[-2]["content"]  # the held repeat answered is_error, then the instruction
    assert [b["type"] for b in sent] == ["tool_result", "text"] and sent[0]["is_error"]
    shown = s.transcript().text  # the panel shows the repeat answered unrun, and the instruction after it
    assert t("result.skipped_steered") in shown and "もう notes.txt は読まなくていいので" in shown


def test_status_hints_name_what_resume_needs(make_run):
    s = Stepper(make_run("never_ending", max_turns=2), "メモを順に読んで")
    s.run_all()
    assert s.status_text().endswith(t("ui.status.hint_limit"))
    s = Stepper(make_run("never_ending"), "メモを順に読んで")
    s.step()
    s.stop()
    assert s.outcome.cause == "interrupted" and s.status_text() == t("ui.status.stopped", reason=s.outcome.reason)


def test_resume_raises_the_limit_that_stopped_the_run(make_run):
    run = make_run("never_ending", max_turns=2)
    s = Stepper(run, "メモを順に読んで")
    click(s.all_button)
    assert s.outcome.cause == "max_turns" and s.limit_input.layout.display is None
    assert s.limit_input.value == "6"  # offered: room for a few more turns
    s.limit_input.value = "2"  # the same limit would stop again at once: refused, nothing changes
    click(s.resume_button)
    assert s.outcome.cause == "max_turns" and run.valves[0].limit == 2
    assert t("ui.notice.limit_too_low", limit=2, reading="2/2") == s.notice
    assert s.notice in s.status.value  # shown, not only kept: the panel said nothing before
    s.limit_input.value = "4"
    click(s.resume_button)
    assert run.valves[0].limit == 4 and s.outcome is None
    click(s.all_button)
    assert s.outcome.cause == "max_turns" and run.state.turns == 4 and s.turns_label.value == "4 / 4"


def test_a_token_budget_stop_offers_a_bigger_budget(make_run):
    run = make_run("budget_burning", max_turns=50, budget=6_000)
    s = Stepper(run, "ログを分析して")
    s.run_all()
    assert s.stopped_by_limit() is run.valves[1] and s.limit_input.value == "12000"
    assert s.resume(limit=12_000) and run.valves[1].limit == 12_000
    s.run_all()
    with pytest.raises(TypeError):
        s.resume(limit="20000")


def test_run_to_end_carries_on_after_an_approval_answer(make_run):
    run = make_run("high_impact")
    s = Stepper(run, PROMPT)
    click(s.all_button)
    assert s.pending is not None and s.outcome is None  # 最後まで stops at the ask
    click(s.approve_button)  # and goes on after the answer, to the end
    assert isinstance(s.outcome, Finished) and (run.sandbox / "report.md").exists()
    # The methods do the same; a single step never runs on by itself.
    headless = Stepper(make_run("high_impact"), PROMPT)
    headless.run_all()
    headless.deny("まだ")
    assert isinstance(headless.outcome, Finished)
    stepped = Stepper(make_run("high_impact"), PROMPT)
    stepped.step()
    stepped.approve()
    assert stepped.outcome is None and len(stepped.run.state.laps) == 1
