"""The parts of a Messages API request as data, read from the installed SDK's own request types.

The SDK's ``TypedDict`` request types (``anthropic.types.MessageCreateParams`` and what it refers
to) are generated from the API's specification, so each block, tool and setting is built from them
when this module is imported: a field's type gives its kind (``kinds.py``), ``Required`` the fields
a 400 says are missing, a union of ``TypedDict`` s told apart by their ``type`` literal a tagged
union, with the GA union's tags first and the beta-only ones after (the SDK's beta client posts to
the same URL, so its types are accepted alike: a GA type and its beta twin are one, their fields
merged). Fields keep the SDK's order, which is the order their problems are reported in, except
the ``type`` tag: the union has read it already, so it comes last.

What the SDK cannot say is in ``OVERRIDES``, each with its reason. The content of a server tool's
result (web search, code execution...) is a union the real API names by internal class
(``...tool_search_tool_result.content.RequestToolSearchToolResultError...`` in a public 400), so it
is accepted as any JSON rather than reported with guessed names.
"""

from __future__ import annotations

import collections.abc
import functools
import os
import re
import typing
from types import NoneType

import typing_extensions
from anthropic.types import MessageParam, message_count_tokens_params, message_create_params
from anthropic.types.beta import BetaMessageParam
from anthropic.types.beta import message_count_tokens_params as beta_count_tokens_params
from anthropic.types.beta import message_create_params as beta_create_params

from .context_management import CONTEXT_MANAGEMENT
from .kinds import Bool, Int, Json, JsonDict, ListOf, Lit, Model, Nullable, Role, Str, StrOr, Tagged

__all__ = ["BETA_COUNT_TOKENS", "BETA_FIELDS", "BLOCKS", "COUNT_TOKENS", "CREATE", "MESSAGE", "THREAD", "TOOLS"]

ID_PATTERN = "^[a-zA-Z0-9_-]+$"
# The live 400 quotes {1,128} (claude-sonnet-5, 2026); the docs' tool definition says {1,64}, which the
# emulator keeps as a length bound of its own: the stricter side (docs/api_facts.md, "Checked on 2026-12-07 (round two)").
TOOL_NAME_PATTERN = "^[a-zA-Z0-9_-]{1,128}$"
TOOL_NAME_DOCUMENTED_LENGTH = 64
STR, INT, BOOL, JSON, DICT = Str(), Int(), Bool(), Json(), JsonDict()
_LISTS = (list, collections.abc.Iterable, collections.abc.Sequence)  # what typing.List, Iterable... stand for
_is_typeddict = typing_extensions.is_typeddict
_QUOTED = re.compile(r"'([^']*)'|\"([^\"]*)\"")
# Field types the derivation could not read (test_schema.py wants none): an SDK upgrade the course's
# pip may bring must not leave the emulator unable to start.
UNREAD: list[str] = []

# What the SDK's types cannot say, by type name (its ``Beta`` prefix dropped) and field:
OVERRIDES: dict[tuple[str, str], object] = {
    # Patterns the API's documented errors quote (``String should match pattern ...``).
    ("ToolUseBlockParam", "id"): Str(ID_PATTERN),
    ("ServerToolUseBlockParam", "id"): Str(ID_PATTERN),
    ("ToolParam", "name"): Str(TOOL_NAME_PATTERN, TOOL_NAME_DOCUMENTED_LENGTH, min_length=1),
    # An empty model id is a 400 live, not the 404 of an unknown one (round five).
    ("MessageCreateParamsBase", "model"): Str(min_length=1),
    ("MessageCountTokensParams", "model"): Str(min_length=1),
    # Bounds: 0 pre-warms the prompt cache (api_facts.md, "Prompt caching"; below it, the live text of round
    # five); 1024 is the public 400 "thinking.enabled.budget_tokens: Input should be greater than or equal to
    # 1024"; a task budget counts down from at least one token (docs: "Task budgets").
    ("MessageCreateParamsBase", "max_tokens"): Int(ge=0, below="must be greater than or equal to {ge}"),
    ("ThinkingConfigEnabledParam", "budget_tokens"): Int(ge=1024),
    ("TokenTaskBudgetParam", "total"): Int(ge=1),
    ("TokenTaskBudgetParam", "remaining"): Nullable(Int(ge=0)),
    # An unknown role has a live text of its own; "system" stays a role, which system_messages.py judges.
    ("UserMessageParam", "role"): Role("user", "assistant", "system"),
    # The SDK echoes a response's citations back as they came, in the response's own types.
    ("TextBlockParam", "citations"): Nullable(ListOf(DICT)),
    # The order the emulator has always printed (tests pin it); the SDK's source says "standard", "fast".
    ("MessageCreateParamsBase", "speed"): Nullable(Lit("fast", "standard")),
    ("MessageCountTokensParams", "speed"): Nullable(Lit("fast", "standard")),
    # Beta parameters: context management as the emulator applies it; those it does not implement
    # are accepted as they come.
    **{
        (params, name): CONTEXT_MANAGEMENT if name == "context_management" else JSON
        for params in ("MessageCreateParamsBase", "MessageCountTokensParams")
        for name in (
            "billing_policy",
            "compaction",
            "context_management",
            "fallback_credit_token",
            "fallbacks",
            "mcp_servers",
        )
    },
}
# Null accepted where the SDK's request type says otherwise: a response block dumped back as a dict
# carries ``caller: null``, and an error result with ``content: null`` gets the API's "content cannot
# be empty" (validate.py), not a type error.
NULLABLE = frozenset(
    {
        ("ToolUseBlockParam", "caller"),
        ("ServerToolUseBlockParam", "caller"),
        ("WebSearchToolResultBlockParam", "caller"),
        ("WebFetchToolResultBlockParam", "caller"),
        ("ToolResultBlockParam", "content"),
    }
)
# Single-member unions on the server: a public 400 names the tag (``system.1.cache_control.ephemeral.scope``).
TAGGED_ALONE = frozenset({"CacheControlEphemeralParam", "JSONOutputFormatParam"})
# Server tool results, by their content's internal class names (see above).
ANY_CONTENT = frozenset(
    {
        "WebSearchToolResultBlockParam",
        "WebFetchToolResultBlockParam",
        "AdvisorToolResultBlockParam",
        "CodeExecutionToolResultBlockParam",
        "BashCodeExecutionToolResultBlockParam",
        "TextEditorCodeExecutionToolResultBlockParam",
        "ToolSearchToolResultBlockParam",
    }
)


def _name(typed: type) -> str:
    name = typed.__name__
    return name.removeprefix("Beta")


def _alternatives(hint) -> list:
    """A type as the list of what it allows: ``Optional``, unions and ``Required`` unwrapped."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, typing_extensions.Required, typing_extensions.NotRequired, typing.Annotated):
        args = typing.get_args(hint)
        return [alt for arg in (args[:1] if origin is typing.Annotated else args) for alt in _alternatives(arg)]
    return [hint]


@functools.cache
def _hints(typed: type) -> dict:
    return typing.get_type_hints(typed, include_extras=True)


@functools.cache
def _required(typed: type) -> frozenset[str]:
    """The fields marked ``Required`` (the SDK's modules postpone annotations, so the TypedDict's own
    ``__required_keys__`` cannot tell)."""
    hints = _hints(typed).items()
    return frozenset(name for name, hint in hints if typing.get_origin(hint) is typing_extensions.Required)


@functools.cache
def _tags(typed: type) -> tuple[tuple, bool]:
    """A TypedDict's ``type`` literals, and whether it may leave ``type`` out (a custom tool)."""
    hint = _hints(typed).get("type")
    alternatives = _alternatives(hint) if hint else []
    tags = tuple(tag for alt in alternatives for tag in typing.get_args(alt) if isinstance(tag, str))
    return tags, NoneType in alternatives or "type" not in _required(typed)


def _fields(typed_dicts: tuple) -> tuple[dict[str, list], list[str], str]:
    """The merged fields of a type and its beta twin: name -> alternatives, required names, a name."""
    fields: dict[str, list] = {}
    required: list[str] = []
    for typed in typed_dicts:
        marked = _required(typed)
        for field, hint in _hints(typed).items():
            fields.setdefault(field, []).extend(_alternatives(hint))
            if field in marked and field not in required:
                required.append(field)
    if "type" in fields:
        fields["type"] = fields.pop("type")
    return fields, required, _name(typed_dicts[0])


@functools.cache
def _model(typed_dicts: tuple) -> Model:
    fields, required, name = _fields(typed_dicts)
    kinds = {}
    for field, alternatives in fields.items():
        kind = OVERRIDES.get((name, field))
        if kind is None and field == "content" and name in ANY_CONTENT:
            kind = JSON
        if kind is None:
            kind = _kind((*alternatives, NoneType) if (name, field) in NULLABLE else tuple(alternatives))
            kind = _in_source_order(kind, typed_dicts, field)
        kinds[field] = kind
    return Model(kinds, required)


def _in_source_order(kind, typed_dicts: tuple, field: str):
    """A literal's values as the SDK's source lists them: ``typing`` caches equal ``Literal`` s, so
    the hints may hold another module's order of the same values."""
    inner = kind.kind if type(kind) is Nullable else kind
    if type(inner) is not Lit:
        return kind
    source = " ".join(str(typed.__annotations__.get(field, "")) for typed in typed_dicts)
    quoted = [a or b for a, b in _QUOTED.findall(source)]
    ordered = Lit(*sorted(inner.values, key=lambda value: quoted.index(value) if value in quoted else len(quoted)))
    return Nullable(ordered) if inner is not kind else ordered


def _tagged(typed_dicts: list) -> Tagged:
    """A union told apart by ``type``: members with the same tag (GA and beta) are one."""
    members: dict[str, list] = {}
    default = None
    for typed in typed_dicts:
        tags, optional = _tags(typed)
        default = tags[0] if optional else default
        for tag in tags:
            members.setdefault(tag, []).append(typed)
    return Tagged({tag: _model(tuple(same)) for tag, same in members.items()}, default=default)


@functools.cache
def _kind(alternatives: tuple):
    """The kind of a field that may hold any of ``alternatives`` (a flattened union)."""
    nullable = NoneType in alternatives
    # A file the SDK reads and encodes is a string on the wire.
    rest = [alt for alt in alternatives if alt is not NoneType and typing.get_origin(alt) is not typing.IO]
    rest = list(dict.fromkeys(alt for alt in rest if alt is not os.PathLike))
    kind = _plain_kind(rest)
    return Nullable(kind) if nullable else kind


def _plain_kind(alternatives: list):
    """The kind of a non-null value: a string wins over the literals it covers, a dict over the
    TypedDict it may also be (``input_schema``), ``object`` is any JSON."""
    origins = [typing.get_origin(alt) or alt for alt in alternatives]
    if str in origins and len(set(origins) - {str, typing.Literal}) == 0:
        return STR
    if str in origins:
        return StrOr(_plain_kind([alt for alt in alternatives if alt is not str]))
    if all(origin is typing.Literal for origin in origins):
        return Lit(*dict.fromkeys(value for alt in alternatives for value in typing.get_args(alt)))
    if any(origin is dict for origin in origins) or object in origins:
        return JSON if object in origins else DICT
    if any(origin in _LISTS for origin in origins):
        return ListOf(_kind(tuple(item for alt in alternatives for item in _alternatives(typing.get_args(alt)[0]))))
    if origins == [int]:
        return INT
    if origins == [bool]:
        return BOOL
    typed_dicts = [alt for alt in alternatives if _is_typeddict(alt)]  # the SDK's response models left out
    if not typed_dicts:  # a shape a newer SDK brought: accepted as any JSON, and listed for the tests
        UNREAD.append(repr(alternatives))
        return JSON
    if any(_tags(typed)[0] for typed in typed_dicts) and (
        len({_tags(typed)[0] for typed in typed_dicts}) > 1 or _name(typed_dicts[0]) in TAGGED_ALONE
    ):
        return _tagged(_ga_first(typed_dicts))
    return _model(tuple(typed_dicts))


def _ga_first(typed_dicts: list) -> list:
    """GA types before the beta ones, so a union's 400 lists the GA API's tags as it does."""
    return sorted(typed_dicts, key=lambda typed: typed.__name__.startswith("Beta"))


def _parameters(ga: type, beta: type, extra: dict) -> tuple[dict, dict]:
    """A request's top-level parameters, name -> kind: the GA API's (``model`` first, then the
    required ones and the others by name, as now), and what the beta API adds (``betas`` is a header)."""
    body = _model((ga, beta))
    names = [*_hints(ga), *extra]
    required = [name for name in names if name in _required(ga) and name != "model"]
    order = ["model", *required, *sorted(set(names) - {"model", *required})]
    beta_only = [name for name in _hints(beta) if name not in names and name != "betas"]
    return {name: extra.get(name) or body.kinds[name] for name in order}, {name: body.kinds[name] for name in beta_only}


MESSAGE = _kind((*_alternatives(MessageParam), *_alternatives(BetaMessageParam)))
BLOCKS = MESSAGE.kinds["content"].other.item.members
CREATE, BETA_FIELDS = _parameters(
    message_create_params.MessageCreateParamsBase, beta_create_params.MessageCreateParamsBase, {"stream": BOOL}
)
COUNT_TOKENS, BETA_COUNT_TOKENS = _parameters(
    message_count_tokens_params.MessageCountTokensParams, beta_count_tokens_params.MessageCountTokensParams, {}
)
TOOLS = CREATE["tools"].item.members
THREAD = BETA_FIELDS["thread"]
