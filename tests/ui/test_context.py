"""The context gauge: each request's input split by what filled it, checked against the emulator's own
token estimate (harness_lab/emulator/tokens.py) and the usage the emulator reported."""

import re
import tempfile

import pytest

from harness_lab.drain import drain
from harness_lab.emulator import emulated_client, emulator_of, tokens
from harness_lab.emulator.models import CONTEXT_WINDOW
from harness_lab.events import Usage
from harness_lab.loop import Run
from harness_lab.messages import tool_calls
from harness_lab.text import t
from harness_lab.tools import get_time, make_read_file
from harness_lab.ui import Stepper
from harness_lab.ui.context import PARTS, context_rows, request_of, split_request
from harness_lab.valves import MaxTurns

SYSTEM = "日本語で、短く答えてください。"


def lesson6_run(system=SYSTEM):
    client = emulated_client("lesson6")
    run = Run(client, tools=[get_time, make_read_file(tempfile.mkdtemp())], valves=[MaxTurns(8)], system=system)
    drain(run.start("README.md の1行目を読んで、それから今何時か教えて"))
    return run, emulator_of(client)


@pytest.mark.parametrize("scenario", ["lesson6", "high_impact", "budget_burning", "never_ending"])
def test_the_parts_sum_to_the_emulators_own_estimate_and_to_the_usage_it_reported(make_run, scenario):
    run = make_run(scenario, max_turns=3)
    client = run.client
    drain(run.start("はじめて"), approve=lambda request: True)
    rows = context_rows(run)
    assert len(rows) == run.state.model_calls == len(emulator_of(client).requests)
    for row, sent in zip(rows, emulator_of(client).requests):
        estimate = tokens.estimate_request(sent).total  # the request body the emulator received
        assert (
            sum(row.parts.values())
            == row.total
            == estimate
            == run.state.turn_usage[row.request_number - 1].prompt_tokens
        )
        assert set(row.parts) == set(PARTS) and not row.estimated and row.window == CONTEXT_WINDOW


def test_each_part_is_what_the_estimate_charges_for_it():
    run, _ = lesson6_run()
    last = request_of(run, run.state.model_calls)
    parts = split_request(last)
    definitions = last["tools"]
    assert parts["tools"] == tokens.TOOLS_SYSTEM_PROMPT_TOKENS + sum(
        tokens.TOOL_DEFINITION_OVERHEAD + tokens.value_tokens(d) for d in definitions
    )
    assert parts["system"] == tokens.SYSTEM_OVERHEAD + tokens.text_tokens(SYSTEM)
    calls = [c for m in last["messages"] if m["role"] == "assistant" for c in tool_calls(m["content"])]
    assert (
        parts["tool_use"]
        == sum(
            tokens.TOOL_USE_OVERHEAD + tokens.text_tokens(c["name"]) + tokens.value_tokens(c["input"]) for c in calls
        )
        > 0
    )
    results = [
        b
        for m in last["messages"]
        if m["role"] == "user" and isinstance(m["content"], list)
        for b in m["content"]
        if b.get("type") == "tool_result"
    ]
    assert (
        parts["tool_result"] == sum(tokens.TOOL_RESULT_OVERHEAD + tokens.text_tokens(b["content"]) for b in results) > 0
    )
    assert parts["user_text"] == tokens.text_tokens(last["messages"][0]["content"])
    assert parts["framing"] == tokens.REQUEST_OVERHEAD + tokens.MESSAGE_OVERHEAD * len(last["messages"])


def test_what_grows_is_the_history_not_the_tools_or_the_system():
    run, _ = lesson6_run()
    rows = context_rows(run)
    assert len({row.parts["tools"] for row in rows}) == 1 and len({row.parts["system"] for row in rows}) == 1
    assert [row.parts["tool_result"] for row in rows] == sorted(row.parts["tool_result"] for row in rows)
    assert rows[-1].total > rows[0].total and rows[-1].parts["tool_result"] > rows[0].parts["tool_result"] == 0


def test_cache_reads_and_writes_show_when_present():
    system = [{"type": "text", "text": SYSTEM * 40, "cache_control": {"type": "ephemeral"}}]
    run, _ = lesson6_run(system)
    rows = context_rows(run)
    assert rows[0].cache_write > 0 and rows[1].cache_read > 0
    assert all(sum(r.parts.values()) == r.total for r in rows)
    text = Stepper(run).context().text
    assert t("ui.context.cache", read=f"{rows[1].cache_read:,}", write=f"{rows[1].cache_write:,}") in text


def test_a_live_run_scales_the_split_to_its_real_usage_and_says_it_is_an_estimate():
    run, _ = lesson6_run()
    estimates = [sum(row.parts.values()) for row in context_rows(run)]
    # What a live API would have billed: a little more than the emulator's estimate, every time.
    run.state.turn_usage = [Usage(input_tokens=e * 13 // 10 + 1, output_tokens=5) for e in estimates]
    rows = context_rows(run)
    for row, usage in zip(rows, run.state.turn_usage):
        assert row.estimated and sum(row.parts.values()) == row.total == usage.prompt_tokens
        assert row.parts["tools"] > row.parts["system"] > 0
    assert t("ui.context.estimated") in Stepper(run).context().text


def test_the_gauge_is_a_card_against_the_context_window(make_run):
    s = Stepper(make_run("never_ending", max_turns=14), "メモを順に読んで")
    assert t("ui.context.empty") in s.context_html.value
    s.run_all()
    rows = context_rows(s.run)
    html = s.context_html.value
    assert html == s.context().html and html.count('class="hl-context-row"') == len(rows) == 15
    assert "<details>" in html  # older requests fold
    share = f"{rows[-1].used * 100 / CONTEXT_WINDOW:.1f}"
    assert f"/ {CONTEXT_WINDOW:,} " in s.context().text and f"{share}%" in s.context().text


def test_a_requests_line_breaks_between_its_parts_never_inside_a_word(make_run):
    # At 1024 px a request's line broke "ユーザーのテ" / "キスト": browsers break Japanese between any
    # two characters. Each part is kept whole, and the line reads as the card's text does.
    import xml.etree.ElementTree as ET

    s = Stepper(make_run("lesson6"), "README.md を読んで")
    s.run_all()
    card = s.context()
    lines = [row[-1] for row in ET.fromstring(card.html).iter("div") if row.get("class") == "hl-context-row"]
    assert len(lines) == 3
    for line in lines:
        assert "".join(line.itertext()) in card.text.splitlines()
        whole = ["".join(e.itertext()) for e in line if "white-space:nowrap" in e.get("style", "")]
        for part in ("tools", "user_text"):
            assert any(t(f"ui.context.{part}") + " " in piece for piece in whole), (part, whole)


def test_the_gauge_measures_against_the_runs_own_models_window():
    # claude-haiku-4-5 has a 200,000-token window, the default model 1,000,000 (the model table)
    client = emulated_client("lesson6")
    run = Run(client, tools=[get_time, make_read_file(tempfile.mkdtemp())], model="claude-haiku-4-5")
    drain(run.start("README.md の1行目を読んで、それから今何時か教えて"))
    rows = context_rows(run)
    assert rows and {row.window for row in rows} == {200_000} != {CONTEXT_WINDOW}
    assert "/ 200,000 " in Stepper(run).context().text
    assert {row.window for row in context_rows(run, window=5_000)} == {5_000}


def test_in_english_the_gauge_has_no_japanese_left(monkeypatch):
    monkeypatch.setenv("HARNESS_LAB_LANG", "en")
    run, _ = lesson6_run(system="Answer briefly.")
    text = Stepper(run).context().text
    assert "tool definitions" in text
    # the joiner between the parts included: a Japanese mark in an English line reads as a stray word
    assert not re.search("[\u3000-\u30ff\u4e00-\u9fff\uff01-\uff9f]", text), text


def test_a_mid_conversation_system_message_counts_as_instructions_not_as_user_text():
    instruction = "ここからは英語で答えてください。"
    request = {"messages": [{"role": "user", "content": "質問"}, {"role": "system", "content": instruction}]}
    parts = split_request(request)
    assert parts["system"] == tokens.text_tokens(instruction) > 0
    assert parts["user_text"] == tokens.text_tokens("質問")
    assert sum(parts.values()) == tokens.estimate_request(request).total
