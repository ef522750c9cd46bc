"""Round four, item 9: what the emulator used to accept with a 200 is the API's 400, and scripts obey tool_choice."""

import base64

import pytest

from harness_lab.emulator import call, emulated_client, parameters, reply, say, tool_choice
from tests.emulator.refusals import refusal_of

MODEL = "claude-sonnet-5"
TOOLS = [
    {"name": "get_time", "description": "the time", "input_schema": {"type": "object", "properties": {}}},
    {
        "name": "read_file",
        "description": "read",
        "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
    },
]
CACHE = {"type": "ephemeral"}
PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"\x00" * 32).decode()
JPEG = base64.b64encode(b"\xff\xd8\xff\xe0" + b"\x00" * 32).decode()


def create(script=None, **fields):
    client = emulated_client(list(script or [say("はい")]), max_retries=0)
    request = {"model": MODEL, "max_tokens": 1024, "messages": [{"role": "user", "content": "q"}], **fields}
    return client.messages.create(**request)


def refused(**fields) -> str:
    return refusal_of(lambda: create(**fields))


def marked(text):
    return {"type": "text", "text": text, "cache_control": CACHE}


def test_five_cache_breakpoints_are_refused_four_are_not():
    system = [marked("a"), marked("b"), marked("c"), marked("d")]
    assert create(system=system).stop_reason == "end_turn"
    assert (
        refused(system=[*system, marked("e")]) == "A maximum of 4 blocks with cache_control may be provided. Found 5."
    )
    # The top-level (automatic) breakpoint takes one of the four slots.
    assert refused(system=system, cache_control=CACHE).endswith("Found 5.")
    tools = [{**t, "cache_control": CACHE} for t in TOOLS]
    messages = [{"role": "user", "content": [marked("q"), marked("r"), marked("s")]}]
    assert refused(tools=tools, messages=messages).endswith("Found 5.")
    # Blocks inside a tool_result count too (there, as anywhere, a text block may carry cache_control).
    used = {"type": "tool_use", "id": "toolu_01", "name": "get_time", "input": {}}
    result = {"type": "tool_result", "tool_use_id": "toolu_01", "content": [marked("12:00"), marked("JST")]}
    history = [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": [used]},
        {"role": "user", "content": [result]},
    ]
    assert create(tools=TOOLS, system=system[:2], messages=history).stop_reason == "end_turn"
    assert refused(tools=TOOLS, system=system[:3], messages=history).endswith("Found 5.")


def test_forced_tool_choice_needs_tools_and_a_tool_it_knows():
    # The live texts (direct observations on claude-sonnet-5, 2026-08-31; docs/api_facts.md, round five).
    assert refused(tool_choice={"type": "any"}) == "tool_choice.any may only be specified while providing tools"
    assert refused(tool_choice={"type": "tool", "name": "get_time"}) == "Tool 'get_time' not found in provided tools"
    assert (
        refused(tools=TOOLS, tool_choice={"type": "tool", "name": "rm_rf"})
        == "Tool 'rm_rf' not found in provided tools"
    )
    assert create(tools=TOOLS, tool_choice={"type": "tool", "name": "get_time"}).stop_reason == "tool_use"
    assert create(tool_choice={"type": "none"}).stop_reason == "end_turn"  # none and auto need no tools
    assert create(tool_choice={"type": "auto"}).stop_reason == "end_turn"


@pytest.mark.parametrize("sequence", ["", " ", "\n", "\t \n"])
def test_blank_stop_sequences_are_refused(sequence):
    assert refused(stop_sequences=["###", sequence]) == "stop_sequences: each stop sequence must contain non-whitespace"


def test_empty_or_blank_system_text_blocks_are_refused():
    assert refused(system=[{"type": "text", "text": ""}]) == parameters.SYSTEM_EMPTY
    assert refused(system=[{"type": "text", "text": "ok"}, {"type": "text", "text": "  "}]) == parameters.SYSTEM_BLANK
    assert create(system="").stop_reason == "end_turn"  # an empty string system prompt is no block


def test_an_over_long_user_id_is_refused():
    assert create(metadata={"user_id": "u" * parameters.MAX_USER_ID}).stop_reason == "end_turn"
    assert refused(metadata={"user_id": "u" * (parameters.MAX_USER_ID + 1)}) == parameters.USER_ID_TOO_LONG


def test_base64_bytes_must_be_the_media_type_they_claim():
    def image(data, media_type):
        return {"type": "image", "source": {"type": "base64", "media_type": media_type, "data": data}}

    claimed_jpeg = [{"role": "user", "content": [image(PNG, "image/jpeg"), {"type": "text", "text": "何の画像?"}]}]
    assert refused(messages=claimed_jpeg) == (
        "messages.0.content.0.image.source.base64: The image was specified using the image/jpeg media type, "
        "but the image appears to be a image/png image"
    )
    assert create(messages=[{"role": "user", "content": [image(JPEG, "image/jpeg")]}]).stop_reason == "end_turn"
    inside = [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_A", "name": "get_time", "input": {}}]},
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "toolu_A", "content": [image(JPEG, "image/png")]}],
        },
    ]
    assert refused(tools=TOOLS, messages=inside).startswith(
        "messages.2.content.0.tool_result.content.0.image.source.base64: The image was specified using the image/png"
    )


# -- scripts obey tool_choice ---------------------------------------------------------------------


def calls(response):
    return [(b.name, b.input) for b in response.content if b.type == "tool_use"]


def test_tool_choice_none_gets_text_only():
    response = create([call("get_time")], tools=TOOLS, tool_choice={"type": "none"})
    assert calls(response) == [] and response.stop_reason == "end_turn"
    assert [b.type for b in response.content] == ["thinking", "text"]


def test_any_and_a_named_tool_get_a_call_of_an_allowed_tool_and_no_text_first():
    answer = [reply("答えます", call("get_time"))]
    forced = create(answer, tools=TOOLS, tool_choice={"type": "tool", "name": "read_file"})
    assert calls(forced) == [("read_file", {"path": ""})] and [b.type for b in forced.content] == ["tool_use"]
    anyone = create([say("ツールなしで答えます")], tools=TOOLS, tool_choice={"type": "any"})
    assert calls(anyone) == [("get_time", {})] and anyone.stop_reason == "tool_use"
    kept = create(answer, tools=TOOLS, tool_choice={"type": "any"})
    assert calls(kept) == [("get_time", {})] and [b.type for b in kept.content] == ["tool_use"]


def test_disable_parallel_tool_use_gets_one_call_per_reply():
    two = [reply(call("get_time"), call("read_file", path="a.txt"))]
    assert len(calls(create(two, tools=TOOLS))) == 2
    for choice in ({"type": "auto"}, {"type": "any"}):
        one = create(two, tools=TOOLS, tool_choice={**choice, "disable_parallel_tool_use": True})
        assert calls(one) == [("get_time", {})], choice


def test_the_model_calls_only_the_tools_the_request_defines():
    # Live, the tools reach the model as a system prompt built from the request's definitions: a loop
    # that forgot tools=, or renamed a tool, gets text, not a call its next request must refuse.
    two = [reply("調べます。", call("get_time"), call("read_file", path="a.txt"))]
    only_time = create(two, tools=TOOLS[:1])
    assert calls(only_time) == [("get_time", {})] and only_time.stop_reason == "tool_use"
    none = create(two)
    assert calls(none) == [] and none.stop_reason == "end_turn" and none.content[-1].text == "調べます。"
    bare = create([call("read_file", path="a.txt")])
    assert bare.stop_reason == "end_turn" and bare.content[-1].text in tool_choice._NO_TOOL_TEXT.values()
