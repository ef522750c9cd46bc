"""A reply that ``max_tokens`` cuts, thinking shown or not: never more output than the limit, and what a loop
that sends a reply cut inside its thinking back gets (docs/api_facts.md, "Checked on 2026-12-07 (round seven)")."""

import warnings

import pytest

from harness_lab.emulator import emulated_client, say

LONG = "長い答えを書きます。" * 20
SUMMARIZED = {"type": "adaptive", "display": "summarized"}


def ask(model, max_tokens, thinking=SUMMARIZED, stream=False, script=(LONG,)):
    client = emulated_client([say(text) for text in script], max_retries=0)
    body = {"model": model, "max_tokens": max_tokens, "thinking": thinking}
    messages = [{"role": "user", "content": "説明して"}]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        if stream:
            with client.messages.stream(**body, messages=messages) as events:
                return events.get_final_message()
        return client.messages.create(**body, messages=messages)


@pytest.mark.parametrize("model", ["claude-sonnet-5", "claude-opus-4-6", "claude-sonnet-4-6"])
@pytest.mark.parametrize("max_tokens", [8, 30, 60, 120])
def test_a_reply_with_summarized_thinking_reports_no_more_output_than_its_max_tokens(model, max_tokens):
    # "max_tokens is still the hard limit on total output, thinking plus text" [S5]; a reply it cut reports
    # exactly the limit [the stop reasons page]. The summary's text was billed but left out of the room.
    reply = ask(model, max_tokens)
    assert reply.usage.output_tokens <= max_tokens
    if reply.stop_reason == "max_tokens":
        assert reply.usage.output_tokens == max_tokens
    assert reply.usage.output_tokens_details.thinking_tokens <= reply.usage.output_tokens


def test_a_reply_that_ends_with_summarized_thinking_fits_in_its_max_tokens():
    roomy = ask("claude-sonnet-4-6", 4096, script=("短い答え。",))
    assert roomy.stop_reason == "end_turn"
    tight = ask("claude-sonnet-4-6", roomy.usage.output_tokens - 1, script=("短い答え。",))
    assert tight.stop_reason == "max_tokens"


def test_a_reply_cut_inside_its_thinking_streams_the_signed_block_it_returns():
    whole, streamed = ask("claude-sonnet-5", 8), ask("claude-sonnet-5", 8, stream=True)
    assert [b.type for b in streamed.content] == [b.type for b in whole.content] == ["thinking"]
    assert streamed.content[0].signature == whole.content[0].signature != ""


def test_a_reply_cut_inside_its_thinking_goes_back_with_a_nudge_to_continue():
    # vellum-ai/vellum-assistant #39487: a loop continued such thinking-only replies again and again, no 400.
    client = emulated_client([say(LONG), say("続きです。")], max_retries=0)
    body = {"model": "claude-sonnet-5", "thinking": SUMMARIZED}
    history = [{"role": "user", "content": "説明して"}]
    cut = client.messages.create(**body, max_tokens=8, messages=history)
    history += [{"role": "assistant", "content": cut.content}, {"role": "user", "content": "続けて"}]
    assert client.messages.create(**body, max_tokens=4096, messages=history).stop_reason == "end_turn"
