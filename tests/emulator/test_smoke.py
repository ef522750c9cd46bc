"""The emulator's core round trip through the real SDK (lesson 6's demo)."""

import anthropic

from harness_lab.emulator import Emulator, call, emulated_client, emulator_of, reply, respond, say

TOOLS = [
    {
        "name": "read_file",
        "description": "read a file",
        "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}},
    },
    {"name": "get_time", "description": "the time", "input_schema": {"type": "object", "properties": {}}},
]
TASK = "README.md の1行目を読んで、それから今何時か教えて"
OUTPUTS = {"read_file": "# エージェントハーネスの基礎\n...", "get_time": "2026-08-26T10:42:07+08:00"}


def run_lesson6(client):
    messages = [{"role": "user", "content": TASK}]
    while True:
        response = client.messages.create(model="claude-sonnet-5", max_tokens=1024, messages=messages, tools=TOOLS)
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            return response, messages
        results = [
            {"type": "tool_result", "tool_use_id": b.id, "content": OUTPUTS[b.name]}
            for b in response.content
            if b.type == "tool_use"
        ]
        messages.append({"role": "user", "content": results})


def test_lesson6_round_trip_quotes_the_tool_results():
    client = emulated_client("lesson6")
    assert isinstance(client, anthropic.Anthropic)
    response, messages = run_lesson6(client)
    assert isinstance(response, anthropic.types.Message)
    assert response.stop_reason == "end_turn"
    assert [b.text for b in response.content if b.type == "text"] == [
        "README.md の1行目は「# エージェントハーネスの基礎」で、いまは 2026年8月26日の 10:42 です。"
        "ツール呼び出し2ターン、モデルへのリクエスト3回で終わりました。"
    ]
    # The default model thinks: every response starts with a thinking block, sent back whole.
    replies = [m["content"] for m in messages if m["role"] == "assistant"]
    assert all(content[0].type == "thinking" and content[0].signature for content in replies)
    calls = [b.name for m in messages if m["role"] == "assistant" for b in m["content"] if b.type == "tool_use"]
    assert calls == ["read_file", "get_time"]
    assert len(emulator_of(client).requests) == 3


def test_same_request_gives_identical_bytes_from_fresh_emulators():
    request = {
        "model": "claude-sonnet-5",
        "max_tokens": 1024,
        "messages": [{"role": "user", "content": TASK}],
        "tools": TOOLS,
    }
    first = respond(request, "lesson6")
    second = Emulator("lesson6").respond(request)
    assert first == second
    status, headers, body = first
    assert status == 200 and headers["request-id"].startswith("req_011C")
    assert body["id"].startswith("msg_01") and body["content"][1]["id"].startswith("toolu_01")


def test_list_script_picks_by_assistant_turns_and_repeats_the_last():
    emulator = Emulator([reply("調べます", call("get_time"), call("read_file", path="a.txt")), say("終わり")])
    base = {"model": "claude-sonnet-5", "max_tokens": 1024, "tools": TOOLS}
    _, _, first = emulator.respond({**base, "messages": [{"role": "user", "content": "x"}]})
    assert [b["type"] for b in first["content"]] == ["thinking", "text", "tool_use", "tool_use"]
    assert first["stop_reason"] == "tool_use"
    ids = [b["id"] for b in first["content"][2:]]
    assert len(set(ids)) == 2
    history = [
        {"role": "user", "content": "x"},
        {"role": "assistant", "content": first["content"]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": i, "content": "ok"} for i in ids]},
    ]
    for extra in ([], [{"role": "assistant", "content": "a"}, {"role": "user", "content": "b"}]):
        status, _, body = emulator.respond({**base, "messages": history + extra})
        assert status == 200 and body["content"][1:] == [{"type": "text", "text": "終わり"}]
        assert body["stop_reason"] == "end_turn"
