"""Text from the model, a tool or a learner, made safe and short for one line of a terminal.

``visible`` shows every control character as an escape, so nothing printed can move the cursor,
write the clipboard, clear the screen or reorder what the reader sees; the command's trace and the
grading reports print through it. ``compact`` and ``shorten`` are how a tool call and its result
fit on a trace line.
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["SHOWN_CHARS", "compact", "shorten", "visible"]

SHOWN_CHARS = 40  # how much of a tool's output the trace shows

# What a terminal acts on instead of showing: C0 controls (ESC starts the sequences that write the
# clipboard, clear the screen or make hidden links), DEL, C1 controls (U+009B is a one-character
# ESC [), the line and paragraph separators, the bidi controls that make text display in another
# order than it runs (U+202E, U+2066-U+2069, ...; "Trojan Source"), and lone surrogates, which
# cannot even be encoded for the terminal. Only code points that are never ordinary text are listed,
# so Japanese, emoji and their joiners pass unchanged.
_UNSHOWABLE = r"\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff"
_UNSHOWABLE_IN_LINE = re.compile(rf"[{_UNSHOWABLE}]")
_UNSHOWABLE_IN_TEXT = re.compile(rf"(?![\n\t])[{_UNSHOWABLE}]")
_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    return _NAMED.get(char) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def visible(text: str, lines: bool = False) -> str:
    """``text`` safe to print on a terminal: every control character shown as an escape like ``\\x1b``.

    Use it on anything the model or a tool wrote. ``lines=True`` keeps newlines and tabs (a final
    answer); otherwise they are escaped too, so one trace line stays one line. Backslashes are left
    alone: the result is for reading, not for parsing back.
    """
    return (_UNSHOWABLE_IN_TEXT if lines else _UNSHOWABLE_IN_LINE).sub(_escape, text)


def compact(value: Any) -> str:
    """JSON as the lesson prints it: no spaces, Japanese as is (what JSON cannot hold, as its str)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def shorten(text: str, limit: int = SHOWN_CHARS) -> str:
    """``text`` JSON-quoted, cut after its first line (or at ``limit`` characters) with ``...``."""
    newline = text.find("\n")
    if 0 <= newline < limit and newline + 1 < len(text):
        head = text[: newline + 1]
    elif len(text) > limit:
        head = text[:limit]
    else:
        return json.dumps(text, ensure_ascii=False)
    return json.dumps(head, ensure_ascii=False)[:-1] + '..."'
