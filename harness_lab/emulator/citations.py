"""Where documents and citations may stand, as API version 2026-10-21 has it (the version SDK 2.x sends).

The migration guide to 2026-10-21 lists three breaking changes for the Messages API and token
counting: a ``document`` block directly in an assistant message is a 400, and so is a text block
with citations in a user message (directly, or inside a ``search_result``); the structured outputs
page adds that citations enabled together with ``output_config.format`` are a 400. An empty
``citations`` list is none at all. The citations and search results pages add four more: citations
enabled on all documents of a request or on none, the same for search results, a tool result that
holds a search result holds nothing else, and with the web search tool in the request every search
result enables citations. The wordings are inferred (docs/api_facts.md): the pages quote none, and
no public report of the live 400s was found.
"""

from __future__ import annotations

from typing import Any

__all__ = ["CITATIONS_WITH_FORMAT", "citation_error"]

DOCUMENT_IN_ASSISTANT = "messages.{n}.content.{m}: document blocks are not supported in assistant messages"
CITATIONS_IN_USER = "{path}.citations: text blocks in user messages cannot carry citations"
# A client's test suite mocks the refusal in these words (no live one is quoted).
CITATIONS_WITH_FORMAT = "citations are not supported with output_config.format"
# The citations page: "citations must be enabled on all or none of the documents within a request"; the
# search results page: "All search results in a request must use the same setting", "if any block in a
# `tool_result` content array is a `search_result`, all of its blocks must be `search_result`", and "When
# the web search tool is enabled in the same request, citations must be enabled on all `search_result`
# blocks". The wordings are the pages' sentences, inferred.
MIXED_SETTING = {
    "document": "{path}: citations must be enabled on all or none of the documents within a request",
    "search_result": "{path}: all search results in a request must use the same citations setting",
}
ONLY_SEARCH_RESULTS = "{path}: a tool_result that holds a search_result block may hold only search_result blocks"
WEB_SEARCH_NEEDS_CITATIONS = (
    "{path}: citations must be enabled on all search_result blocks when the web search tool is enabled"
)


def _cited(block: Any) -> bool:
    return isinstance(block, dict) and block.get("type") == "text" and bool(block.get("citations"))


def _cites(block: dict) -> bool:
    """A document or search result that asks for citations."""
    config = block.get("citations")
    return block["type"] in ("document", "search_result") and isinstance(config, dict) and config.get("enabled") is True


def _user_citation(block: dict, path: str) -> str | None:
    """Where a user block holds a text with citations: the block itself, or a text of a search result
    (also of one a tool result carries)."""
    if _cited(block):
        return f"{path}.text"
    if block["type"] == "search_result":
        for k, text in enumerate(block["content"]):
            if _cited(text):
                return f"{path}.search_result.content.{k}"
    if block["type"] == "tool_result" and isinstance(block.get("content"), list):
        for k, item in enumerate(block["content"]):
            found = _user_citation(item, f"{path}.tool_result.content.{k}") if item["type"] == "search_result" else None
            if found:
                return found
    return None


def _sources(request: dict) -> list:
    """Every document and search result of the messages, with its path, first message first (a tool
    result's blocks in their place)."""
    found = []
    for n, message in enumerate(request["messages"]):
        content = message["content"]
        for m, block in enumerate(content if isinstance(content, list) else ()):
            path = f"messages.{n}.content.{m}"
            inner = block.get("content") if block["type"] == "tool_result" else None
            for k, item in enumerate(inner if isinstance(inner, list) else ()):
                if item["type"] in ("document", "search_result"):
                    found.append((f"{path}.tool_result.content.{k}", item))
            if block["type"] in ("document", "search_result"):
                found.append((path, block))
    return found


def _source_error(request: dict) -> str | None:
    """All or none, per kind; search results alone in a tool result; cited where web search is on."""
    first: dict = {}
    for path, block in _sources(request):
        setting = first.setdefault(block["type"], _cites(block))
        if _cites(block) != setting:
            return MIXED_SETTING[block["type"]].format(path=path)
    for n, message in enumerate(request["messages"]):
        content = message["content"]
        for m, block in enumerate(content if isinstance(content, list) else ()):
            inner = block.get("content") if block["type"] == "tool_result" else None
            kinds = [item["type"] for item in inner] if isinstance(inner, list) else []
            if "search_result" in kinds and set(kinds) != {"search_result"}:
                k = next(k for k, kind in enumerate(kinds) if kind != "search_result")
                return ONLY_SEARCH_RESULTS.format(path=f"messages.{n}.content.{m}.tool_result.content.{k}")
    searching = any(str(tool.get("type", "")).startswith("web_search_") for tool in request.get("tools") or ())
    for path, block in _sources(request) if searching else ():
        if block["type"] == "search_result" and not _cites(block):
            return WEB_SEARCH_NEEDS_CITATIONS.format(path=path)
    return None


def citation_error(request: dict) -> str | None:
    """The first refusal: the 2026-10-21 three, message by message, then the pages' four (the schema
    has checked the shapes)."""
    config = request.get("output_config")
    formatted = isinstance(config, dict) and config.get("format") is not None
    for n, message in enumerate(request["messages"]):
        content = message["content"]
        for m, block in enumerate(content if isinstance(content, list) else ()):
            if message["role"] == "assistant" and block["type"] == "document":
                return DOCUMENT_IN_ASSISTANT.format(n=n, m=m)
            if message["role"] == "user":
                found = _user_citation(block, f"messages.{n}.content.{m}")
                if found:
                    return CITATIONS_IN_USER.format(path=found)
            inner = block.get("content") if block["type"] == "tool_result" else None
            inner = inner if isinstance(inner, list) else ()
            if formatted and (_cites(block) or any(_cites(b) for b in inner)):
                return CITATIONS_WITH_FORMAT
    return _source_error(request)
