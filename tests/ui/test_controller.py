"""The Stepper's engine alone: a Controller steps, answers, stops, resumes and forks any loop generator
without drawing a single widget (scripts, tests and other front ends can drive a run the same way)."""

from ipywidgets.widgets import widget as ipywidget

from harness_lab.events import Finished, Stopped
from harness_lab.text import t
from harness_lab.ui import Controller, Stepper

PROMPT = "週次レポートを sandbox/report.md に保存して"


def test_a_controller_drives_a_run_to_its_end_and_draws_no_widget(make_run):
    before = len(ipywidget._instances)
    run = make_run("high_impact")
    c = Controller(run, PROMPT)
    c.step()
    assert c.pending.name == "write_file" and c.status_text() == t("ui.status.waiting")
    c.deny("まだ保存しないで")
    c.run_all()
    assert isinstance(c.outcome, Finished) and not (run.sandbox / "report.md").exists()
    assert "拒否しました: まだ保存しないで" in repr(c) and c.gauges()["turns"] == run.state.turns
    fork = c.fork(at=1, flip=True)
    assert type(fork) is Controller and fork.fork_at == 1 and c.forks == [fork]
    fork.run_all()
    assert fork.outcome.text == "sandbox/report.md にレポートを保存しました。"
    assert "◎ 完了" in c.compare().text and t("ui.compare.fork", k=1, n=1) in c.compare().text
    assert len(ipywidget._instances) == before  # nothing drawn


def test_a_controller_stops_and_resumes_with_a_raised_limit(make_run):
    run = make_run("never_ending", max_turns=2)
    c = Controller(run, "メモを順に読んで")
    assert c.stop() is None  # nothing ran yet: nothing to stop
    c.run_all()
    assert isinstance(c.outcome, Stopped) and c.stopped_by_limit() is run.valves[0]
    assert not c.resume(limit=2) and t("ui.notice.limit_too_low", limit=2, reading="2/2") == c.notice
    assert c.resume(limit=4)
    c.run_all()
    assert c.outcome.cause == "max_turns" and run.state.turns == 4


def test_the_stepper_is_a_controller_with_widgets(make_run):
    s = Stepper(make_run("never_ending", max_turns=2), "メモを順に読んで")
    assert isinstance(s, Controller)
    s.run_all()
    assert type(s.fork(at=1)) is Stepper  # a fork of a panel is a panel, shown in its timeline


def test_run_all_on_a_run_already_over_returns_its_end_again(make_run):
    # lesson 02's cell `s.resume(limit=5)` then `end = s.run_all()`, run a second time: the limit is
    # refused (it would stop at once) and the run is still over; `end.cause` must read that stop.
    c = Controller(make_run("never_ending", max_turns=2), "notes を全部読んで")
    first = c.run_all()
    assert isinstance(first, Stopped) and first.cause == "max_turns"
    assert c.run_all() is first and c.step() is first
