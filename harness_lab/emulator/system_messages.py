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

The texts are the live ones (docs/api_facts.md, "Checked on 2026-12-07 (round five)": a proxy's conformance
rows of direct API observations on claude-sonnet-5, 2026-08-31, and a client's constants verified against
claude-opus-5-5, 2026-10-06), and so is their order: an empty content, then a block that is not text, then the
first message, then where the section stands, then blank text. The citations rule's text is the emulator's own.
The live texts name a beta "directive-only form" (``content: []`` with ``output_config``) taken anywhere; the
emulator refuses a system message's beta fields, so it never meets one. Until mid-2026 the docs refused two system messages side by
side and named a server tool *use* as the assistant's last block; the page of August 2026 reads as above.
"""

from __future__ import annotations

from .models import ModelSpec

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


_ANYWHERE = "; the directive-only form (content: [] with output_config) is accepted at any position"
FIRST = "messages.{n}: use the top-level 'system' parameter for the initial system prompt" + _ANYWHERE
FOLLOW = (
    "messages.{n}: role 'system' must follow a 'user' message or an 'assistant' message ending in a server tool result"
    + _ANYWHERE
)
PRECEDE = "messages.{n}: role 'system' must precede an 'assistant' message or end the array" + _ANYWHERE
EMPTY = "messages.{n}: system content must contain at least one block"
BLOCKS = "messages.{n}: role 'system' supports text, tool_addition, and tool_removal blocks only"
BLANK = "messages.{n}: system text blocks must contain non-whitespace text"
_SYSTEM_BLOCKS = ("text", "tool_addition", "tool_removal")


def _placement_error(messages: list, first: int, last: int) -> str | None:
    """The 400 text for where the system section ``messages[first..last]`` stands, or None where it may."""
    if first == 0:
        return FIRST.format(n=0)
    before = messages[first - 1]
    after = messages[last + 1] if last + 1 < len(messages) else None
    if before["role"] != "user" and not _ends_in_server_tool_result(before):
        return FOLLOW.format(n=first)
    if after is not None and after["role"] != "assistant":
        return PRECEDE.format(n=last)  # live, a section is reported at its last message
    return None


def _shape_error(content: object, n: int) -> str | None:
    """An empty content, or a block a system message cannot hold (both before the placement rules)."""
    if not content:
        return EMPTY.format(n=n)
    if isinstance(content, list) and any(block["type"] not in _SYSTEM_BLOCKS for block in content):
        return BLOCKS.format(n=n)
    return None


def _text_error(content: str | list, n: int) -> str | None:
    """Blank text, or a text that carries citations (after the placement rules)."""
    blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
    if any(not (b.get("text") or "").strip() for b in blocks if b["type"] == "text"):
        return BLANK.format(n=n)
    for m, block in enumerate(blocks):
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
        if row.system_role:
            # A model without system messages: a live probe of Haiku 4.5 got the first message's text at
            # messages.0; later ones get the model's own refusal (docs/api_facts.md, round five).
            return FIRST.format(n=0) if first == 0 else row.system_role
        section = range(first, last + 1)
        error = next(filter(None, (_shape_error(messages[n]["content"], n) for n in section)), None)
        error = error or _placement_error(messages, first, last)
        error = error or next(filter(None, (_text_error(messages[n]["content"], n) for n in section)), None)
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
