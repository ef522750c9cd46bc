"""The conversation as the server reads it (lesson 2: history must stay valid).

Today's API merges consecutive messages of the same role instead of rejecting them, so the emulator
does too before it checks tool_use / tool_result pairing and picks a scripted reply. A merged message
keeps the index of its first original message, which is what error paths (``messages.N``) quote.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Merged", "assistant_turns", "blocks_of", "merge"]


@dataclass
class Merged:
    index: int  # index of the first original message in the group
    role: str | None  # None for a message that is not an object (validation refuses it)
    content: list  # content blocks (dicts); a string content became one text block


def blocks_of(content: object) -> list:
    """A message's content as a list of blocks; shallow, so the request is never copied deeply."""
    if isinstance(content, str):
        return [{"type": "text", "text": content}] if content else []
    if isinstance(content, list):
        return content
    return []


def merge(messages: list) -> list[Merged]:
    """Merge consecutive same-role messages; linear in the number of blocks, request untouched."""
    merged: list[Merged] = []
    owned: set[int] = set()  # groups whose block list is our own copy, safe to extend
    for index, message in enumerate(messages):
        role = message.get("role") if isinstance(message, dict) else None
        blocks = blocks_of(message.get("content") if isinstance(message, dict) else None)
        if merged and merged[-1].role == role:
            last = merged[-1]
            if id(last) not in owned:
                last.content = list(last.content)
                owned.add(id(last))
            last.content.extend(blocks)
        else:
            merged.append(Merged(index, role, blocks))
    return merged


def assistant_turns(request: dict) -> int:
    """How many assistant messages the request holds after merging same-role neighbours."""
    count, previous = 0, None
    for message in request.get("messages") or ():
        role = message.get("role") if isinstance(message, dict) else None
        if role == "assistant" and previous != "assistant":
            count += 1
        previous = role
    return count
