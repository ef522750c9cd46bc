"""The scripted model cites what a request lets it cite (the citations page; the search results page).

When a request's documents or search results have ``citations.enabled``, a live reply's text blocks carry
``citations`` pointing into them. The scripted model writes its own text, so offline the first sentence of
a reply's first text block, a block of its own, cites the first chunk of the first source it may cite, in
the form that source's type gives: a plain-text document's first sentence (``char_location``: 0-based characters, end exclusive, the sentence's
trailing whitespace inside the range and out of ``cited_text``, as the page's example has it), a custom
content document's first block (``content_block_location``), a search result's first block
(``search_result_location``). ``document_index`` counts every document block in the request and
``search_result_index`` every search result, across messages and tool results. The emulator cannot read a
PDF, so a PDF is counted but never cited (docs/api_facts.md, round four). ``cited_text`` counts toward no
tokens either way (tokens.py counts a text block's ``text`` only).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

__all__ = ["cite"]

# A sentence ends at its stop (Latin or Japanese) and takes the whitespace after it.
_SENTENCE = re.compile(r".+?(?:[.!?]+|[。！？]+)(?:\s+|$)|.+$", re.DOTALL)
# A claim in a reply: its words up to the first stop (a Latin one before whitespace or the end, so "3.5" stays whole).
_CLAIM = re.compile(r".+?(?=[.!?]+(?:\s|$)|[。！？])", re.DOTALL)


def _blocks(request: dict) -> Iterator[dict]:
    """Every block of every message, a tool result's blocks in their place."""
    for message in request.get("messages") or ():
        content = message.get("content") if isinstance(message, dict) else None
        for block in content if isinstance(content, list) else ():
            if not isinstance(block, dict):
                continue
            yield block
            inner = block.get("content") if block.get("type") == "tool_result" else None
            yield from (b for b in inner if isinstance(b, dict)) if isinstance(inner, list) else ()


def _enabled(block: dict) -> bool:
    citations = block.get("citations")
    return isinstance(citations, dict) and bool(citations.get("enabled"))


def _document_citation(block: dict, index: int) -> dict | None:
    source = block.get("source") or {}
    common = {"document_index": index, "document_title": block.get("title")}
    if source.get("type") == "text" and str(source.get("data") or "").strip():
        data = str(source["data"])
        first = _SENTENCE.match(data)
        end = first.end() if first else len(data)
        cited = data[:end].rstrip()
        return {"type": "char_location", "cited_text": cited, **common, "start_char_index": 0, "end_char_index": end}
    if source.get("type") == "content":
        texts = [b for b in source.get("content") or () if isinstance(b, dict) and b.get("type") == "text"]
        if texts:
            return {"type": "content_block_location", "cited_text": texts[0]["text"], **common,
                    "start_block_index": 0, "end_block_index": 1}  # fmt: skip
    return None  # a PDF, or a document with nothing to cite


def _search_result_citation(block: dict, index: int) -> dict | None:
    texts = [b for b in block.get("content") or () if isinstance(b, dict) and b.get("type") == "text"]
    if not texts:
        return None
    return {
        "type": "search_result_location",
        "cited_text": texts[0]["text"],
        "search_result_index": index,
        "source": block.get("source"),
        "title": block.get("title"),
        "start_block_index": 0,
        "end_block_index": 1,
    }


def _first_citation(request: dict) -> dict | None:
    documents = search_results = 0
    for block in _blocks(request):
        kind = block.get("type")
        if kind == "document":
            found = _document_citation(block, documents) if _enabled(block) else None
            documents += 1
        elif kind == "search_result":
            found = _search_result_citation(block, search_results) if _enabled(block) else None
            search_results += 1
        else:
            continue
        if found is not None:
            return found
    return None


def _claim(text: str) -> str:
    """The first sentence of ``text`` without its stop: what a citation backs ("" when there is none)."""
    first = _CLAIM.match(text)
    return first.group() if first else ""


def cite(content: list[dict], request: dict) -> list[dict]:
    """``content`` with its first text block citing the request's first citable source, if it has one."""
    citation = _first_citation(request)
    for index, block in enumerate(content if citation is not None else ()):
        if block.get("type") == "text":
            return [*content[:index], {**block, "citations": [citation]}, *content[index + 1 :]]
    return content


def in_blocks(content: list[dict]) -> list[dict]:
    """``content`` with each cited text block split as a live cited reply is: the claim a block with its
    citations, the prose after it (a sentence's stop included) a block without (the citations page,
    "Response Structure"). The scripted model writes no lead-in, so its claim is the block's first sentence;
    a loop that joins the text blocks still reads the whole answer."""
    split: list[dict] = []
    for block in content:
        claim = _claim(block["text"]) if block["type"] == "text" and block.get("citations") else ""
        rest = block["text"][len(claim) :] if claim else ""
        split += [{**block, "text": claim}, {"type": "text", "text": rest}] if rest else [block]
    return split
