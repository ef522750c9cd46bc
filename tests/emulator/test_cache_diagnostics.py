"""Cache diagnostics through the real SDK: a request that carries ``diagnostics`` names the response
before it, and its own response says where the two prompts first parted, and how much of the earlier
prompt that cost the cache."""

import anthropic
import pytest

from harness_lab.emulator import Emulator, emulated_client, say

MODEL = "claude-sonnet-5"  # the 2026 tokenizer: the estimate's own units, so token sums are exact
MATERIAL = "長い資料です。" * 800
TOOLS = [
    {"name": "read_file", "description": "ファイルを読む", "input_schema": {"type": "object", "properties": {}}},
    {"name": "list_dir", "description": "一覧を出す", "input_schema": {"type": "object", "properties": {}}},
]
FIRST = [{"role": "user", "content": "要約してください。"}]
SECOND = [*FIRST, {"role": "assistant", "content": "はい、要約します。"}, {"role": "user", "content": "次の節も。"}]


def client():
    return emulated_client([say("はい")] * 20, max_retries=0)


def create(c, messages, previous=None, opt_in=True, **fields):
    request = {"model": MODEL, "max_tokens": 256, "system": MATERIAL, "tools": TOOLS, "messages": messages}
    request["cache_control"] = {"type": "ephemeral"}
    if opt_in:
        request["diagnostics"] = {"previous_message_id": previous}
    return c.messages.create(**{**request, **fields})


def prompt_tokens(reply) -> int:
    u = reply.usage
    return u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens


def reason(reply):
    assert reply.diagnostics is not None, "a comparison that found something answers with a reason"
    return reply.diagnostics.cache_miss_reason


def test_every_response_carries_diagnostics_and_container_as_null_when_not_asked():
    status, _, body = Emulator([say("はい")]).respond({"model": MODEL, "max_tokens": 64, "messages": FIRST})
    assert status == 200
    assert body["diagnostics"] is None and body["container"] is None
    assert "speed" not in body["usage"]


def test_an_appended_turn_diverges_nowhere_and_the_cache_agrees():
    c = client()
    first = create(c, FIRST)
    assert first.diagnostics is None  # the first turn opts in: nothing to compare yet
    second = create(c, SECOND, previous=first.id)
    assert second.diagnostics is None
    assert second.usage.cache_read_input_tokens > 0
    with_system = [*SECOND, {"role": "system", "content": "ここからは短く答えてください。"}]
    assert create(c, with_system, previous=second.id).diagnostics is None


def test_a_changed_system_prompt_is_named_with_the_earlier_prompt_it_cost():
    c = client()
    first = create(c, FIRST)
    edited = create(c, SECOND, previous=first.id, system=MATERIAL + "（2026年12月5日）")
    found = reason(edited)
    assert found.type == "system_changed"
    tools_only = c.messages.count_tokens(model=MODEL, tools=TOOLS, messages=FIRST).input_tokens
    first_message = c.messages.count_tokens(model=MODEL, messages=FIRST).input_tokens
    # the earlier prompt from its system prompt on: all of it but the tools (and the request's own overhead)
    assert found.cache_missed_input_tokens == prompt_tokens(first) - (tools_only - first_message) - 7
    assert edited.usage.cache_read_input_tokens == 0


def test_reordered_tools_and_another_model_are_named_and_cost_the_whole_earlier_prompt():
    c = client()
    first = create(c, FIRST)
    reordered = reason(create(c, SECOND, previous=first.id, tools=TOOLS[::-1]))
    assert (reordered.type, reordered.cache_missed_input_tokens) == ("tools_changed", prompt_tokens(first))
    moved = reason(create(c, SECOND, previous=first.id, model="claude-opus-5"))
    assert (moved.type, moved.cache_missed_input_tokens) == ("model_changed", prompt_tokens(first))
    assert create(c, SECOND, previous=first.id, speed="standard").diagnostics is None  # the default speed


def test_another_speed_is_a_model_change_unless_the_model_ran_at_standard_speed_anyway():
    c = client()
    for model, fast_is_another_model in (("claude-opus-5", True), ("claude-opus-4-6", False)):
        first = create(c, FIRST, model=model)
        fast = create(c, SECOND, previous=first.id, model=model, speed="fast")
        # Opus 4.6 takes speed "fast" and runs at standard speed: the cache it reads is the same
        assert (reason(fast).type == "model_changed") if fast_is_another_model else fast.diagnostics is None, model


def test_an_edited_earlier_message_is_named_with_what_came_after_it():
    c = client()
    second = create(c, SECOND, previous=None)
    edited = [*SECOND[:1], {"role": "assistant", "content": "はい、要約しました。"}, *SECOND[2:]]
    found = reason(
        create(c, [*edited, {"role": "assistant", "content": "x"}, {"role": "user", "content": "y"}], second.id)
    )
    assert found.type == "messages_changed"
    before_it = c.messages.count_tokens(model=MODEL, system=MATERIAL, tools=TOOLS, messages=SECOND[:1]).input_tokens
    assert found.cache_missed_input_tokens == prompt_tokens(second) - before_it
    assert reason(create(c, SECOND[:1], previous=second.id)).type == "messages_changed"  # history cut short


@pytest.mark.parametrize(
    "change",
    [{"thinking": {"type": "disabled"}}, {"tool_choice": {"type": "auto", "disable_parallel_tool_use": True}}],
    ids=["thinking", "tool_choice"],
)
def test_another_prompt_setting_is_unavailable_rather_than_a_place(change):
    c = client()
    first = create(c, FIRST)
    found = reason(create(c, SECOND, previous=first.id, **change))
    assert found.type == "unavailable"


def test_an_unknown_id_or_a_request_that_did_not_opt_in_has_no_fingerprint():
    c = client()
    assert reason(create(c, SECOND, previous="msg_01XyzUnknown")).type == "previous_message_not_found"
    silent = create(c, FIRST, opt_in=False)
    assert silent.diagnostics is None
    assert reason(create(c, SECOND, previous=silent.id)).type == "previous_message_not_found"


def test_a_stream_carries_the_diagnostics_on_message_start():
    c = client()
    first = create(c, FIRST)
    request = {"model": "claude-opus-5", "max_tokens": 256, "system": MATERIAL, "tools": TOOLS, "messages": SECOND}
    with c.messages.stream(**request, diagnostics={"previous_message_id": first.id}) as stream:
        events = list(stream)
        final = stream.get_final_message()
    start = next(e for e in events if e.type == "message_start")
    assert start.message.diagnostics is not None
    assert start.message.diagnostics.cache_miss_reason.type == "model_changed"
    assert final.diagnostics == start.message.diagnostics


def test_the_object_is_checked_and_count_tokens_does_not_take_it():
    c = client()
    with pytest.raises(anthropic.BadRequestError) as caught:
        create(c, FIRST, previous=5)
    assert caught.value.api_message == "diagnostics.previous_message_id: Input should be a valid string"
    with pytest.raises(anthropic.BadRequestError) as caught:
        c.messages.count_tokens(model=MODEL, messages=FIRST, extra_body={"diagnostics": {"previous_message_id": None}})
    assert caught.value.api_message == "diagnostics: Extra inputs are not permitted"


def test_a_requested_speed_and_inference_geo_are_echoed_in_usage():
    status, _, body = Emulator([say("はい")]).respond(
        {"model": "claude-opus-5", "max_tokens": 64, "messages": FIRST, "speed": "fast", "inference_geo": "us"}
    )
    assert status == 200 and body["usage"]["speed"] == "fast" and body["usage"]["inference_geo"] == "us"
    assert (
        Emulator([say("はい")]).respond({"model": MODEL, "max_tokens": 64, "messages": FIRST})[2]["usage"][
            "inference_geo"
        ]
        == "global"
    )
