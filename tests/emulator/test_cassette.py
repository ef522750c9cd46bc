"""Record a run to a cassette (no credentials in it), then replay it offline exactly."""

import asyncio
import json

import anthropic
import httpx2

from harness_lab.emulator import Emulator
from harness_lab.emulator.transport import handler_for
from harness_lab.trace import recording_async_client, recording_client, replay_async_client, replay_client

SECRET = "sk-ant-test-SECRET"
TOOLS = [
    {
        "name": "read_file",
        "description": "read",
        "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}},
    },
    {"name": "get_time", "description": "time", "input_schema": {"type": "object", "properties": {}}},
]
OUTPUTS = {"read_file": "# タイトル\n本文", "get_time": "2026-08-26T10:42:07+08:00"}


def drive(client):
    messages = [{"role": "user", "content": "README.md の1行目を読んで、それから今何時か教えて"}]
    seen = []
    while True:
        response = client.messages.create(model="claude-sonnet-5", max_tokens=512, tools=TOOLS, messages=messages)
        seen.append(response.to_dict())
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            break
        messages.append(
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": b.id, "content": OUTPUTS[b.name]}
                    for b in response.content
                    if b.type == "tool_use"
                ],
            }
        )
    with client.messages.stream(model="claude-sonnet-5", max_tokens=512, tools=TOOLS, messages=messages[:1]) as stream:
        seen.append(stream.get_final_message().to_dict())
    return seen


def test_record_then_replay_exactly_and_no_secret_in_the_cassette(tmp_path, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-env-ALSO-SECRET")
    path = tmp_path / "run.json"
    emulated = httpx2.MockTransport(handler_for(Emulator("lesson6", faults={2: "529"})))
    recorder = recording_client(path, api_key=SECRET, transport=emulated, base_url="https://emulator.invalid")
    recorded = drive(recorder)
    text = path.read_text(encoding="utf-8")
    assert SECRET not in text and "sk-ant-env-ALSO-SECRET" not in text
    assert "authorization" not in text.lower() and "x-api-key" not in text.lower()
    assert SECRET not in repr(recorder.cassette)
    cassette = json.loads(text)
    statuses = [i["response"]["status"] for i in cassette["interactions"]]
    assert statuses == [200, 529, 200, 200, 200]  # the 529 and its retry are recorded as they happened
    assert cassette["interactions"][-1]["response"]["body"].startswith("event: message_start")

    replayed = drive(replay_client(path))
    assert replayed == recorded  # thinking blocks included: their signatures come back byte for byte
    assert all(r["content"][0]["type"] == "thinking" and r["content"][0]["signature"] for r in recorded)
    assert "README.md の1行目は「# タイトル」" in recorded[2]["content"][1]["text"]


def test_replay_of_an_unrecorded_request_is_a_clear_400(tmp_path):
    path = tmp_path / "empty.json"
    path.write_text(json.dumps({"version": 1, "interactions": []}))
    client = replay_client(path, max_retries=0)
    try:
        client.messages.create(model="claude-sonnet-5", max_tokens=5, messages=[{"role": "user", "content": "q"}])
    except anthropic.BadRequestError as error:
        assert "no recorded response" in error.api_message
    else:
        raise AssertionError("an unrecorded request must not be answered")


def test_async_record_and_replay(tmp_path):
    path = tmp_path / "async.json"
    request = {
        "model": "claude-sonnet-5",
        "max_tokens": 64,
        "tools": TOOLS,
        "messages": [{"role": "user", "content": "q"}],
    }

    async def main():
        emulated = httpx2.MockTransport(handler_for(Emulator("lesson6")))
        recorder = recording_async_client(path, api_key=SECRET, transport=emulated, base_url="https://emulator.invalid")
        first = await recorder.messages.create(**request)
        again = await replay_async_client(path).messages.create(**request)
        return first, again

    first, again = asyncio.run(main())
    assert first.to_dict() == again.to_dict()
    assert SECRET not in path.read_text(encoding="utf-8")
