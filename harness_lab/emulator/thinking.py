"""Thinking in the emulated model's replies, and the signatures that make a round trip checkable.

On a model that thinks (by default or when asked, see models.py), a reply starts with a thinking
block; on the models that return text between tool calls as thinking, that text becomes thinking
too. ``display: "omitted"`` (the default on the newest models) sends the block with empty text
and a signature; ``"summarized"`` sends a short summary in the course's language: English when
``HARNESS_LAB_LANG=en`` or when the task (the first user message) has no Japanese in it, Japanese
otherwise. What the model "thought" is billed as output and counts against ``max_tokens``: the
emulator assumes the summary is about a third of it (``thought_tokens``).

A signature is a keyed hash (BLAKE2b under the emulator's own key) of the model that made
the block, the block's text, the blocks before it in the same message, and the conversation
before that message (``system``, ``tools``, earlier ``messages``), plus a check over the signature
itself. The emulator can therefore tell, on replay, a signature that was altered (its check
fails), a block whose text was edited (its block hash fails), a block from another model, and a
conversation edited before a block (its prefix hash fails). The key is no secret: it makes edits
detectable offline, not forgery impossible.

The tool_use ids of a reply also remember how the reply was made: 13 characters of nonce, one
that says which thinking configuration was in force and whether the reply began with thinking,
and 8 of keyed hash over those and the model. That is how the emulator knows, when the tool
results come back, that the assistant turn before them lost its thinking block, or that the
thinking configuration changed inside the loop (roundtrip.py).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass

from .reading import reply_language
from .seals import Signed, decode_signature, mac, seal
from .server_tools import is_server_result
from .tokens import text_tokens

__all__ = [
    "Mode",
    "ToolState",
    "decode_signature",
    "make_tool_id",
    "mode_of",
    "read_tool_id",
    "sign_blocks",
    "think",
    "thought_tokens",
    "without_text_in_omitted",
]

# Configurations a tool id can remember (its state character is 2 * index + began-with-thinking).
MODES = ("disabled", "adaptive", "enabled", "between_tools")
_BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
# Where ``think`` leaves a block's thinking tokens for ``sign_blocks`` to seal (never sent).
THOUGHT = "_harness_lab_thought"


@dataclass(frozen=True)
class Mode:
    """The thinking in force for one request: ``kind`` is one of ``MODES``."""

    kind: str
    display: str
    budget: int | None = None  # manual extended thinking's budget_tokens
    drop_mismatched: bool = False  # block_binding.prefix_mismatch_behavior == "drop_block"
    continuing: bool = False  # a reply after tool results, in manual thinking that does not interleave

    @property
    def up_front(self) -> bool:
        """Whether the model thinks before its first block (manual thinking without interleaving thinks
        only at the start of its turn)."""
        return self.kind in ("adaptive", "enabled") and not self.continuing


def mode_of(request: dict, default_kind: str, default_display: str) -> Mode:
    """The request's thinking configuration (validated already), the model's defaults filling gaps."""
    thinking = request.get("thinking")
    if not isinstance(thinking, dict):
        return Mode(default_kind, default_display)
    binding = thinking.get("block_binding") or {}
    return Mode(
        thinking["type"],
        thinking.get("display") or default_display,
        thinking.get("budget_tokens"),
        binding.get("prefix_mismatch_behavior") == "drop_block",
    )


# -- what the emulated model thinks -------------------------------------------------------------

_PHRASES = {
    "call": ("{calls} を呼び出して、次に必要な情報を確かめる。", "Call {calls} to get what is needed next."),
    "answer": ("手元の結果で答えられるので、要点をまとめて答える。", "The results are enough: sum them up and answer."),
    "direct": ("ツールは要らない。質問に直接答える。", "No tool needed: answer the question directly."),
}


def _summary(content: list, request: dict) -> str:
    ja, en = _PHRASES["direct"]
    calls = [b for b in content if b.get("type") == "tool_use"]
    if calls:
        names = ", ".join(_call_text(c) for c in calls[:3])
        ja, en = (p.format(calls=names) for p in _PHRASES["call"])
    elif any(m.get("role") == "assistant" for m in request.get("messages") or () if isinstance(m, dict)):
        ja, en = _PHRASES["answer"]
    return en if reply_language(request) == "en" else ja


def _call_text(call: dict) -> str:
    """``name(key=value, ...)`` with short values only: a summary never carries a whole document."""
    shown = []
    for key, value in list(call["input"].items())[:2]:
        text = json.dumps(value, ensure_ascii=False, default=str) if isinstance(value, (str, int, float, bool)) else "…"
        shown.append(f"{key}={text if len(text) <= 40 else text[:39] + '…'}")
    return f"{call['name']}({', '.join(shown)})"


def thought_tokens(summary: str) -> int:
    """What the model thought to write ``summary``: the emulator assumes three times its length, and
    a few tokens more (a real summary is shorter than the thinking it stands for; how much shorter,
    the docs do not say)."""
    return 3 * text_tokens(summary) + 16


def think(content: list, request: dict, mode: Mode, between_as_thinking: bool) -> tuple[list, int]:
    """``content`` as the thinking model returns it, and the thinking tokens it spent (unsigned yet).

    Script-given thinking blocks (``think`` / ``redacted`` parts) stay where the script put them;
    without any, a thinking model starts with one. Off (or forced past), they are dropped.
    """
    given = any(b.get("type") in ("thinking", "redacted_thinking") for b in content)
    if mode.kind == "disabled":
        return [b for b in content if b.get("type") not in ("thinking", "redacted_thinking")], 0
    # A server tool's result that opens the reply answers a call of the turn before, run at the start of
    # this request: "the next response's content starts with the result block" (the server tools page).
    ran = 0
    while ran < len(content) and is_server_result(content[ran].get("type")):
        ran += 1
    blocks: list = list(content[:ran])
    if mode.up_front and not given:
        summary = _summary(content, request)
        blocks.append(_thought({"type": "thinking", "thinking": summary}, thought_tokens(summary), mode))
    last_call = max((i for i, b in enumerate(content) if b.get("type") == "tool_use"), default=-1)
    for index, block in enumerate(content[ran:], ran):
        kind = block.get("type")
        if kind == "thinking":
            blocks.append(_thought({"type": "thinking", "thinking": block["thinking"]}, None, mode))
        elif kind == "redacted_thinking":
            blocks.append({"type": "redacted_thinking", "data": "", THOUGHT: thought_tokens("")})
        elif kind == "text" and between_as_thinking and index < last_call:
            # Text before a tool call on these models is a progress note: a thinking block.
            shown = block["text"] if mode.display in ("summarized", "updates") else ""
            blocks.append({"type": "thinking", "thinking": shown, THOUGHT: text_tokens(block["text"])})
        else:
            blocks.append(block)
    spent = sum(b.get(THOUGHT, 0) for b in blocks)
    if mode.budget is not None and spent > mode.budget:  # each block keeps its share of the budget
        left = mode.budget
        for block in blocks:
            if THOUGHT in block:
                block[THOUGHT] = min(block[THOUGHT], left)
                left -= block[THOUGHT]
        spent = mode.budget
    return blocks, spent


def _thought(block: dict, tokens: int | None, mode: Mode) -> dict:
    """A thinking block as sent (its summary, or empty when omitted) with the tokens it stands for."""
    text = block["thinking"]
    return {**block, "thinking": text if mode.display == "summarized" else "", THOUGHT: tokens or thought_tokens(text)}


# -- signatures ----------------------------------------------------------------------------------


def blocks_digest(blocks: list) -> bytes:
    """A digest of the blocks before a thinking block in its message: what the client echoes, so
    null fields and cache_control are left out (an SDK may drop or add them without changing a block)."""
    digest = hashlib.sha256()
    for block in blocks:
        kept = (
            {k: v for k, v in block.items() if v is not None and k != "cache_control"}
            if isinstance(block, dict)
            else block
        )
        digest.update(json.dumps(kept, sort_keys=True, ensure_ascii=False, default=str).encode("utf-8", "replace"))
    return digest.digest()


def _payload(block: dict) -> bytes:
    text = block.get("thinking") if block.get("type") == "thinking" else ""
    return text.encode("utf-8", "surrogatepass") if isinstance(text, str) else b""


def sign_blocks(content: list, family: str, conversation: bytes, nonce: bytes) -> None:
    """Fill in each thinking block's ``signature`` and each redacted block's ``data``, in place, sealing
    in what it thought (``think`` left that under ``THOUGHT``, taken out here before anything is hashed)."""
    thought = [block.pop(THOUGHT, 0) for block in content]
    for index, block in enumerate(content):
        kind = block.get("type")
        if kind not in ("thinking", "redacted_thinking"):
            continue
        before = blocks_digest(content[:index])
        prefix = mac(b"prefix", family.encode(), conversation, before)
        if kind == "thinking":
            block["signature"] = seal(
                False, family, thought[index], mac(b"block", family.encode(), _payload(block), before) + prefix
            )
        else:  # opaque: a per-reply "ciphertext" the emulator can recognise again
            secret = mac(b"redacted", nonce, str(index).encode())
            block["data"] = seal(
                True, family, thought[index], mac(b"block", family.encode(), secret, before) + prefix + secret
            )


def block_matches(signed: Signed, block: dict, before: list) -> bool:
    """Whether the block (and the blocks before it in its message) are as the model sent them."""
    payload = signed.secret if block.get("type") == "redacted_thinking" else _payload(block)
    expected = mac(b"block", signed.family.encode(), payload, blocks_digest(before))
    return hmac.compare_digest(expected, signed.block_mac)


def without_text_in_omitted(request: dict) -> dict:
    """The request with any text written into a thinking block that came back empty (omitted) taken out
    again: the docs say such text "is ignored rather than rejected". ``request`` itself if there is none."""
    messages = request["messages"]  # validated: a list
    changed = False
    kept_messages = []
    for message in messages:
        content = message.get("content")
        if message.get("role") != "assistant" or not isinstance(content, list):
            kept_messages.append(message)
            continue
        kept: list = []
        for block in content:
            if isinstance(block, dict) and block.get("type") == "thinking" and block.get("thinking"):
                signed = decode_signature(block.get("signature"), False)
                emptied = {**block, "thinking": ""}
                if signed is not None and block_matches(signed, emptied, kept):
                    block, changed = emptied, True
            kept.append(block)
        kept_messages.append({**message, "content": kept})
    return {**request, "messages": kept_messages} if changed else request


def prefix_matches(signed: Signed, conversation: bytes, before: list) -> bool:
    expected = mac(b"prefix", signed.family.encode(), conversation, blocks_digest(before))
    return hmac.compare_digest(expected, signed.prefix_mac)


# -- tool ids that remember their turn -------------------------------------------------------------


@dataclass(frozen=True)
class ToolState:
    mode: str  # one of MODES
    began_with_thinking: bool


def _base62(data: bytes, length: int) -> str:
    number, chars = int.from_bytes(data, "big"), []
    for _ in range(length):
        number, rest = divmod(number, 62)
        chars.append(_BASE62[rest])
    return "".join(chars)


def make_tool_id(nonce: str, family: str, state: ToolState) -> str:
    """``toolu_01`` + 13 nonce characters + a state character + 8 characters of keyed hash."""
    code = _BASE62[2 * MODES.index(state.mode) + int(state.began_with_thinking)]
    return f"toolu_01{nonce[:13]}{code}{_base62(mac(b'tool', family.encode(), nonce[:13].encode(), code.encode()), 8)}"


def read_tool_id(tool_id: object, family: str) -> ToolState | None:
    """The state a tool id minted by this emulator for ``family`` remembers; None for any other id."""
    if not isinstance(tool_id, str) or len(tool_id) != 30 or not tool_id.startswith("toolu_01"):
        return None
    nonce, code, tag = tool_id[8:21], tool_id[21], tool_id[22:]
    if tag != _base62(mac(b"tool", family.encode(), nonce.encode(), code.encode()), 8):
        return None
    index = _BASE62.index(code)
    if index >= 2 * len(MODES):
        return None
    return ToolState(MODES[index // 2], bool(index % 2))
