"""A finished Message replayed as the API's server-sent events (streaming, lesson 2).

The event order is the real one: ``message_start`` (empty content, ``stop_reason: null``), then per block ``content_block_start`` / ``content_block_delta`` (``text_delta``, after a cited text's ``citations_delta``s,
``input_json_delta`` for a tool's or a server tool's call, or ``thinking_delta`` then one
``signature_delta`` for a thinking block) / ``content_block_stop``, then ``message_delta`` (stop
fields and cumulative usage) and ``message_stop``. One ``ping`` comes right after the first
``content_block_start``, where the streaming page's example and live recordings show it (right after
``message_start`` when there is no block). Every event carries an ``event:`` line: the Python SDK drops events
without one. The SDK's accumulator rebuilds exactly the non-streamed Message from these events.
"""

from __future__ import annotations

import json

__all__ = ["CHUNK", "encode_stream"]

CHUNK = 48  # characters per delta: a few deltas per block, so a stream looks like one


def _event(name: str, **fields: object) -> str:
    data = {"type": name, **fields}
    return f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False, separators=(',', ':'))}\n\n"


def _chunks(text: str) -> list[str]:
    return [text[i : i + CHUNK] for i in range(0, len(text), CHUNK)] or [""]


def _opened(block: dict) -> tuple[dict, list[dict]]:
    """A block as its ``content_block_start`` shows it, and the deltas that fill it in."""
    kind = block["type"]
    if kind == "text":
        # Each citation is one citations_delta, before the text it backs (the citations page: "a single citation
        # to be added to the `citations` list on the current `text` content block"; their place is inferred).
        cited = [{"type": "citations_delta", "citation": c} for c in block.get("citations") or ()]
        texts = [{"type": "text_delta", "text": piece} for piece in _chunks(block["text"])]
        return {**block, "text": "", **({"citations": []} if cited else {})}, [*cited, *texts]
    if kind == "thinking":
        deltas = [{"type": "thinking_delta", "thinking": piece} for piece in _chunks(block["thinking"]) if piece]
        signed = {"type": "signature_delta", "signature": block["signature"]}
        return {**block, "thinking": "", "signature": ""}, [*deltas, signed]
    if kind in ("tool_use", "server_tool_use"):
        # A server tool's call streams its input too (the streaming page's web search example; the
        # SDK's accumulator reads input_json_delta for both kinds); its result arrives whole.
        partial = json.dumps(block["input"], ensure_ascii=False) if block["input"] else ""
        deltas = [{"type": "input_json_delta", "partial_json": piece} for piece in _chunks(partial)]
        return {**block, "input": {}}, deltas
    return block, []  # blocks without a delta form arrive whole


def encode_stream(message: dict) -> str:
    """The SSE text of a complete Message body."""
    usage = message["usage"]
    start_usage = dict(usage)
    start_usage["output_tokens"] = 1  # the real stream reports a token or so until the end
    if "output_tokens_details" in usage:  # nothing thought yet; message_delta brings the count
        start_usage["output_tokens_details"] = {"thinking_tokens": 0}
    start = {**message, "content": [], "stop_reason": None, "stop_sequence": None, "stop_details": None}
    start["usage"] = start_usage
    out = [_event("message_start", message=start)]
    if not message["content"]:
        out.append(_event("ping"))
    for index, block in enumerate(message["content"]):
        opened, deltas = _opened(block)
        out.append(_event("content_block_start", index=index, content_block=opened))
        if index == 0:
            out.append(_event("ping"))
        out += [_event("content_block_delta", index=index, delta=delta) for delta in deltas]
        out.append(_event("content_block_stop", index=index))
    delta_usage = {
        "input_tokens": usage["input_tokens"],
        "cache_creation_input_tokens": usage["cache_creation_input_tokens"],
        "cache_read_input_tokens": usage["cache_read_input_tokens"],
        "output_tokens": usage["output_tokens"],
        "output_tokens_details": usage.get("output_tokens_details"),
    }
    if "server_tool_use" in usage:
        delta_usage["server_tool_use"] = usage["server_tool_use"]
    stop = {"stop_reason": message["stop_reason"], "stop_sequence": message["stop_sequence"]}
    stop["stop_details"] = message.get("stop_details")
    out.append(_event("message_delta", delta=stop, usage=delta_usage))
    out.append(_event("message_stop"))
    return "".join(out)
