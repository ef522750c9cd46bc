"""``Emulator.answered``: the public hook a subclass records served Messages with (the lesson checks'
``CourseModel`` does), called once per Message sent, streamed or not, never for a rejected request
or the dry run that recognises a resent pause_turn reply."""

import anthropic
import pytest

from harness_lab.emulator import Emulator, emulated_client, say

MODEL = "claude-sonnet-5"
SEARCH = {"type": "web_search_20250305", "name": "web_search"}


class Noting(Emulator):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.noted: list[dict] = []

    def answered(self, message):
        self.noted.append(message)


def ask(client, **request):
    return {"model": MODEL, "max_tokens": 1024, "messages": [{"role": "user", "content": "こんにちは"}], **request}


def test_every_served_message_is_handed_to_the_hook_once():
    emulator = Noting([say("はい。")])
    client = emulated_client(emulator, max_retries=0)
    plain = client.messages.create(**ask(client))
    with client.messages.stream(**ask(client, max_tokens=2048)) as stream:
        streamed = stream.get_final_message()
    assert [m["id"] for m in emulator.noted] == [plain.id, streamed.id]
    assert emulator.noted[1]["usage"]["output_tokens"] == streamed.usage.output_tokens


def test_a_rejected_request_is_not_served():
    emulator = Noting([say("はい。")])
    client = emulated_client(emulator, max_retries=0)
    with pytest.raises(anthropic.BadRequestError):
        client.messages.create(**ask(client, messages=[{"role": "user", "content": " "}]))
    assert emulator.noted == []


def test_resending_a_paused_turn_serves_only_the_continuation():
    emulator = Noting("pause_turn")
    client = emulated_client(emulator, max_retries=0)
    first = client.messages.create(**ask(client, tools=[SEARCH]))
    assert first.stop_reason == "pause_turn"
    messages = [{"role": "user", "content": "こんにちは"}, {"role": "assistant", "content": first.content}]
    second = client.messages.create(**ask(client, tools=[SEARCH], messages=messages))
    # recognising the resent reply answers the earlier request again, quietly: not a served Message
    assert [m["id"] for m in emulator.noted] == [first.id, second.id]
