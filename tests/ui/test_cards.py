"""Block cards: HTML for notebooks, deterministic plain text for nbval and static renderers."""

import re
import xml.etree.ElementTree as ET

import pytest

from harness_lab.events import ApprovalRequest, Decision, Finished, Stopped, Turn, Usage
from harness_lab.text import t
from harness_lab.ui import card, transcript
from harness_lab.ui.cards import message_card
from harness_lab.ui.formatters import register_formatters

CALL = {
    "type": "tool_use",
    "id": "toolu_01ABC",
    "name": "write_file",
    "input": {"path": "sandbox/メモ.txt", "content": "こんにちは"},
}
OK = {"type": "tool_result", "tool_use_id": "toolu_01ABC", "content": "書き込みました"}
FAILED = {"type": "tool_result", "tool_use_id": "toolu_01ABC", "content": "拒否されました", "is_error": True}
RESPONSE = {
    "type": "message",
    "role": "assistant",
    "content": [{"type": "text", "text": "書きます"}, CALL],
    "stop_reason": "tool_use",
    "usage": {"input_tokens": 120, "output_tokens": 30},
}


def test_tool_use_card_shows_name_id_and_pretty_json_input():
    c = card(CALL)
    for form in (c.html, c.text):
        assert "write_file" in form and "toolu_01ABC" in form
        assert "sandbox/メモ.txt" in form  # Japanese kept readable, not \\u-escaped
    assert '\n  "path": "sandbox/メモ.txt",' in c.html  # indented JSON inside <pre>
    assert "hl-tool-use" in c.html


def test_tool_result_error_is_shown_plainly_and_only_when_set():
    err, ok = card(FAILED), card(OK)
    assert "is_error: true" in err.text and "is_error: true" in err.html and "hl-error" in err.html
    assert "is_error" not in ok.text and "hl-error" not in ok.html and "hl-tool-result" in ok.html


def test_text_is_html_escaped():
    c = card({"type": "text", "text": "<script>alert(1)</script> & more"})
    assert "<script>" not in c.html and "&lt;script&gt;" in c.html
    assert "<script>alert(1)</script> & more" in c.text


def test_usage_card_counts_every_part():
    c = card(Usage(input_tokens=11, output_tokens=22, cache_creation_input_tokens=33, cache_read_input_tokens=44))
    for number in ("11", "22", "33", "44", "110"):
        assert re.search(rf"\b{number}\b", c.text), number


def test_usage_card_names_a_premium_only_when_the_request_ran_at_one():
    plain, fast, us = (
        card(Usage(1, 2)).text,
        card(Usage(1, 2, speed="fast")).text,
        card(Usage(1, 2, inference_geo="us")),
    )
    assert "高速" not in plain and "米国" not in plain
    assert "高速モード" in fast and "2 倍" in fast and "米国" not in fast
    assert "1.1 倍" in us.text and "1.1 倍" in us.html


def test_turn_card_has_blocks_results_usage_and_signature_in_order():
    turn = Turn(
        request_number=2,
        response=RESPONSE,
        stop_reason="tool_use",
        results=(FAILED,),
        usage=Usage(120, 30),
        total=Usage(300, 60),
        signature='write_file({"path":"x"})',
        readings={"max_turns": "2/8"},
    )
    text = card(turn).text
    order = [text.index(s) for s in ("2", "書きます", "toolu_01ABC", "拒否されました", "150", "write_file({", "2/8")]
    assert order == sorted(order)
    assert "stop_reason: tool_use" in text


def test_a_valve_with_nothing_to_read_yet_is_left_out_of_a_turns_gauges():
    # After a pause_turn first turn no tool round has a signature yet: the card read "無進捗検知 ," with nothing after it.
    turn = Turn(
        request_number=1,
        response=RESPONSE,
        stop_reason="pause_turn",
        results=(),
        usage=Usage(120, 30),
        total=Usage(120, 30),
        signature="",
        readings={"no_progress": "", "max_turns": "1/8"},
    )
    line = next(line for line in card(turn).text.splitlines() if t("ui.card.readings") in line)
    assert "1/8" in line and t("ui.valve.no_progress") not in line


@pytest.mark.parametrize(
    "item",
    [Usage(527, 114, 3, 4), Finished(text="答えは42", stop_reason="end_turn", turns=2, usage=Usage(527, 114, 3, 4))],
    ids=["usage", "end"],
)
def test_a_usage_line_breaks_only_between_its_parts(item):
    # Browsers break Japanese between any two characters: in a narrow output the line broke inside
    # "キャッシュ読み込み" or "トークン". Each part is kept whole, with the mark after it; the line still reads as one.
    drawn = ET.fromstring(f"<div>{card(item).html}</div>")
    whole = ["".join(e.itertext()) for e in drawn.iter() if "white-space:nowrap" in e.get("style", "")]
    for part in (
        "入力 527 ・",
        "出力 114 ・",
        "キャッシュ書き込み 3 ・",
        "キャッシュ読み込み 4",
        "（合計 648 トークン）",
    ):
        assert any(part in piece for piece in whole), (part, whole)  # no line starts with the mark
    assert "入力 527 ・ 出力 114 ・ キャッシュ書き込み 3 ・ キャッシュ読み込み 4（合計 648 トークン）" in "".join(
        drawn.itertext()
    )


def test_approval_card_shows_the_call_and_the_answer():
    request = ApprovalRequest(request_number=1, tool_use_id="toolu_01ABC", name="write_file", input=CALL["input"])
    assert "toolu_01ABC" in card(request).text and "→" not in card(request).text
    from harness_lab.ui.transcript import approval_card

    denied = approval_card(request, Decision(False, "危ない"))
    assert "危ない" in denied.text and "危ない" in denied.html


def test_end_cards():
    done = card(Finished(text="答えは42", stop_reason="end_turn", turns=2, usage=Usage(10, 5)))
    assert "答えは42" in done.text and "end_turn" in done.text and "hl-answer" in done.html
    stop = card(Stopped(cause="max_turns", reason="最大ターン数 3 に達した", turns=3, usage=Usage()))
    assert "max_turns" in stop.text and "最大ターン数 3" in stop.html and "hl-stopped" in stop.html


def test_html_is_well_formed_and_rendering_is_deterministic():
    items = [
        {"role": "user", "content": "やって"},
        RESPONSE,
        {"role": "user", "content": [FAILED]},
        Finished(text="ok", stop_reason="end_turn", turns=1, usage=Usage(1, 1)),
    ]
    first, second = transcript(items), transcript(items)
    assert first.html == second.html and first.text == second.text
    ET.fromstring(first.html)  # balanced tags
    assert not re.search(r"0x[0-9a-f]{6,}", first.text + first.html)  # no object ids


def test_english_catalog(monkeypatch):
    monkeypatch.setenv("HARNESS_LAB_LANG", "en")
    assert "[Tool call (tool_use)]" in card(CALL).text and "Error (is_error: true)" in card(FAILED).text


def test_long_output_is_clipped_deterministically():
    c = card({"type": "tool_result", "tool_use_id": "t", "content": "あ" * 5000})
    assert len(c.text) < 2000 and "3800" in c.text


def test_unknown_objects_are_refused():
    with pytest.raises(TypeError):
        card(object())


def test_ipython_shows_events_as_cards():
    IPython = pytest.importorskip("IPython")
    shell = IPython.core.interactiveshell.InteractiveShell.instance()
    assert register_formatters(shell)
    stop = Stopped(cause="token_budget", reason="予算に達した", turns=1, usage=Usage(5, 5))
    data, _ = shell.display_formatter.format(stop)
    assert "hl-stopped" in data["text/html"] and "予算に達した" in data["text/plain"]
    assert "Stopped(" not in data["text/plain"]


def test_approvals_render_inside_their_turn_never_above_its_header():
    # The loop yields the request before the Turn event; the transcript must not show it that way.
    request = ApprovalRequest(request_number=2, tool_use_id="toolu_01ABC", name="write_file", input=CALL["input"])
    turn = Turn(request_number=2, response=RESPONSE, stop_reason="tool_use", results=(OK,), usage=Usage(120, 30))
    whole = transcript([request, Decision(True), turn])
    for form in (whole.text, whole.html):
        head, call, answer, result = (
            form.index(s) for s in ("ターン 2", "toolu_01ABC", "許可しました", "書き込みました")
        )
        assert head < call < answer < result
    assert whole.text.count("承認弁: write_file") == 1 and "承認待ち" not in whole.text  # answered: no longer waiting
    ET.fromstring(whole.html)
    assert transcript([request, Decision(True), turn]).html == whole.html


def test_approvals_of_an_unfinished_turn_get_their_own_header():
    request = ApprovalRequest(request_number=3, tool_use_id="toolu_01ABC", name="write_file", input=CALL["input"])
    waiting = transcript([{"role": "user", "content": "やって"}, request])
    for form in (waiting.text, waiting.html):
        assert form.index("ターン 3 — 承認待ち") < form.index("承認待ち: write_file")


@pytest.mark.parametrize(
    "role, ja, en",
    [
        ("user", "ユーザー (user)", "User"),
        ("assistant", "モデル (assistant)", "Model (assistant)"),
        ("system", "システム (system)", "System"),
    ],
)
def test_each_role_of_a_message_is_named_on_its_card(monkeypatch, role, ja, en):
    message = {"role": role, "content": "本文"}
    assert message_card(message).text.startswith(f"--- {ja} ---")
    assert f"hl-{role}" in message_card(message).html
    monkeypatch.setenv("HARNESS_LAB_LANG", "en")
    assert message_card(message).text.startswith(f"--- {en} ---")


def test_a_refusal_before_any_output_shows_the_apis_counts_not_a_loops_own_total():
    # A refusal before the first token bills its prompt and 0 output tokens (docs/api_facts.md, [RF]); the
    # stop card shows the API's split, as for any reply: the one-number form is for a hand-written loop's count.
    from harness_lab.drain import drain
    from harness_lab.emulator import emulated_client
    from harness_lab.loop import Run
    from harness_lab.text import t

    run = Run(emulated_client("refusal"))
    end = drain(run.start("x"))
    assert end.cause == "refusal" and end.usage.input_tokens > 0 and end.usage.output_tokens == 0
    shown = card(end).text
    assert t("ui.card.usage_counted", total=end.usage.input_tokens) not in shown
    split = dict(input_tokens=end.usage.input_tokens, output_tokens=0, total=end.usage.total)
    assert t("ui.card.usage_line", **split, cache_creation_input_tokens=0, cache_read_input_tokens=0) in shown
