"""Each valve as a pure check of RunState (lessons 3-6)."""

from __future__ import annotations

import pytest

from harness_lab.events import ApprovalRequest, Usage, allow
from harness_lab.state import RunState
from harness_lab.valves import Approval, MaxTurns, NoProgress, Policy, Rule, TokenBudget, cost_usd, signature_of


def response(*calls: tuple[str, dict]) -> dict:
    return {
        "content": [{"type": "tool_use", "id": f"toolu_{i}", "name": n, "input": a} for i, (n, a) in enumerate(calls)]
    }


def test_max_turns_fires_once_the_limit_of_rounds_is_done():
    valve = MaxTurns(3)
    assert valve.step == "loop_top"
    assert [valve.check(RunState(turns=n)) is None for n in range(5)] == [True, True, True, False, False]
    assert "3" in valve.check(RunState(turns=3))
    assert valve.reading(RunState(turns=2)) == "2/3"


def test_token_budget_counts_all_four_kinds_of_tokens():
    valve = TokenBudget(1000)
    state = RunState(usage=Usage(400, 100, 300, 199))  # 999
    assert valve.check(state) is None
    state.usage = Usage(400, 100, 300, 200)
    assert "1000" in valve.check(state)


def test_token_budget_usd_limit_uses_the_price_table():
    u = Usage(input_tokens=1_000_000, output_tokens=0)
    assert cost_usd(u, "claude-haiku-4-5") == pytest.approx(1.0)
    assert cost_usd(Usage(0, 1_000_000), "claude-opus-4-8") == pytest.approx(25.0)
    assert cost_usd(Usage(0, 0, 1_000_000, 1_000_000), "claude-haiku-4-5-20251001") == pytest.approx(1.25 + 0.1)
    state = RunState(model="claude-haiku-4-5", turn_usage=[Usage(100_000, 10_000)], usage=Usage(100_000, 10_000))
    assert TokenBudget(10**9, usd=0.2).check(state) is None  # $0.15
    assert "$" in TokenBudget(10**9, usd=0.15).check(state)


def test_unknown_models_pay_the_dearest_of_each_price():
    million = 1_000_000
    assert cost_usd(Usage(million, 0), "someone-elses-model") == pytest.approx(10.0)  # Fable 5's input
    # Fable 5's $1 reads, not the $0.25 of the 5.1 rows that otherwise tie with it
    assert cost_usd(Usage(0, 0, 0, million), "someone-elses-model") == pytest.approx(1.0)
    assert cost_usd(Usage(0, 0, million, 0), "someone-elses-model") == pytest.approx(12.5)


def test_the_2026_models_have_their_own_prices_cache_reads_included():
    # The models' overview pages: Sonnet 5 $2/$10 ($0.20 reads), Sonnet 5.5 the same but $0.10 reads,
    # Opus 5.5 $4/$20 with $5 writes and $0.20 reads; a dated or longer id never lands on a shorter family.
    million = 1_000_000
    assert cost_usd(Usage(million, million), "claude-sonnet-5") == pytest.approx(12.0)
    assert cost_usd(Usage(0, 0, 0, million), "claude-sonnet-5") == pytest.approx(0.20)
    assert cost_usd(Usage(0, 0, 0, million), "claude-sonnet-5-5") == pytest.approx(0.10)
    assert cost_usd(Usage(0, 0, million, million), "claude-opus-5-5") == pytest.approx(5.20)
    assert cost_usd(Usage(million, 0), "claude-opus-4-7") == pytest.approx(5.0)
    # The 5.1 models read cache at 0.025x ($0.25), Fable 5 and Mythos 5 at the usual 0.1x ($1)
    for model in ("claude-fable-5-1", "claude-mythos-5-1"):
        assert cost_usd(Usage(0, 0, 0, million), model) == pytest.approx(0.25)
        assert cost_usd(Usage(million, million, million, 0), model) == pytest.approx(72.5)
    for model in ("claude-fable-5", "claude-mythos-5"):
        assert cost_usd(Usage(0, 0, 0, million), model) == pytest.approx(1.0)


def test_fast_mode_and_us_only_inference_pay_their_premiums_on_every_price():
    # The pricing page: fast mode on Opus 5 / 4.8 is $10 / $50 (twice standard), US-only inference
    # 1.1x, both stacking with the cache multipliers and with each other.
    million = 1_000_000
    every = dict(input_tokens=million, output_tokens=million, cache_creation_input_tokens=million)
    standard = cost_usd(Usage(**every, cache_read_input_tokens=million), "claude-opus-5")
    assert standard == pytest.approx(5 + 25 + 6.25 + 0.5)
    assert cost_usd(Usage(million, million, speed="fast"), "claude-opus-4-8") == pytest.approx(10 + 50)
    fast = Usage(**every, cache_read_input_tokens=million, speed="fast")
    assert cost_usd(fast, "claude-opus-5") == pytest.approx(2 * standard)
    assert cost_usd(Usage(million, 0, inference_geo="us"), "claude-opus-4-6") == pytest.approx(5.5)
    both = Usage(million, 0, speed="fast", inference_geo="us")
    assert cost_usd(both, "claude-opus-5") == pytest.approx(11.0)


def test_a_list_of_usages_prices_each_request_at_the_speed_it_ran():
    million = 1_000_000
    calls = [Usage(million, 0), Usage(million, 0, speed="fast"), Usage(million, 0, inference_geo="us")]
    assert cost_usd(calls, "claude-opus-5") == pytest.approx(5 + 10 + 5.5)
    state = RunState(model="claude-opus-5", turn_usage=calls, usage=sum(calls, Usage()))
    assert TokenBudget(10**9, usd=20.6).check(state) is None  # $20.50
    assert "$" in TokenBudget(10**9, usd=20.4).check(state)
    # A sum keeps the labels its parts share and says "mixed" where they differ; priced alone, a
    # mixed sum pays the premiums (a USD limit may fire early, never late).
    assert (sum(calls[1:2], Usage()).speed, sum(calls, Usage()).speed) == ("fast", "mixed")
    assert sum(calls, Usage()).inference_geo == "mixed"
    assert cost_usd(sum(calls, Usage()), "claude-opus-5") >= cost_usd(calls, "claude-opus-5")


def test_usage_reads_the_speed_and_geography_the_api_reports():
    read = Usage.of({"input_tokens": 3, "output_tokens": 4, "speed": "fast", "inference_geo": "us"})
    assert (read.total, read.speed, read.inference_geo) == (7, "fast", "us")
    plain = Usage.of({"input_tokens": 3, "output_tokens": 4, "speed": None})
    assert (plain.speed, plain.inference_geo) == ("standard", "global")
    # A model without the parameter (Haiku 4.5) says "not_available" and bills as global: a run
    # that also used a newer model is not "mixed" (which would pay the US premium) for it.
    older = Usage.of({"input_tokens": 3, "output_tokens": 4, "inference_geo": "not_available"})
    assert (older + plain).inference_geo == (plain + older).inference_geo == "global"
    us = Usage.of({"input_tokens": 3, "output_tokens": 4, "inference_geo": "us"})
    assert (older + us).inference_geo == "us" and (older + older).inference_geo == "not_available"
    million = Usage(1_000_000, 0, inference_geo="not_available")
    assert cost_usd(million + Usage(1_000_000, 0), "claude-opus-4-6") == pytest.approx(10.0)


def test_preflight_refuses_a_request_that_would_cross_the_line():
    state = RunState(usage=Usage(900, 0), next_prompt=500)
    assert TokenBudget(1000).check(state) is None  # preflight off: only what was spent counts
    valve = TokenBudget(1000, preflight=True)
    assert (TokenBudget(1000).step, valve.step) == ("loop_top", "before_send")
    state.next_prompt = 100
    assert valve.check(state) is None
    state.next_prompt = 101
    assert "101" in valve.check(state)
    state.next_prompt, state.next_reply = 60, 41  # the reply may cost up to max_tokens: it counts too
    assert "41" in valve.check(state)
    state.next_reply = 40
    assert valve.check(state) is None
    state.next_reply = 0
    state.usage, state.next_prompt = Usage(1000, 0), 0
    assert "1000" in valve.check(state)  # spent already: stopped whatever the estimate


def test_signature_ignores_key_order_and_call_order():
    a = response(("read_file", {"path": "a", "limit": 1}), ("get_time", {}))
    b = response(("get_time", {}), ("read_file", {"limit": 1, "path": "a"}))
    assert signature_of(a["content"]) == signature_of(b["content"])
    assert signature_of(a["content"]) == 'get_time({}) | read_file({"limit":1,"path":"a"})'
    assert signature_of([{"type": "text", "text": "hi"}]) == ""


def test_no_progress_fires_on_a_repeat_and_not_on_a_then_b():
    valve = NoProgress()
    state = RunState(signatures=['read_file({"path":"a"})'])
    state.receive(response(("read_file", {"path": "b"})))
    assert valve.check(state) is None
    state.receive(response(("read_file", {"path": "a"})))
    assert "read_file" in valve.check(state)


def test_no_progress_window_catches_abab_and_the_default_does_not():
    state = RunState(signatures=["a({})", "b({})"])
    state.receive(response(("a", {})))
    assert NoProgress().check(state) is None
    assert NoProgress(window=3).check(state) is not None


def test_policy_tiers_default_and_overlap():
    policy = Policy({"get_time": "allow", "write_file": "ask", "send_email": "deny"})
    assert [policy.tier(n) for n in ("get_time", "write_file", "send_email", "unlisted")] == [
        "allow",
        "ask",
        "deny",
        "ask",
    ]
    overlap = Policy({"x": "allow"}, rules=[Rule("x", "deny"), Rule("*", "ask")])
    assert overlap.tier("x") == "deny"
    assert Policy({"x": "allow"}, rules=[Rule("*", "ask")]).tier("x") == "ask"


def test_rules_match_arguments():
    inside = Rule("write_file", "allow", when=lambda i: i["path"].startswith("sandbox/"))
    policy = Policy({}, default="ask", rules=[inside])
    assert policy.tier("write_file", {"path": "sandbox/a.md"}) == "allow"
    assert policy.tier("write_file", {"path": "src/a.py"}) == "ask"
    assert policy.tier("write_file", {}) == "deny"  # the predicate raised: fail closed


def test_high_impact_marking_replaces_the_default_only():
    policy = Policy({"write_file": "allow"}, default="allow", high_impact="ask")
    assert policy.tier("delete_file", {}, high_impact=True) == "ask"
    assert policy.tier("write_file", {}, high_impact=True) == "allow"
    assert policy.tier("get_time", {}, high_impact=False) == "allow"


def test_typos_in_tiers_fail_loudly():
    with pytest.raises(ValueError, match="'alow'"):
        Policy({"x": "alow"})
    with pytest.raises(ValueError, match="'maybe'"):
        Rule("x", "maybe")


def test_approval_fails_closed():
    request = ApprovalRequest(1, "toolu_1", "write_file", {"path": "x"})
    assert Approval().ask(request) is None  # no approver: the loop must yield (and next() denies)

    def broken(_):
        raise RuntimeError("approver crashed")

    decision = Approval(approver=broken).ask(request)
    assert decision.allowed is False and "approver crashed" in decision.reason
    assert Approval(approver=lambda r: None).ask(request).allowed is False
    assert Approval(approver=lambda r: True).ask(request).allowed is True
    assert Approval(approver=lambda r: allow()).ask(request).allowed is True


def test_lesson_default_policy_asks_for_high_impact_only():
    valve = Approval()
    assert valve.tier("write_file", {}, high_impact=True) == "ask"
    assert valve.tier("read_file", {}, high_impact=False) == "allow"


@pytest.mark.parametrize(
    "make, said",
    [
        (lambda: MaxTurns(-1), "MaxTurns"),
        (lambda: MaxTurns(0), "MaxTurns"),
        (lambda: MaxTurns("8"), "MaxTurns"),
        (lambda: MaxTurns(2.5), "MaxTurns"),
        (lambda: NoProgress(1), "NoProgress"),
        (lambda: TokenBudget(0), "TokenBudget"),
        (lambda: TokenBudget("40000"), "TokenBudget"),
        (lambda: TokenBudget(1000, usd=-1), "usd"),
    ],
)
def test_bad_limits_fail_loudly_at_construction(make, said):
    # the message names the valve (or the argument) whose limit is wrong, not any ValueError from inside
    with pytest.raises(ValueError, match=said):
        make()


def test_approval_reading_states_the_whole_policy():
    # The lesson's policy asks before high-impact tools: the gauge must not read like "allow everything".
    assert Approval().reading(RunState()) == "high_impact:ask, default:allow"
    table = Approval(
        Policy({"write_file": "ask", "send_email": "deny", "get_time": "allow"}, default="allow", high_impact="ask")
    )
    assert (
        table.reading(RunState()) == "get_time:allow, send_email:deny, write_file:ask, high_impact:ask, default:allow"
    )
    ruled = Approval(Policy({"write_file": "ask"}, rules=[Rule("write_file", "allow", when=lambda i: True)]))
    assert ruled.reading(RunState()) == "write_file:ask, rules:1, default:ask"


def test_a_haiku_5_5_request_over_100k_prompt_tokens_pays_five_times_every_price():
    short, long = Usage(100_000, 1_000), Usage(90_000, 1_000, 6_000, 5_000)  # 100,000 and 101,000 prompt tokens
    assert cost_usd(short, "claude-haiku-5-5") == pytest.approx((100_000 * 0.10 + 1_000 * 0.50) / 1e6)
    per_million = 90_000 * 0.10 + 1_000 * 0.50 + 6_000 * 0.125 + 5_000 * 0.01
    assert cost_usd(long, "claude-haiku-5-5-20261007") == pytest.approx(5 * per_million / 1e6)
    assert cost_usd([short, long], "claude-haiku-5-5") == pytest.approx(
        cost_usd(short, "claude-haiku-5-5") + cost_usd(long, "claude-haiku-5-5")
    )
    assert cost_usd(long, "claude-haiku-4-5") == pytest.approx((90_000 + 6_000 * 1.25 + 5_000 * 0.1 + 5_000) / 1e6)
    # A dollar budget over two long requests stops where the dearer rate says, not at the cheaper one.
    state = RunState(model="claude-haiku-5-5")
    state.turn_usage = [long, long]
    assert TokenBudget(limit=10**9, usd=0.1).check(state) is not None
    assert TokenBudget(limit=10**9, usd=0.1, prices={"claude-haiku-5-5": (0.10, 0.50)}).check(state) is None


def test_each_web_search_costs_a_cent_on_top_of_the_tokens():
    # The web search tool page and the pricing page: $10 per 1,000 searches plus the tokens, read from
    # usage.server_tool_use.web_search_requests. The fee is per search, so no token premium touches it.
    searched = Usage.of({"input_tokens": 1_000_000, "output_tokens": 0, "server_tool_use": {"web_search_requests": 3}})
    assert searched.web_search_requests == 3 and searched.total == 1_000_000  # a search is no token
    assert cost_usd(searched, "claude-sonnet-5") == pytest.approx(2.0 + 0.03)
    fast_us = Usage(1_000_000, 0, speed="fast", inference_geo="us", web_search_requests=3)
    assert cost_usd(fast_us, "claude-opus-5") == pytest.approx(5 * 2 * 1.1 + 0.03)
    long_prompt = Usage(200_000, 0, web_search_requests=2)  # Haiku 5.5's five-fold rate is for tokens only
    assert cost_usd(long_prompt, "claude-haiku-5-5") == pytest.approx(5 * 200_000 * 0.10 / 1e6 + 0.02)
    assert cost_usd(searched, "claude-sonnet-5", prices={"claude-sonnet-5": (2.0, 10.0)}) == pytest.approx(2.03)
    assert (searched + fast_us).web_search_requests == 6
    assert Usage.of({"input_tokens": 5, "output_tokens": 1, "server_tool_use": None}).web_search_requests == 0


def test_a_usd_budget_counts_the_searches_an_emulated_web_search_made():
    # The pause_turn scenario searches once when the request defines web search; the dollar valve reads the
    # usage the loop kept, so the search's cent is in what it spent.
    from harness_lab.emulator import emulated_client

    client = emulated_client("pause_turn", max_retries=0)
    tools = [{"type": "web_search_20250305", "name": "web_search"}]
    messages: list = [{"role": "user", "content": "資料を調べて"}]
    state = RunState(model="claude-sonnet-5")
    for _ in range(2):
        response = client.messages.create(model="claude-sonnet-5", max_tokens=1024, messages=messages, tools=tools)
        state.turn_usage.append(Usage.of(response.usage))
        messages.append({"role": "assistant", "content": response.content})
    assert sum(u.web_search_requests for u in state.turn_usage) == 1
    tokens = sum(u.input_tokens * 2.0 + u.output_tokens * 10.0 for u in state.turn_usage) / 1e6
    assert TokenBudget(10**9).spent_usd(state) == pytest.approx(tokens + 0.01)
