"""The seal on a thinking block: the emulator's stand-in for the API's encrypted ``signature``.

The API's signature "carries the encrypted full thinking" and the server decrypts it to rebuild the
prompt (the thinking page), so a block sent back is billed for everything the model thought, even
when ``display: "omitted"`` sent no text. A seal holds what the emulator needs of that: the model
family that made the block, how many tokens its thinking took, and keyed hashes (BLAKE2b under the
emulator's own key) that thinking.py compares on replay. The key is no secret: it makes edits
detectable offline, not forgery impossible.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
from dataclasses import dataclass

__all__ = ["Signed", "decode_signature", "mac", "seal", "sealed_tokens"]

_KEY = hashlib.sha256(b"harness-lab emulator: thinking block signatures, v1").digest()  # 32 bytes
_THINKING_TAG, _REDACTED_TAG = b"Ht", b"Hr"
MAC_SIZE, _CHECK, _COUNT = 16, 8, 3  # a block's thinking tokens fit in three bytes (up to 16.7 M)


def mac(*parts: bytes, size: int = MAC_SIZE) -> bytes:
    """Keyed BLAKE2b (a MAC in one C call: HMAC's Python wrapper would cost more than the check)."""
    digest = hashlib.blake2b(key=_KEY, digest_size=size)
    for part in parts:
        digest.update(len(part).to_bytes(4, "big"))
        digest.update(part)
    return digest.digest()


def seal(redacted: bool, family: str, tokens: int, macs: bytes) -> str:
    """A block's signature (or a redacted block's ``data``): tag, family, thinking tokens, hashes, check."""
    tag = _REDACTED_TAG if redacted else _THINKING_TAG
    body = tag + bytes([len(family)]) + family.encode() + min(tokens, 2 ** (8 * _COUNT) - 1).to_bytes(_COUNT, "big")
    return base64.b64encode(body + macs + mac(b"check", body + macs, size=_CHECK)).decode()


@dataclass(frozen=True)
class Signed:
    """What a valid seal says: who made the block, what it thought, and the hashes to compare."""

    family: str
    tokens: int
    block_mac: bytes
    prefix_mac: bytes
    secret: bytes  # redacted blocks only


def _opened(value: object, redacted: bool) -> tuple[str, int, bytes] | None:
    """(family, tokens, hashes) of a seal of this kind, unchecked; None for anything that is none."""
    if not isinstance(value, str) or not 60 <= len(value) <= 200:
        return None
    try:
        raw = base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        return None
    tag = _REDACTED_TAG if redacted else _THINKING_TAG
    if raw[:2] != tag or len(raw) < 3:
        return None
    size = raw[2]
    family = raw[3 : 3 + size].decode("ascii", "replace")
    count = raw[3 + size : 3 + size + _COUNT]
    return family, int.from_bytes(count, "big"), raw[3 + size + _COUNT : -_CHECK]


def decode_signature(value: object, redacted: bool) -> Signed | None:
    """A seal made by this emulator, untouched; None for anything else (altered, foreign, huge)."""
    opened = _opened(value, redacted)
    if opened is None:
        return None
    raw = base64.b64decode(str(value))
    body, check = raw[:-_CHECK], raw[-_CHECK:]
    family, tokens, macs = opened
    if not hmac.compare_digest(check, mac(b"check", body, size=_CHECK)):
        return None
    if len(macs) != (3 if redacted else 2) * MAC_SIZE:
        return None
    return Signed(family, tokens, macs[:MAC_SIZE], macs[MAC_SIZE : 2 * MAC_SIZE], macs[2 * MAC_SIZE :])


def sealed_tokens(block: dict) -> int | None:
    """The thinking tokens a block sent back stands for (the model's whole thinking, what the API
    bills as input), read from its seal; None when the block carries no seal of this emulator's."""
    redacted = block.get("type") == "redacted_thinking"
    signed = decode_signature(block.get("data" if redacted else "signature"), redacted)
    return None if signed is None else signed.tokens
