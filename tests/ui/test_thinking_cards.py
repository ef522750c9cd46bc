"""Thinking blocks in the UI (issue 22): folded cards, thinking counted as output, cache kept apart.

The default model returns ``thinking`` blocks (text empty when display is "omitted", always a
signature) and sometimes ``redacted_thinking`` before its text and tool calls. These tests build
those blocks as the API sends them: plain dicts and the SDK's own types.
"""

import html
import tempfile
import xml.etree.ElementTree as ET

import pytest
from anthropic.types import Message, RedactedThinkingBlock, TextBlock, ThinkingBlock, ToolUseBlock
from anthropic.types import Usage as ApiUsage

from harness_lab import ui
from harness_lab.drain import drain
from harness_lab.emulator import emulated_client, tokens
from harness_lab.events import Turn, Usage
from harness_lab.loop import Run
from harness_lab.text import t
from harness_lab.tools import get_time, make_read_file
from harness_lab.ui import card, transcript
from harness_lab.ui.context import context_rows, split_request
from harness_lab.ui.context_view import context_card
from harness_lab.valves import MaxTurns

SIGNATURE = "EqQBCkYIARgCIkB" + "x" * 85  # opaque to us: only its length is shown
OMITTED = {"type": "thinking", "thinking": "", "signature": SIGNATURE}
SUMMARIZED = {"type": "thinking", "thinking": "まず README を読み、それから時刻を確かめる。", "signature": SIGNATURE}
REDACTED = {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT"}
CALL = {"type": "tool_use", "id": "toolu_01", "name": "read_file", "input": {"path": "README.md"}}


def _message(content, thinking_tokens=None):
    usage = ApiUsage(input_tokens=120, output_tokens=90)
    if thinking_tokens is not None:
        usage = ApiUsage(input_tokens=120, output_tokens=90, output_tokens_details={"thinking_tokens": thinking_tokens})
    return Message(
        id="msg_01",
        type="message",
        role="assistant",
        model="claude-sonnet-5",
        content=content,
        stop_reason="tool_use",
        stop_sequence=None,
        usage=usage,
    )


@pytest.mark.parametrize("block", [OMITTED, ThinkingBlock(**OMITTED)], ids=["dict", "sdk"])
def test_an_omitted_thinking_block_is_folded_and_says_its_text_is_not_shown(block):
    c = card(block)
    assert c.html.startswith('<details class="hl-card hl-thinking"') and " open" not in c.html.split(">")[0]
    ET.fromstring(c.html)  # well-formed: the fold holds its own body
    assert t("ui.card.thinking_omitted") == "思考（本文は非表示）"
    assert t("ui.card.thinking_omitted") in c.html and t("ui.card.thinking_omitted") in c.text
    assert c.text == f"[{t('ui.card.thinking_head', label=t('ui.card.thinking_omitted'), n=len(SIGNATURE))}]"
    assert SIGNATURE not in c.text and SIGNATURE not in c.html  # the signature itself stays out of sight


@pytest.mark.parametrize("block", [SUMMARIZED, ThinkingBlock(**SUMMARIZED)], ids=["dict", "sdk"])
def test_a_summarized_thinking_block_shows_its_text_inside_the_fold(block):
    c = card(block)
    assert t("ui.card.thinking_omitted") not in c.text
    assert c.text.startswith(f"[{t('ui.card.thinking_head', label=t('ui.card.thinking'), n=len(SIGNATURE))}]")
    assert SUMMARIZED["thinking"] in c.text
    summary_end = c.html.index("</summary>")
    assert html.escape(SUMMARIZED["thinking"], quote=False) in c.html[summary_end:]  # in the body, folded


@pytest.mark.parametrize("block", [REDACTED, RedactedThinkingBlock(**REDACTED)], ids=["dict", "sdk"])
def test_a_redacted_thinking_block_is_folded_and_never_shows_its_data(block):
    c = card(block)
    assert "hl-thinking" in c.html and c.text == f"[{t('ui.card.thinking_redacted', n=len(REDACTED['data']))}]"
    assert REDACTED["data"] not in c.text + c.html


def test_thinking_comes_first_in_a_turn_and_the_usage_names_its_thinking_tokens():
    response = _message(
        [
            ThinkingBlock(**OMITTED),
            RedactedThinkingBlock(**REDACTED),
            TextBlock(type="text", text="README を読みます"),
            ToolUseBlock(**CALL),
        ],
        thinking_tokens=60,
    )
    turn = Turn(request_number=1, response=response, stop_reason="tool_use", usage=Usage.of(response.usage))
    text = transcript([turn]).text
    order = [text.index(s) for s in ("思考（本文は非表示）", "redacted_thinking", "README を読みます", "toolu_01")]
    assert order == sorted(order)
    assert t("ui.card.output_thinking", output=90, thinking=60) in text  # thinking is part of the output
    assert t("ui.card.output_thinking", output=90, thinking=60) in card(response).text
    plain = _message([ToolUseBlock(**CALL)])  # no breakdown from the API: nothing claimed
    assert "思考" not in card(plain).text


def test_english_labels(monkeypatch):
    monkeypatch.setenv("HARNESS_LAB_LANG", "en")
    assert card(OMITTED).text.startswith("[Thinking (text not shown) · signature of")
    assert card(REDACTED).text.startswith("[Thinking (encrypted: redacted_thinking) · data of")


# --- the context gauge and the token-burn plot --------------------------------------------------


def test_thinking_sent_back_is_its_own_part_of_the_input():
    request = {
        "messages": [
            {"role": "user", "content": "README.md を読んで"},
            {"role": "assistant", "content": [SUMMARIZED, REDACTED, CALL]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01", "content": "# 教材"}]},
        ]
    }
    parts = split_request(request)
    without = {**request, "messages": [request["messages"][0], {"role": "assistant", "content": [CALL]}]}
    without["messages"].append(request["messages"][2])
    cost = tokens.estimate_request(request).total - tokens.estimate_request(without).total
    assert parts["thinking"] == cost and parts["other"] == 0 and parts["assistant_text"] == 0
    assert sum(parts.values()) == tokens.estimate_request(request).total


def test_each_row_adds_its_responses_output_thinking_included():
    run = _lesson6()
    rows = context_rows(run)
    for row, usage in zip(rows, run.state.turn_usage):
        assert row.output == usage.output_tokens > 0 and row.used == row.total + row.output
        assert row.share == row.used / row.window
    card_ = context_card(run)
    assert card_.html.count("hl-context-output") == len(rows)
    last = rows[-1]
    assert f"{last.total:,} + " in card_.text and f"= {last.used:,} / {last.window:,}" in card_.text
    assert t("ui.context.output") in card_.html


def _lesson6(system=None):
    client = emulated_client("lesson6")
    run = Run(client, tools=[get_time, make_read_file(tempfile.mkdtemp())], valves=[MaxTurns(8)], system=system)
    drain(run.start("README.md の1行目を読んで、それから今何時か教えて"))
    return run


def test_cache_reads_and_writes_get_their_own_strip_only_when_there_are_any():
    assert "hl-context-cache" not in context_card(_lesson6()).html  # no caching: no strip
    run = _lesson6(
        [{"type": "text", "text": "日本語で、短く答えてください。" * 40, "cache_control": {"type": "ephemeral"}}]
    )
    rows, html_ = context_rows(run), context_card(run).html
    assert rows[0].cache_write > 0 and rows[1].cache_read > 0
    assert html_.count("hl-context-cache") == sum(1 for r in rows if r.cache_read or r.cache_write)
    second = html_.split('class="hl-context-row"')[2]  # request 2 reads what request 1 wrote to the cache
    uncached = rows[1].total - rows[1].cache_read - rows[1].cache_write
    for key, tokens_ in (("uncached", uncached), ("cache_read", rows[1].cache_read)):
        assert f'title="{t(f"ui.context.{key}")} {tokens_}"' in second.split("hl-context-cache")[1]


def test_the_burn_plot_stacks_output_with_thinking_and_keeps_cache_reads_and_writes_apart():
    usages = [Usage(100, 80, 40, 0), Usage(30, 90, 0, 140)]
    burn = ui.plot_token_burn(usages).axes[0]
    labels = [c.get_label() for c in burn.containers]
    assert labels == [t("ui.plot.input"), t("ui.plot.cache_write"), t("ui.plot.cache_read"), t("ui.plot.output")]
    assert "思考" in t("ui.plot.output")
    heights = {label: [p.get_height() for p in c.patches] for label, c in zip(labels, burn.containers)}
    assert heights[t("ui.plot.output")] == [80, 90] and heights[t("ui.plot.cache_read")] == [0, 140]
    assert heights[t("ui.plot.cache_write")] == [40, 0]
