"""The emulator's request checks: the real API's status, error type and message text (lessons 2-3).

A learner who drops the tool_use block from history, forgets ``tools`` on the follow-up, or puts text
before the tool results must see offline the same 400 the real API sends. Each rule below quotes the
real message (API_FACTS.md, or public reports of the real 400 for the two rules it lacks: unique
``tool_use`` ids and one ``tool_result`` per ``tool_use``); paths are ``messages.N`` /
``messages.N.content.M`` with ``N`` the index of the (first) original message and ``M`` the block
index inside the merged message.

The checks make one pass over the request and never copy it deeply.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .history import Merged, merge
from .models import CONTEXT_WINDOW, is_known

__all__ = ["ApiError", "COUNT_TOKENS_FIELDS", "CREATE_FIELDS", "check_prompt_length", "validate"]

_ID_PATTERN = re.compile(r"[a-zA-Z0-9_-]+")
_TOOL_NAME_PATTERN = re.compile(r"[a-zA-Z0-9_-]{1,64}")
# Block types accepted without further checks (media, documents, thinking, server tool blocks...).
_OTHER_BLOCK_TYPES = frozenset(
    {
        "image",
        "document",
        "search_result",
        "thinking",
        "redacted_thinking",
        "server_tool_use",
        "web_search_tool_result",
        "web_fetch_tool_result",
        "code_execution_tool_result",
        "container_upload",
        "compaction",
    }
)

# Top-level fields the Messages API accepts (anthropic 2.14's create / count_tokens bodies).
CREATE_FIELDS = frozenset(
    {
        "model",
        "messages",
        "max_tokens",
        "cache_control",
        "container",
        "diagnostics",
        "inference_geo",
        "metadata",
        "output_config",
        "service_tier",
        "speed",
        "stop_sequences",
        "stream",
        "system",
        "thinking",
        "tool_choice",
        "tools",
    }
)
# The beta API accepts a few more; the SDK sends both to the same URL, so they are accepted alike.
BETA_FIELDS = frozenset(
    {"billing_policy", "compaction", "context_management", "fallbacks", "mcp_servers", "thread", "fallback_credit_token"}
)
COUNT_TOKENS_FIELDS = frozenset(
    {"model", "messages", "cache_control", "output_config", "speed", "system", "thinking", "tool_choice", "tools"}
)

STATUS_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    504: "timeout_error",
    529: "overloaded_error",
}


@dataclass(frozen=True)
class ApiError:
    """A rejection: HTTP status, the body's ``error.type`` and the exact ``error.message``."""

    status: int
    message: str
    type: str = ""

    @property
    def error_type(self) -> str:
        return self.type or STATUS_TYPES.get(self.status, "api_error")


def _bad(message: str) -> ApiError:
    return ApiError(400, message)


def _check_fields(request: dict, allowed: frozenset, required: tuple) -> ApiError | None:
    for name in required:
        if name not in request:
            return _bad(f"{name}: Field required")
    for name in request:
        if name not in allowed:
            return _bad(f"{name}: Extra inputs are not permitted")
    return None


def _check_tools(tools: object) -> ApiError | None:
    if tools is None:
        return None
    if not isinstance(tools, list):
        return _bad("tools: Input should be a valid list")
    names: set[str] = set()
    for k, tool in enumerate(tools):
        if not isinstance(tool, dict):
            return _bad(f"tools.{k}: Input should be a valid dictionary")
        # Custom tools have no "type" (or "custom"); server tools are typed and named by the API.
        if tool.get("type") not in (None, "custom"):
            continue
        name = tool.get("name")
        if not isinstance(name, str) or not _TOOL_NAME_PATTERN.fullmatch(name):
            return _bad(f"tools.{k}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{{1,64}}$'")
        if "input_schema" not in tool:
            return _bad(f"tools.{k}.custom.input_schema: Field required")
        if name in names:
            return _bad("tools: Tool names must be unique.")
        names.add(name)
    return None


def _check_messages(messages: object) -> tuple[ApiError | None, bool]:
    """Per-message checks on the request as sent; also reports whether any tool block appears."""
    if not isinstance(messages, list):
        return _bad("messages: Input should be a valid list"), False
    if not messages:
        return _bad("messages: at least one message is required"), False
    has_tool_blocks = False
    tool_use_ids: set[str] = set()  # unique across the whole conversation, not per message
    last = len(messages) - 1
    for n, message in enumerate(messages):
        if not isinstance(message, dict):
            return _bad(f"messages.{n}: Input should be a valid dictionary"), False
        role = message.get("role")
        if role not in ("user", "assistant"):
            return _bad(f"messages.{n}.role: Input should be 'user' or 'assistant'"), False
        if "content" not in message:
            return _bad(f"messages.{n}.content: Field required"), False
        content = message["content"]
        final_assistant = n == last and role == "assistant"
        if not content:
            if final_assistant:
                continue
            return _bad(
                f"messages.{n}: all messages must have non-empty content except for the optional final assistant message"
            ), False
        if isinstance(content, str):
            if not content.strip():
                return _bad("messages: text content blocks must contain non-whitespace text"), False
            if final_assistant and content != content.rstrip():
                return _bad("messages: final assistant content cannot end with trailing whitespace"), False
            continue
        if not isinstance(content, list):
            return _bad(f"messages.{n}.content: Input should be a valid string or a valid list"), False
        for m, block in enumerate(content):
            if not isinstance(block, dict):
                return _bad(f"messages.{n}.content.{m}: Input should be a valid dictionary"), False
            kind = block.get("type")
            if kind == "text":
                text = block.get("text")
                if not isinstance(text, str):
                    return _bad(f"messages.{n}.content.{m}.text.text: Field required"), False
                if not text:
                    return _bad("messages: text content blocks must be non-empty"), False
                if not text.strip():
                    return _bad("messages: text content blocks must contain non-whitespace text"), False
                if final_assistant and m == len(content) - 1 and text != text.rstrip():
                    return _bad("messages: final assistant content cannot end with trailing whitespace"), False
            elif kind == "tool_use":
                has_tool_blocks = True
                tool_id = block.get("id")
                if not isinstance(tool_id, str) or not _ID_PATTERN.fullmatch(tool_id):
                    return _bad(
                        f"messages.{n}.content.{m}.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'"
                    ), False
                if tool_id in tool_use_ids:
                    return _bad(f"messages.{n}.content.{m}: `tool_use` ids must be unique"), False
                tool_use_ids.add(tool_id)
                if not isinstance(block.get("name"), str):
                    return _bad(f"messages.{n}.content.{m}.tool_use.name: Input should be a valid string"), False
                if not isinstance(block.get("input"), dict):
                    return _bad(f"messages.{n}.content.{m}.tool_use.input: Input should be a valid dictionary"), False
            elif kind == "tool_result":
                has_tool_blocks = True
                if not isinstance(block.get("tool_use_id"), str):
                    return _bad(f"messages.{n}.content.{m}.tool_result.tool_use_id: Field required"), False
                error = _check_result_content(block.get("content"), f"messages.{n}.content.{m}.tool_result.content")
                if error:
                    return error, False
            elif kind not in _OTHER_BLOCK_TYPES:
                # Pydantic's wording for a bad discriminator; the real list of expected tags is longer.
                return _bad(
                    f"messages.{n}.content.{m}: Input tag '{kind}' found using 'type' does not match any of the expected tags"
                ), False
    return None, has_tool_blocks


def _check_result_content(content: object, path: str) -> ApiError | None:
    if content is None or isinstance(content, str):
        return None
    if not isinstance(content, list):
        return _bad(f"{path}: Input should be a valid string or a valid list")
    for k, item in enumerate(content):
        if not isinstance(item, dict) or not isinstance(item.get("type"), str):
            return _bad(f"{path}.{k}: Input should be a valid dictionary")
        if item["type"] == "text" and not isinstance(item.get("text"), str):
            return _bad(f"{path}.{k}.text.text: Field required")
    return None


def _check_top_level(request: dict) -> ApiError | None:
    """Shapes of the optional fields the estimate reads."""
    system = request.get("system")
    if system is not None and not isinstance(system, str):
        if not isinstance(system, list):
            return _bad("system: Input should be a valid string or a valid list")
        for k, block in enumerate(system):
            if not isinstance(block, dict) or block.get("type") != "text" or not isinstance(block.get("text"), str):
                return _bad(f"system.{k}: Input should be a valid text block")
    sequences = request.get("stop_sequences")
    if sequences is not None and not (isinstance(sequences, list) and all(isinstance(x, str) for x in sequences)):
        return _bad("stop_sequences: Input should be a valid list of strings")
    cache_control = request.get("cache_control")
    if cache_control is not None and not isinstance(cache_control, dict):
        return _bad("cache_control: Input should be a valid dictionary")
    return None


def _check_pairing(merged: list[Merged]) -> ApiError | None:
    """Every tool_use answered first thing in the next user message, once; no stray tool_result."""
    previous_ids: list[str] = []
    for position, message in enumerate(merged):
        if message.role == "assistant":
            ids = [b.get("id") for b in message.content if isinstance(b, dict) and b.get("type") == "tool_use"]
            if ids and position + 1 < len(merged):
                following = merged[position + 1]
                answered = set()
                for block in following.content:  # only the leading run of tool_result blocks counts
                    if not (isinstance(block, dict) and block.get("type") == "tool_result"):
                        break
                    answered.add(block.get("tool_use_id"))
                missing = [i for i in ids if i not in answered]
                if missing:
                    return _bad(
                        f"messages.{message.index}: `tool_use` ids were found without `tool_result` blocks "
                        f"immediately after: {', '.join(missing)}. Each `tool_use` block must have a "
                        "corresponding `tool_result` block in the next message."
                    )
            previous_ids = ids
            continue
        allowed = set(previous_ids)
        answered_here: set[str] = set()
        for m, block in enumerate(message.content):
            if isinstance(block, dict) and block.get("type") == "tool_result":
                tool_use_id = block.get("tool_use_id")
                if tool_use_id not in allowed:
                    return _bad(
                        f"messages.{message.index}.content.{m}: unexpected `tool_use_id` found in `tool_result` "
                        f"blocks: {tool_use_id}. Each `tool_result` block must have a corresponding `tool_use` "
                        "block in the previous message."
                    )
                if tool_use_id in answered_here:
                    # Wording and prefix as public reports of the real 400 quote them; that M names the
                    # repeated block, not the first, is inferred (reports mostly quote ``content.1``).
                    return _bad(
                        f"messages.{message.index}.content.{m}: each tool_use must have a single result. "
                        f"Found multiple `tool_result` blocks with id: {tool_use_id}"
                    )
                answered_here.add(tool_use_id)
        previous_ids = []
    return None


def validate(request: object, *, count_tokens: bool = False) -> tuple[ApiError | None, list[Merged]]:
    """Check a request body; return the first error (or None) and the merged history."""
    if not isinstance(request, dict):
        return _bad("Input should be a valid dictionary"), []
    if count_tokens:
        allowed, required = COUNT_TOKENS_FIELDS, ("messages", "model")
    else:
        allowed, required = CREATE_FIELDS | BETA_FIELDS, ("max_tokens", "messages", "model")
    error = _check_fields(request, allowed, required)
    if error:
        return error, []
    if not count_tokens:
        max_tokens = request["max_tokens"]
        if not isinstance(max_tokens, int) or isinstance(max_tokens, bool):
            return _bad("max_tokens: Input should be a valid integer"), []
        if max_tokens < 1:
            return _bad("max_tokens: Input should be greater than or equal to 1"), []
    if not isinstance(request["model"], str):
        return _bad("model: Input should be a valid string"), []
    if not is_known(request["model"]):
        return ApiError(404, f"model: {request['model']}"), []
    error = _check_tools(request.get("tools")) or _check_top_level(request)
    if error:
        return error, []
    error, has_tool_blocks = _check_messages(request["messages"])
    if error:
        return error, []
    if has_tool_blocks and not request.get("tools"):
        return _bad("Requests which include `tool_use` or `tool_result` blocks must define tools."), []
    merged = merge(request["messages"])
    error = _check_pairing(merged)
    if error:
        return error, merged
    return None, merged


def check_prompt_length(total_tokens: int) -> ApiError | None:
    """The real API refuses a prompt longer than the context window before generating anything."""
    if total_tokens > CONTEXT_WINDOW:
        return _bad(f"prompt is too long: {total_tokens} tokens > {CONTEXT_WINDOW} maximum")
    return None
