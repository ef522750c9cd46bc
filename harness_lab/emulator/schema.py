"""The parts of a Messages API request as data: every block type and tool type, with its fields.

Taken from the installed SDK's request types (``anthropic.types.MessageCreateParams`` and what it
refers to; tests/emulator/test_schema.py compares the tables with them), which are generated from
the API's own specification. Beta parameters and blocks are accepted alike, since the SDK's beta
client posts to the same URL; their contents are only checked where the GA API defines them.

The content of a server tool's result (web search, code execution...) is a union the real API
names by internal class (``...tool_search_tool_result.content.RequestToolSearchToolResultError...``
in a public 400), so it is accepted as any JSON here rather than reported with guessed names.
"""

from __future__ import annotations

from collections.abc import Iterable

from .kinds import Bool, Int, Json, JsonDict, ListOf, Lit, Model, Nullable, Str, StrOr, Tagged

__all__ = ["BETA_TOOLS", "BLOCK", "BLOCKS", "MESSAGE", "TOOL", "TOOLS"]

ID_PATTERN = "^[a-zA-Z0-9_-]+$"
TOOL_NAME_PATTERN = "^[a-zA-Z0-9_-]{1,64}$"

STR, INT, BOOL, JSON, DICT = Str(), Int(), Bool(), Json(), JsonDict()
OPT_STR = Nullable(STR)

CACHE_CONTROL = Nullable(Tagged({"ephemeral": Model({"type": Lit("ephemeral"), "ttl": Lit("5m", "1h")})}))
CALLER = Nullable(
    Tagged(
        {
            "direct": Model({"type": Lit("direct")}),
            "code_execution_20250825": Model({"tool_id": STR, "type": Lit("code_execution_20250825")}, ["tool_id"]),
            "code_execution_20260120": Model({"tool_id": STR, "type": Lit("code_execution_20260120")}, ["tool_id"]),
        }
    )
)
CITATIONS_CONFIG = Model({"enabled": BOOL})


def block(tag: str, fields: dict, required: Iterable[str] = ()) -> Model:
    """A block type: its ``type`` literal is always a required field."""
    return Model({**fields, "type": Lit(tag)}, (*required, "type"))


# -- content blocks ---------------------------------------------------------------------------

TEXT = block(
    "text",
    {
        "text": STR,
        "cache_control": CACHE_CONTROL,
        "citations": Nullable(ListOf(DICT)),  # the SDK echoes a response's citations back as they came
    },
    ["text"],
)

IMAGE_SOURCE = Tagged(
    {
        "base64": Model(
            {
                "data": STR,
                "media_type": Lit("image/jpeg", "image/png", "image/gif", "image/webp"),
                "type": Lit("base64"),
            },
            ["data", "media_type", "type"],
        ),
        "url": Model({"type": Lit("url"), "url": STR}, ["type", "url"]),
        "file": Model({"file_id": STR, "type": Lit("file")}, ["file_id", "type"]),
    }
)
IMAGE = block(
    "image",
    {
        "source": IMAGE_SOURCE,
        "cache_control": CACHE_CONTROL,
        "transformations": Nullable(Model({"oversized_image": Lit("downsize", "error")})),
    },
    ["source"],
)

DOCUMENT_SOURCE = Tagged(
    {
        "base64": Model(
            {"data": STR, "media_type": Lit("application/pdf"), "type": Lit("base64")}, ["data", "media_type", "type"]
        ),
        "text": Model(
            {"data": STR, "media_type": Lit("text/plain"), "type": Lit("text")}, ["data", "media_type", "type"]
        ),
        "content": Model(
            {"content": StrOr(ListOf(Tagged({"text": TEXT, "image": IMAGE}))), "type": Lit("content")},
            ["content", "type"],
        ),
        "url": Model({"type": Lit("url"), "url": STR}, ["type", "url"]),
        "file": Model({"file_id": STR, "type": Lit("file")}, ["file_id", "type"]),
    }
)
DOCUMENT = block(
    "document",
    {
        "source": DOCUMENT_SOURCE,
        "cache_control": CACHE_CONTROL,
        "citations": Nullable(CITATIONS_CONFIG),
        "context": OPT_STR,
        "title": OPT_STR,
    },
    ["source"],
)

SEARCH_RESULT = block(
    "search_result",
    {
        "content": ListOf(TEXT),
        "source": STR,
        "title": STR,
        "cache_control": CACHE_CONTROL,
        "citations": CITATIONS_CONFIG,
    },
    ["content", "source", "title"],
)

TOOL_REFERENCE = block("tool_reference", {"tool_name": STR, "cache_control": CACHE_CONTROL}, ["tool_name"])
BROWSER_STATE = block(
    "browser_state",
    {
        "tabs": ListOf(DICT),
        "cache_control": CACHE_CONTROL,
        "state_changes": Nullable(ListOf(DICT)),
    },
    ["tabs"],
)

# What a tool_result may carry: no tool_use, no tool_result, no thinking.
RESULT_CONTENT = Tagged(
    {
        "text": TEXT,
        "image": IMAGE,
        "search_result": SEARCH_RESULT,
        "document": DOCUMENT,
        "tool_reference": TOOL_REFERENCE,
        "browser_state": BROWSER_STATE,
    }
)

SERVER_TOOL_NAMES = (
    "advisor",
    "web_search",
    "web_fetch",
    "code_execution",
    "bash_code_execution",
    "text_editor_code_execution",
    "tool_search_tool_regex",
    "tool_search_tool_bm25",
)


def server_result(tag: str, **extra) -> Model:
    return block(
        tag, {"content": JSON, "tool_use_id": STR, "cache_control": CACHE_CONTROL, **extra}, ["content", "tool_use_id"]
    )


BLOCKS = {
    "text": TEXT,
    "image": IMAGE,
    "document": DOCUMENT,
    "search_result": SEARCH_RESULT,
    # No cache_control here: messages.13.content.0.thinking.cache_control is a public 400.
    "thinking": block("thinking", {"signature": STR, "thinking": STR}, ["signature", "thinking"]),
    "redacted_thinking": block("redacted_thinking", {"data": STR}, ["data"]),
    "tool_use": block(
        "tool_use",
        {
            "id": Str(ID_PATTERN),
            "input": DICT,
            "name": STR,
            "cache_control": CACHE_CONTROL,
            "caller": CALLER,
            "toolset_name": OPT_STR,
        },
        ["id", "input", "name"],
    ),
    "tool_result": block(
        "tool_result",
        {
            "tool_use_id": STR,
            "cache_control": CACHE_CONTROL,
            "content": Nullable(StrOr(ListOf(RESULT_CONTENT))),
            "is_error": BOOL,
            "toolset_name": OPT_STR,
        },
        ["tool_use_id"],
    ),
    "server_tool_use": block(
        "server_tool_use",
        {
            "id": Str(ID_PATTERN),
            "input": DICT,
            "name": Lit(*SERVER_TOOL_NAMES),
            "cache_control": CACHE_CONTROL,
            "caller": CALLER,
        },
        ["id", "input", "name"],
    ),
    "web_search_tool_result": server_result("web_search_tool_result", caller=CALLER),
    "web_fetch_tool_result": server_result("web_fetch_tool_result", caller=CALLER),
    "advisor_tool_result": server_result("advisor_tool_result"),  # beta
    "code_execution_tool_result": server_result("code_execution_tool_result"),
    "bash_code_execution_tool_result": server_result("bash_code_execution_tool_result"),
    "text_editor_code_execution_tool_result": server_result("text_editor_code_execution_tool_result"),
    "tool_search_tool_result": server_result("tool_search_tool_result"),
    "mcp_tool_use": block(
        "mcp_tool_use",
        {  # beta
            "id": STR,
            "input": DICT,
            "name": STR,
            "server_name": STR,
            "cache_control": CACHE_CONTROL,
        },
        ["id", "input", "name", "server_name"],
    ),
    "mcp_tool_result": block(
        "mcp_tool_result",
        {  # beta
            "tool_use_id": STR,
            "cache_control": CACHE_CONTROL,
            "content": StrOr(ListOf(TEXT)),
            "is_error": BOOL,
        },
        ["tool_use_id"],
    ),
    "container_upload": block("container_upload", {"file_id": STR, "cache_control": CACHE_CONTROL}, ["file_id"]),
    "compaction": block(
        "compaction",
        {  # beta
            "cache_control": CACHE_CONTROL,
            "content": OPT_STR,
            "encrypted_content": OPT_STR,
            "signature": OPT_STR,
            "tool_changes": Nullable(ListOf(DICT)),
        },
    ),
    "tool_addition": block("tool_addition", {"tool": DICT, "cache_control": CACHE_CONTROL}, ["tool"]),  # beta
    "tool_removal": block("tool_removal", {"tool": DICT, "cache_control": CACHE_CONTROL}, ["tool"]),  # beta
    "mcp_tool_listing": block(
        "mcp_tool_listing",
        {"mcp_server_name": STR, "tools": ListOf(DICT)},  # beta
        ["mcp_server_name", "tools"],
    ),
    "fallback": block("fallback", {"from": DICT, "to": DICT, "trigger": JSON}, ["from", "to"]),  # beta
}
BLOCK = Tagged(BLOCKS)

# "system": a mid-conversation system message (system_messages.py says where one may stand).
MESSAGE = Model({"role": Lit("user", "assistant", "system"), "content": StrOr(ListOf(BLOCK))}, ["role", "content"])

# -- tools ------------------------------------------------------------------------------------

CALLERS = Lit("direct", "code_execution_20250825", "code_execution_20260120", "code_execution_20260521")
COMMON = {"allowed_callers": ListOf(CALLERS), "cache_control": CACHE_CONTROL, "defer_loading": BOOL, "strict": BOOL}
EXAMPLES = {"input_examples": ListOf(DICT)}
DOMAINS = {
    "allowed_domains": Nullable(ListOf(STR)),
    "blocked_domains": Nullable(ListOf(STR)),
    "max_uses": Nullable(INT),
}
USER_LOCATION = Nullable(
    Model(
        {"type": Lit("approximate"), "city": OPT_STR, "country": OPT_STR, "region": OPT_STR, "timezone": OPT_STR},
        ["type"],
    )
)
FETCH = {
    **DOMAINS,
    "citations": Nullable(CITATIONS_CONFIG),
    "max_content_tokens": Nullable(INT),
    "url_sources": Nullable(DICT),
}
INCLUDE = {"response_inclusion": Lit("full", "excluded")}


def server_tool(tag: str, name: str | None, fields: dict) -> Model:
    """A server or Anthropic-defined tool: its ``name`` is fixed by its type."""
    named = {"name": Lit(name)} if name else {}
    return block(tag, {**named, **fields}, ["name"] if name else [])


CUSTOM_TOOL = Model(
    {
        "input_schema": DICT,
        "name": Str(TOOL_NAME_PATTERN),
        **COMMON,
        "description": STR,
        "eager_input_streaming": Nullable(BOOL),
        **EXAMPLES,
        "type": Nullable(Lit("custom")),
    },
    ["input_schema", "name"],
)

TOOLS = {
    "custom": CUSTOM_TOOL,
    "bash_20250124": server_tool("bash_20250124", "bash", {**COMMON, **EXAMPLES}),
    "code_execution_20250522": server_tool("code_execution_20250522", "code_execution", COMMON),
    "code_execution_20250825": server_tool("code_execution_20250825", "code_execution", COMMON),
    "code_execution_20260120": server_tool("code_execution_20260120", "code_execution", COMMON),
    "code_execution_20260521": server_tool("code_execution_20260521", "code_execution", COMMON),
    "browser_toolset_20260801": server_tool(
        "browser_toolset_20260801", None, {"cache_control": CACHE_CONTROL, "configs": Nullable(DICT)}
    ),
    "memory_20250818": server_tool("memory_20250818", "memory", {**COMMON, **EXAMPLES}),
    "computer_toolset_20260801": server_tool(
        "computer_toolset_20260801", None, {"cache_control": CACHE_CONTROL, "configs": Nullable(DICT)}
    ),
    "text_editor_20250124": server_tool("text_editor_20250124", "str_replace_editor", {**COMMON, **EXAMPLES}),
    "text_editor_20250429": server_tool("text_editor_20250429", "str_replace_based_edit_tool", {**COMMON, **EXAMPLES}),
    "text_editor_20250728": server_tool(
        "text_editor_20250728", "str_replace_based_edit_tool", {**COMMON, **EXAMPLES, "max_characters": Nullable(INT)}
    ),
    "web_search_20250305": server_tool(
        "web_search_20250305", "web_search", {**COMMON, **DOMAINS, "user_location": USER_LOCATION}
    ),
    "web_search_20260209": server_tool(
        "web_search_20260209", "web_search", {**COMMON, **DOMAINS, "user_location": USER_LOCATION}
    ),
    "web_search_20260318": server_tool(
        "web_search_20260318", "web_search", {**COMMON, **DOMAINS, "user_location": USER_LOCATION, **INCLUDE}
    ),
    "web_fetch_20250910": server_tool("web_fetch_20250910", "web_fetch", {**COMMON, **FETCH}),
    "web_fetch_20260209": server_tool("web_fetch_20260209", "web_fetch", {**COMMON, **FETCH}),
    "web_fetch_20260309": server_tool("web_fetch_20260309", "web_fetch", {**COMMON, **FETCH, "use_cache": BOOL}),
    "web_fetch_20260318": server_tool(
        "web_fetch_20260318", "web_fetch", {**COMMON, **FETCH, "use_cache": BOOL, **INCLUDE}
    ),
    "tool_search_tool_bm25_20251119": server_tool("tool_search_tool_bm25_20251119", "tool_search_tool_bm25", COMMON),
    "tool_search_tool_bm25": server_tool("tool_search_tool_bm25", "tool_search_tool_bm25", COMMON),
    "tool_search_tool_regex_20251119": server_tool("tool_search_tool_regex_20251119", "tool_search_tool_regex", COMMON),
    "tool_search_tool_regex": server_tool("tool_search_tool_regex", "tool_search_tool_regex", COMMON),
}
# Beta-only tool types: accepted, their settings unchecked.
BETA_TOOLS = (
    "bash_20241022",
    "computer_20241022",
    "computer_20250124",
    "computer_20251124",
    "text_editor_20241022",
    "advisor_20260301",
    "mcp_toolset",
)
TOOL = Tagged({**TOOLS, **dict.fromkeys(BETA_TOOLS, DICT)}, default="custom")
