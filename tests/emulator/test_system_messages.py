"""Mid-conversation system messages through the real SDK: which models take a ``role: "system"``
message, where in ``messages`` it may stand, what it may hold, and how the scripted model reads it."""

import anthropic
import pytest

from harness_lab.emulator import emulated_client, say
from harness_lab.emulator import models as table
from harness_lab.emulator.models import MODELS
from tests.emulator.refusals import refusal_of

MODEL = "claude-sonnet-5"
USER = {"role": "user", "content": "東京の天気は？"}
SYSTEM = {"role": "system", "content": "ここからは英語で答えてください。"}
ASSISTANT = {"role": "assistant", "content": "晴れです。"}
CALL = {"type": "tool_use", "id": "toolu_01A", "name": "get_time", "input": {}}
TOOLS = [{"name": "get_time", "description": "the time", "input_schema": {"type": "object", "properties": {}}}]
# The live texts (docs/api_facts.md, round five): the place rules end by naming the beta directive-only form.
ANYWHERE = "; the directive-only form (content: [] with output_config) is accepted at any position"
FIRST = "messages.0: use the top-level 'system' parameter for the initial system prompt" + ANYWHERE
AFTER = "role 'system' must follow a 'user' message or an 'assistant' message ending in a server tool result" + ANYWHERE
BEFORE = "role 'system' must precede an 'assistant' message or end the array" + ANYWHERE
BLOCKS = "role 'system' supports text, tool_addition, and tool_removal blocks only"
IMAGE = {"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}}


def create(messages, model=MODEL, script=None, **fields):
    client = emulated_client(script or [say("はい"), say("二回目の答え")], max_retries=0)
    return client.messages.create(model=model, max_tokens=4096, messages=messages, **fields)


def refusal(messages, model=MODEL, **fields) -> str:
    return refusal_of(lambda: create(messages, model, **fields))


@pytest.mark.parametrize("model", sorted(MODELS))
def test_each_model_takes_a_system_message_after_the_user_or_answers_its_own_400(model):
    row = MODELS[model]
    if row.system_role is None:
        assert create([USER, SYSTEM], model).stop_reason == "end_turn", model
    else:
        assert refusal([USER, SYSTEM], model) == row.system_role, model
        client = emulated_client([say("はい")], max_retries=0)
        with pytest.raises(anthropic.BadRequestError) as caught:
            client.messages.count_tokens(model=model, messages=[USER, SYSTEM])
        assert caught.value.api_message == row.system_role, model


def test_the_models_before_opus_4_8_refuse_and_opus_4_8_and_claude_5_take_them():
    takes = {m for m, row in MODELS.items() if row.system_role is None}
    assert {"claude-opus-4-8", "claude-sonnet-5", "claude-opus-5", "claude-sonnet-5-5"} <= takes
    assert not takes & {"claude-opus-4-7", "claude-sonnet-4-6", "claude-opus-4-6", "claude-haiku-4-5"}
    assert MODELS["claude-haiku-4-5-20251001"].system_role == table.SYSTEM_ROLE_UNEXPECTED  # the family's row


@pytest.mark.parametrize("model", ["claude-haiku-4-5", "claude-opus-4-7", "claude-sonnet-5"])
def test_a_leading_system_message_is_told_to_use_the_top_level_field_on_every_model(model):
    # Live on Haiku 4.5 (a probe of 2026-08-28), Sonnet 5 (2026-08-31) and Opus 5.5 (2026-10-06): the first
    # message's text, where a later system message on Haiku 4.5 still gets the model's own refusal.
    assert refusal([SYSTEM, USER], model) == FIRST


@pytest.mark.parametrize(
    "messages, expected",
    [
        ([SYSTEM, USER], FIRST),
        ([USER, ASSISTANT, SYSTEM], f"messages.2: {AFTER}"),
        ([USER, ASSISTANT, SYSTEM, SYSTEM], f"messages.2: {AFTER}"),
        ([USER, SYSTEM, SYSTEM, USER], f"messages.2: {BEFORE}"),
        ([USER, SYSTEM, USER], f"messages.1: {BEFORE}"),
        ([USER, SYSTEM, ASSISTANT, USER, SYSTEM, USER], f"messages.4: {BEFORE}"),
        ([USER, {"role": "system", "content": [{"type": "text", "text": "x"}, IMAGE]}], f"messages.1: {BLOCKS}"),
        (
            [USER, {"role": "system", "content": [{"type": "text", "text": "x", "citations": [{"type": "x"}]}]}],
            "messages.1.content.0.text.citations: a system message's text cannot carry citations",
        ),
        (
            [USER, {"role": "developer", "content": "x"}],
            'messages: Unexpected role "developer". Allowed roles are "user" or "assistant".',
        ),
        (
            [USER, {"role": "system", "content": "  "}],
            "messages.1: system text blocks must contain non-whitespace text",
        ),
    ],
    ids=[
        "first",
        "after-assistant",
        "section-after-assistant",
        "section-before-user",
        "before-user",
        "second-one",
        "image",
        "citations",
        "role",
        "blank",
    ],
)
def test_placement_and_content_rules(messages, expected):
    assert refusal(messages) == expected


def test_a_client_tool_call_must_be_answered_before_any_system_message():
    calling = {"role": "assistant", "content": [CALL]}
    assert refusal([USER, calling, SYSTEM], tools=TOOLS) == f"messages.2: {AFTER}"


def test_side_by_side_system_messages_are_one_section_and_each_is_still_checked():
    second = {"role": "system", "content": [{"type": "text", "text": "短く答えてください。"}]}
    assert create([USER, SYSTEM, second]).stop_reason == "end_turn"
    assert create([USER, SYSTEM, second, ASSISTANT, USER]).stop_reason == "end_turn"
    pictured = {
        "role": "system",
        "content": [{"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "x"}}],
    }
    assert refusal([USER, SYSTEM, pictured]) == f"messages.2: {BLOCKS}"


@pytest.mark.parametrize(
    "messages, expected",
    [
        # The live order (direct observations, 2026-08-31): an empty content and a block that is not text come
        # before the place rules, even at the head; the place rules come before blank text.
        ([USER, {"role": "system", "content": []}, USER], "messages.1: system content must contain at least one block"),
        ([{"role": "system", "content": []}, USER], "messages.0: system content must contain at least one block"),
        ([USER, {"role": "system", "content": [IMAGE]}, USER], f"messages.1: {BLOCKS}"),
        ([{"role": "system", "content": [IMAGE]}, USER], f"messages.0: {BLOCKS}"),
        ([USER, {"role": "system", "content": "  "}, USER], f"messages.1: {BEFORE}"),
        ([{"role": "system", "content": "  "}, USER], FIRST),
        (
            [USER, {"role": "system", "content": [{"type": "text", "text": "x"}, {"type": "text", "text": ""}]}],
            "messages.1: system text blocks must contain non-whitespace text",
        ),
    ],
    ids=[
        "empty-first",
        "empty-at-head",
        "image-first",
        "image-at-head",
        "place-before-blank",
        "blank-at-head",
        "one-blank",
    ],
)
def test_the_rules_come_in_the_live_order(messages, expected):
    assert refusal(messages) == expected


def test_a_system_message_may_follow_an_assistant_turn_that_ends_in_a_server_tool_result():
    search = {"type": "server_tool_use", "id": "srvtoolu_01A", "name": "web_search", "input": {"query": "天気"}}
    found = {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_01A", "content": []}
    searched = {"role": "assistant", "content": [{"type": "text", "text": "調べます。"}, search, found]}
    assert create([USER, searched, SYSTEM]).stop_reason == "end_turn"
    assert refusal([USER, searched, SYSTEM, USER]) == f"messages.2: {BEFORE}"
    asking = {"role": "assistant", "content": [{"type": "text", "text": "調べます。"}, search]}
    assert refusal([USER, asking, SYSTEM]) == f"messages.2: {AFTER}"
    finished = {"role": "assistant", "content": [search, found, {"type": "text", "text": "晴れです。"}]}
    assert refusal([USER, finished, SYSTEM]) == f"messages.2: {AFTER}"


def test_the_script_reads_the_conversation_without_it_and_its_tokens_still_count():
    def script(request):
        return say(" ".join(m["role"] for m in request["messages"]))

    def text_of(reply):
        return [b.text for b in reply.content if b.type == "text"]

    assert text_of(create([USER, ASSISTANT, USER, SYSTEM], script=script)) == ["user assistant user"]
    assert text_of(create([USER, SYSTEM, ASSISTANT, USER], script=script)) == ["user assistant user"]
    listed = create([USER, SYSTEM, ASSISTANT, USER])  # a list script answers by assistant turns
    assert text_of(listed) == ["二回目の答え"]
    plain = create([USER, ASSISTANT, USER])
    assert listed.usage.input_tokens > plain.usage.input_tokens
    client = emulated_client([say("はい")], max_retries=0)
    counted = client.messages.count_tokens(model=MODEL, messages=[USER, SYSTEM]).input_tokens
    assert counted > client.messages.count_tokens(model=MODEL, messages=[USER]).input_tokens


def test_it_keeps_the_cached_prefix_where_editing_the_top_level_system_loses_it():
    client = emulated_client([say("はい")] * 3, max_retries=0)
    material = {"type": "text", "text": "長い資料です。" * 800, "cache_control": {"type": "ephemeral"}}
    history = [{"role": "user", "content": [material]}]
    written = client.messages.create(model=MODEL, max_tokens=256, messages=history).usage
    assert written.cache_creation_input_tokens > 0 and written.cache_read_input_tokens == 0
    added = client.messages.create(model=MODEL, max_tokens=256, messages=[*history, SYSTEM]).usage
    assert added.cache_read_input_tokens == written.cache_creation_input_tokens
    edited = client.messages.create(model=MODEL, max_tokens=256, system=SYSTEM["content"], messages=history).usage
    assert edited.cache_read_input_tokens == 0 and edited.cache_creation_input_tokens > 0
