"""The emulator's token estimate (lesson 4: budget burnout).

There is no offline Claude tokenizer, so the emulator *estimates*, deterministically, from the request
alone. The numbers are close enough to teach with (history grows, so input tokens grow every turn) but
they are not what the real API would bill. The rules:

- Text: every *wide* character counts as one token, since Claude's tokenizer spends roughly a token
  per Japanese character: kana, kanji (CJK ideographs, also the supplementary-plane ones such as
  "𠮷"), CJK and full-width punctuation, Hangul (Korean costs about as much per syllable) and
  emoji and pictographic symbols (several UTF-8 bytes each, so never a quarter token). A run of ASCII
  digits costs one token per three digits (so "8月6日" and "11月30日", or any two clock times, cost
  the same and stored notebook outputs do not change with the date); every other character counts a
  quarter of a token (about 4 characters of English or code per token), rounded up per text. An
  emoji sequence counts each pictograph, and its joiners and variation selectors as other characters.
- Structured values (tool inputs, tool definitions) count as the text of their JSON
  (``ensure_ascii=False``, so Japanese stays one token per character).
- Overheads: 7 per request, 3 per message, 3 per system prompt, 8 per tool_use block, 6 per
  tool_result block, 12 per tool definition, and 1,600 per image or document block. A request that
  defines tools also pays a hidden tool system prompt of 346 tokens, as the real API does.
- Order: tools, then system, then messages. That is also the prompt-cache prefix order: the prefix
  covered by a ``cache_control`` breakpoint is the running estimate at the last marked block (the
  whole request for a top-level ``cache_control``).
- Reply: 1 token, plus text as above, plus 8 + name + input JSON per tool_use block.

Everything here is one pass over the request: linear in its size.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from . import wire
from .models import cache_family, default_effort, default_thinking, keeps_prior_thinking
from .seals import sealed_tokens

THINKING_KINDS = ("thinking", "redacted_thinking")
STRIPPED = {"type": "stripped_thinking"}  # what a stripped block is to the cache key: the prompt ends differently

__all__ = [
    "REQUEST_OVERHEAD",
    "RequestEstimate",
    "TOOLS_SYSTEM_PROMPT_TOKENS",
    "cache_key_bytes",
    "estimate_reply",
    "estimate_request",
    "in_estimate",
    "in_tokenizer",
    "text_tokens",
    "value_tokens",
]

# The estimate is in the 2026 tokenizer's units (Claude 4.7 and later, the course's model). The 2025
# tokenizer (Claude 4.6 and earlier) spends about 1/1.3 of that on the same text [S5, H55 in
# docs/api_facts.md]: what a model reports is ``in_tokenizer(estimate, row.tokenizer)``, and a limit
# the request sets in the model's tokens (``max_tokens``, the window) covers ``in_estimate(limit)``.
# Exact fractions, so that a limit converted there and back is the limit again.
TOKENIZER_SHARE = {"2026": Fraction(1), "2025": Fraction(10, 13)}
REQUEST_OVERHEAD = 7
MESSAGE_OVERHEAD = 3
SYSTEM_OVERHEAD = 3
TOOL_USE_OVERHEAD = 8
TOOL_RESULT_OVERHEAD = 6
TOOL_DEFINITION_OVERHEAD = 12
MEDIA_BLOCK_TOKENS = 1600
TOOLS_SYSTEM_PROMPT_TOKENS = 346
REPLY_OVERHEAD = 1

_DIGITS = re.compile("[0-9]+")
# Characters that cost about a token each. Everyday Japanese (kana, kanji, full-width forms) sits in
# the ranges the estimate always had, so stored notebook outputs keep their counts.
_WIDE = re.compile(
    "["
    "\u1100-\u11ff"  # Hangul jamo
    "\u2600-\u27bf"  # miscellaneous symbols and dingbats (the BMP emoji: ☀ ✅ ❌)
    "\u2e80-\u2fdf"  # CJK and Kangxi radicals
    "\u3000-\u4dbf"  # CJK punctuation, kana, bopomofo, Hangul compatibility jamo, enclosed and
    #                  compatibility CJK (㈱ ㌔), extension A
    "\u4e00-\u9fff"  # CJK unified ideographs
    "\ua960-\ua97f"  # Hangul jamo extended-A
    "\uac00-\ud7ff"  # Hangul syllables, jamo extended-B
    "\uf900-\ufaff"  # CJK compatibility ideographs
    "\ufe30-\ufe4f"  # CJK compatibility forms
    "\uff00-\uffef"  # half-width and full-width forms
    "\U0001b000-\U0001b16f"  # kana supplement and extended-A (hentaigana)
    "\U0001f000-\U0001faff"  # emoji and pictographs (😀 🚀 🈁)
    "\U00020000-\U0003ffff"  # CJK extensions B and on, compatibility supplement (𠮷)
    "]"
)


@lru_cache(maxsize=8192)
def text_tokens(text: str) -> int:
    """One token per wide character (CJK, Hangul, emoji) and per three digits, a quarter per other one.

    Cached because a loop re-sends its whole history every turn: the same texts come back each time.
    """
    if not text:
        return 0
    wide = 0 if text.isascii() else _WIDE.subn("", text)[1]
    runs = [len(run) for run in _DIGITS.findall(text)]
    other = len(text) - wide - sum(runs)
    return wide + sum((n + 2) // 3 for n in runs) + (other + 3) // 4


def value_tokens(value: Any) -> int:
    """Tokens of a structured value, counted as its JSON text."""
    if isinstance(value, str):
        return text_tokens(value)
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
    except RecursionError:  # up to 1,024 levels are valid JSON for the API, deeper than json recurses
        text = wire.dumps(value)
    return text_tokens(text)


@dataclass(frozen=True)
class RequestEstimate:
    """``total`` input tokens; ``cached_prefix`` of them sit before the last cache breakpoint, and
    ``hour_prefix`` before the last one with a 1-hour TTL.

    ``trail`` (only when asked for) holds, after each block in prefix order, the running total and
    a digest of everything so far, with whether a breakpoint sits there: what the prompt cache
    keys its entries by (caching.py).
    """

    total: int
    cached_prefix: int = 0
    hour_prefix: int = 0  # of them before the last 1-hour breakpoint (1-hour ones come first)
    breakpoints: int = 0  # blocks with cache_control, plus one for a top-level cache_control
    trail: tuple = ()


def _block_tokens(block: Any, sent_back: bool = True) -> int:
    """A block's tokens; a thinking block sent back costs what its model thought (read from its seal),
    one in a reply nothing: its thinking is billed apart, as output, and the summary it shows costs
    nothing on top ("charged for the full thinking tokens ..., not the summary tokens")."""
    if isinstance(block, str):
        return text_tokens(block)
    kind = block.get("type")
    if kind == "text":
        return text_tokens(block.get("text") or "")
    if kind == "tool_use":
        return TOOL_USE_OVERHEAD + text_tokens(block.get("name") or "") + value_tokens(block.get("input") or {})
    if kind == "tool_result":
        content = block.get("content")
        if content is None:
            inner = 0
        elif isinstance(content, str):
            inner = text_tokens(content)
        else:
            inner = sum(_block_tokens(b) for b in content)
        return TOOL_RESULT_OVERHEAD + inner
    if kind in ("image", "document"):
        return MEDIA_BLOCK_TOKENS
    if kind in ("thinking", "redacted_thinking"):
        if not sent_back:
            return 0
        sealed = sealed_tokens(block)
        return sealed if sealed is not None else text_tokens(block.get("thinking") or block.get("data") or "")
    # Anything else (server tool blocks, search results...): count its JSON.
    return value_tokens(block)


class _Counter:
    """Running total that remembers where the last cache breakpoint fell (and, when tracking, a
    digest of the prompt so far after each block)."""

    def __init__(self, track: bool) -> None:
        self.total = REQUEST_OVERHEAD
        self.prefix = 0
        self.hour_prefix = 0
        self.breakpoints = 0
        self.running = hashlib.sha256() if track else None
        self.trail: list = []

    def mix(self, value: Any) -> None:
        """Part of the cache key that is no block of the prompt (the model, the request's settings)."""
        if self.running is not None:
            self.running.update(cache_key_bytes(value))

    def add(self, tokens: int, marker: Any = None, block: Any = None) -> None:
        self.total += tokens
        marked = isinstance(marker, dict)
        if marked:
            self.prefix = self.total
            self.hour_prefix = self.total if marker.get("ttl") == "1h" else self.hour_prefix
            self.breakpoints += 1
        if self.running is not None and block is not None:
            self.running.update(cache_key_bytes(block))
            self.trail.append((self.total, self.running.copy().digest(), marked))


def cache_key_bytes(value: Any) -> bytes:
    """A block's bytes for the cache key: what changes the prompt changes the key."""
    if isinstance(value, dict) and "cache_control" in value:
        value = {k: v for k, v in value.items() if k != "cache_control"}
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str).encode("utf-8", "surrogatepass")


def _marker(block: Any) -> Any:
    return block.get("cache_control") if isinstance(block, dict) else None


def _markers(block: Any) -> list:
    """A block's breakpoints: its own, and those of the blocks a tool_result holds (each counts toward
    the four; the prefix is approximated as ending with the tool_result)."""
    inner = block.get("content") if isinstance(block, dict) and block.get("type") == "tool_result" else None
    found = [_marker(b) for b in inner] if isinstance(inner, list) else []
    return [m for m in (*found, _marker(block)) if isinstance(m, dict)]


def estimate_request(request: dict, track: bool = False) -> RequestEstimate:
    """Estimate the input tokens of a Messages request (tools + system + messages).

    ``track=True`` also records the ``trail`` the prompt cache needs; it costs a hash per block,
    so only a request that asks for caching pays it.
    """
    counter = _Counter(track)
    counter.mix(cache_family(request.get("model")))  # the cache is per model
    tools = request.get("tools") or []
    if tools:
        counter.add(TOOLS_SYSTEM_PROMPT_TOKENS)
    for tool in tools:
        counter.add(TOOL_DEFINITION_OVERHEAD + value_tokens(tool), _marker(tool), tool)
    counter.mix(request.get("speed") or "standard")  # speed invalidates the system prompt and messages
    system = request.get("system")
    if system:
        counter.add(SYSTEM_OVERHEAD)
        if isinstance(system, str):
            counter.add(text_tokens(system), None, system)
        else:
            for block in system:
                counter.add(_block_tokens(block), _marker(block), block)
    counter.mix(_message_settings(request))
    messages = request.get("messages") or []
    stripped = stripped_before(request)
    for index, message in enumerate(messages):
        counter.add(MESSAGE_OVERHEAD, None, message.get("role") if isinstance(message, dict) else None)
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, str):
            counter.add(text_tokens(content), None, content)
        elif content:
            for block in content:
                markers = _markers(block)
                gone = index < stripped and isinstance(block, dict) and block.get("type") in THINKING_KINDS
                counter.add(
                    0 if gone else _block_tokens(block), markers[-1] if markers else None, STRIPPED if gone else block
                )
                counter.breakpoints += max(len(markers) - 1, 0)
    top = request.get("cache_control")
    if isinstance(top, dict):
        # Automatic caching: the breakpoint sits on the last block and moves on as the talk grows.
        counter.prefix = counter.total
        counter.hour_prefix = counter.total if top.get("ttl") == "1h" else counter.hour_prefix
        counter.breakpoints += 1
        if counter.trail:
            total, digest, _ = counter.trail[-1]
            counter.trail[-1] = (total, digest, True)
    return RequestEstimate(
        counter.total, counter.prefix, counter.hour_prefix, counter.breakpoints, tuple(counter.trail)
    )


def _message_settings(request: dict) -> tuple:
    """What the prompt caching page's table says invalidates the messages' cache when it changes: the
    thinking parameters, the effort (the model's default when it is left out), the tool choice and the
    structured output format (the structured outputs page)."""
    thinking = request.get("thinking")
    thinking = thinking if isinstance(thinking, dict) else {"type": default_thinking(request.get("model"))}
    config = request.get("output_config")
    config = config if isinstance(config, dict) else {}
    choice = request.get("tool_choice") or {"type": "auto"}
    return (
        thinking.get("type"),
        thinking.get("budget_tokens"),
        config.get("effort") or default_effort(request.get("model")),
        choice,
        config.get("format"),
    )


def stripped_before(request: dict) -> int:
    """Where a model that keeps only the current turn's thinking starts reading it: the last user message
    that is not only tool results (the thinking page: older blocks "are stripped from context"); 0 on
    the models that keep it all."""
    messages = request.get("messages") or []
    if keeps_prior_thinking(request.get("model")) or not isinstance(messages, list):
        return 0
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        if isinstance(message, dict) and message.get("role") == "user" and not _only_results(message.get("content")):
            return index
    return 0


def _only_results(content: Any) -> bool:
    return (
        isinstance(content, list)
        and bool(content)
        and all(isinstance(b, dict) and b.get("type") == "tool_result" for b in content)
    )


def estimate_reply(content: list[dict]) -> int:
    """Estimate the output tokens of a reply's content blocks (never 0, as on the real API)."""
    return REPLY_OVERHEAD + sum(_block_tokens(b, sent_back=False) for b in content)


def in_tokenizer(tokens: int, tokenizer: str) -> int:
    """``tokens`` of the estimate as a model with this tokenizer counts them (rounded down)."""
    return int(tokens * TOKENIZER_SHARE[tokenizer])


def in_estimate(tokens: int, tokenizer: str) -> int:
    """The estimate's tokens that ``tokens`` of this tokenizer cover: ``in_tokenizer`` turned round."""
    return math.ceil(tokens / TOKENIZER_SHARE[tokenizer])
