"""What the request's own limits do to a scripted reply (lesson 3: stop conditions).

The scripted model "generates" its reply, and then the request's ``stop_sequences`` and
``max_tokens`` apply as on the real API: text is cut just before the first stop sequence
(``stop_reason: "stop_sequence"``), and a reply longer than ``max_tokens`` (by the estimate in
``tokens.py``) is cut there (``stop_reason: "max_tokens"``), a tool_use included — its input then
holds only the keys that fit, which is why a truncated call must never be run. Thinking comes
first and counts against ``max_tokens``: a budget it uses up leaves only the thinking. A reply
that would run past the model's context window is cut where the window ends
(``stop_reason: "model_context_window_exceeded"``). A stop_reason the script set explicitly wins.
"""

from __future__ import annotations

from .replies import Reply
from .tokens import REPLY_OVERHEAD, TOOL_USE_OVERHEAD, estimate_reply, in_estimate, text_tokens, value_tokens

__all__ = ["billed_output", "shape_reply"]


def _cut_text(text: str, budget: int) -> str:
    """The longest prefix of ``text`` that fits in ``budget`` tokens (binary search)."""
    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if text_tokens(text[:middle]) <= budget:
            low = middle
        else:
            high = middle - 1
    return text[:low]


def _cut_input(tool_input: dict, budget: int) -> dict:
    """Keep the input's keys in order while they fit; a string value may be cut part-way."""
    kept: dict = {}
    for key, value in tool_input.items():
        cost = value_tokens({key: value})
        if cost <= budget:
            kept[key] = value
            budget -= cost
            continue
        if isinstance(value, str) and budget > text_tokens(key) + 2:
            kept[key] = _cut_text(value, budget - text_tokens(key) - 2)
        break
    return kept


def _apply_stop_sequences(content: list[dict], sequences: list) -> tuple[list[dict], str | None]:
    for position, block in enumerate(content):
        if block["type"] != "text":
            continue
        text = block["text"]
        hits = [(text.find(s), s) for s in sequences if isinstance(s, str) and s and s in text]
        if hits:
            at, sequence = min(hits)
            kept = content[:position]
            if text[:at]:
                kept.append({**block, "text": text[:at]})
            return kept, sequence
    return content, None


def _apply_max_tokens(content: list[dict], budget: int) -> tuple[list[dict], bool]:
    kept: list[dict] = []
    for block in content:
        if block["type"] == "text":
            cost = text_tokens(block["text"])
            if cost <= budget:
                kept.append(block)
                budget -= cost
                continue
            cut = _cut_text(block["text"], max(budget, 0))
            if cut:
                kept.append({**block, "text": cut})
            return kept, True
        if block["type"] == "tool_use":
            cost = TOOL_USE_OVERHEAD + text_tokens(block["name"]) + value_tokens(block["input"])
            if cost <= budget:
                kept.append(block)
                budget -= cost
                continue
            if budget > TOOL_USE_OVERHEAD + text_tokens(block["name"]):
                room = budget - TOOL_USE_OVERHEAD - text_tokens(block["name"])
                kept.append({**block, "input": _cut_input(block["input"], room)})
            return kept, True
        kept.append(block)
    return kept, False


def shape_reply(
    content: list[dict],
    scripted: Reply,
    request: dict,
    thinking: int = 0,
    window_left: int | None = None,
    tokenizer: str = "2026",
) -> tuple[list[dict], str, str | None, int]:
    """Apply stop sequences, ``max_tokens`` and the context window (``window_left``, in the model's
    own tokens, as ``max_tokens`` is) to a reply that spends ``thinking`` tokens first; return
    (content, stop_reason, stop_sequence, thinking tokens billed)."""
    if scripted.stop_reason is not None:
        return content, scripted.stop_reason, scripted.stop_sequence, thinking
    stop_reason, stop_sequence = scripted.final_stop_reason, None
    sequences = request.get("stop_sequences")
    if sequences:
        content, stop_sequence = _apply_stop_sequences(content, sequences)
        if stop_sequence is not None:
            stop_reason = "stop_sequence"
    max_tokens = request.get("max_tokens")
    limit = max_tokens if isinstance(max_tokens, int) else None
    cause = "max_tokens"  # unless the context window is the nearer limit
    if window_left is not None and (limit is None or window_left < limit):
        limit, cause = window_left, "model_context_window_exceeded"
    if limit is None:
        return content, stop_reason, stop_sequence, thinking
    limit = in_estimate(limit, tokenizer)  # the reply is measured in the estimate's tokens
    # A shown summary takes no room of its own: the thinking behind it is what is billed (billed_output).
    budget = limit - REPLY_OVERHEAD - thinking
    if budget < 0:  # the limit fell inside the thinking: only the thinking comes back
        kept = [b for b in content if b["type"] in ("thinking", "redacted_thinking")]
        return kept, cause, None, max(limit - REPLY_OVERHEAD, 0)
    content, cut = _apply_max_tokens(content, budget)
    if cut:
        stop_reason, stop_sequence = cause, None
    return content, stop_reason, stop_sequence, thinking


def billed_output(request: dict, stop_reason: str, content: list, thinking: int, tokenizer: str) -> int:
    """The reply's output tokens, in the estimate's units. A reply that stops on ``max_tokens`` gets
    all of them billed, as a live reply cut there does ("exactly the requested tokens", the stop
    reasons page): whether the script said so, however little of it the script wrote, or the limit
    cut it, even where the block it cut (a tool call that did not fit) is not sent at all, and no more. A
    refusal before any output made none."""
    if stop_reason == "refusal" and not content:
        return 0  # declined before any output: "output_tokens": 0 (the refusals page's example)
    made = estimate_reply(content) + thinking
    if stop_reason == "max_tokens" and isinstance(request.get("max_tokens"), int):
        # Exactly the limit, never more, whatever a script that set this stop_reason wrote.
        return in_estimate(request["max_tokens"], tokenizer)
    return made
