"""The Stepper driven headless: buttons clicked with Button.click(), over the real loop and emulator."""

import asyncio
import html
import itertools
import re
import subprocess
import sys
import time
from pathlib import Path

import ipywidgets as widgets
import pytest

from harness_lab.events import ApprovalRequest, Finished, Stopped, Turn, Usage
from harness_lab.text import t
from harness_lab.ui import Stepper, stepper
from tests.safety_net import gives_up_after

PROMPT = "週次レポートを sandbox/report.md に保存して"


def click(button):
    """Click as a learner does; a KeyboardInterrupt out of a handler would end the whole test session."""
    try:
        button.click()
    except KeyboardInterrupt:
        pytest.fail(f"KeyboardInterrupt escaped the {button.description} button's handler")


class Breaks:
    """A learner's own valve with a bug: from ``from_turn`` on, its check raises (until ``fixed``)."""

    name, step = "breaks", "loop_top"

    def __init__(self, from_turn):
        self.from_turn, self.fixed = from_turn, False

    def check(self, state):
        if not self.fixed and state.turns >= self.from_turn:
            raise ZeroDivisionError("learner bug")
        return None

    def reading(self, state):
        return "ok"


def test_buttons_carry_the_catalog_labels(make_run):
    s = Stepper(make_run("high_impact"), PROMPT)
    assert [s.next_button.description, s.all_button.description, s.stop_button.description] == [
        "次のターン",
        "最後まで",
        "停止",
    ]
    s.next_button.click()
    assert (s.approve_button.description, s.deny_button.description) == ("許可", "拒否")


def test_approve_path_runs_the_write_and_finishes(make_run):
    run = make_run("high_impact")
    s = Stepper(run, PROMPT)
    s.next_button.click()
    assert isinstance(s.pending, ApprovalRequest) and s.pending.name == "write_file"
    assert s.approval_box.layout.display == "flex" and "sandbox/report.md" in s.approval_box.children[0].value
    assert not (run.sandbox / "report.md").exists()  # asked before running, not after
    s.approve_button.click()
    assert (run.sandbox / "report.md").read_text(encoding="utf-8").startswith("# 週次レポート")
    assert isinstance(s.entries[-1], Turn) and s.pending is None
    s.next_button.click()
    assert isinstance(s.outcome, Finished) and "保存しました" in s.outcome.text
    assert "許可しました" in repr(s) and "保存しました" in s.transcript_html.value
    assert s.next_button.disabled and s.all_button.disabled


def test_deny_path_sends_the_reason_and_the_model_takes_another_route(make_run):
    run = make_run("high_impact")
    s = Stepper(run, PROMPT)
    s.step()
    s.reason.value = "ファイルには書かないで"
    s.deny_button.click()
    assert not (run.sandbox / "report.md").exists()
    result = run.messages[2]["content"][0]
    assert result["is_error"] is True and "ファイルには書かないで" in result["content"]
    s.run_all()
    assert isinstance(s.outcome, Finished) and "書き込みは行わず" in s.outcome.text
    assert "拒否しました: ファイルには書かないで" in repr(s)


def test_double_click_answers_once_and_an_old_button_never_answers_a_new_call(make_run):
    run = make_run("delete_and_post")
    (run.sandbox).mkdir(parents=True)
    (run.sandbox / "old.log").write_text("x")
    s = Stepper(run, "古いログを消して、集計を送って")
    s.step()
    first = s.approve_button
    first.click()
    first.click()  # the second click of a double click
    assert len(s.decisions) == 1 and not (run.sandbox / "old.log").exists()
    s.step()
    assert s.pending.name == "http_post"
    first.click()  # a stale button, drawn for the delete_file call
    assert s.pending is not None and run.outbox == []
    s.deny_button.click()
    s.deny_button.click()
    assert len(s.decisions) == 2 and run.outbox == []
    s.run_all()
    assert "送信せず" in s.outcome.text


def test_next_turn_while_waiting_is_not_a_decision(make_run):
    run = make_run("high_impact")
    s = Stepper(run, PROMPT)
    s.step()
    pending = s.pending
    s.next_button.click()
    s.all_button.click()
    assert s.pending is pending and s.decisions == {} and not (run.sandbox / "report.md").exists()
    assert s.next_button.disabled


def test_gauges_show_turns_tokens_and_signature(make_run):
    run = make_run("never_ending", max_turns=5, budget=50_000)
    s = Stepper(run, "メモを順に読んで")
    s.step()
    s.step()
    g = s.gauges()
    assert g["turns"] == 2 == run.state.turns and g["max_turns"] == 5
    assert g["tokens"] == run.state.usage.total > 0 and g["budget"] == 50_000
    assert (s.turns_bar.value, s.turns_bar.max) == (2, 5)
    assert (s.tokens_bar.value, s.tokens_bar.max) == (run.state.usage.total, 50_000)
    assert s.signature_label.value == run.state.signatures[-1] and "notes/002.md" in s.signature_label.value
    assert s.turns_label.value == "2 / 5"


def test_run_all_stops_at_the_max_turns_valve_and_marks_it(make_run):
    run = make_run("never_ending", max_turns=3)
    s = Stepper(run, "メモを順に読んで")
    s.all_button.click()
    assert isinstance(s.outcome, Stopped) and s.outcome.cause == "max_turns"
    assert s.outcome.turns == 3 and (s.turns_bar.value, s.turns_bar.max) == (3, 3)
    assert t("stop.max_turns", limit=3) in s.status.value
    assert "hl-valve-max_turns hl-fired" in s.diagram_html.value
    assert s.next_button.disabled and s.stop_button.disabled


def test_token_budget_fills_the_bar(make_run):
    run = make_run("budget_burning", max_turns=50, budget=6_000)
    s = Stepper(run, "ログを分析して")
    s.run_all()
    assert s.outcome.cause == "token_budget"
    assert s.tokens_bar.value == s.tokens_bar.max == 6_000 and s.tokens_bar.bar_style == "danger"
    assert f"{run.state.usage.total:,} / 6,000" == s.tokens_label.value


def test_stop_between_turns_then_resume(make_run):
    run = make_run("never_ending", max_turns=8)
    s = Stepper(run, "メモを順に読んで")
    s.step()
    s.stop_button.click()
    assert isinstance(s.outcome, Stopped) and s.outcome.cause == "interrupted"
    assert run.state.turns == 1 and run.messages[-1]["role"] == "user"  # valid history, no dangling call
    s.step()
    assert run.state.turns == 1  # stepping a stopped run does nothing
    s.resume()
    s.step()
    assert run.state.turns == 2 and s.outcome is None


def test_stop_while_waiting_denies_first(make_run):
    run = make_run("high_impact")
    s = Stepper(run, PROMPT)
    s.step()
    s.stop()
    assert not (run.sandbox / "report.md").exists()
    assert next(iter(s.decisions.values())).allowed is False
    assert s.outcome.cause == "interrupted"
    # The turn ended on that denial and is in the history: the status says so, not "left out".
    assert s.outcome.reason == t("ui.stop.interrupted_after_denial") and s.run.state.turns == 1
    assert s.run.messages[-1]["content"][0]["is_error"]
    assert s.resume() and s.outcome is None  # and the run goes on from there


def test_mimebundle_keeps_the_widget_and_adds_the_transcript(make_run):
    s = Stepper(make_run("high_impact"), PROMPT)
    s.step()
    s.approve()
    s.run_all()
    bundle = s._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == s.widget.model_id
    assert "保存しました" in bundle["text/plain"] and "保存しました" in bundle["text/html"]
    assert "object at 0x" not in bundle["text/plain"]


def test_transcript_is_deterministic_across_runs(make_run):
    def transcript():
        s = Stepper(make_run("high_impact"), PROMPT)
        s.step()
        s.deny("やめて")
        s.run_all()
        return s._repr_mimebundle_()["text/plain"], s._repr_mimebundle_()["text/html"]

    assert transcript() == transcript()


def test_stop_button_halts_an_auto_run_between_turns(make_run):
    run = make_run("never_ending", max_turns=500)
    s = Stepper(run, "メモを順に読んで", speed="fast")

    async def click_all_then_stop():
        s.all_button.click()  # in a running event loop: one turn per tick, clicks get in between
        while run.state.turns < 3:
            await asyncio.sleep(0.01)
        s.stop_button.click()
        while not s.done:
            await asyncio.sleep(0.01)

    asyncio.run(asyncio.wait_for(click_all_then_stop(), timeout=60))
    assert s.outcome.cause == "interrupted" and 3 <= run.state.turns < 10  # paced: stopped between turns
    assert run.messages[-1]["role"] == "user" and s.next_button.disabled


def test_pending_request_is_in_the_stored_transcript_but_not_twice_on_screen(make_run):
    s = Stepper(make_run("high_impact"), PROMPT)
    s.step()
    assert "hl-approval" in s._repr_mimebundle_()["text/html"]
    assert "hl-approval" not in s.transcript_html.value and "hl-approval" in s.approval_box.children[0].value


def test_the_core_does_not_import_the_ui():
    code = (
        "import sys, harness_lab; print(sorted(m for m in ('ipywidgets', 'matplotlib', 'IPython') if m in sys.modules))"
    )
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root).stdout
    assert out.strip() == "[]"


def test_a_new_stepper_resumes_a_stopped_run_after_the_limit_is_raised(make_run):
    run = make_run("never_ending", max_turns=2)
    first = Stepper(run, "メモを順に読んで")
    first.run_all()
    assert first.outcome.cause == "max_turns"
    run.valves[0].limit = 4
    second = Stepper(run)
    second.run_all()
    assert second.outcome.cause == "max_turns" and run.state.turns == 4
    assert second.turns_label.value == "4 / 4" and "メモを順に読んで" in repr(second)


def test_english_labels(make_run, monkeypatch):
    monkeypatch.setenv("HARNESS_LAB_LANG", "en")
    s = Stepper(make_run("high_impact"), PROMPT)
    s.step()
    assert (s.next_button.description, s.approve_button.description, s.deny_button.description) == (
        "Next turn",
        "Allow",
        "Deny",
    )
    assert "Waiting for approval" in s.status.value


def test_the_english_panel_names_its_parts_as_an_english_ui_does(make_run, monkeypatch):
    # Its tabs read "conversation / timeline / context", its gauges "turns / tokens", beside "Next turn":
    # an English UI capitalises each label's first word, as the Japanese panel's labels are proper ones.
    monkeypatch.setenv("HARNESS_LAB_LANG", "en")
    s = Stepper(make_run("high_impact"), PROMPT)
    assert list(s.tabs.titles) == ["Conversation", "Timeline", "Context"]
    labels = [
        *s.tabs.titles,
        *(row.children[0].value for row in s.gauge_rows.values()),
        *(label for label, _ in s.speed.options),
        s.speed.description,
        s.limit_input.description,
        s.steer_input.description,
        s.timeline.turns.description,
        *(b.description for b in (s.next_button, s.all_button, s.stop_button, s.resume_button)),
    ]
    assert [label for label in labels if not label[:1].isupper()] == []


def test_each_approval_line_comes_after_its_turn_header(make_run):
    run = make_run("delete_and_post")
    run.sandbox.mkdir(parents=True)
    (run.sandbox / "old.log").write_text("x")
    s = Stepper(run, "古いログを消して、集計を送って")
    s.step()
    assert repr(s).index("=== ターン 1 — 承認待ち ===") < repr(s).index("[△ 承認待ち: delete_file")
    while not s.done:
        s.approve() if s.pending else s.step()
    text = repr(s)
    for tool, number in (("delete_file", 1), ("http_post", 2)):
        header = text.index(f"=== ターン {number} — stop_reason")
        line = text.index(f"[承認弁: {tool}]")
        next_header = text.find(f"=== ターン {number + 1} —")
        assert header < line and (next_header == -1 or line < next_header), tool
    assert "— 承認待ち ===" not in text  # every turn ended, so every approval sits inside its turn


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


def test_run_to_end_is_paced_in_a_live_kernel_and_unpaced_as_a_method(make_run, monkeypatch):
    run = make_run("never_ending", max_turns=500)
    s = Stepper(run, "メモを順に読んで", speed="fast")
    seen = []

    async def watch():
        s.all_button.click()
        while run.state.turns < 4:
            # From the first turn on: the first one starts at once, the pause comes after each turn.
            if run.state.turns and (not seen or seen[-1][0] != run.state.turns):
                seen.append((run.state.turns, time.monotonic()))
            await asyncio.sleep(0.005)
        s.stop_button.click()
        while not s.done:
            await asyncio.sleep(0.01)

    asyncio.run(asyncio.wait_for(watch(), timeout=60))
    gaps = [b[1] - a[1] for a, b in itertools.pairwise(seen)]
    assert gaps and min(gaps) >= 0.9 * s.delay == 0.9 * 0.2
    # Unpaced: with "slow" made an hour a turn, a run_all that paused between turns would meet the net.
    monkeypatch.setitem(stepper.SPEEDS, "slow", 3600.0)
    quick = Stepper(make_run("never_ending", max_turns=6), "メモを順に読んで", speed="slow")
    with gives_up_after(60, "run_all's six turns"):
        quick.run_all()
    assert quick.outcome.cause == "max_turns"


def test_an_unknown_speed_is_refused_by_name(make_run):
    with pytest.raises(ValueError, match="turbo"):
        Stepper(make_run("never_ending"), "x", speed="turbo")


def test_the_token_number_keeps_its_name_without_a_budget(make_run):
    run = make_run("never_ending", max_turns=3)
    run.valves = [v for v in run.valves if v.name != "token_budget"]
    s = Stepper(run, "メモを順に読んで")
    s.step()
    name, bar, number = s.gauge_rows["tokens"].children
    assert bar.layout.visibility == "hidden" and name.layout.visibility != "hidden"
    assert name.value == t("ui.gauge.tokens") and number.value == f"{run.state.usage.total:,}"


def test_the_token_gauge_groups_thousands_as_the_context_card_does(make_run):
    run = make_run("never_ending", max_turns=3, budget=40_000)
    s = Stepper(run, "メモを順に読んで")
    s.step()
    s.step()
    used = run.state.usage.total
    assert used >= 1000  # the check means nothing below a thousand
    assert s.tokens_label.value == f"{used:,} / 40,000"


def test_the_budget_gauge_turns_red_when_the_budget_stopped_the_run_below_its_limit(make_run):
    from harness_lab.valves import TokenBudget

    run = make_run("budget_burning", max_turns=50)
    run.valves[1] = TokenBudget(6_000, preflight=True)  # stops before sending, below the limit
    s = Stepper(run, "ログを分析して")
    s.run_all()
    assert s.outcome.cause == "token_budget" and run.state.usage.total < 6_000
    assert s.tokens_bar.bar_style == "danger" and s.turns_bar.bar_style == ""


def test_steering_shows_in_the_turn_that_sent_it(make_run):
    run = make_run("never_ending", max_turns=3)
    s = Stepper(run, "メモを順に読んで")
    s.step()
    run.steer("第2章まででいいです")
    s.step()
    text = repr(s)
    turn2 = text.index("=== ターン 2 —")
    assert text.index("[操舵: 人の指示", turn2) > turn2 and "第2章まででいいです" in text[turn2:]
    assert "hl-steering" in s.transcript_html.value


def test_a_long_run_folds_older_turns(make_run):
    s = Stepper(make_run("never_ending", max_turns=12), "メモを順に読んで")
    s.run_all()
    shown = s.transcript_html.value
    assert (
        shown.count('<details class="hl-folded"') == 11 and shown.count('class="hl-card hl-turn"') == 12
    )  # all but the last fold
    assert "ターン 1 ・ read_file ・ エラー 0 件" in shown and "=== ターン 1 —" in repr(s)  # the text form stays whole


def test_answered_approval_cards_no_longer_say_waiting(make_run):
    s = Stepper(make_run("high_impact"), PROMPT)
    s.step()
    assert "△ 承認待ち" in repr(s)
    s.approve()
    assert "承認待ち" not in repr(s) and "[承認弁: write_file]" in repr(s) and "○ 許可しました" in repr(s)


def test_no_mark_depends_on_an_emoji_font():
    emoji = re.compile("[\u2600-\u27bf\u2b00-\u2bff\ufe0f\U0001f000-\U0001faff]")
    ui = Path(__file__).resolve().parents[2] / "harness_lab" / "ui"
    found = {p.name: emoji.findall(p.read_text(encoding="utf-8")) for p in ui.glob("*.py")}
    assert {name: marks for name, marks in found.items() if marks} == {}
    from harness_lab.text import CATALOG

    assert [k for k, pair in CATALOG.items() if k.startswith("ui.") and emoji.search("".join(pair))] == []


def test_the_panel_carries_its_stale_notice_and_its_record_says_it_is_one(make_run):
    s = Stepper(make_run("never_ending", max_turns=1), "メモを順に読んで")
    (style,) = [w.value for w in s.widget.children if "hl-stale" in getattr(w, "value", "")]
    assert "jupyter-widgets-disconnected" in style and t("ui.stale.widget") in style
    assert 'class="hl-stale" style="display:none' in style  # hidden while the kernel is there
    assert t("ui.stale.static") in s._repr_mimebundle_()["text/html"]
    assert t("ui.stale.static") not in repr(s)
    assert list(s.tabs.titles) == [t("ui.tab.conversation"), t("ui.tab.timeline"), t("ui.tab.context")]


def test_every_button_says_what_to_do_when_a_new_kernel_left_it_dead(make_run):
    # A kernel started anew in the same tab leaves the panels looking live; no style sheet can tell,
    # so each button's tooltip says it (docs/frontends.md).
    s = Stepper(make_run("high_impact", max_turns=4), "レポートを書いて送って")
    s.step()
    buttons = [w for w in _walk(s.widget) if isinstance(w, widgets.Button)]
    assert len(buttons) >= 7 and {b.tooltip for b in buttons} == {t("ui.stale.tooltip")}, [
        b.description for b in buttons
    ]


def _walk(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _walk(child)


# --- issue 31: the small items --------------------------------------------------------------------


def test_stop_is_disabled_at_rest_and_stops_nothing_there(make_run):
    s = Stepper(make_run("never_ending"), "メモを順に読んで")
    assert s.stop_button.disabled  # a panel that never ran has nothing to stop
    assert s.stop() is None and s.outcome is None and s.status_text() == t("ui.status.ready")
    s.step()
    assert not s.stop_button.disabled
    click(s.stop_button)
    assert s.outcome.cause == "interrupted"


def _hand_written(client, user_input, tools, tool_impls, approve=None):
    """A learner's lesson-6 loop in brief: it writes its valves inline and keeps no RunState."""
    from harness_lab import lessons

    messages, turns = [{"role": "user", "content": user_input}], 0
    while True:
        response = client.messages.create(model="claude-sonnet-5", max_tokens=1024, messages=messages, tools=tools)
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            return lessons.finished(response, turns)
        turns += 1
        if turns >= 3:
            return lessons.stopped("max_turns", "上限です", turns)
        results = [
            {"type": "tool_result", "tool_use_id": b.id, "content": str(tool_impls[b.name](**b.input))}
            for b in response.content
            if b.type == "tool_use"
        ]
        messages.append({"role": "user", "content": results})
        yield lessons.turn(turns, response, results)


def test_a_hand_written_loop_draws_lesson_6s_valves_and_no_signature_gauge():
    from harness_lab import lessons
    from harness_lab.emulator import emulated_client

    tools = [{"name": "read_file", "description": "Read a file.", "input_schema": {"type": "object"}}]
    loop = lessons.HandWritten(_hand_written, emulated_client("never_ending"), tools, {"read_file": lambda path: "x"})
    s = Stepper(loop, "メモを順に読んで")
    s.run_all()
    assert s.outcome.cause == "max_turns"
    for valve in ("max_turns", "token_budget", "no_progress", "approval"):  # written inline, drawn all the same
        assert f"hl-valve-{valve}" in s.diagram_html.value
    assert "hl-valve-max_turns hl-fired" in s.diagram_html.value
    assert "signature" not in s.gauge_rows and t("ui.gauge.signature") not in repr(s)


def test_stop_ends_a_hand_written_loop_that_does_not_catch_the_interrupt():
    from harness_lab import lessons
    from harness_lab.emulator import emulated_client

    tools = [{"name": "read_file", "description": "Read a file.", "input_schema": {"type": "object"}}]
    loop = lessons.HandWritten(_hand_written, emulated_client("never_ending"), tools, {"read_file": lambda path: "x"})
    s = Stepper(loop, "メモを順に読んで")
    s.step()
    s.stop_button.click()  # the learner's generator lets KeyboardInterrupt through; the panel must not
    assert s.outcome.cause == "interrupted" and s.error is None and s.next_button.disabled
    assert s.outcome.turns == 1 and s.outcome.reason == t("ui.stop.interrupted_hand_written")
    assert s.outcome.usage.total == s.gauges()["tokens"] == s.last_turn.usage.total > 0  # not "0 tokens in all"
    assert s.resume_button.layout.display == "none" and not s.resume()  # its generator is gone: no resume

    hand = lessons.HandWritten(_hand_written, emulated_client("never_ending"), tools, {"read_file": lambda path: "x"})
    paced = Stepper(hand, "x", speed="slow")

    async def run_then_stop():  # the browser's case: 「最後まで」, then 「停止」 while it waits between turns
        paced.all_button.click()
        while not paced.entries and not paced.done:
            await asyncio.sleep(0.01)
        paced.stop_button.click()
        while not paced.done:
            await asyncio.sleep(0.01)

    asyncio.run(asyncio.wait_for(run_then_stop(), timeout=60))
    assert paced.outcome.cause == "interrupted" and paced.error is None


def test_a_hand_written_stop_that_counted_no_tokens_shows_what_its_turns_used():
    from harness_lab import lessons
    from harness_lab.emulator import emulated_client

    tools = [{"name": "read_file", "description": "Read a file.", "input_schema": {"type": "object"}}]
    loop = lessons.HandWritten(_hand_written, emulated_client("never_ending"), tools, {"read_file": lambda path: "x"})
    s = Stepper(loop, "メモを順に読んで")
    s.run_all()  # the loop's own stopped(...) says nothing of tokens
    turns = [e for e in s.entries if isinstance(e, Turn)]
    assert s.outcome.cause == "max_turns" and len(turns) == 2
    assert s.outcome.usage == sum((e.usage for e in turns), Usage()) and s.outcome.usage.total > 0


def test_a_bare_loop_between_turns_draws_the_place_it_names(make_run):
    run = make_run("never_ending")
    run.valves = []
    s = Stepper(run, "メモを順に読んで")
    assert "hl-no-valve" not in s.diagram_html.value
    s.step()
    drawn = s.diagram_html.value
    assert "hl-no-valve" in drawn and t("ui.diagram.no_valve") in drawn  # loop_top has a box, saying it is empty
    assert "loop_top" in drawn


def test_a_folded_turn_reads_right_in_english_with_one_error(make_run):
    import dataclasses

    from harness_lab.text import speaking
    from harness_lab.ui.transcript import turn_summary

    s = Stepper(make_run("never_ending"), "メモを順に読んで")
    s.step()
    turn = s.last_turn
    failed = dataclasses.replace(turn, results=({**turn.results[0], "is_error": True},))
    with speaking("en"):
        line = turn_summary(failed)
    assert "errors: 1 ·" in line and "1 errors" not in line
    assert line.endswith(f"{turn.usage.total:,} tokens")


def test_a_turns_valve_readings_name_the_valves_in_the_readers_words(make_run):
    from harness_lab.text import speaking

    s = Stepper(make_run("never_ending"), "メモを順に読んで")
    s.step()
    for language, words in (("ja", ("最大ターン数 1/8", "トークン予算 ")), ("en", ("Max turns 1/8", "Token budget "))):
        with speaking(language):
            text = s.transcript().text
        line = next(line for line in text.splitlines() if t("ui.card.readings") in line or "gauges" in line)
        assert all(word in line for word in words) and "max_turns" not in line, (language, line)
