"""Which role's message may hold which block: a block in the other role's message is the API's 400.

A tool call, a server tool's call or result, and thinking are the model's, so they stand in assistant
messages only; a ``tool_result`` is the caller's answer, so it stands in user messages only. The SDK's
``MessageParam`` takes any block in either role, so only the API says no (docs/api_facts.md, "Checked on
2026-12-07 (round four)", gives each text's source).
"""

from __future__ import annotations

__all__ = ["misplaced"]

# Live texts: a public probe of claude-haiku-4-5 on 2026-08-28 (tool_result) and the API's own wording as
# a Messages-compatible proxy's conformance tests and client fixes quote it (tool_use, server_tool_use,
# web_search_tool_result, thinking).
ASSISTANT_ONLY = "messages.{n}: `{kind}` blocks can only be in `assistant` messages"
USER_ONLY = "messages.{n}: `{kind}` blocks can only be in `user` messages"
THINKING_ASSISTANT_ONLY = "messages.{n}.content: thinking blocks may only be in `assistant` messages"


def _model_only(kind: str) -> bool:
    # Inferred for the server tools' other results: the rule the sources state for web search's.
    return kind in ("tool_use", "server_tool_use", "mcp_tool_use", "mcp_tool_result") or (
        kind.endswith("_tool_result") and kind != "tool_result"
    )


def misplaced(kind: str, role: str, n: int) -> str | None:
    """The 400 for a block of type ``kind`` in message ``n`` of role ``role``, or None where it may stand."""
    if role == "user":
        if kind in ("thinking", "redacted_thinking"):  # redacted_thinking: inferred, the same rule
            return THINKING_ASSISTANT_ONLY.format(n=n)
        if _model_only(kind):
            return ASSISTANT_ONLY.format(n=n, kind=kind)
    if role == "assistant" and kind == "tool_result":
        return USER_ONLY.format(n=n, kind=kind)
    return None
