"""Ids derived from the request, so the same request always gets the same response (lesson 2).

The real API's ids are random; ours are a hash of the request body, which keeps ``respond`` pure and
stored notebook outputs stable across runs. They keep the real shapes (``msg_01…``, ``toolu_01…``,
``req_011C…``) and only use characters from ``^[a-zA-Z0-9_-]+$``.
"""

from __future__ import annotations

import hashlib
import json

from .wire import canonical_bytes

__all__ = ["digest_of", "fast_digest", "make_id"]

_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


# allow_nan=False: a NaN is not JSON the API could read, so such a body takes the careful path.
_ENCODER = json.JSONEncoder(sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str, allow_nan=False)


def _canonical(value: object) -> bytes:
    return _ENCODER.encode(value).encode("utf-8")


def _digest(request: object, canonical) -> bytes:
    digest = hashlib.sha256()
    if not isinstance(request, dict):
        digest.update(canonical(request))
        return digest.digest()
    messages = request.get("messages")
    head = {k: v for k, v in request.items() if k != "stream" and not (k == "messages" and isinstance(v, list))}
    digest.update(canonical(head))
    if isinstance(messages, list):
        for message in messages:
            digest.update(b"\x00")
            digest.update(canonical(message))
    return digest.digest()


def fast_digest(request: object) -> bytes | None:
    """``digest_of`` by the C encoder, or None when it cannot say: a lone surrogate (not UTF-8), a
    NaN, nesting that meets Python's recursion limit, keys json cannot sort. Success also proves
    the body has no surrogate or NaN, which is what lets the request skip the careful JSON walk."""
    try:
        return _digest(request, _canonical)
    except (UnicodeEncodeError, RecursionError, ValueError, TypeError):
        return None


def digest_of(request: object) -> bytes:
    """A stable digest of a request: key order, whitespace and ``stream`` do not matter.

    ``stream`` is left out so a streamed answer carries the same ids as the non-streamed one. The
    messages are hashed one by one: one huge JSON string of a long history costs far more per byte
    than many small ones. Whatever the body holds, the digest is the same bytes the C encoder
    would hash, taken without recursion when the encoder gives up.
    """
    fast = fast_digest(request)
    return fast if fast is not None else _digest(request, canonical_bytes)


def make_id(prefix: str, digest: bytes, salt: str = "", length: int = 22) -> str:
    """``prefix`` plus ``length`` base-62 characters from the digest (and a salt for siblings)."""
    number = int.from_bytes(hashlib.sha256(digest + salt.encode()).digest(), "big")
    chars = []
    for _ in range(length):
        number, rest = divmod(number, 62)
        chars.append(_ALPHABET[rest])
    return prefix + "".join(chars)
