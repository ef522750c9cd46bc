"""Secrets cut out of recorded traffic before it is stored (used by ``trace``'s cassettes).

A secret is replaced in its plain and its JSON-escaped spelling, in every string of a body. A
streamed answer splits text over many deltas, so a key can arrive cut in two: each content block's
deltas are scrubbed as one text and the cut pieces redacted in place, which keeps the recording a
valid stream that replays the redacted text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any, overload

__all__ = ["REDACTED", "scrub", "scrub_stream", "secret_spellings"]

REDACTED = "[REDACTED]"
# The string field each streamed delta adds to its content block, and the one a block starts with.
_DELTA_FIELDS = {"text_delta": "text", "input_json_delta": "partial_json", "thinking_delta": "thinking"}
_START_FIELDS = {"text": "text", "thinking": "thinking"}
_EVENT_BREAK = re.compile(r"(\r\n\r\n|\n\n|\r\r)")


def secret_spellings(secrets: Iterable[str]) -> list[str]:
    """Each secret as text and as it reads inside a JSON string (tool input JSON, say), longest first."""
    spelled = {spelling for secret in secrets for spelling in (secret, json.dumps(secret, ensure_ascii=False)[1:-1])}
    return sorted(spelled, key=len, reverse=True)


@overload
def scrub(value: str, spellings: list[str]) -> str: ...
@overload
def scrub(value: Any, spellings: list[str]) -> Any: ...


def scrub(value: Any, spellings: list[str]) -> Any:
    """``value`` with every spelling of a secret in its strings replaced by ``REDACTED``."""
    if isinstance(value, str):
        for spelling in spellings:
            value = value.replace(spelling, REDACTED)
        return value
    if isinstance(value, list):
        return [scrub(item, spellings) for item in value]
    if isinstance(value, dict):
        return {key: scrub(item, spellings) for key, item in value.items()}
    return value


def _redact_across(pieces: list[tuple[dict[str, Any], str]], spellings: list[str]) -> None:
    """Scrub the pieces' joined text, cutting each secret out of every piece it spans, in place.

    A secret's ``REDACTED`` goes into the piece where the secret starts, so the pieces still join up
    to the scrubbed text.
    """
    joined = "".join(holder[key] for holder, key in pieces)
    found = sorted(
        (start, start + len(spelling))
        for spelling in spellings
        for start in (m.start() for m in re.finditer(re.escape(spelling), joined))
    )
    spans: list[list[int]] = []
    for start, end in found:
        if spans and start <= spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], end)
        else:
            spans.append([start, end])
    if not spans:
        return
    offset = 0
    for holder, key in pieces:
        end = offset + len(holder[key])
        kept, position = [], offset
        for span_start, span_end in spans:
            if span_start >= end or span_end <= offset:
                continue
            kept.append(joined[position : max(position, span_start)])
            if span_start >= offset:
                kept.append(REDACTED)
            position = max(position, min(span_end, end))
        kept.append(joined[position:end])
        holder[key] = "".join(kept)
        offset = end


def scrub_stream(text: str, spellings: list[str]) -> str:
    """A recorded SSE body, scrubbed per event and across each content block's deltas."""
    if not spellings:
        return text
    parts = _EVENT_BREAK.split(text)  # events at even positions, the blank lines between them at odd ones
    parsed: dict[int, Any] = {}
    for position in range(0, len(parts), 2):
        lines = parts[position].splitlines()
        data = "\n".join(line[5:].removeprefix(" ") for line in lines if line.startswith("data:"))
        try:
            parsed[position] = json.loads(data)
        except ValueError:
            continue  # not a JSON event: the plain scrub below still covers it
    pieces: dict[Any, list[tuple[dict[str, Any], str]]] = {}
    for event in parsed.values():
        if not isinstance(event, dict):
            continue
        holder: dict[str, Any] = {}
        key: str | None = None
        block, delta = event.get("content_block"), event.get("delta")
        if event.get("type") == "content_block_start" and isinstance(block, dict):
            holder, key = block, _START_FIELDS.get(block.get("type", ""))
        elif event.get("type") == "content_block_delta" and isinstance(delta, dict):
            holder, key = delta, _DELTA_FIELDS.get(delta.get("type", ""))
        if key is not None and isinstance(holder.get(key), str):
            pieces.setdefault(event.get("index"), []).append((holder, key))
    before = {position: json.dumps(event) for position, event in parsed.items()}
    for block_pieces in pieces.values():
        _redact_across(block_pieces, spellings)
    for position, event in parsed.items():
        event = scrub(event, spellings)
        if json.dumps(event) == before[position]:
            continue
        lines = [line for line in parts[position].splitlines() if not line.startswith("data:")]
        lines.append("data: " + json.dumps(event, ensure_ascii=False, separators=(",", ":")))
        parts[position] = ("\r\n" if "\r\n" in parts[position] else "\n").join(lines)
    return scrub("".join(parts), spellings)
