"""Could the real API even read this body as JSON? (lesson 2: a history that cannot be sent at all)

The real API parses the body before it validates anything, with a parser whose messages match
yyjson's as orjson reports them (public 400s quote ``The request body is not valid JSON: no low
surrogate in string: line 1 column 37589 (char 37588)``). So a lone surrogate, nesting deeper than
1,024 containers, a NaN or an integer too large even for a double is refused whole, at a position
in the body. The emulator gets the body as a decoded dict, so it rebuilds that position from the
text the SDK would send: compact (``separators=(",", ":")``), keys in their order, non-ASCII kept,
and each surrogate written as a six-character ``\\uXXXX`` escape (the only way one can be sent).

Everything here walks iteratively: a body nested 10,000 deep must get its 400, not a
``RecursionError``. Python's own ``json`` module recurses, so here it only escapes strings, and
``encodes`` uses it as a quick first look whose failure sends the body to the walk.
"""

from __future__ import annotations

import json
import math
import re
from json.encoder import encode_basestring

__all__ = ["MAX_DEPTH", "canonical_bytes", "dumps", "encodes", "first_error", "text_depth_error"]

# orjson's reader refuses the 1,025th nested array or object (yyjson's container limit).
MAX_DEPTH = 1024
PREFIX = "The request body is not valid JSON: "
DEPTH = "array and object recursion depth exceeded"
_SURROGATE = re.compile("[\ud800-\udfff]")
# Characters json writes as a \uXXXX escape (besides surrogates): controls without a short escape.
_SHORT_ESCAPES = frozenset("\b\f\n\r\t")
# What the walk yields, as the first item of each tuple.
_OPEN, _CLOSE, _PUNCT, _STRING, _SCALAR = range(5)


class _Member:
    """One element of a container on the walk: what precedes it, its key (dicts only), its value."""

    __slots__ = ("key", "separator", "value")

    def __init__(self, separator: str, key: str | None, value: object) -> None:
        self.separator, self.key, self.value = separator, key, value


def _key_text(key: object) -> str:
    """A dict key as json writes it (it converts these scalars; anything else becomes its str)."""
    if isinstance(key, str):
        return key
    if key is True or key is False or key is None:
        return {True: "true", False: "false", None: "null"}[key]
    if isinstance(key, (int, float)):
        return _scalar_text(key)
    return str(key)


def _scalar_text(value: float) -> str:
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return float.__repr__(value)
    try:
        return int.__repr__(value)
    except ValueError:  # more digits than Python will print: still one deterministic text
        return format(value, "x")


def _members(value: dict | list | tuple, sort_keys: bool):
    if isinstance(value, dict):
        items = [(_key_text(k), v) for k, v in value.items()]
        if sort_keys:
            items.sort(key=lambda item: item[0])
        return (_Member("," if i else "", k, v) for i, (k, v) in enumerate(items))
    return (_Member("," if i else "", None, v) for i, v in enumerate(value))


def _walk(value: object, sort_keys: bool = False, limit: int = MAX_DEPTH + 1):
    """``value`` as JSON events in text order: ``(_OPEN, "{")``, ``(_CLOSE, "}")``, ``(_PUNCT, ",")``,
    ``(_STRING, encoded, raw)`` for strings and keys, ``(_SCALAR, text, value)``. Past ``limit``
    levels a container is written as ``...``, so even a cyclic value ends."""
    stack = [iter((_Member("", None, value),))]
    closers: list[str] = []
    while stack:
        member = next(stack[-1], None)
        if member is None:
            stack.pop()
            if closers:
                yield (_CLOSE, closers.pop())
            continue
        if member.separator:
            yield (_PUNCT, member.separator)
        if member.key is not None:
            yield (_STRING, encode_basestring(member.key), member.key)
            yield (_PUNCT, ":")
        item = member.value
        if isinstance(item, (dict, list, tuple)):
            if len(closers) >= limit:
                yield (_PUNCT, "...")
                continue
            opener, closer = ("{", "}") if isinstance(item, dict) else ("[", "]")
            yield (_OPEN, opener)
            closers.append(closer)
            stack.append(_members(item, sort_keys))
        elif isinstance(item, str):
            yield (_STRING, encode_basestring(item), item)
        elif item is None or item is True or item is False:
            yield (_SCALAR, {None: "null", True: "true", False: "false"}[item], item)
        elif isinstance(item, (int, float)):
            yield (_SCALAR, _scalar_text(item), item)
        else:  # what json.dumps(..., default=str) writes
            text = str(item)
            yield (_STRING, encode_basestring(text), text)


def canonical_bytes(value: object) -> bytes:
    """``json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)``
    as UTF-8, without recursion; surrogates kept as they are (``surrogatepass``)."""
    return "".join(event[1] for event in _walk(value, sort_keys=True)).encode("utf-8", "surrogatepass")


def dumps(value: object) -> str:
    """``json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)`` without recursion."""
    return "".join(event[1] for event in _walk(value))


def encodes(body: object) -> bool:
    """Whether the C encoder writes ``body`` as UTF-8 JSON: then it holds no lone surrogate and no
    NaN, and only nesting or a huge number could still stop the parser (the schema checks those)."""
    try:
        json.dumps(body, ensure_ascii=False, allow_nan=False, default=str).encode("utf-8")
    except (UnicodeEncodeError, RecursionError, ValueError, TypeError):
        return False
    return True


def _wire_length(text: str, raw: str) -> int:
    """Characters of an encoded string on the wire, where each surrogate is a six-character escape."""
    return len(text) if raw.isascii() else len(text) + 5 * len(_SURROGATE.findall(raw))


def _string_error(raw: str, start: int) -> tuple[str, int] | None:
    """The parser's complaint about a lone surrogate in ``raw``, whose JSON text begins at ``start``."""
    if raw.isascii():
        return None
    index = 0
    while True:
        found = _SURROGATE.search(raw, index)
        if found is None:
            return None
        at = found.start()
        offset = start + _wire_length(encode_basestring(raw[:at]), raw[:at]) - 1  # the escape's backslash
        code = ord(raw[at])
        if code >= 0xDC00:  # a low half with no high half before it
            return "invalid high surrogate in string", offset
        following = raw[at + 1] if at + 1 < len(raw) else '"'
        if 0xDC00 <= ord(following) <= 0xDFFF:  # a proper pair, as two escapes
            index = at + 2
            continue
        escaped = 0xD800 <= ord(following) <= 0xDBFF or (following < " " and following not in _SHORT_ESCAPES)
        reason = "invalid low surrogate in string" if escaped else "no low surrogate in string"
        return reason, offset + 6


def _scalar_error(text: str, value: object, start: int) -> tuple[str, int] | None:
    """NaN and infinities are not JSON; an integer beyond a double's range cannot be read either."""
    if isinstance(value, float) and not math.isfinite(value):
        if text.startswith("-"):
            return "no digit after minus sign", start + 1
        return "unexpected character", start
    if isinstance(value, int) and not isinstance(value, bool) and not -(2**63) <= value < 2**64:
        try:
            float(value)  # outside 64 bits the parser reads a double; only infinity is an error
        except OverflowError:
            return "number is infinity when parsed as double", start
    return None


def _position(reason: str, char: int) -> str:
    # orjson counts characters, and Python's JSONDecodeError words it; the body is one line.
    return f"{PREFIX}{reason}: line 1 column {char + 1} (char {char})"


def first_error(body: object) -> str | None:
    """The parser's 400 message for the first thing in ``body`` it cannot read, or None."""
    position = depth = 0
    for event in _walk(body):
        kind, text = event[0], event[1]
        if kind == _OPEN:
            depth += 1
            if depth > MAX_DEPTH:
                return _position(DEPTH, position + 1)
        elif kind == _CLOSE:
            depth -= 1
        elif kind == _STRING:
            problem = _string_error(event[2], position)
            if problem:
                return _position(*problem)
            position += _wire_length(text, event[2])
            continue
        elif kind == _SCALAR:
            problem = _scalar_error(text, event[2], position)
            if problem:
                return _position(*problem)
        position += len(text)
    return None


# A JSON string (escapes included) or a bracket: enough to follow nesting through raw text.
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


def text_depth_error(text: str) -> tuple[str | None, int]:
    """For a raw body Python's ``json`` could not nest into: the parser's depth 400 (or None when the
    body stays within the limit) and the deepest nesting seen."""
    depth = deepest = 0
    for token in _TOKENS.finditer(text):
        bracket = token.group()
        if bracket == "[" or bracket == "{":
            depth += 1
            deepest = max(deepest, depth)
            if depth > MAX_DEPTH:
                return _position(DEPTH, token.end()), deepest
        elif bracket == "]" or bracket == "}":
            depth -= 1
    return None, deepest
