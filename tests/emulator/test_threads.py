"""The beta server-held thread (``thread``, the SDK's tool_runner default) as the message threads page and the SDK's
error types describe it: a thread the server no longer holds, and a response continued twice, are refused with the
``error_code`` the SDK's thread helper replays on."""

import pytest
from anthropic import beta_tool
from anthropic.types.thread_already_continued_error import ThreadAlreadyContinuedError
from anthropic.types.thread_not_found_error import ThreadNotFoundError

from harness_lab.emulator import call, emulated_client, emulator_of, say

MODEL = "claude-sonnet-5"
THREADS = "message-threads-2026-08-12"
TOOLS = [{"name": "get_time", "description": "the time", "input_schema": {"type": "object", "properties": {}}}]


def _created(client):
    first = client.beta.messages.create(
        model=MODEL,
        max_tokens=1024,
        tools=TOOLS,
        messages=[{"role": "user", "content": "今何時?"}],
        thread={"type": "create"},
        betas=[THREADS],
    )
    call = next(b for b in first.content if b.type == "tool_use")
    return first, [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": call.id, "content": "10:42"}]}]


def _continue(client, previous, messages):
    return client.beta.messages.create(
        model=MODEL,
        max_tokens=1024,
        messages=messages,
        thread={"type": "continue", "previous_message_id": previous},
        betas=[THREADS],
    )


SCRIPT = [call("get_time"), say("10時42分です"), say("10時42分です")]


# The SDK's own tools for its own loop (``tool_runner``), answering as lesson 6's scenario expects.
@beta_tool
def read_file(path: str) -> str:
    """Read a file."""
    return "# タイトル\n本文"


@beta_tool
def get_time() -> str:
    """The current time."""
    return "2026-08-26T10:42:07+08:00"


def test_a_thread_the_server_does_not_hold_is_the_404_whose_code_says_replay():
    client = emulated_client(SCRIPT, max_retries=0)
    first, results = _created(client)
    emulator_of(client).threads.clear()  # live: the thread expired five minutes after its last request
    with pytest.raises(ThreadNotFoundError) as lost:
        _continue(client, first.id, results)
    assert lost.value.status_code == 404 and lost.value.error_code == "thread_not_found"


def test_a_response_is_continued_only_once():
    client = emulated_client(SCRIPT, max_retries=0)
    first, results = _created(client)
    assert _continue(client, first.id, results).stop_reason == "end_turn"
    with pytest.raises(ThreadAlreadyContinuedError) as again:
        _continue(client, first.id, results)
    assert again.value.status_code == 400 and again.value.error_code == "thread_already_continued"


def test_the_sdks_tool_runner_replays_a_thread_the_server_lost():
    client = emulated_client("lesson6", max_retries=0)
    emulator = emulator_of(client)
    runner = client.beta.messages.tool_runner(
        model=MODEL, max_tokens=1024, tools=[read_file, get_time], messages=[{"role": "user", "content": "go"}]
    )
    replies = []
    for message in runner:
        replies.append(message.stop_reason)
        emulator.threads.clear()  # every thread expires before the next turn
    assert replies == ["tool_use", "tool_use", "end_turn"]
    sent = [(r.get("thread", {}).get("type"), len(r["messages"])) for r in emulator.requests]
    lost = [n for n, (kind, _) in enumerate(sent) if kind == "continue"]
    assert lost and all(sent[n + 1][0] != "continue" and sent[n + 1][1] > 1 for n in lost)  # replayed whole


def test_sdk_tool_runner_with_and_without_a_server_held_thread():
    """The SDK's own loop: its default beta thread sends only new messages; both runs see the same replies."""
    runs = []
    for options in ({"thread": False}, {}):
        client = emulated_client("lesson6", max_retries=0)
        runner = client.beta.messages.tool_runner(
            model=MODEL,
            max_tokens=1024,
            tools=[read_file, get_time],
            messages=[{"role": "user", "content": "go"}],
            **options,
        )
        runs.append([m.to_dict() for m in runner])
        sent = emulator_of(client).requests
    assert [r["thread"]["type"] for r in sent] == ["create", "continue", "continue"]
    assert [len(r["messages"]) for r in sent][1:] == [1, 1]  # only the new tool results
    assert runs[0] == runs[1]
    assert [m["stop_reason"] for m in runs[0]] == ["tool_use", "tool_use", "end_turn"]
    assert 'README.md is "# タイトル"' in runs[0][-1]["content"][1]["text"]  # "go" is English: so is the answer
