"""A block in the other role's message is the API's 400: the SDK's MessageParam takes any block in either role."""

import anthropic
import pytest

from harness_lab.emulator import emulated_client, say

TOOL = {"name": "get_time", "description": "the time", "input_schema": {"type": "object", "properties": {}}}
ASK = {"role": "user", "content": "今何時?"}


def refusal(messages: list) -> str:
    client = emulated_client([say("x")], max_retries=0)
    with pytest.raises(anthropic.BadRequestError) as caught:
        client.messages.create(model="claude-sonnet-5", max_tokens=1024, tools=[TOOL], messages=messages)
    return caught.value.body["error"]["message"]


def test_a_tool_result_in_an_assistant_message_is_refused():
    result = {"type": "tool_result", "tool_use_id": "toolu_01", "content": "12:00"}
    messages = [ASK, {"role": "assistant", "content": [result]}, {"role": "user", "content": "で?"}]
    assert refusal(messages) == "messages.1: `tool_result` blocks can only be in `user` messages"


@pytest.mark.parametrize(
    "block",
    [
        {"type": "tool_use", "id": "toolu_01", "name": "get_time", "input": {}},
        {"type": "server_tool_use", "id": "srvtoolu_01", "name": "web_search", "input": {"query": "x"}},
        {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_01", "content": []},
    ],
)
def test_the_models_blocks_in_a_user_message_are_refused(block):
    messages = [
        ASK,
        {"role": "assistant", "content": "はい"},
        {"role": "user", "content": [{"type": "text", "text": "?"}, block]},
    ]
    assert refusal(messages) == f"messages.2: `{block['type']}` blocks can only be in `assistant` messages"


@pytest.mark.parametrize(
    "block", [{"type": "thinking", "thinking": "x", "signature": "abc"}, {"type": "redacted_thinking", "data": "abc"}]
)
def test_thinking_in_a_user_message_is_refused(block):
    messages = [{"role": "user", "content": [block, {"type": "text", "text": "今何時?"}]}]
    assert refusal(messages) == "messages.0.content: thinking blocks may only be in `assistant` messages"


def test_each_block_in_its_own_role_is_taken():
    client = emulated_client([say("12時です")], max_retries=0)
    use = {"type": "tool_use", "id": "toolu_01", "name": "get_time", "input": {}}
    result = {"type": "tool_result", "tool_use_id": "toolu_01", "content": "12:00"}
    messages = [ASK, {"role": "assistant", "content": [use]}, {"role": "user", "content": [result]}]
    reply = client.messages.create(model="claude-sonnet-5", max_tokens=1024, tools=[TOOL], messages=messages)
    assert reply.stop_reason == "end_turn"
