"""``thinking.block_binding`` and a response's ``input_transformations`` exist only under the
``thinking-binding-controls-2026-08-01`` beta (the preserved thinking page, "Set the mismatch behavior and read
``input_transformations``")."""

from __future__ import annotations

import anthropic
import pytest

from harness_lab import messages as hl_messages
from harness_lab.emulator import call, emulated_client, say
from harness_lab.emulator.models import BINDING_BETA

TOOLS = [{"name": "get_time", "description": "the time", "input_schema": {"type": "object", "properties": {}}}]
DROP = {"type": "adaptive", "block_binding": {"prefix_mismatch_behavior": "drop_block"}}


def test_block_binding_without_the_beta_header_is_a_400():
    # "Sending it without the beta header returns a 400 error."
    client = emulated_client([say("done")], max_retries=0)
    ask = {"model": "claude-fable-5-1", "max_tokens": 64, "messages": [{"role": "user", "content": "q"}]}
    with pytest.raises(anthropic.BadRequestError) as caught:
        client.messages.create(**ask, thinking=DROP)
    assert caught.value.api_message == "thinking.adaptive.block_binding: Extra inputs are not permitted"
    assert client.beta.messages.create(**ask, thinking=DROP, betas=[BINDING_BETA]).stop_reason == "end_turn"


def test_a_dropped_block_is_listed_under_the_beta_header_and_silent_without_it():
    # "Under the beta header, every response from a thinking-capable model carries `input_transformations`.
    # It's empty when nothing was dropped"; "Without the header, the drop is silent."
    client = emulated_client([call("get_time"), say("done"), say("done"), say("done")], max_retries=0)
    history = [{"role": "user", "content": "What time is it?"}]
    first = client.messages.create(model="claude-sonnet-5-5", max_tokens=2048, tools=TOOLS, messages=history)
    assert "input_transformations" not in first.to_dict()
    results = [hl_messages.tool_result(c["id"], "ok") for c in hl_messages.tool_calls(first.content)]
    history += [hl_messages.assistant(first.content), hl_messages.user(results)]
    ask = {"model": "claude-fable-5-1", "max_tokens": 2048, "tools": TOOLS, "messages": history}
    assert "input_transformations" not in client.messages.create(**ask).to_dict()
    listed = client.beta.messages.create(**ask, betas=[BINDING_BETA]).to_dict()["input_transformations"]
    assert listed == [{"type": "thinking_dropped", "path": "messages.1.content.0", "reason": "model_binding_mismatch"}]
    fresh = client.beta.messages.create(**{**ask, "messages": history[:1]}, betas=[BINDING_BETA])
    assert fresh.to_dict()["input_transformations"] == []


def test_count_tokens_checks_no_signature_and_no_binding():
    # The token counting page counts a history whose thinking block carries an elided signature ("EuYB...",
    # "Count tokens in messages with thinking") and answers its count: count_tokens reads what a request would
    # cost and does not check the blocks messages.create checks (a foreign signature, a prefix edited since).
    client = emulated_client([say("done")], max_retries=0)
    first = client.messages.create(
        model="claude-fable-5-1", max_tokens=1024, messages=[{"role": "user", "content": "q"}]
    )
    edited = [{"role": "user", "content": "q, edited"}, hl_messages.assistant(first.content)]
    edited.append({"role": "user", "content": "and then?"})
    with pytest.raises(anthropic.BadRequestError, match="bound to a different conversation"):
        client.messages.create(model="claude-fable-5-1", max_tokens=1024, messages=edited)
    assert client.messages.count_tokens(model="claude-fable-5-1", messages=edited).input_tokens > 0
    forged = {"type": "thinking", "thinking": "a number theory question", "signature": "EuYBCkQYAiJA..."}
    elided = [edited[0], {"role": "assistant", "content": [forged, {"type": "text", "text": "yes"}]}, edited[2]]
    assert client.messages.count_tokens(model="claude-sonnet-4-6", messages=elided).input_tokens > 0
