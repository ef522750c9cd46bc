"""Ids derived from the request, so the same request always gets the same response (lesson 2).

The real API's ids are random; ours are a hash of the request body, which keeps ``respond`` pure and
stored notebook outputs stable across runs. They keep the real shapes (``msg_01…``, ``toolu_01…``,
``req_011C…``) and only use characters from ``^[a-zA-Z0-9_-]+$``.
"""

from __future__ import annotations

import hashlib
import json

from .wire import canonical_bytes

__all__ = ["canonical_json", "digest_of", "digests", "make_id"]

_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


# allow_nan=False: a NaN is not JSON the API could read, so such a body takes the careful path.
_ENCODER = json.JSONEncoder(sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str, allow_nan=False)


def _canonical(value: object) -> bytes:
    return _ENCODER.encode(value).encode("utf-8")


def canonical_json(value: object) -> bytes:
    """Sorted-key compact JSON as UTF-8, whatever the value holds (surrogates, deep nesting)."""
    try:
        return _canonical(value)
    except (UnicodeEncodeError, RecursionError, ValueError, TypeError):
        return canonical_bytes(value)


def _digests(request: object, canonical) -> tuple[bytes, bytes]:
    """The request's digest, and the digest of its conversation (system, tools, messages) that
    thinking signatures bind to: one encoding of each message serves both."""
    digest, conversation = hashlib.sha256(), hashlib.sha256()
    if not isinstance(request, dict):
        digest.update(canonical(request))
        return digest.digest(), conversation.digest()
    messages = request.get("messages")
    head = {k: v for k, v in request.items() if k != "stream" and not (k == "messages" and isinstance(v, list))}
    digest.update(canonical(head))
    conversation.update(canonical(request.get("system")))
    conversation.update(canonical(request.get("tools")))
    if isinstance(messages, list):
        for message in messages:
            encoded = canonical(message)
            digest.update(b"\x00")
            digest.update(encoded)
            conversation.update(b"\x00")
            conversation.update(encoded)
    return digest.digest(), conversation.digest()


def fast_digests(request: object) -> tuple[bytes, bytes] | None:
    """``digests`` by the C encoder, or None when it cannot say: a lone surrogate (not UTF-8), a
    NaN, nesting that meets Python's recursion limit, keys json cannot sort. Success also proves
    the body has no surrogate or NaN, which is what lets the request skip the careful JSON walk."""
    try:
        return _digests(request, _canonical)
    except (UnicodeEncodeError, RecursionError, ValueError, TypeError):
        return None


def digests(request: object) -> tuple[bytes, bytes]:
    """``(digest_of(request), conversation digest)``, the careful way when the C encoder gives up."""
    fast = fast_digests(request)
    return fast if fast is not None else _digests(request, canonical_bytes)


def digest_of(request: object) -> bytes:
    """A stable digest of a request: key order, whitespace and ``stream`` do not matter.

    ``stream`` is left out so a streamed answer carries the same ids as the non-streamed one. The
    messages are hashed one by one: one huge JSON string of a long history costs far more per byte
    than many small ones. Whatever the body holds, the digest is the same bytes the C encoder
    would hash, taken without recursion when the encoder gives up.
    """
    return digests(request)[0]


def make_id(prefix: str, digest: bytes, salt: str = "", length: int = 22) -> str:
    """``prefix`` plus ``length`` base-62 characters from the digest (and a salt for siblings)."""
    number = int.from_bytes(hashlib.sha256(digest + salt.encode()).digest(), "big")
    chars = []
    for _ in range(length):
        number, rest = divmod(number, 62)
        chars.append(_ALPHABET[rest])
    return prefix + "".join(chars)
