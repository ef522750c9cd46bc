"""Ids derived from the request, so the same request always gets the same response (lesson 2).

The real API's ids are random; ours are a hash of the request body, which keeps ``respond`` pure and
stored notebook outputs stable across runs. They keep the real shapes (``msg_01…``, ``toolu_01…``,
``req_011C…``) and only use characters from ``^[a-zA-Z0-9_-]+$``.
"""

from __future__ import annotations

import hashlib
import json

__all__ = ["digest_of", "make_id"]

_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


_ENCODER = json.JSONEncoder(sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)


def _canonical(value: object) -> bytes:
    return _ENCODER.encode(value).encode("utf-8")


def digest_of(request: dict) -> bytes:
    """A stable digest of a request: key order, whitespace and ``stream`` do not matter.

    ``stream`` is left out so a streamed answer carries the same ids as the non-streamed one. The
    messages are hashed one by one: one huge JSON string of a long history costs far more per byte
    than many small ones.
    """
    digest = hashlib.sha256()
    messages = request.get("messages")
    head = {k: v for k, v in request.items() if k != "stream" and not (k == "messages" and isinstance(v, list))}
    digest.update(_canonical(head))
    if isinstance(messages, list):
        for message in messages:
            digest.update(b"\x00")
            digest.update(_canonical(message))
    return digest.digest()


def make_id(prefix: str, digest: bytes, salt: str = "", length: int = 22) -> str:
    """``prefix`` plus ``length`` base-62 characters from the digest (and a salt for siblings)."""
    number = int.from_bytes(hashlib.sha256(digest + salt.encode()).digest(), "big")
    chars = []
    for _ in range(length):
        number, rest = divmod(number, 62)
        chars.append(_ALPHABET[rest])
    return prefix + "".join(chars)
