"""Every validation rule through the real SDK: exception class, status, error type and exact text."""

import anthropic
import pytest

from harness_lab.emulator import call, emulated_client, reply, say

MODEL = "claude-sonnet-5"
TOOLS = [
    {"name": "get_time", "description": "the time", "input_schema": {"type": "object", "properties": {}}},
    {
        "name": "read_file",
        "description": "read",
        "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}},
    },
]


def use(id_="toolu_01A", name="get_time", **input):
    return {"type": "tool_use", "id": id_, "name": name, "input": input}


def result(id_="toolu_01A", content="ok"):
    return {"type": "tool_result", "tool_use_id": id_, "content": content}


def text(value):
    return {"type": "text", "text": value}


@pytest.fixture
def client():
    return emulated_client([say("了解しました。")], max_retries=0)


def rejected(client, status=400, error_type="invalid_request_error", **request):
    request.setdefault("model", MODEL)
    request.setdefault("max_tokens", 1024)
    with pytest.raises(anthropic.APIStatusError) as caught:
        client.messages.create(**request)
    error = caught.value
    assert error.status_code == status
    assert error.type == error_type
    assert error.body["request_id"].startswith("req_011C")
    assert error.request_id == error.body["request_id"]
    return error


def test_tool_use_without_results_in_the_next_message(client):
    messages = [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": [use("toolu_A"), use("toolu_B")]},
        {"role": "user", "content": "続けて"},
    ]
    error = rejected(client, messages=messages, tools=TOOLS)
    assert isinstance(error, anthropic.BadRequestError)
    assert error.api_message == (
        "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_A, toolu_B. "
        "Each `tool_use` block must have a corresponding `tool_result` block in the next message."
    )


def test_text_before_the_results_counts_as_missing(client):
    messages = [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": [use("toolu_A")]},
        {"role": "user", "content": [text("結果です"), result("toolu_A")]},
    ]
    error = rejected(client, messages=messages, tools=TOOLS)
    assert error.api_message.startswith(
        "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_A."
    )


def test_only_one_of_two_parallel_results(client):
    messages = [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": [use("toolu_A"), use("toolu_B")]},
        {"role": "user", "content": [result("toolu_A")]},
    ]
    error = rejected(client, messages=messages, tools=TOOLS)
    assert "immediately after: toolu_B. Each" in error.api_message


def test_result_for_an_unknown_tool_use_id(client):
    messages = [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": [use("toolu_A")]},
        {"role": "user", "content": [result("toolu_A"), result("toolu_X")]},
    ]
    error = rejected(client, messages=messages, tools=TOOLS)
    assert error.api_message == (
        "messages.2.content.1: unexpected `tool_use_id` found in `tool_result` blocks: toolu_X. "
        "Each `tool_result` block must have a corresponding `tool_use` block in the previous message."
    )


def test_text_only_history_gets_the_unexpected_id_error(client):
    """The article's anti-pattern: the assistant turn kept only as text, the tool_use dropped."""
    messages = [
        {"role": "user", "content": "大阪の今の気温を教えて"},
        {"role": "assistant", "content": "現在の大阪の気象情報を調べます。"},
        {"role": "user", "content": [result("toolu_01Abc")]},
    ]
    error = rejected(client, messages=messages, tools=TOOLS)
    assert error.api_message.startswith(
        "messages.2.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_01Abc."
    )


def test_a_tool_use_answered_twice_in_one_message(client):
    messages = [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": [use("toolu_A")]},
        {"role": "user", "content": [result("toolu_A"), result("toolu_A", "もう一度")]},
    ]
    error = rejected(client, messages=messages, tools=TOOLS)
    assert error.api_message == (
        "messages.2.content.1: each tool_use must have a single result. "
        "Found multiple `tool_result` blocks with id: toolu_A"
    )


def test_a_tool_use_answered_twice_across_merged_user_messages(client):
    # a retried tool appended a second result message: merged, it is one message with two results
    messages = [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": [use("toolu_A"), use("toolu_B")]},
        {"role": "user", "content": [result("toolu_A"), result("toolu_B")]},
        {"role": "user", "content": [result("toolu_B")]},
    ]
    error = rejected(client, messages=messages, tools=TOOLS)
    assert error.api_message.startswith("messages.2.content.2: each tool_use must have a single result.")


def test_a_stray_result_is_located_in_the_merged_message(client):
    # invalid even after merging: the path is the first original message and the merged block index
    messages = [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": [use("toolu_A")]},
        {"role": "user", "content": [result("toolu_A")]},
        {"role": "user", "content": [result("toolu_X")]},
    ]
    error = rejected(client, messages=messages, tools=TOOLS)
    assert error.api_message.startswith(
        "messages.2.content.1: unexpected `tool_use_id` found in `tool_result` blocks: toolu_X."
    )


def test_text_in_a_merged_assistant_message_before_the_results_still_counts_as_missing(client):
    messages = [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": [use("toolu_A")]},
        {"role": "assistant", "content": "続けます"},
        {"role": "user", "content": "どうぞ"},
        {"role": "user", "content": [result("toolu_A")]},
    ]
    error = rejected(client, messages=messages, tools=TOOLS)
    assert error.api_message.startswith(
        "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_A."
    )


@pytest.mark.parametrize("content", ["", "  \n", [], None, [text(" ")]])
def test_an_error_result_with_nothing_to_read_is_refused(client, content):
    # str(TimeoutError()) is "": a run_tools that puts only the message in gets this 400 live
    failed = {"type": "tool_result", "tool_use_id": "toolu_A", "is_error": True}
    if content is not None:
        failed["content"] = content
    messages = [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": [use("toolu_A")]},
        {"role": "user", "content": [failed]},
    ]
    error = rejected(client, messages=messages, tools=TOOLS)
    assert error.api_message == "messages.2.content.0.tool_result: content cannot be empty if `is_error` is true"
    messages[2]["content"] = [{**failed, "content": "TimeoutError"}]  # saying what failed, it goes through
    assert client.messages.create(model=MODEL, max_tokens=1024, messages=messages, tools=TOOLS).content


@pytest.mark.parametrize(
    ("schema", "said"),
    [
        ({}, "tools.0.custom.input_schema.type: Field required"),  # a no-argument tool written short
        ({"properties": {"path": {"type": "string"}}}, "tools.0.custom.input_schema.type: Field required"),
        ({"anyOf": [{"type": "object"}]}, "tools.0.custom.input_schema.type: Field required"),
        ({"type": "string"}, "tools.0.custom.input_schema.type: Input should be 'object'"),
        (
            {"type": "object", "oneOf": [{"required": ["a"]}, {"required": ["b"]}]},
            "tools.0.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level",
        ),
    ],
)
def test_a_tools_input_schema_is_an_object_at_its_top(client, schema, said):
    tools = [{"name": "get_time", "description": "the time", "input_schema": schema}]
    error = rejected(client, messages=[{"role": "user", "content": "q"}], tools=tools)
    assert error.api_message == said


def test_tool_blocks_without_tools(client):
    messages = [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": [use("toolu_A")]},
        {"role": "user", "content": [result("toolu_A")]},
    ]
    error = rejected(client, messages=messages)
    assert error.api_message == "Requests which include `tool_use` or `tool_result` blocks must define tools."


def test_empty_content_except_final_assistant(client):
    messages = [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": []},
        {"role": "user", "content": "r"},
    ]
    error = rejected(client, messages=messages)
    assert error.api_message == (
        "messages.1: all messages must have non-empty content except for the optional final assistant message"
    )
    # The final assistant message may be empty, where a model takes a prefill at all (Claude 4.5) ...
    prefilled = [{"role": "user", "content": "q"}, {"role": "assistant", "content": []}]
    ok = client.messages.create(model="claude-haiku-4-5", max_tokens=1024, messages=prefilled)
    assert ok.stop_reason == "end_turn"
    # ... and the course's model takes none.
    assert rejected(client, messages=prefilled).api_message.startswith("This model does not support assistant")


def test_empty_text_block(client):
    error = rejected(client, messages=[{"role": "user", "content": [text("")]}])
    assert error.api_message == "messages: text content blocks must be non-empty"


def test_whitespace_only_text_block(client):
    error = rejected(client, messages=[{"role": "user", "content": [text(" \n ")]}])
    assert error.api_message == "messages: text content blocks must contain non-whitespace text"


def test_final_assistant_trailing_whitespace(client):
    messages = [{"role": "user", "content": "q"}, {"role": "assistant", "content": "答えは "}]
    error = rejected(client, messages=messages)
    assert error.api_message == "messages: final assistant content cannot end with trailing whitespace"


def test_tool_use_id_pattern(client):
    messages = [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": [text("x"), use("toolu 01")]},
        {"role": "user", "content": [result("toolu 01")]},
    ]
    error = rejected(client, messages=messages, tools=TOOLS)
    assert error.api_message == "messages.1.content.1.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'"


def test_tool_use_ids_must_be_unique_within_one_message(client):
    messages = [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": [use("toolu_A"), use("toolu_A", "read_file", path="a")]},
        {"role": "user", "content": [result("toolu_A"), result("toolu_A")]},
    ]
    error = rejected(client, messages=messages, tools=TOOLS)
    assert error.api_message == "messages.1.content.1: `tool_use` ids must be unique"


def test_tool_use_ids_must_be_unique_across_the_conversation(client):
    # a harness that replays an old id in a later turn (hand-built ids, say) is caught at the repeat
    messages = [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": [use("toolu_A")]},
        {"role": "user", "content": [result("toolu_A")]},
        {"role": "assistant", "content": [text("もう一度"), use("toolu_A")]},
        {"role": "user", "content": [result("toolu_A")]},
    ]
    error = rejected(client, messages=messages, tools=TOOLS)
    assert error.api_message == "messages.3.content.1: `tool_use` ids must be unique"


@pytest.mark.parametrize("name", ["天気を調べる", "files.read", "read file", "   "])
def test_a_tool_name_outside_the_pattern_gets_the_live_400(client, name):
    # The live text names a 128-character bound (claude-sonnet-5 probed in 2026: mangowhoiscloud/geode #632,
    # an Odoo integration's staging probes; Claude Code reports since mid-2025), not the 64 of early 2025.
    tools = [{"name": name, "description": "x", "input_schema": {"type": "object"}}]
    error = rejected(client, messages=[{"role": "user", "content": "q"}], tools=tools)
    assert error.api_message == "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'"


def test_a_tool_name_over_the_documented_64_characters_is_refused_offline(client):
    # The docs' tool definition still says {1,64}: offline keeps the stricter bound, in pydantic's words
    # (inferred), so a name that passes here passes live too.
    messages = [{"role": "user", "content": "q"}]
    tools = [{"name": "a" * 65, "description": "x", "input_schema": {"type": "object"}}]
    error = rejected(client, messages=messages, tools=tools)
    assert error.api_message == "tools.0.custom.name: String should have at most 64 characters"
    tools[0]["name"] = "a" * 64
    assert client.messages.create(model=MODEL, max_tokens=64, messages=messages, tools=tools).stop_reason == "end_turn"


def test_duplicate_tool_names(client):
    error = rejected(client, messages=[{"role": "user", "content": "q"}], tools=[TOOLS[0], TOOLS[0]])
    assert error.api_message == "tools: Tool names must be unique."


def test_a_tool_list_all_deferred_leaves_the_model_nothing_to_start_with(client):
    deferred = [{**tool, "defer_loading": True} for tool in TOOLS]
    error = rejected(client, messages=[{"role": "user", "content": "q"}], tools=deferred)
    assert error.api_message == "All tools have defer_loading set. At least one tool must be non-deferred."
    mixed = [TOOLS[0], *deferred[1:]]  # one tool loaded from the start is enough
    reply = client.messages.create(model=MODEL, max_tokens=64, messages=[{"role": "user", "content": "q"}], tools=mixed)
    assert reply.stop_reason == "end_turn"


def test_a_strict_tool_closes_every_object_in_its_schema(client):
    nested = {"type": "object", "properties": {"city": {"type": "string"}}}
    closed = {
        "type": "object",
        "properties": {"where": {**nested, "additionalProperties": False}},
        "additionalProperties": False,
    }
    request = {"messages": [{"role": "user", "content": "q"}]}
    open_inside = {**closed, "properties": {"where": nested}}
    for schema in ({**closed, "additionalProperties": True}, open_inside, {**closed, "$defs": {"x": nested}}):
        tools = [TOOLS[0], {"name": "find", "description": "x", "input_schema": schema, "strict": True}]
        error = rejected(client, tools=tools, **request)
        assert (
            error.api_message
            == "tools.1.custom: For 'object' type, 'additionalProperties' must be explicitly set to false"
        )
    tools = [{"name": "find", "description": "x", "input_schema": closed, "strict": True}]
    assert client.messages.create(model=MODEL, max_tokens=64, tools=tools, **request).stop_reason == "end_turn"
    tools = [{"name": "find", "description": "x", "input_schema": open_inside}]  # not strict: open objects are fine
    assert client.messages.create(model=MODEL, max_tokens=64, tools=tools, **request).stop_reason == "end_turn"


def test_extra_top_level_field(client):
    error = rejected(client, messages=[{"role": "user", "content": "q"}], extra_body={"temperature": 0.2})
    assert error.api_message == "temperature: Extra inputs are not permitted"


def test_unknown_model_is_404(client):
    error = rejected(
        client,
        status=404,
        error_type="not_found_error",
        model="claude-3-opus-20240229",
        messages=[{"role": "user", "content": "q"}],
    )
    assert isinstance(error, anthropic.NotFoundError)
    assert error.api_message == "model: claude-3-opus-20240229"


@pytest.mark.parametrize(("model", "window"), [("claude-haiku-4-5", 200_000), (MODEL, 1_000_000)])
def test_prompt_too_long(client, model, window):
    huge = "あ" * (window + 10_000) * 2  # over the window in either tokenizer (docs/api_facts.md)
    error = rejected(client, model=model, messages=[{"role": "user", "content": huge}])
    count = client.messages.count_tokens(model=model, messages=[{"role": "user", "content": huge}]).input_tokens
    assert count > window
    assert error.api_message == f"prompt is too long: {count} tokens > {window} maximum"
    # Just inside the window it is accepted.
    fits = "あ" * (window - 100)
    assert client.messages.create(model=model, max_tokens=1024, messages=[{"role": "user", "content": fits}])


def test_max_tokens_cannot_be_negative(client):
    error = rejected(client, messages=[{"role": "user", "content": "q"}], max_tokens=-1)
    assert error.api_message == "max_tokens: must be greater than or equal to 0"  # the live text (round five)


def test_empty_messages(client):
    error = rejected(client, messages=[])
    assert error.api_message == "messages: at least one message is required"


def test_bad_role(client):
    error = rejected(client, messages=[{"role": "tool", "content": "q"}])
    assert error.api_message == 'messages: Unexpected role "tool". Allowed roles are "user" or "assistant".'


def test_unknown_path_is_404(client):
    with pytest.raises(anthropic.NotFoundError):
        client.post("/v1/nowhere", body={}, cast_to=object)


# -- valid histories the real API accepts ---------------------------------------------------------


def test_parallel_results_in_one_message_then_text_after_results(client):
    messages = [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": [text("両方調べます"), use("toolu_A"), use("toolu_B", "read_file", path="a")]},
        {"role": "user", "content": [result("toolu_A"), result("toolu_B"), text("日本語で答えて")]},
    ]
    assert (
        client.messages.create(model=MODEL, max_tokens=1024, messages=messages, tools=TOOLS).stop_reason == "end_turn"
    )


def test_consecutive_same_role_messages_are_merged():
    client = emulated_client([call("get_time"), say("二回目")], max_retries=0)
    first = client.messages.create(
        model=MODEL, max_tokens=1024, tools=TOOLS, messages=[{"role": "user", "content": "q"}]
    )
    call_id = next(b.id for b in first.content if b.type == "tool_use")
    # The model's own message first: a thinking turn must still start with its thinking block once merged.
    messages = [
        {"role": "user", "content": "q"},
        {"role": "user", "content": "もう一つ"},
        {"role": "assistant", "content": first.content},
        {"role": "assistant", "content": [text("調べます")]},
        {"role": "user", "content": [result(call_id)]},
        {"role": "user", "content": "ありがとう"},
    ]
    second = client.messages.create(model=MODEL, max_tokens=1024, tools=TOOLS, messages=messages)
    # two assistant messages merged: one assistant turn, so the list script's second reply
    assert [b.text for b in second.content if b.type == "text"] == ["二回目"]


def test_text_after_a_tool_use_in_a_second_assistant_message_is_accepted(client):
    # valid only once merged: the tool_use's own message is followed by another assistant message
    messages = [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": [use("toolu_A")]},
        {"role": "assistant", "content": "続けます"},
        {"role": "user", "content": [result("toolu_A")]},
    ]
    assert (
        client.messages.create(model=MODEL, max_tokens=1024, messages=messages, tools=TOOLS).stop_reason == "end_turn"
    )


def test_parallel_results_split_over_two_user_messages_are_accepted(client):
    messages = [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": [use("toolu_A"), use("toolu_B")]},
        {"role": "user", "content": [result("toolu_A")]},
        {"role": "user", "content": [result("toolu_B")]},
    ]
    assert (
        client.messages.create(model=MODEL, max_tokens=1024, messages=messages, tools=TOOLS).stop_reason == "end_turn"
    )


def test_sdk_echo_with_citations_null_and_caller_is_accepted(client):
    messages = [
        {"role": "user", "content": "q"},
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "調べます", "citations": None},
                {**use("toolu_A"), "caller": {"type": "direct"}},
            ],
        },
        {"role": "user", "content": [{**result("toolu_A"), "is_error": False}]},
    ]
    assert (
        client.messages.create(model=MODEL, max_tokens=1024, messages=messages, tools=TOOLS).stop_reason == "end_turn"
    )


def test_assistant_first_and_tool_choice_none_are_accepted(client):
    messages = [{"role": "assistant", "content": "こんにちは"}, {"role": "user", "content": "q"}]
    response = client.messages.create(
        model=MODEL, max_tokens=1024, messages=messages, tools=TOOLS, tool_choice={"type": "none"}
    )
    assert response.stop_reason == "end_turn"


def test_validation_runs_before_the_script_and_records_the_request():
    client = emulated_client([reply("never", call("get_time"))], max_retries=0)
    with pytest.raises(anthropic.BadRequestError):
        client.messages.create(model=MODEL, max_tokens=1024, messages=[{"role": "user", "content": [text("")]}])
    from harness_lab.emulator import emulator_of

    assert len(emulator_of(client).requests) == 1
