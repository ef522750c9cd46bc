"""Mid-conversation system messages: a ``role: "system"`` message inside ``messages``.

Since Claude Opus 4.8 a harness may add an instruction partway through a run without editing the
top-level ``system`` field, which would change the start of the prompt and lose the cached prefix
behind it. The docs set the rules checked here, and the model table says which models take such a
message at all (an older model answers with its own 400 text, ``models.py``):

- it is not the first message (the top-level ``system`` field is for that);
- it follows a user message, or an assistant message that ends in a server tool use;
- it is the last message or an assistant message follows it; two never stand side by side;
- its content is text: no image, document or tool block, no citations.

The first rule's text is the API's long-standing answer to a leading system message. The others'
wording is the emulator's own: the docs give the rules, and no public 400 quotes their texts.
"""

from __future__ import annotations

from .models import SYSTEM_ROLE_UNEXPECTED, ModelSpec

__all__ = ["system_message_error", "without_system_messages"]


def _ends_in_server_tool_use(message: dict) -> bool:
    content = message["content"]
    return isinstance(content, list) and bool(content) and content[-1]["type"] == "server_tool_use"


def _placement_error(messages: list, n: int) -> str | None:
    if n == 0:
        return SYSTEM_ROLE_UNEXPECTED
    before = messages[n - 1]
    after = messages[n + 1] if n + 1 < len(messages) else None
    if before["role"] == "system" or (after is not None and after["role"] == "system"):
        return f"messages.{n}: consecutive system messages are not allowed"
    if before["role"] != "user" and not _ends_in_server_tool_use(before):
        return (
            f"messages.{n}: a system message must immediately follow a user message or an assistant message "
            "that ends in a server tool use"
        )
    if after is not None and after["role"] != "assistant":
        return f"messages.{n}: a system message must be the last message or be followed by an assistant message"
    return None


def _content_error(content: object, n: int) -> str | None:
    for m, block in enumerate(content if isinstance(content, list) else ()):
        if block["type"] != "text":
            return f"messages.{n}.content.{m}: a system message may hold text blocks only, not `{block['type']}`"
        if block.get("citations"):
            return f"messages.{n}.content.{m}.text.citations: a system message's text cannot carry citations"
    return None


def system_message_error(messages: list, row: ModelSpec) -> str | None:
    """The 400 text for the first system message in ``messages`` this model or its place refuses."""
    for n, message in enumerate(messages):
        if message["role"] != "system":
            continue
        error = row.system_role or _placement_error(messages, n) or _content_error(message["content"], n)
        if error:
            return error
    return None


def without_system_messages(request: dict) -> dict:
    """The request as a scripted model reads it: scripts were written for user and assistant turns,
    and a system message is an instruction for a real model, so it is left out (the request is not
    copied when it has none)."""
    messages = request.get("messages") or []
    kept = [m for m in messages if not (isinstance(m, dict) and m.get("role") == "system")]
    return request if len(kept) == len(messages) else {**request, "messages": kept}
