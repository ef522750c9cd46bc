"""``tool_choice``: what a request may ask, and how the scripted model is bound by it (lesson 3).

A request may force a tool only when it defines tools, and may name only a tool it defines. The
model is then bound the way the real one is: ``none`` answers in text only; ``any`` calls one of
the request's tools and ``tool`` calls the named one, with no text before the call (the docs: a
forced reply starts with the tool call); ``disable_parallel_tool_use`` allows one call per reply.
A script that wants otherwise is corrected, never obeyed: a call it should not make is dropped,
and a call it must make but did not is made with the simplest input the tool's schema allows.
"""

from __future__ import annotations

from typing import Any

__all__ = ["NO_TOOLS", "UNKNOWN_TOOL", "obey", "tool_choice_error"]

# The live texts: a proxy's conformance rows of direct API observations on claude-sonnet-5, 2026-08-31
# (docs/api_facts.md, round five). A forced tool the request does not define is the second, tools or none.
NO_TOOLS = "tool_choice.any may only be specified while providing tools"
UNKNOWN_TOOL = "Tool '{name}' not found in provided tools"

# When a script's only content was a call that tool_choice "none" forbids (the emulator's words).
_NO_TOOL_TEXT = {
    "ja": "ツールを使わずに答えます。手元の情報だけでは、まだ答えを確かめられません。",
    "en": "Answering without tools: what I have is not enough to confirm an answer yet.",
}


def _custom_names(tools: list) -> list[str]:
    return [str(t["name"]) for t in tools if isinstance(t, dict) and t.get("name")]


def tool_choice_error(request: dict) -> str | None:
    """A ``tool_choice`` that contradicts the request's ``tools``."""
    choice = request.get("tool_choice")
    if not isinstance(choice, dict) or choice.get("type") in ("auto", "none"):
        return None
    tools = request.get("tools") or []
    if choice.get("type") == "any" and not tools:
        return NO_TOOLS
    if choice.get("type") == "tool" and choice.get("name") not in _custom_names(tools):
        return UNKNOWN_TOOL.format(name=choice.get("name"))
    return None


def placeholder(schema: object) -> object:
    """The simplest value a JSON Schema accepts (enough for a forced call's required fields)."""
    if not isinstance(schema, dict):
        return None
    if schema.get("enum"):
        return schema["enum"][0]
    kind: Any = schema.get("type")
    kind = kind[0] if isinstance(kind, list) and kind else kind
    if kind == "object":
        properties = schema.get("properties") or {}
        return {k: placeholder(properties.get(k)) for k in schema.get("required") or () if isinstance(k, str)}
    return {"string": "", "integer": 0, "number": 0, "boolean": False, "array": []}.get(kind)


def _forced_call(tools: list, name: str) -> dict:
    tool = next(t for t in tools if isinstance(t, dict) and t.get("name") == name)
    return {"type": "tool_use", "name": name, "input": placeholder(tool.get("input_schema")) or {}}


def obey(content: list, request: dict, language: str) -> list:
    """The script's blocks as the request's ``tool_choice`` lets the model answer."""
    choice = request.get("tool_choice")
    choice = choice if isinstance(choice, dict) else {"type": "auto"}
    kind = choice.get("type")
    tools = request.get("tools") or []
    if kind == "none":
        return _in_text(content, lambda call: False, language)
    if kind == "auto":  # the model sees only the tools the request defines: it calls no other
        defined = set(_custom_names(tools))
        content = _in_text(content, lambda call: call.get("name") in defined, language)
    allowed: list | None = _custom_names(tools) if kind == "any" else [choice.get("name")] if kind == "tool" else None
    calls = [b for b in content if b.get("type") == "tool_use"]
    if allowed is not None:
        calls = [b for b in calls if b.get("name") in allowed]
        if not calls and allowed:
            calls = [_forced_call(tools, allowed[0])]
        content = [b for b in content if b.get("type") not in ("text", "tool_use")] + calls
    if choice.get("disable_parallel_tool_use") and len(calls) > 1:
        first = calls[0]
        content = [b for b in content if b.get("type") != "tool_use" or b is first]
    return content


def _in_text(content: list, kept: Any, language: str) -> list:
    """``content`` without the calls ``kept`` refuses; a reply left with no text says it answers without tools."""
    blocks = [b for b in content if b.get("type") != "tool_use" or kept(b)]
    if len(blocks) < len(content) and not any(b.get("type") in ("text", "tool_use") for b in blocks):
        blocks.append({"type": "text", "text": _NO_TOOL_TEXT[language]})
    return blocks
