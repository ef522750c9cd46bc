"""Round five's rules from live 400 texts recorded whole: a proxy's conformance rows of direct API observations on
claude-sonnet-5 (CT, 2026-08-31) and a client's system message texts verified on claude-opus-5-5 (OC, 2026-10-06),
each sent through the real client to claude-sonnet-5 (docs/api_facts.md, "Checked on 2026-12-07 (round five)")."""

from tests.emulator.api_rules_probe_kit import ASK, TOOL, client, create, rule

ANYWHERE = "; the directive-only form (content: [] with output_config) is accepted at any position"
USER = {"role": "user", "content": "a"}
LATER = {"role": "user", "content": "b"}
ASSISTANT = {"role": "assistant", "content": "ok"}
IMAGE = {
    "type": "image",
    "source": {
        "type": "base64",
        "media_type": "image/png",
        "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
    },
}


def system(content="sys") -> dict:
    return {"role": "system", "content": content}


def answer(**fields) -> str:
    """The request's 400 text, or "taken"."""
    try:
        create(**fields)
    except Exception as exc:
        body = getattr(exc, "body", None)
        return body["error"]["message"] if isinstance(body, dict) else str(exc)
    return "taken"


@rule("CT, OC, TP")
def system_first() -> bool:
    """a leading system message: `messages.0: use the top-level 'system' parameter for the initial system prompt…`"""
    text = "messages.0: use the top-level 'system' parameter for the initial system prompt" + ANYWHERE
    return answer(messages=[system(), USER]) == text and answer(messages=[system("  "), USER]) == text


@rule("OC")
def system_after_assistant() -> bool:
    """a system message after an assistant's text: `role 'system' must follow a 'user' message …`"""
    text = "role 'system' must follow a 'user' message or an 'assistant' message ending in a server tool result"
    return answer(messages=[USER, ASSISTANT, system(), LATER]) == f"messages.2: {text}{ANYWHERE}"


@rule("CT, OC")
def system_before_user() -> bool:
    """a system section before a user message is reported at its last message"""
    text = f"role 'system' must precede an 'assistant' message or end the array{ANYWHERE}"
    one = answer(messages=[USER, system(), LATER]) == f"messages.1: {text}"
    return one and answer(messages=[USER, system("1"), system("2"), LATER]) == f"messages.2: {text}"


@rule("CT")
def system_empty_first() -> bool:
    """an empty system content is told so before its place is judged, at the head too"""
    text = "system content must contain at least one block"
    inside = answer(messages=[USER, system([]), LATER]) == f"messages.1: {text}"
    return inside and answer(messages=[system([]), USER]) == f"messages.0: {text}"


@rule("CT, OC")
def system_blocks_first() -> bool:
    """an image in a system message: `role 'system' supports text, tool_addition, and tool_removal blocks only`"""
    text = "role 'system' supports text, tool_addition, and tool_removal blocks only"
    inside = answer(messages=[USER, system([IMAGE]), LATER]) == f"messages.1: {text}"
    return inside and answer(messages=[system([IMAGE]), USER]) == f"messages.0: {text}"


@rule("CT")
def system_blank_last() -> bool:
    """blank system text is `system text blocks must contain non-whitespace text`, after the place rules"""
    blank = answer(messages=[USER, system("  ")]) == "messages.1: system text blocks must contain non-whitespace text"
    placed = answer(messages=[USER, system("  "), LATER]).startswith("messages.1: role 'system' must precede")
    return blank and placed


@rule("CT")
def system_sections_taken() -> bool:
    """a system run that ends the array or precedes an assistant is taken"""
    ends = answer(messages=[USER, system("1"), system("2"), system("3")])
    return ends == "taken" and answer(messages=[USER, system("1"), system("2"), ASSISTANT, LATER]) == "taken"


@rule("CT")
def any_without_tools() -> bool:
    """tool_choice any without tools: `tool_choice.any may only be specified while providing tools`"""
    return answer(tool_choice={"type": "any"}) == "tool_choice.any may only be specified while providing tools"


@rule("CT")
def forced_tool_not_declared() -> bool:
    """tool_choice tool naming a tool the request lacks, with tools or without: `Tool 'x' not found in provided tools`"""
    named = answer(tools=[TOOL], tool_choice={"type": "tool", "name": "never_declared"})
    bare = answer(tool_choice={"type": "tool", "name": "x"})
    return (
        named == "Tool 'never_declared' not found in provided tools" and bare == "Tool 'x' not found in provided tools"
    )


@rule("CT")
def negative_max_tokens() -> bool:
    """max_tokens -1: `max_tokens: must be greater than or equal to 0`"""
    return answer(max_tokens=-1) == "max_tokens: must be greater than or equal to 0"


@rule("CT")
def empty_model() -> bool:
    """model "": a 400 `model: String should have at least 1 character`, not the unknown id's 404"""
    return answer(model="") == "model: String should have at least 1 character"


@rule("CT")
def tool_name_lengths() -> bool:
    """a blank tool name is `String should have at least 1 character`; a name of spaces breaks the pattern"""
    blank = answer(tools=[{**TOOL, "name": ""}]) == "tools.0.custom.name: String should have at least 1 character"
    spaces = answer(tools=[{**TOOL, "name": "   "}])
    return blank and spaces == "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'"


@rule("CT")
def strict_tool_closed() -> bool:
    """a strict tool whose object is open: `tools.0.custom: For 'object' type, 'additionalProperties' must be …`"""
    text = "tools.0.custom: For 'object' type, 'additionalProperties' must be explicitly set to false"
    return answer(tools=[{**TOOL, "strict": True}]) == text


@rule("CT")
def no_messages() -> bool:
    """messages []: `messages: at least one message is required`"""
    return answer(messages=[]) == "messages: at least one message is required"


@rule("CT")
def service_tier_values() -> bool:
    """an unknown service_tier: `service_tier: Input should be 'auto' or 'standard_only'`"""
    return answer(service_tier="bogus") == "service_tier: Input should be 'auto' or 'standard_only'"


@rule("CT")
def unknown_message_member() -> bool:
    """an unknown key in a message: `messages.0.bogus: Extra inputs are not permitted`"""
    fields = {"messages": [{**ASK[0], "bogus": 1}]}
    return answer(**fields) == "messages.0.bogus: Extra inputs are not permitted"


@rule("CT, DR")
def inference_geo_type() -> bool:
    """inference_geo 7: `inference_geo: Input should be a valid string`"""
    try:
        client().messages.create(model="claude-sonnet-5", max_tokens=16, messages=ASK, extra_body={"inference_geo": 7})
    except Exception as exc:
        return getattr(exc, "body", {})["error"]["message"] == "inference_geo: Input should be a valid string"
    return False


# Round six: the three CT texts round five left, with the live reports that quote them (docs/api_facts.md,
# "Checked on 2026-12-07 (round six)").


@rule("CT, LQ")
def unknown_role() -> bool:
    """an unknown role: `messages: Unexpected role "tool". Allowed roles are "user" or "assistant".`"""
    texts = [answer(messages=[{"role": role, "content": "a"}]) for role in ("tool", "bogus")]
    return texts == [
        f'messages: Unexpected role "{role}". Allowed roles are "user" or "assistant".' for role in ("tool", "bogus")
    ]


@rule("CT, LQ")
def untyped_block() -> bool:
    """a block or tool_choice without `type`: `messages.0.content.0.type: Field required`"""
    block = (
        answer(messages=[{"role": "user", "content": [{"text": "a"}]}]) == "messages.0.content.0.type: Field required"
    )
    return block and answer(tools=[TOOL], tool_choice={}) == "tool_choice.type: Field required"


@rule("CT, LQ")
def container_without_code_execution() -> bool:
    """a container id without the code execution tool: `container: Container identifier can only be provided…`"""
    text = "container: Container identifier can only be provided when using the code execution tool"
    with_tool = answer(container="container_x", tools=[{"type": "code_execution_20250825", "name": "code_execution"}])
    return answer(container="container_x") == text and with_tool == "taken"
