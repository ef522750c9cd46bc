"""Builders and readers for Messages API blocks (lesson 2: the core loop).

History stays in the API's own shape: plain dicts. These helpers accept either dicts or the SDK's
block objects (``anthropic.types.TextBlock``, ``ToolUseBlock``, ...), so the same code reads a live
response and a stored history alike.
"""

from __future__ import annotations

import json
from typing import Any

from .text import t

# A history message or one content block, in the API's JSON shape: field name -> value.
Block = dict[str, Any]
Message = dict[str, Any]

__all__ = [
    "assistant",
    "block_dict",
    "content_dicts",
    "field",
    "in_another_apis_shape",
    "misspelled_is_error",
    "text_of",
    "to_json_text",
    "tool_calls",
    "tool_result",
    "tool_results",
    "user",
]


def field(block: Any, name: str, default: Any = None) -> Any:
    """Read ``name`` from a dict block or an SDK block object."""
    if isinstance(block, dict):
        return block.get(name, default)
    return getattr(block, name, default)


def block_dict(block: Any) -> Block:
    """One content block as a plain dict with exactly the fields the server sent."""
    if isinstance(block, dict):
        return dict(block)
    if hasattr(block, "model_dump"):
        try:
            dumped: Block = block.model_dump(mode="json", exclude_unset=True)
            return dumped
        except ValueError:  # pydantic refuses inputs nested deeper than it serializes; the model may not
            return {name: _plain(getattr(block, name)) for name in block.model_fields_set}
    raise TypeError(t("usage.not_a_block", kind=type(block).__name__))


def _plain(value: Any) -> Any:
    """A field's value with any SDK objects in it as dicts; a tool input is already plain JSON data."""
    if hasattr(value, "model_fields_set"):
        return block_dict(value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def content_dicts(content: Any) -> list[Block]:
    """A message's content as a list of dict blocks (a bare string becomes one text block)."""
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [block_dict(b) for b in content]


def user(content: str | list[Block]) -> Message:
    """A user message."""
    return {"role": "user", "content": content}


def assistant(content: Any) -> Message:
    """An assistant message that keeps every block of ``response.content`` (text and tool_use)."""
    return {"role": "assistant", "content": content_dicts(content)}


def to_json_text(value: Any) -> str:
    """Tool output as the text a tool_result carries: strings as they are, the rest as JSON.

    ``ensure_ascii=False`` keeps Japanese readable for the model and for the learner.
    """
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, default=str)


def tool_result(tool_use_id: str, content: Any, is_error: bool = False) -> Block:
    """A tool_result block answering the tool_use whose id is ``tool_use_id``."""
    block: Block = {"type": "tool_result", "tool_use_id": tool_use_id, "content": to_json_text(content)}
    if is_error:
        block["is_error"] = True
    return block


def text_of(content: Any) -> str:
    """The text of every ``type == "text"`` block, joined (empty when there is none)."""
    if isinstance(content, str):
        return content
    return "".join(field(b, "text", "") for b in content if field(b, "type") == "text")


def tool_calls(content: Any) -> list[Block]:
    """The tool_use blocks of a response, in call order, as ``{"id", "name", "input"}`` dicts."""
    if isinstance(content, str):
        return []
    return [
        {"id": field(b, "id"), "name": field(b, "name"), "input": field(b, "input") or {}}
        for b in content
        if field(b, "type") == "tool_use"
    ]


def tool_results(message: Message | None) -> list[Block]:
    """The tool_result blocks of a (user) message, in order."""
    if not message or isinstance(message.get("content"), str):
        return []
    return [block_dict(b) for b in message["content"] if field(b, "type") == "tool_result"]


def in_another_apis_shape(result: Any) -> bool:
    """A result in OpenAI's function-calling shape ({"role": "tool", "tool_call_id": ...}), no tool_result."""
    return isinstance(result, dict) and ("tool_call_id" in result or result.get("role") == "tool")


def misspelled_is_error(key: Any) -> bool:
    """A key meant as ``is_error`` but spelled another way (MCP's isError, is_Error):
    the API knows no such key."""
    return isinstance(key, str) and key != "is_error" and key.replace("_", "").lower() == "iserror"
