"""Time travel in the Stepper: the timeline of turns, forks from turn k (an edited tool_result, a
flipped approval, a changed limit) and the side-by-side comparison, driven headless over the emulator."""

import re

import pytest

from harness_lab.emulator import call, emulated_client, last_results, reply, say
from harness_lab.events import Finished, Stopped
from harness_lab.loop import Run
from harness_lab.text import t
from harness_lab.tools import tool
from harness_lab.ui import Stepper
from harness_lab.ui.timeline import turn_card, turns_of
from harness_lab.valves import MaxTurns

PROMPT = "週次レポートを sandbox/report.md に保存して"


class Polling:
    """A job that is never done, a tool that counts how often it really ran, and a model that polls it."""

    def __init__(self):
        self.ran = 0

        @tool
        def status(job: str) -> str:
            """Report a job's status."""
            self.ran += 1
            return "running"

        self.tool = status

    @staticmethod
    def model(request):
        results = last_results(request)
        if results and "done" in results[-1].text:
            return say("ジョブ job-42 は終わりました。")
        return call("status", job="job-42")

    def stepper(self, max_turns=3):
        run = Run(emulated_client(self.model), tools=[self.tool], valves=[MaxTurns(max_turns)])
        s = Stepper(run, "job-42 の様子を見て")
        s.run_all()
        return s


def test_the_timeline_lists_each_turn_and_shows_the_history_then_and_what_it_added():
    s = Polling().stepper()
    views = turns_of(s.run)
    assert [v.k for v in views] == [1, 2, 3] and [v.request_number for v in views] == [1, 2, 3]
    assert s.timeline.turns.options == (("1", 1), ("2", 2), ("3", 3))
    card = s.select(2)
    messages = s.run.messages
    assert views[1].start == 3 and views[1].end == 5  # turn 2 added its assistant message and its results
    for i in range(3):  # the history as it stood when turn 2's response arrived
        assert f"  [{i}] {messages[i]['role']}" in card.text
    assert (
        "+ [3] assistant: [thinking] / tool_use status" in card.text and "+ [4] user: tool_result: running" in card.text
    )
    assert "+ [2]" not in card.text and "[5]" not in card.text
    assert s.timeline.view.value == card.html and s.timeline.selected == 2
    assert list(s.timeline.result_inputs) == [views[1].calls[0]["id"]]
    assert (
        s.timeline.fork_button.description == t("ui.timeline.fork_button", k=2) and not s.timeline.fork_button.disabled
    )
    # How much the next request grew, from the context gauge's own numbers.
    rows = {row.request_number: row.total for row in _rows(s)}
    assert t("ui.timeline.growth", k=2, next=3, now=rows[2], after=rows[3], diff=rows[3] - rows[2]) in card.text


def _rows(s):
    from harness_lab.ui.context import context_rows

    return context_rows(s.run)


def test_a_fork_with_an_edited_result_ends_differently_and_runs_no_call_again():
    polling = Polling()
    s = polling.stepper()
    assert s.outcome.cause == "max_turns" and polling.ran == 3
    fork = s.fork(at=2, result="done: 42 件を処理")
    fork.run_all()
    assert isinstance(fork.outcome, Finished) and fork.outcome.text == "ジョブ job-42 は終わりました。"
    assert polling.ran == 3  # turn 1 and turn 2 came from the record: nothing ran again
    assert isinstance(s.outcome, Stopped) and "running" in s.run.messages[4]["content"][0]["content"]
    compared = s.compare()
    assert (
        "× 最大ターン数 3 に達したので" in compared.text
        and "◎ 完了 (end_turn): ジョブ job-42 は終わりました。" in compared.text
    )
    assert t("ui.compare.fork", k=2, n=1) in compared.text
    assert s.timeline.comparison.value == compared.html and s.timeline.forks_box.children == (fork.widget,)
    assert t("ui.fork.note", k=2) in repr(fork)


def test_a_fork_is_deterministic():
    def once():
        s = Polling().stepper()
        fork = s.fork(at=1, result="done")
        fork.run_all()
        return repr(fork), s.compare().text

    assert once() == once()


@pytest.mark.parametrize("lines, rows", [(1, 2), (5, 5), (40, 12)])
def test_the_result_box_is_as_tall_as_the_result_up_to_a_screen(lines, rows):
    polling = Polling()
    report = "\n".join(f"{i}行目" for i in range(1, lines + 1))

    @tool
    def status(job: str) -> str:
        """Report a job's status."""
        return report

    polling.tool = status
    s = polling.stepper()
    s.select(2)
    (box,) = s.timeline.result_inputs.values()
    assert box.value == report and box.rows == rows


def test_the_form_forks_with_an_edited_result():
    polling = Polling()
    s = polling.stepper()
    s.select(2)
    (box,) = s.timeline.result_inputs.values()
    assert box.value == "running"
    box.value = "done: 42 件"
    s.timeline.fork_button.click()  # headless: the fork runs to its end at once
    (fork,) = s.forks
    assert isinstance(fork.outcome, Finished) and fork.fork_at == 2 and polling.ran == 3
    assert "◎ 完了" in s.timeline.comparison.value and "× 最大ターン数 3 に達したので" in s.timeline.comparison.value


def test_after_a_fork_the_form_starts_again_from_the_turns_record():
    s = Polling().stepper()
    s.select(2)
    (box,) = s.timeline.result_inputs.values()
    box.value = "done: 42 件"
    s.timeline.limit_inputs["max_turns"].value = "5"
    s.timeline.fork_button.click()
    # Turn 2 stays picked: clicking it again sends nothing, so the form must show the record already.
    assert s.timeline.turns.value == 2
    (box,) = s.timeline.result_inputs.values()
    assert box.value == "running" and s.timeline.limit_inputs["max_turns"].value == "3"
    s.timeline.fork_button.click()  # nothing edited: the second fork is the original again
    first, second = s.forks
    assert isinstance(first.outcome, Finished)
    assert second.outcome.cause == "max_turns" and second.run.state.turns == 3


def denied_save(make_run):
    """A run whose one write_file a person denied, run to its end: (the run, its Stepper)."""
    run = make_run("high_impact")
    s = Stepper(run, PROMPT)
    s.step()
    s.deny("まだ保存しないで")
    s.run_all()
    return run, s


def test_the_form_flips_a_denial_and_the_call_that_never_ran_runs(make_run):
    run, s = denied_save(make_run)
    assert "ファイルへの書き込みは行わず" in s.outcome.text and not (run.sandbox / "report.md").exists()
    s.select(1)
    (toggle,) = s.timeline.decision_inputs.values()
    assert toggle.value is False
    toggle.value = True
    s.timeline.fork_button.click()
    (fork,) = s.forks
    assert fork.outcome.text == "sandbox/report.md にレポートを保存しました。"
    assert (run.sandbox / "report.md").read_text(encoding="utf-8").startswith("# 週次レポート")


def test_after_a_fork_the_form_says_it_shows_the_original_run_not_the_forks_answer(make_run):
    """The fork allowed the save and the comparison said so, while the form, back on the record, showed
    拒否 again under the same heading: the change read as lost. Its heading now names the fork just made
    and says the form is the original run's turn."""
    _, s = denied_save(make_run)
    s.select(1)
    plain = s.timeline.form.children[0].value
    (toggle,) = s.timeline.decision_inputs.values()
    toggle.value = True
    s.timeline.fork_button.click()
    (fork,) = s.forks
    assert fork.outcome.text in s.timeline.comparison.value  # the fork's answer: saved
    (toggle,) = s.timeline.decision_inputs.values()
    assert toggle.value is False  # the form: the original's answer
    head = s.timeline.form.children[0].value
    assert head != plain and t("ui.compare.fork", k=1, n=1) in head, head
    assert t("ui.timeline.form_again", k=1, fork=t("ui.compare.fork", k=1, n=1)) in head
    s.select(1)  # shown again: the plain heading, no fork just made
    assert s.timeline.form.children[0].value == plain


def test_flip_turns_an_allowed_call_into_a_denied_one_without_running_anything_again(make_run):
    run = make_run("high_impact")
    s = Stepper(run, PROMPT)
    s.step()
    s.approve()
    s.run_all()
    (run.sandbox / "report.md").unlink()
    denied = s.fork(at=1, flip=True)
    denied.run_all()
    assert "ファイルへの書き込みは行わず" in denied.outcome.text and not (run.sandbox / "report.md").exists()
    assert t("ui.timeline.flipped_deny") in repr(denied)


def test_a_changed_limit_applies_to_the_fork_alone():
    s = Polling().stepper(max_turns=2)
    s.select(1)
    s.timeline.limit_inputs["max_turns"].value = "4"
    s.timeline.fork_button.click()
    (fork,) = s.forks
    assert fork.outcome.cause == "max_turns" and fork.run.state.turns == 4
    assert s.run.valves[0].limit == 2 and s.run.state.turns == 2
    assert s.fork(at=1, limits={"max_turns": 3}).run.valves[0].limit == 3


def test_bad_fork_requests_say_what_is_wrong(make_run):
    s = Polling().stepper()
    with pytest.raises(ValueError, match="4"):
        s.select(4)
    with pytest.raises(ValueError, match=f"^{re.escape(t('ui.timeline.no_answer', k=1))}$"):
        s.fork(at=1, flip=True)
    with pytest.raises(ValueError, match="no_progress"):
        s.fork(at=1, limits={"no_progress": 3})
    with pytest.raises(ValueError, match="MaxTurns"):
        s.fork(at=1, limits={"max_turns": -1})  # the valve checks its own limit
    assert s.forks == []  # nothing half-made


def test_result_needs_a_turn_with_one_call():
    def model(request):
        if last_results(request):
            return say("おわり")
        return reply("2つ見ます", call("status", job="a"), call("status", job="b"))

    polling = Polling()
    s = Stepper(Run(emulated_client(model), tools=[polling.tool], valves=[MaxTurns(3)]), "見て")
    s.run_all()
    ids = [c["id"] for c in turns_of(s.run)[0].calls]
    with pytest.raises(ValueError, match=ids[0]) as ambiguous:
        s.fork(at=1, result="done")
    assert all(i in str(ambiguous.value) for i in ids)
    fork = s.fork(at=1, results={ids[1]: "done"})
    fork.run_all()
    assert fork.outcome.text == "おわり"


def test_turn_card_is_plain_html_and_text_for_a_notebook():
    s = Polling().stepper()
    card = turn_card(s.run, 1)
    assert card.html.startswith('<div class="hl-timeline-turn"') and "hl-diff" in card.html
    assert card.text.splitlines()[0] == t("ui.timeline.turn_head", k=1, number=1, messages=1)


def test_a_fork_that_waits_for_an_approval_opens_its_folded_panel(make_run):
    run = make_run("delete_and_post")
    run.sandbox.mkdir(parents=True)
    (run.sandbox / "old.log").write_text("x")
    s = Stepper(run, "古いログを消して、集計を送って")
    s.run_all()
    s.deny("消さないで")  # 最後まで goes on after the answer: next stop is the second ask
    s.deny("送らないで")
    assert isinstance(s.outcome, Finished) and s.timeline.forks_box.selected_index is None
    s.select(1)
    (toggle,) = s.timeline.decision_inputs.values()
    toggle.value = True  # what if the delete had been allowed?
    s.timeline.fork_button.click()
    (fork,) = s.forks
    assert fork.pending is not None and fork.pending.name == "http_post"  # a new response: asked anew
    assert s.timeline.forks_box.selected_index == 0  # opened, so its 許可 / 拒否 are in sight
    assert not (run.sandbox / "old.log").exists()  # the flipped call ran, in the fork
    fork.deny("送らないで")
    assert "古いログは削除しました" in fork.outcome.text and "集計結果は送信せず" in fork.outcome.text


# --- issue 31.4: an answer and an edited result never both decide one call -------------------------


def test_changing_an_answer_in_the_form_takes_the_result_box_out_of_play(make_run):
    run, s = denied_save(make_run)
    assert s.timeline.fork_button.disabled and s.timeline.fork_button.button_style == ""  # no turn picked yet
    s.select(1)
    assert s.timeline.fork_button.button_style == "info"
    ((tool_use_id, box),) = s.timeline.result_inputs.items()
    recorded = box.value
    assert "まだ保存しないで" in recorded and not box.disabled
    toggle = s.timeline.decision_inputs[tool_use_id]
    toggle.value = True  # 許可: the call will run in the fork, so its box says so and takes no edit
    assert box.disabled and box.value == t("ui.timeline.result_runs")
    toggle.value = False  # back to the original answer: the recorded result, editable again
    assert not box.disabled and box.value == recorded
    toggle.value = True
    box.value = "レポートを保存しました（書き換え）"  # typed anyway (a front end that ignores disabled)
    assert s.timeline.edits()["results"] == {}
    s.timeline.fork_button.click()
    (fork,) = s.forks
    assert fork.outcome.text == "sandbox/report.md にレポートを保存しました。"
    assert (run.sandbox / "report.md").read_text(encoding="utf-8").startswith("# 週次レポート")  # it really ran


def test_a_reworded_denial_in_the_form_is_still_a_denial(make_run):
    run, s = denied_save(make_run)
    s.select(1)
    ((tool_use_id, box),) = s.timeline.result_inputs.items()
    box.value = "今はだめです: 上長の承認が先です"  # the answer stays 拒否
    s.timeline.fork_button.click()
    (fork,) = s.forks
    (result,) = [r for r in fork.run.state.laps[0].results if r["tool_use_id"] == tool_use_id]
    assert result["is_error"] and result["content"] == "今はだめです: 上長の承認が先です"
    assert not (run.sandbox / "report.md").exists()  # nothing was saved, and the model was not told it was


def test_flipping_to_deny_says_the_model_gets_the_denial(make_run):
    s = Stepper(make_run("high_impact"), PROMPT)
    s.step()
    s.approve()
    s.run_all()
    s.select(1)
    ((tool_use_id, box),) = s.timeline.result_inputs.items()
    s.timeline.decision_inputs[tool_use_id].value = False
    assert box.disabled and box.value == t("ui.timeline.result_denied")


def test_an_edited_result_and_a_new_answer_for_one_call_is_refused_by_name(make_run):
    s = Stepper(make_run("high_impact"), PROMPT)
    s.step()
    s.deny("まだ")
    s.run_all()
    (call,) = turns_of(s.run)[0].calls
    both = f"^{re.escape(t('ui.timeline.result_and_answer', ids=call['id']))}$"
    with pytest.raises(ValueError, match=both):
        s.fork(at=1, result="保存しました", flip=True)
    with pytest.raises(ValueError, match=both):
        s.fork(at=1, results={call["id"]: "x"}, decisions={call["id"]: True})
    assert s.forks == []


def test_the_comparison_reads_left_to_right_and_breaks_a_token_count_only_between_its_parts():
    # In a notebook cell JupyterLab's table style right-aligns cells, and a narrow column broke the
    # token line inside a word ("トーク" / "ン", "キ" / "ャッシュ読み込み"), seen at 1400 px in lesson 3.
    import xml.etree.ElementTree as ET

    s = Polling().stepper(max_turns=2)
    s.fork(2, result="done: 42 件を処理").run_all()
    table = ET.fromstring(s.compare().html)
    cells = [e for e in table.iter() if e.tag in ("th", "td")]
    assert cells and all("text-align:left" in e.get("style", "") for e in cells)
    tokens = next(row for row in table.iter("tr") if "".join(row.find("th").itertext()) == t("ui.compare.tokens"))
    for value in tokens.findall("td"):
        whole = [
            "".join(e.itertext()) for e in value.iter() if "white-space:nowrap" in e.get("style", "").replace(" ", "")
        ]
        for part in ("キャッシュ書き込み 0 ・", "キャッシュ読み込み 0"):
            assert any(part in piece for piece in whole), (part, whole)
        assert any(part.startswith("（合計 ") and part.endswith(" トークン）") for part in whole), whole
        assert "".join(value.itertext()).count(" ・ ") == 3  # the parts still read as one line
