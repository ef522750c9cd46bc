"""What the Stepper's panel shows: pacing, its gauges and their numbers, steering in its turn, folded turns,
answered cards, marks without emoji, the stale notice and dead buttons, readings in the reader's words.
"""

import asyncio
import itertools
import re
import time
from pathlib import Path

import ipywidgets as widgets
import pytest

from harness_lab.text import t
from harness_lab.ui import Stepper, stepper
from tests.safety_net import gives_up_after
from tests.ui.conftest import PROMPT, click


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


def test_a_full_turn_gauge_is_red_only_while_the_run_could_go_on(make_run):
    from harness_lab.events import Finished

    s = Stepper(make_run("lesson6", max_turns=2), "README.md の1行目を読んで、それから今何時か教えて")
    s.step()
    s.step()  # two turns of two: the next would be stopped
    assert s.turns_bar.value == s.turns_bar.max == 2 and s.turns_bar.bar_style == "danger"
    s.run_all()  # the model answers on the third request: the run ended by itself, within its limit
    assert isinstance(s.outcome, Finished) and s.turns_bar.value == 2 and s.turns_bar.bar_style == ""


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
