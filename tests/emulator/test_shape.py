"""The request's max_tokens and stop_sequences act on scripted replies as on the real API."""

import pytest

from harness_lab.emulator import Emulator, call, reply, say

MODEL = "claude-sonnet-5"
TOOLS = [
    {
        "name": "write_file",
        "description": "w",
        "input_schema": {"type": "object", "properties": {"path": {"type": "string"}, "content": {"type": "string"}}},
    }
]


def answer(script, **request):
    """Thinking off unless the test asks: these cuts are about the visible reply alone."""
    request.setdefault("thinking", {"type": "disabled"})
    status, _, body = Emulator(script).respond(
        {"model": MODEL, "messages": [{"role": "user", "content": "q"}], **request}
    )
    assert status == 200
    return body


def test_small_max_tokens_cuts_the_text():
    body = answer([say("とても長い答えです。" * 10)], max_tokens=11)
    assert body["stop_reason"] == "max_tokens"
    assert body["content"][0]["text"] == "とても長い答えです。"
    assert body["usage"]["output_tokens"] <= 11


def test_max_tokens_truncates_a_tool_call_input():
    script = [call("write_file", path="sandbox/report.md", content="報告" * 100)]
    body = answer(script, max_tokens=60, tools=TOOLS)
    assert body["stop_reason"] == "max_tokens"
    cut = body["content"][0]["input"]
    assert cut["path"] == "sandbox/report.md" and 0 < len(cut["content"]) < 200
    full = answer(script, max_tokens=1024, tools=TOOLS)
    assert full["stop_reason"] == "tool_use" and full["content"][0]["input"]["content"] == "報告" * 100


def test_stop_sequence_from_the_request():
    body = answer(
        [reply("答えは 42 です。\n###\n補足", call("write_file", path="a", content="b"))],
        max_tokens=256,
        tools=TOOLS,
        stop_sequences=["###"],
    )
    assert body["stop_reason"] == "stop_sequence" and body["stop_sequence"] == "###"
    assert body["content"] == [{"type": "text", "text": "答えは 42 です。\n"}]


def test_explicit_stop_reason_wins():
    body = answer([reply("x" * 400, stop_reason="end_turn")], max_tokens=5)
    assert body["stop_reason"] == "end_turn" and body["content"][0]["text"] == "x" * 400


def test_thinking_comes_first_and_counts_against_max_tokens():
    script = [say("とても長い答えです。" * 10)]
    roomy = answer(script, max_tokens=1024, thinking={"type": "adaptive"})
    thought = roomy["usage"]["output_tokens_details"]["thinking_tokens"]
    assert [b["type"] for b in roomy["content"]] == ["thinking", "text"] and thought > 0
    visible = answer(script, max_tokens=1024)["usage"]["output_tokens"]
    assert roomy["usage"]["output_tokens"] == visible + thought  # thinking is billed as output
    # A budget the thinking uses up leaves only the thinking, cut where max_tokens falls.
    starved = answer(script, max_tokens=thought // 2, thinking={"type": "adaptive"})
    assert starved["stop_reason"] == "max_tokens"
    assert [b["type"] for b in starved["content"]] == ["thinking"]
    assert starved["usage"]["output_tokens"] <= thought // 2
    # Room for the thinking and a little text: the text is cut after it.
    tight = answer(script, max_tokens=thought + 11, thinking={"type": "adaptive"})
    assert tight["stop_reason"] == "max_tokens" and tight["content"][1]["text"] == "とても長い答えです。"


@pytest.mark.parametrize(("model", "window"), [("claude-haiku-4-5", 200_000), ("claude-sonnet-5", 1_000_000)])
def test_a_reply_past_the_context_window_stops_with_model_context_window_exceeded(model, window):
    def ask(prompt_tokens):  # a prompt of about that many of the model's own tokens
        share = 13 if model == "claude-haiku-4-5" else 10  # the older tokenizer counts 10 for 13
        prompt = "あ" * (prompt_tokens * share // 10)
        return Emulator([say("答えです。" * 400)]).respond(
            {"model": model, "max_tokens": 8000, "messages": [{"role": "user", "content": prompt}]}
        )

    status, _, body = ask(window - 500)
    assert status == 200 and body["stop_reason"] == "model_context_window_exceeded"
    assert window - 600 < body["usage"]["input_tokens"] < window
    assert body["usage"]["input_tokens"] + body["usage"]["output_tokens"] <= window
    assert body["content"][-1]["text"] and len(body["content"][-1]["text"]) < len("答えです。" * 400)
    # A prompt that leaves room for the whole answer gets it: the window is counted in the model's tokens.
    status, _, body = ask(window - 20_000)
    assert status == 200 and body["stop_reason"] == "end_turn" and body["content"][-1]["text"] == "答えです。" * 400


@pytest.mark.parametrize("model", ["claude-haiku-4-5", "claude-sonnet-5"])
def test_a_max_tokens_stop_reports_max_tokens_output_tokens_in_either_tokenizer(model):
    status, _, body = Emulator([say("答えです。" * 400)]).respond(
        {"model": model, "max_tokens": 300, "messages": [{"role": "user", "content": "q"}]}
    )
    assert status == 200 and body["stop_reason"] == "max_tokens"
    assert body["usage"]["output_tokens"] == 300


@pytest.mark.parametrize("model", ["claude-haiku-4-5", "claude-sonnet-5"])
@pytest.mark.parametrize("max_tokens", [12, 13])
def test_a_call_cut_before_it_starts_still_bills_every_token_allowed(model, max_tokens):
    # The text fits, the call after it does not start: the reply stopped on max_tokens, so it used them all
    # ("exactly the requested tokens"), not only what the text before the call cost.
    script = [reply("Let me check the time now please", call("write_file", path="a" * 40, content="b" * 80))]
    status, _, body = Emulator(script).respond(
        {
            "model": model,
            "max_tokens": max_tokens,
            "messages": [{"role": "user", "content": "q"}],
            "tools": TOOLS,
            "thinking": {"type": "disabled"},
        }
    )
    assert status == 200 and body["stop_reason"] == "max_tokens"
    assert [b["type"] for b in body["content"]] == ["text"]
    assert body["usage"]["output_tokens"] == max_tokens


@pytest.mark.parametrize("model", ["claude-haiku-4-5", "claude-sonnet-5"])
@pytest.mark.parametrize("max_tokens", [300, 1024, 4097])
def test_a_scripted_max_tokens_stop_bills_every_token_allowed(model, max_tokens):
    # The script writes a short cut-off call, but a reply that ran out of max_tokens used all of them.
    status, _, body = Emulator("max_tokens").respond(
        {"model": model, "max_tokens": max_tokens, "messages": [{"role": "user", "content": "レポートを書いて"}]}
    )
    assert status == 200 and body["stop_reason"] == "max_tokens"
    assert body["usage"]["output_tokens"] == max_tokens
