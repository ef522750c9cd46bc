"""The valves inside the loop: MaxTurns, NoProgress and TokenBudget stop it where they are checked, and a run
resumes past them.
"""

from __future__ import annotations

import pytest

from harness_lab.drain import drain, run
from harness_lab.emulator import call, say
from harness_lab.events import ApprovalRequest, Finished, Stopped, Turn
from harness_lab.loop import Run
from harness_lab.text import t
from harness_lab.valves import Approval, MaxTurns, NoProgress, TokenBudget
from tests.harness.conftest import PROMPT, definitions, setup


@pytest.mark.parametrize("limit", [1, 2, 5])
def test_max_turns_allows_n_tool_rounds_and_n_plus_1_model_calls(limit, check_history):
    emu, client, spy = setup("never_ending")
    outcome = run(client, "go", tools=spy.tools, valves=[MaxTurns(limit)])
    assert isinstance(outcome.stop, Stopped) and outcome.stop.cause == "max_turns"
    assert len(spy.calls) == limit  # tool rounds
    assert len(emu.requests) == limit + 1  # model calls
    assert outcome.turns == limit
    check_history(outcome.messages, definitions(spy))


def test_max_turns_resume_after_raising_the_limit(check_history):
    emu, client, spy = setup("long_task")
    harness = Run(client, spy.tools, [MaxTurns(3)])
    end = drain(harness.start("read every chapter"))
    assert isinstance(end, Stopped) and len(spy.calls) == 3 and len(emu.requests) == 4
    check_history(harness.messages, definitions(spy))
    harness.valves[0].limit = 20
    end = drain(harness.resume())
    assert isinstance(end, Finished) and "12" in end.text
    assert [c[1]["path"] for c in spy.calls] == [f"chapters/{i:02d}.md" for i in range(1, 13)]
    assert len(emu.requests) == 13  # the held-back response was used, not asked again
    check_history(harness.messages, definitions(spy))


def test_no_progress_fires_on_a_repeat_before_the_repeat_runs(check_history):
    emu, client, spy = setup("spinning")
    outcome = run(client, "go", tools=spy.tools, valves=[MaxTurns(8), NoProgress()])
    assert outcome.stop.cause == "no_progress" and len(spy.calls) == 1 and len(emu.requests) == 2
    assert 'read_file({"path":"notes.txt"})' in outcome.stop.reason
    check_history(outcome.messages, definitions(spy))


def test_no_progress_then_steering_sets_the_repeat_aside_and_goes_on(check_history):
    script = [call("read_file", path="a.md"), call("read_file", path="a.md"), say("別の方法で終えました")]
    emu, client, spy = setup(script)
    harness = Run(client, spy.tools, [MaxTurns(8), NoProgress()])
    end = drain(harness.start("a.md を読んで"))
    assert isinstance(end, Stopped) and end.cause == "no_progress" and len(emu.requests) == 2
    assert isinstance(drain(harness.resume()), Stopped) and len(emu.requests) == 2  # no new instruction: same stop
    harness.steer("別のファイルを探して")
    gen = harness.resume()
    aside = next(gen)  # the repeat answered unrun is a turn of its own, so a panel or a trace shows what went out
    assert isinstance(aside, Turn) and aside.results[0]["content"] == t("result.skipped_steered")
    assert len(emu.requests) == 2 and harness.state.laps[-1].steering == ("別のファイルを探して",)
    end = drain(gen)
    assert isinstance(end, Finished) and end.text == "別の方法で終えました"
    assert spy.names() == ["read_file"]  # the repeat never ran
    sent = emu.requests[2]["messages"][-1]["content"]
    assert sent[0]["is_error"] and sent[0]["content"] == t("result.skipped_steered")
    assert sent[-1] == {"type": "text", "text": "別のファイルを探して"}
    check_history(harness.messages, definitions(spy))


def test_steering_after_a_later_interrupt_does_not_set_a_call_aside():
    script = [call("write_file", path="sandbox/a", content="x")] * 2 + [say("ok")]
    _emu, client, spy = setup(script)
    harness = Run(client, spy.tools, [NoProgress(), Approval(approver=lambda request: True)])
    assert drain(harness.start("書いて")).cause == "no_progress"
    gen = harness.resume(valves=[Approval()])  # without NoProgress: the held-back repeat is asked about
    asked = next(gen)
    assert isinstance(asked, ApprovalRequest)
    assert gen.throw(KeyboardInterrupt()).cause == "interrupted"
    harness.steer("続けて")
    again = next(harness.resume())
    assert isinstance(again, ApprovalRequest) and again.tool_use_id == asked.tool_use_id


def test_no_progress_does_not_fire_on_a_then_b():
    _emu, client, spy = setup("lesson6")
    assert isinstance(run(client, PROMPT, tools=spy.tools, valves=[NoProgress()]).stop, Finished)


def test_no_progress_window_catches_abab():
    _, client, spy = setup("abab")
    assert run(client, "go", tools=spy.tools, valves=[MaxTurns(6), NoProgress()]).stop.cause == "max_turns"
    _, client, spy = setup("abab")
    outcome = run(client, "go", tools=spy.tools, valves=[MaxTurns(6), NoProgress(window=3)])
    assert outcome.stop.cause == "no_progress" and len(spy.calls) == 2


def test_token_budget_stops_and_history_stays_valid(check_history):
    _emu, client, spy = setup("budget_burning")
    outcome = run(client, "analyse", tools=spy.tools, valves=[MaxTurns(50), TokenBudget(3_000)])
    assert outcome.stop.cause == "token_budget"
    assert outcome.usage.total >= 3_000
    check_history(outcome.messages, definitions(spy))


def test_token_budget_preflight_refuses_before_sending(check_history):
    # Measure a run first, then set the limit just above what two requests cost: the post-check lets a
    # request go out that crosses the line; the preflight counts its prompt and the most its reply may
    # cost (max_tokens), and refuses to send it.
    _, client, spy = setup("budget_burning")
    totals = []
    run(
        client,
        "analyse",
        tools=spy.tools,
        valves=[MaxTurns(4)],
        on_event=lambda e: totals.append(getattr(e, "total", None)),
    )
    limit = totals[1].total + 1
    emu, client, spy = setup("budget_burning")
    late = run(client, "analyse", tools=spy.tools, valves=[MaxTurns(50), TokenBudget(limit)])
    assert late.usage.total >= limit and len(spy.calls) == 2
    sent_late = len([r for r in emu.requests if "max_tokens" in r])
    emu, client, spy = setup("budget_burning")
    early = run(client, "analyse", tools=spy.tools, valves=[MaxTurns(50), TokenBudget(limit, preflight=True)])
    assert early.stop.cause == "token_budget" and early.usage.total < limit
    assert len([r for r in emu.requests if "max_tokens" in r]) < sent_late  # the crossing one was never sent
    assert str(limit) in early.stop.reason and "1024" in early.stop.reason and early.stop.reason != late.stop.reason
    check_history(early.messages, definitions(spy))


@pytest.mark.parametrize("limit", [1_500, 4_000, 9_000, 20_000, 33_333])
def test_a_preflight_budget_never_ends_over_its_limit(limit):
    # Estimating only the prompt let the reply's output carry the run past the line (notebook 03 ended
    # at 20,175 of 20,000); counting max_tokens as well makes "stays inside" hold for any limit.
    _, client, spy = setup("budget_burning")
    outcome = run(client, "analyse", tools=spy.tools, valves=[MaxTurns(50), TokenBudget(limit, preflight=True)])
    assert outcome.stop.cause == "token_budget" and outcome.usage.total <= limit


@pytest.mark.parametrize("ttl", ["5m", "1h"])
def test_the_usd_budget_prices_an_hour_long_cache_write_at_twice_the_input_price(ttl):
    # Sonnet 5 per million tokens: input $2, output $10, cache reads $0.20, writes $2.50 for 5 minutes and
    # $4 for an hour (docs/api_facts.md); the usage tells the two writes apart in ``cache_creation``.
    emu, client, spy = setup([call("get_time"), say("ok")])
    served: list[dict] = []
    emu.answered = served.append  # the emulator's public hook: every message it sent, as the API bills it
    harness = Run(client, spy.tools, model="claude-sonnet-5")
    prompt = [{"type": "text", "text": "長い資料です。" * 1200, "cache_control": {"type": "ephemeral", "ttl": ttl}}]
    drain(harness.start(prompt))
    billed = [message["usage"] for message in served]
    assert len(billed) == harness.state.model_calls == 2
    assert sum(u["cache_creation"][f"ephemeral_{ttl}_input_tokens"] for u in billed) > 0  # the prompt was written
    dollars = sum(
        u["input_tokens"] * 2.0
        + u["output_tokens"] * 10.0
        + u["cache_read_input_tokens"] * 0.20
        + u["cache_creation"]["ephemeral_5m_input_tokens"] * 2.50
        + u["cache_creation"]["ephemeral_1h_input_tokens"] * 4.0
        for u in billed
    )
    assert TokenBudget(10**9).spent_usd(harness.state) == pytest.approx(dollars / 1_000_000)
