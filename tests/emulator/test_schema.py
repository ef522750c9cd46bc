"""The schema lists exactly the fields the installed SDK's request types document.

The SDK's types are generated from the API's specification, so a field the schema lacks would be a
valid request refused, and a field it invents would be an invalid one accepted. Beta types count
too: the SDK's beta client posts to the same URL.
"""

import typing

import anthropic.types as ga
import typing_extensions
from anthropic.types import beta, message_count_tokens_params, message_create_params
from anthropic.types.beta import message_count_tokens_params as beta_count_params
from anthropic.types.beta import message_create_params as beta_create_params

from harness_lab.emulator import Emulator, say, schema
from harness_lab.emulator.kinds import Model
from harness_lab.emulator.schema import BETA_COUNT_TOKENS, BETA_FIELDS, BLOCKS, COUNT_TOKENS, CREATE, TOOLS


def members(union) -> list:
    """The TypedDicts of a union (``Iterable[...]`` and ``Optional`` unwrapped)."""
    found = []
    for arg in typing.get_args(union) or (union,):
        if typing.get_origin(arg) is not None and not typing_extensions.is_typeddict(arg):
            found += members(arg)
        elif typing_extensions.is_typeddict(arg):
            found.append(arg)
    return found


def by_type(typed_dicts) -> dict[str, set[str]]:
    """``type`` literal -> field names, merged across GA and beta variants of one type."""
    fields: dict[str, set[str]] = {}
    for typed in typed_dicts:
        hints = typing.get_type_hints(typed)
        for tag in typing.get_args(hints.get("type")) or ():
            if isinstance(tag, str):
                fields.setdefault(tag, set()).update(hints)
    return fields


def model_fields(kind) -> set[str]:
    assert isinstance(kind, Model), kind
    return set(kind.names())


def test_block_fields_match_the_sdk():
    content = typing.get_type_hints(ga.MessageParam.__args__[0])["content"]
    beta_content = typing.get_type_hints(beta.BetaMessageParam.__args__[0])["content"]
    sdk = by_type(members(content) + members(beta_content))
    ours = {tag: model_fields(kind) for tag, kind in BLOCKS.items()}
    assert ours == sdk


def test_tool_fields_match_the_sdk():
    tools = typing.get_type_hints(message_create_params.MessageCreateParamsBase)["tools"]
    beta_tools = typing.get_type_hints(beta_create_params.MessageCreateParamsBase)["tools"]
    ga_by_type = by_type(members(tools))
    beta_by_type = by_type(members(beta_tools))
    custom = set(typing.get_type_hints(ga.ToolParam)) | set(typing.get_type_hints(beta.BetaToolParam))
    assert model_fields(TOOLS["custom"]) == custom
    assert set(TOOLS) - {"custom"} == set(ga_by_type) | set(beta_by_type)
    for tag in set(ga_by_type) | set(beta_by_type):
        assert model_fields(TOOLS[tag]) == ga_by_type.get(tag, set()) | beta_by_type.get(tag, set()), tag


def test_top_level_parameters_match_the_sdk():
    create = set(typing.get_type_hints(message_create_params.MessageCreateParamsBase)) | {"stream"}
    assert set(CREATE) == create
    assert set(COUNT_TOKENS) == set(typing.get_type_hints(message_count_tokens_params.MessageCountTokensParams))
    beta_only = set(typing.get_type_hints(beta_create_params.MessageCreateParamsBase)) - {"betas"}  # a header
    assert set(BETA_FIELDS) == beta_only - create
    beta_count = set(typing.get_type_hints(beta_count_params.MessageCountTokensParams)) - {"betas"}
    assert set(BETA_COUNT_TOKENS) == beta_count - set(COUNT_TOKENS)


def respond(**fields):
    request = {"model": "claude-sonnet-5", "max_tokens": 64, "messages": [{"role": "user", "content": "q"}], **fields}
    status, _, answer = Emulator([say("はい")]).respond(request)
    return status, answer.get("error", {}).get("message")


def test_a_beta_tool_is_checked_by_its_sdk_type():
    computer = {"type": "computer_20250124", "name": "computer"}
    haiku = "claude-haiku-4-5"  # the model that takes this version (tool_versions.py)
    assert respond(model=haiku, tools=[computer]) == (
        400,
        "tools.0.computer_20250124.display_height_px: Field required",
    )
    assert respond(model=haiku, tools=[{**computer, "display_width_px": 1024, "display_height_px": 768}]) == (200, None)


def test_a_beta_message_field_is_accepted_like_a_beta_parameter():
    assert respond(messages=[{"role": "user", "content": "q", "clear_at": "never"}]) == (200, None)
    assert respond(messages=[{"role": "user", "content": "q", "clear_at": "later"}]) == (
        400,
        "messages.0.clear_at: Input should be 'next_user_message' or 'never'",
    )


def test_every_field_of_the_installed_sdks_request_types_is_read():
    assert schema.UNREAD == []


def test_a_field_type_a_newer_sdk_may_bring_is_any_json_not_an_emulator_that_cannot_start():
    before = list(schema.UNREAD)
    try:
        assert schema._plain_kind([float]) is schema.JSON
        assert [*before, repr([float])] == schema.UNREAD
    finally:
        schema.UNREAD[:] = before
