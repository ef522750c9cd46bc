"""The Stepper driven headless: buttons clicked with Button.click(), over the real loop and emulator."""

import asyncio
import subprocess
import sys
from pathlib import Path

from harness_lab.events import ApprovalRequest, Finished, Stopped, Turn
from harness_lab.text import t
from harness_lab.ui import Stepper
from tests.ui.conftest import PROMPT


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
