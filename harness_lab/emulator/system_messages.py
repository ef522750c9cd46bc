"""Mid-conversation system messages: a ``role: "system"`` message inside ``messages``.

Since Claude Opus 4.8 a harness may add an instruction partway through a run without editing the
top-level ``system`` field, which would change the start of the prompt and lose the cached prefix
behind it. The docs set the rules checked here, and the model table says which models take such a
message at all (an older model answers with its own 400 text, ``models.py``):

- it is not the first message (the top-level ``system`` field is for that);
- side by side, system messages form one system section, and the rules below hold for the section;
- the section follows a user message (tool results included), or an assistant message that ends in
  a server tool's result;
- the section is last, or an assistant message follows it;
- its content is text: no image, document or tool block, no citations.

The first rule's text is the API's long-standing answer to a leading system message. The others'
wording is the emulator's own: the docs give the rules, and no public 400 quotes their texts. Until
mid-2026 the docs refused two system messages side by side and named a server tool *use* as the
assistant's last block; the page of August 2026 reads as above.
"""

from __future__ import annotations

from .models import SYSTEM_ROLE_UNEXPECTED, ModelSpec

__all__ = ["system_message_error", "without_system_messages"]


def _ends_in_server_tool_result(message: dict) -> bool:
    # A client tool's result comes back in a user message; in an assistant message, a block whose
    # type ends in ``_tool_result`` (web_search_tool_result, code_execution_tool_result, ...) is
    # a server tool's.
    content = message["content"]
    return (
        message["role"] == "assistant"
        and isinstance(content, list)
        and bool(content)
        and content[-1]["type"].endswith("_tool_result")
    )


def _placement_error(messages: list, first: int, last: int) -> str | None:
    """The 400 text for the system section ``messages[first..last]``, or None where it may stand."""
    if first == 0:
        return SYSTEM_ROLE_UNEXPECTED
    before = messages[first - 1]
    after = messages[last + 1] if last + 1 < len(messages) else None
    if before["role"] != "user" and not _ends_in_server_tool_result(before):
        return (
            f"messages.{first}: a system message must immediately follow a user message or an assistant message "
            "that ends in a server tool result"
        )
    if after is not None and after["role"] != "assistant":
        return f"messages.{last}: a system message must be the last message or be followed by an assistant message"
    return None


def _content_error(content: object, n: int) -> str | None:
    for m, block in enumerate(content if isinstance(content, list) else ()):
        if block["type"] != "text":
            return f"messages.{n}.content.{m}: a system message may hold text blocks only, not `{block['type']}`"
        if block.get("citations"):
            return f"messages.{n}.content.{m}.text.citations: a system message's text cannot carry citations"
    return None


def _sections(messages: list) -> list[tuple[int, int]]:
    """Each run of side-by-side system messages, as (first index, last index)."""
    runs: list[tuple[int, int]] = []
    for n, message in enumerate(messages):
        if message["role"] != "system":
            continue
        if runs and runs[-1][1] == n - 1:
            runs[-1] = (runs[-1][0], n)
        else:
            runs.append((n, n))
    return runs


def system_message_error(messages: list, row: ModelSpec) -> str | None:
    """The 400 text for the first system message in ``messages`` this model or its place refuses."""
    for first, last in _sections(messages):
        error = row.system_role or _placement_error(messages, first, last)
        for n in range(first, last + 1):
            error = error or _content_error(messages[n]["content"], n)
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
