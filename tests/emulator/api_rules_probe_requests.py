"""The probe's rules on requests: errors and their headers, messages, tools, where each block may stand."""

from harness_lab.emulator import call, reply, say, think
from tests.emulator.api_rules_probe_kit import ASK, MODEL, TOOL, client, create, refusal, refused_with, rule

# ---- errors and their headers ---------------------------------------------------------------------


@rule("ER, RL")
def overloaded_has_no_retry_after() -> bool:
    """a 529 carries no retry-after (only a 429 does)"""
    exc = refusal(lambda: client(faults={1: "529"}).messages.create(model=MODEL, max_tokens=64, messages=ASK))
    return exc is not None and exc.status_code == 529 and "retry-after" not in exc.response.headers


@rule("ER")
def overloaded_says_should_retry() -> bool:
    """a 529 carries x-should-retry: true"""
    exc = refusal(lambda: client(faults={1: "529"}).messages.create(model=MODEL, max_tokens=64, messages=ASK))
    return exc is not None and exc.response.headers.get("x-should-retry") == "true"


# ---- the message ----------------------------------------------------------------------------------


@rule("MR")
def message_shape() -> bool:
    """a reply is type message, role assistant, id msg_, stop_details null, container null"""
    raw = create()
    return raw.type == "message" and raw.role == "assistant" and raw.id.startswith("msg_") and raw.stop_details is None


@rule("MR, SDK Usage")
def usage_fields() -> bool:
    """usage has cache_creation (5m and 1h) and service_tier standard"""
    usage = create().usage
    return (
        usage.cache_creation is not None
        and usage.cache_creation.ephemeral_5m_input_tokens == 0
        and usage.cache_creation.ephemeral_1h_input_tokens == 0
        and usage.service_tier == "standard"
        and usage.cache_read_input_tokens == 0
    )


@rule("MR")
def consecutive_user_turns_merge() -> bool:
    """two user messages in a row are taken (combined into one turn)"""
    return (
        create(messages=[{"role": "user", "content": "a"}, {"role": "user", "content": "b"}]).stop_reason == "end_turn"
    )


@rule("MR")
def max_tokens_negative_refused() -> bool:
    """max_tokens below 0 is a 400"""
    return refusal(lambda: create(max_tokens=-1)) is not None


@rule("MR")
def service_tier_bad_value() -> bool:
    """service_tier must be auto or standard_only"""
    return refusal(lambda: create(service_tier="priority")) is not None


# ---- tools ----------------------------------------------------------------------------------------


@rule("TU")
def tool_choice_auto_without_tools() -> bool:
    """tool_choice auto without tools is taken"""
    return create(tool_choice={"type": "auto"}).stop_reason == "end_turn"


@rule("TU")
def tool_use_input_must_be_object() -> bool:
    """a tool_use input that is not an object is a 400"""
    use = {"type": "tool_use", "id": "toolu_01", "name": "get_time", "input": "now"}
    result = {"type": "tool_result", "tool_use_id": "toolu_01", "content": "12:00"}
    messages = [*ASK, {"role": "assistant", "content": [use]}, {"role": "user", "content": [result]}]
    return refusal(lambda: create(tools=[TOOL], messages=messages)) is not None


@rule("TU")
def tool_use_id_format() -> bool:
    """a tool call's id starts toolu_ and its input is an object"""
    message = create([call("get_time")], tools=[TOOL])
    use = next(b for b in message.content if b.type == "tool_use")
    return use.id.startswith("toolu_") and use.input == {} and message.stop_reason == "tool_use"


@rule("TU")
def parallel_results_in_one_message() -> bool:
    """two calls answered in two user messages is a 400 (results go in one message)"""
    message = create([reply(call("get_time"), call("get_time")), say("ok")], tools=[TOOL])
    uses = [b for b in message.content if b.type == "tool_use"]
    if len(uses) != 2:
        return False
    history = [*ASK, {"role": "assistant", "content": [b.model_dump(exclude_none=True) for b in message.content]}]
    first = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": uses[0].id, "content": "1"}]}
    second = {"role": "assistant", "content": "..."}
    third = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": uses[1].id, "content": "2"}]}
    return refusal(lambda: create(tools=[TOOL], messages=[*history, first, second, third])) is not None


@rule("TU")
def is_error_result_taken() -> bool:
    """a tool_result with is_error and text is taken"""
    message = create([call("get_time"), say("ok")], tools=[TOOL])
    use = next(b for b in message.content if b.type == "tool_use")
    history = [*ASK, {"role": "assistant", "content": [b.model_dump(exclude_none=True) for b in message.content]}]
    result = {"type": "tool_result", "tool_use_id": use.id, "content": "failed", "is_error": True}
    return create(tools=[TOOL], messages=[*history, {"role": "user", "content": [result]}]).stop_reason is not None


@rule("TU")
def tool_without_description_taken() -> bool:
    """a custom tool without description is taken"""
    return create(tools=[{"name": "t", "input_schema": {"type": "object"}}]).stop_reason is not None


@rule("TU")
def input_schema_type_must_be_object() -> bool:
    """an input_schema whose type is not object is a 400"""
    return refusal(lambda: create(tools=[{"name": "t", "input_schema": {"type": "string"}}])) is not None


# ---- caching --------------------------------------------------------------------------------------


@rule("PC")
def cache_control_on_thinking_refused() -> bool:
    """cache_control on a thinking block is a 400"""
    message = create([reply(think("考える"), call("get_time")), say("ok")], tools=[TOOL])
    blocks = [b.model_dump(exclude_none=True) for b in message.content]
    blocks[0]["cache_control"] = {"type": "ephemeral"}
    use = next(b for b in message.content if b.type == "tool_use")
    result = {"type": "tool_result", "tool_use_id": use.id, "content": "12:00"}
    messages = [*ASK, {"role": "assistant", "content": blocks}, {"role": "user", "content": [result]}]
    return refusal(lambda: create(tools=[TOOL], messages=messages)) is not None


# ---- from a live probe of claude-haiku-4-5 (2026-08-28, TP) -----------------------------


def _tool_turn(script, **fields):
    """The first reply of a tool turn and the history up to it."""
    message = create(script, tools=[TOOL], **fields)
    return message, [*ASK, {"role": "assistant", "content": [b.model_dump(exclude_none=True) for b in message.content]}]


@rule("TP")
def tool_choice_string_refused() -> bool:
    """tool_choice as a bare string is 'tool_choice: Input should be an object'"""
    return refused_with(lambda: create(tools=[TOOL], tool_choice="auto"), "tool_choice: Input should be an object")


@rule("TP")
def tool_choice_openai_tag_refused() -> bool:
    """tool_choice {type: required} names the four tags"""
    return refused_with(
        lambda: create(tools=[TOOL], tool_choice={"type": "required"}),
        "tool_choice: Input tag 'required' found using 'type' does not match any of the expected tags: 'auto', 'any', 'tool', 'none'",
    )


@rule("TP")
def openai_tool_spelling_refused() -> bool:
    """a tool with parameters instead of input_schema is 'tools.0.custom.input_schema: Field required'"""
    tool = {"name": "get_time", "parameters": {"type": "object"}}
    return refused_with(lambda: create(tools=[tool]), "tools.0.custom.input_schema: Field required")


@rule("TP")
def tool_result_without_id_refused() -> bool:
    """a tool_result without tool_use_id is 'messages.2.content.0.tool_result.tool_use_id: Field required'"""
    _, history = _tool_turn([call("get_time"), say("ok")])
    result = {"type": "tool_result", "content": "12:00"}
    return refused_with(
        lambda: create(tools=[TOOL], messages=[*history, {"role": "user", "content": [result]}]),
        "messages.2.content.0.tool_result.tool_use_id: Field required",
    )


@rule("TP")
def tool_result_in_assistant_text() -> bool:
    """the text: messages.1: `tool_result` blocks can only be in `user` messages"""
    result = {"type": "tool_result", "tool_use_id": "toolu_01", "content": "x"}
    messages = [*ASK, {"role": "assistant", "content": [result]}, {"role": "user", "content": "ok"}]
    return refused_with(
        lambda: create(tools=[TOOL], messages=messages),
        "messages.1: `tool_result` blocks can only be in `user` messages",
    )


@rule("TP")
def parallel_calls_by_default() -> bool:
    """without disable_parallel_tool_use two calls come back in one reply"""
    message, _ = _tool_turn([reply(call("get_time"), call("get_time"))])
    return sum(b.type == "tool_use" for b in message.content) == 2


@rule("TP")
def tool_choice_named_calls_it() -> bool:
    """tool_choice tool: stop_reason tool_use with that tool"""
    message, _ = _tool_turn(
        [say("text only")], tool_choice={"type": "tool", "name": "get_time"}, thinking={"type": "disabled"}
    )
    return message.stop_reason == "tool_use" and [b.name for b in message.content if b.type == "tool_use"] == [
        "get_time"
    ]


@rule("TP")
def max_tokens_one_stops() -> bool:
    """max_tokens: 1 stops on max_tokens"""
    return create(max_tokens=1, thinking={"type": "disabled"}).stop_reason == "max_tokens"


@rule("TP")
def result_content_forms() -> bool:
    """a tool_result's content as a string or as a list of blocks: both 200"""
    done = []
    for content in ("12:00", [{"type": "text", "text": "12:00"}]):
        message, history = _tool_turn([call("get_time"), say("ok")])
        use = next(b for b in message.content if b.type == "tool_use")
        result = {"type": "tool_result", "tool_use_id": use.id, "content": content}
        done.append(
            create([say("ok")], tools=[TOOL], messages=[*history, {"role": "user", "content": [result]}]).stop_reason
        )
    return done == ["end_turn", "end_turn"]


@rule("TP")
def stream_index_counts_every_block() -> bool:
    """streamed text then a call: the call's block index is 1"""
    c = client([reply(say("見ます"), call("get_time"))])
    events = list(
        c.messages.create(
            model=MODEL, max_tokens=1024, messages=ASK, tools=[TOOL], stream=True, thinking={"type": "disabled"}
        )
    )
    starts = [(e.index, e.content_block.type) for e in events if e.type == "content_block_start"]
    return starts == [(0, "text"), (1, "tool_use")]


# ---- which role holds which block (PL) ------------------------------------------------


@rule("PL")
def tool_use_in_user_text() -> bool:
    """the text: messages.0: `tool_use` blocks can only be in `assistant` messages"""
    block = {"type": "tool_use", "id": "toolu_01", "name": "get_time", "input": {}}
    return refused_with(
        lambda: create(tools=[TOOL], messages=[{"role": "user", "content": [block]}]),
        "messages.0: `tool_use` blocks can only be in `assistant` messages",
    )


@rule("PL")
def server_tool_use_in_user_refused() -> bool:
    """messages.0: `server_tool_use` blocks can only be in `assistant` messages"""
    block = {"type": "server_tool_use", "id": "srvtoolu_01", "name": "web_search", "input": {"query": "x"}}
    return refused_with(
        lambda: create(messages=[{"role": "user", "content": [block]}]),
        "messages.0: `server_tool_use` blocks can only be in `assistant` messages",
    )


@rule("PL")
def search_result_block_in_user_refused() -> bool:
    """messages.0: `web_search_tool_result` blocks can only be in `assistant` messages"""
    block = {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_01", "content": []}
    text = {"type": "text", "text": "hi"}
    return refused_with(
        lambda: create(messages=[{"role": "user", "content": [text, block]}]),
        "messages.0: `web_search_tool_result` blocks can only be in `assistant` messages",
    )


@rule("PL")
def redacted_thinking_in_user_refused() -> bool:
    """a redacted_thinking block in a user message is a 400"""
    block = {"type": "redacted_thinking", "data": "abc"}
    return refused_with(
        lambda: create(messages=[{"role": "user", "content": [block, {"type": "text", "text": "hi"}]}]),
        "may only be in `assistant` messages",
    )


@rule("MR")
def empty_content_list_text() -> bool:
    """content [] in a user message: messages.0: all messages must have non-empty content"""
    return refused_with(
        lambda: create(messages=[{"role": "user", "content": []}]),
        "messages.0: all messages must have non-empty content",
    )


@rule("MR")
def svg_image_refused() -> bool:
    """an image/svg+xml image is a 400"""
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/svg+xml", "data": "aGk="}}
    return (
        refusal(lambda: create(messages=[{"role": "user", "content": [image, {"type": "text", "text": "?"}]}]))
        is not None
    )
