"""Cache diagnostics: why a request could not reuse the cached prefix of the one before it.

A request that carries a ``diagnostics`` object opts in: the server keeps a fingerprint of it under
the response id. The next request names that id in ``diagnostics.previous_message_id`` and its
response says where the two first parted (``docs/api_facts.md``, "Cache diagnostics"):

- ``model_changed``: another model, or another ``speed`` (the cache is per model);
- ``tools_changed``, ``system_changed``: the tool list or the system prompt differs;
- ``unavailable``: those match, but another setting that shapes the prompt differs (``tool_choice``,
  ``thinking``, ``context_management``, ``output_config``, ``output_format``, the beta headers);
- ``messages_changed``: an earlier message was edited, dropped or reordered, not appended to;
- ``previous_message_not_found``: no fingerprint under that id (the earlier request did not opt in).

``null`` means nothing diverged, or there was nothing to compare. The parts are compared as the
emulator's prompt cache keys them (``cache_control`` left out), so "no divergence" and a cache
read agree offline. ``cache_missed_input_tokens`` is the earlier request's prompt from the point of
divergence on, in the earlier model's tokenizer: what it could have read from the cache.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from .models import spec
from .tokens import REQUEST_OVERHEAD, cache_key_bytes, estimate_request, in_tokenizer

__all__ = ["Fingerprint", "Fingerprints", "diagnose", "fingerprint"]

# Settings that shape the prompt without being part of the model, tools, system or messages.
SETTINGS = ("tool_choice", "thinking", "context_management", "output_config", "output_format")


@dataclass(frozen=True)
class Fingerprint:
    """What the comparison needs of one request: digests of its parts, and its prompt's running
    token total after the tools, after the system prompt and after each message."""

    model: tuple
    tools: bytes
    system: bytes
    settings: bytes
    messages: tuple[bytes, ...]
    ends: tuple[int, ...]


def _digest(*parts: Any) -> bytes:
    running = hashlib.sha256()
    for part in parts:
        running.update(cache_key_bytes(part))
        running.update(b"\0")
    return running.digest()


def _tokens(part: dict) -> int:
    return estimate_request(part).total - REQUEST_OVERHEAD


def fingerprint(request: dict, betas: frozenset) -> Fingerprint:
    tools, system = request.get("tools") or [], request.get("system") or ""
    messages = request["messages"]
    row = spec(request["model"])
    tokenizer = row.tokenizer
    ends = [REQUEST_OVERHEAD + _tokens({"tools": tools})]
    ends.append(ends[-1] + _tokens({"system": system}))
    for message in messages:
        ends.append(ends[-1] + _tokens({"messages": [message]}))
    return Fingerprint(
        model=(request["model"], row.ran_at(request.get("speed")) or "standard"),
        tools=_digest(*tools),
        system=_digest(*([system] if isinstance(system, str) else system)),
        settings=_digest(*(request.get(key) for key in SETTINGS), sorted(betas)),
        messages=tuple(_digest(message) for message in messages),
        ends=tuple(in_tokenizer(end, tokenizer) for end in ends),
    )


def _missed(kind: str, before: Fingerprint, upto: int) -> dict:
    """A ``*_changed`` reason: the earlier prompt from token ``upto`` on is what missed the cache."""
    return {"type": kind, "cache_missed_input_tokens": before.ends[-1] - upto}


def _first_changed_message(before: tuple, now: tuple) -> int | None:
    for index, digest in enumerate(before):
        if index >= len(now) or now[index] != digest:
            return index
    return None


def diagnose(before: Fingerprint | None, now: Fingerprint) -> dict | None:
    """The ``cache_miss_reason`` for ``now`` against the earlier request, or None where none parted."""
    if before is None:
        return {"type": "previous_message_not_found"}
    if before.model != now.model or before.tools != now.tools:
        return _missed("model_changed" if before.model != now.model else "tools_changed", before, 0)
    if before.system != now.system:
        return _missed("system_changed", before, before.ends[0])
    if before.settings != now.settings:
        return {"type": "unavailable"}
    index = _first_changed_message(before.messages, now.messages)
    if index is not None:
        return _missed("messages_changed", before, before.ends[1 + index])
    return None


class Fingerprints:
    """The fingerprints one emulated server keeps, by response id (time does not pass offline, so
    they never expire)."""

    def __init__(self) -> None:
        self.kept: dict[str, Fingerprint] = {}

    def answer(self, request: dict, message_id: str, betas: frozenset) -> dict | None:
        """The response's ``diagnostics`` for a request that carries the object; keeps its fingerprint."""
        now = fingerprint(request, betas)
        previous = request["diagnostics"].get("previous_message_id")
        reason = None if previous is None else diagnose(self.kept.get(previous), now)
        self.kept[message_id] = now
        return None if reason is None else {"cache_miss_reason": reason}
