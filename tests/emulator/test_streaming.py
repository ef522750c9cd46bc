"""Streaming over SSE, sync and async: the final message equals the non-streamed reply."""

import asyncio
import json

import anthropic

from harness_lab.emulator import call, emulated_async_client, emulated_client, reply, say

MODEL = "claude-sonnet-5"
TOOLS = [
    {
        "name": "read_file",
        "description": "read",
        "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}},
    }
]
LONG = "長い説明です。" * 30 + " and some English text to split across several deltas."
SCRIPT = [reply(LONG, call("read_file", path="docs/長い名前のファイル.md")), say("")]
REQUEST = {"model": MODEL, "max_tokens": 1024, "tools": TOOLS, "messages": [{"role": "user", "content": "読んで"}]}


def test_stream_final_message_equals_create():
    client = emulated_client(SCRIPT)
    created = client.messages.create(**REQUEST)
    with client.messages.stream(**REQUEST) as stream:
        texts = list(stream.text_stream)
        final = stream.get_final_message()
    assert len(texts) > 1 and "".join(texts) == LONG
    assert final.to_dict() == created.to_dict()
    assert final.usage.output_tokens == created.usage.output_tokens > 1
    assert final.content[0].type == "thinking" and final.content[0].signature == created.content[0].signature
    assert final.content[2].input == {"path": "docs/長い名前のファイル.md"}


def wire_events(client, **request) -> list[str]:
    """The event names as sent (the SDK's iterator skips pings, so the raw lines are read)."""
    with client.messages.with_streaming_response.create(**request, stream=True) as response:
        return [line.removeprefix("event: ") for line in response.iter_lines() if line.startswith("event: ")]


def test_the_ping_comes_after_the_first_block_opens():
    # The streaming page's example and live recordings (docs/api_facts.md, round five): message_start,
    # content_block_start, then ping; a stream without blocks (a refusal before any output) pings once anyway.
    events = wire_events(emulated_client(SCRIPT), **REQUEST)
    assert events[:3] == ["message_start", "content_block_start", "ping"] and events.count("ping") == 1
    assert wire_events(emulated_client("refusal"), **REQUEST)[:2] == ["message_start", "ping"]


def test_create_stream_true_yields_the_real_event_sequence():
    client = emulated_client(SCRIPT)
    events = [e.type for e in client.messages.create(**REQUEST, stream=True)]
    assert events[0] == "message_start" and events[-2:] == ["message_delta", "message_stop"]
    assert events.count("content_block_start") == events.count("content_block_stop") == 3
    deltas = [e for e in client.messages.create(**REQUEST, stream=True) if e.type == "content_block_delta"]
    kinds = [d.delta.type for d in deltas]
    # Thinking (text omitted by default) arrives as its signature; then the text and the call.
    assert kinds[0] == "signature_delta" and set(kinds[1:]) == {"text_delta", "input_json_delta"}
    summarized = client.messages.create(**REQUEST, stream=True, thinking={"type": "adaptive", "display": "summarized"})
    kinds = [e.delta.type for e in summarized if e.type == "content_block_delta"]
    assert kinds[0] == "thinking_delta" and "signature_delta" in kinds


def test_stream_of_an_empty_end_turn_and_of_an_error():
    client = emulated_client(SCRIPT, max_retries=0)
    history = REQUEST["messages"] + [
        {"role": "assistant", "content": client.messages.create(**REQUEST).content},
    ]
    tool_id = history[-1]["content"][2].id
    history.append({"role": "user", "content": [{"type": "tool_result", "tool_use_id": tool_id, "content": "x"}]})
    with client.messages.stream(**{**REQUEST, "messages": history}) as stream:
        final = stream.get_final_message()
    assert [b.type for b in final.content] == ["thinking"] and final.stop_reason == "end_turn"
    try:
        with client.messages.stream(
            **{**REQUEST, "messages": history[:2] + [{"role": "user", "content": "x"}]}
        ) as stream:
            stream.get_final_message()
    except anthropic.BadRequestError as error:
        assert "without `tool_result` blocks" in error.api_message
    else:
        raise AssertionError("a bad history must be rejected on the streaming path too")


def test_async_client_create_and_stream():
    async def main():
        client = emulated_async_client(SCRIPT)
        assert isinstance(client, anthropic.AsyncAnthropic)
        created = await client.messages.create(**REQUEST)
        async with client.messages.stream(**REQUEST) as stream:
            final = await stream.get_final_message()
        events = [e.type async for e in await client.messages.create(**REQUEST, stream=True)]
        return created, final, events

    created, final, events = asyncio.run(main())
    assert final.to_dict() == created.to_dict()
    assert created.stop_reason == "tool_use"
    assert events[0] == "message_start" and events[-1] == "message_stop"


def test_the_thinking_tokens_arrive_with_the_final_usage_not_before():
    client = emulated_client([say("はい")], max_retries=0)
    request = {"model": "claude-sonnet-5", "max_tokens": 1024, "messages": [{"role": "user", "content": "q"}]}
    whole = client.messages.create(**request)
    with client.messages.stream(**request) as stream:
        events = list(stream)
        final = stream.get_final_message()
    start = next(e for e in events if e.type == "message_start")
    assert start.message.usage.output_tokens_details.thinking_tokens == 0
    assert whole.usage.output_tokens_details.thinking_tokens > 0
    assert final.usage == whole.usage


def test_a_server_tools_call_streams_its_input_as_a_tool_call_does():
    """The streaming page's web search example: ``server_tool_use`` starts with an empty input that
    ``input_json_delta`` events fill, as the SDK's accumulator expects; its result arrives whole."""
    client = emulated_client("pause_turn", max_retries=0)
    request = {**REQUEST, "tools": [*TOOLS, {"type": "web_search_20250305", "name": "web_search"}]}
    created = client.messages.create(**request)
    events = list(client.messages.create(**request, stream=True))
    index = next(i for i, b in enumerate(created.content) if b.type == "server_tool_use")
    start = next(e for e in events if e.type == "content_block_start" and e.index == index)
    pieces = [e.delta.partial_json for e in events if e.type == "content_block_delta" and e.index == index]
    assert start.content_block.input == {} and pieces
    assert json.loads("".join(pieces)) == created.content[index].input != {}
    with client.messages.stream(**request) as stream:
        assert stream.get_final_message().to_dict() == created.to_dict()
