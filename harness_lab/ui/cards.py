"""Block cards: every content block, message and usage drawn as HTML and as plain text (lessons 2-6).

Learners should see a turn, not read a log. A ``Card`` holds HTML for notebooks and plain text for
static renderers and nbval. Both forms are deterministic: no object ids, no times, only what the API
sent (the emulator's tool_use ids and signatures are derived from the request, so they are stable).
A thinking block comes folded, before the text and tool calls it led to: its text is often omitted
(display "omitted"), and its signature is opaque, so the card says so and shows the signature's
length, not the signature. The loop's events and a whole run's transcript are in ``transcript.py``.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable
from typing import Any

from ..events import CountedUsage, Usage
from ..messages import block_dict, field
from ..text import t

__all__ = [
    "Card",
    "block_card",
    "blocks_card",
    "message_card",
    "text_card",
    "thinking_tokens",
    "usage_card",
    "usage_line",
]

# Long tool output would bury the turn; the rest is still in run.messages.
MAX_CHARS = 1200

# One palette: (border, background) per card kind; translucent so dark themes stay readable.
COLORS = {
    "text": ("#4a7bd0", "rgba(74,123,208,0.07)"),
    "tool_use": ("#c98a1b", "rgba(201,138,27,0.08)"),
    "tool_result": ("#3f9a5a", "rgba(63,154,90,0.08)"),
    "error": ("#c8372d", "rgba(200,55,45,0.10)"),
    "usage": ("#888888", "rgba(128,128,128,0.06)"),
    "thinking": ("#8a6fb0", "rgba(138,111,176,0.07)"),
    "turn": ("#666666", "transparent"),
    "approval": ("#c98a1b", "rgba(201,138,27,0.14)"),
    "finished": ("#3f9a5a", "rgba(63,154,90,0.12)"),
    "stopped": ("#c8372d", "rgba(200,55,45,0.12)"),
}


class Card:
    """One rendered thing: ``html`` for notebooks, ``text`` for everything else."""

    def __init__(self, html_text: str, text: str):
        self.html = html_text
        self.text = text

    def _repr_html_(self) -> str:
        return self.html

    def __repr__(self) -> str:
        return self.text

    __str__ = __repr__

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        # IPython prefers this over __repr__; keep both identical.
        p.text(self.text)

    @classmethod
    def join(cls, cards: Iterable[Card], kind: str = "list") -> Card:
        cards = list(cards)
        return cls(
            f'<div class="hl-{kind}">' + "".join(c.html for c in cards) + "</div>",
            "\n".join(c.text for c in cards),
        )


def esc(value: Any) -> str:
    return html.escape(str(value), quote=False)  # text nodes only; quotes stay readable


def clip(text: str) -> str:
    if len(text) <= MAX_CHARS:
        return text
    return text[:MAX_CHARS] + t("ui.card.truncated", n=len(text) - MAX_CHARS)


def indent(text: str) -> str:
    return "\n".join("  " + line for line in text.splitlines() or [""])


def box(kind: str, title_html: str, body_html: str = "", extra_class: str = "") -> str:
    border, background = COLORS[kind]
    classes = f"hl-card hl-{kind.replace('_', '-')}" + (f" {extra_class}" if extra_class else "")
    body = (
        f'<div style="margin-top:3px;white-space:pre-wrap;word-break:break-word">{body_html}</div>' if body_html else ""
    )
    return (
        f'<div class="{classes}" style="border-left:4px solid {border};background:{background};'
        f'padding:4px 8px;margin:4px 0;border-radius:3px;font-size:13px;line-height:1.45">'
        f'<div style="font-weight:600;color:{border}">{title_html}</div>{body}</div>'
    )


def pre(text: str) -> str:
    return (
        '<pre style="margin:2px 0;padding:4px 6px;background:rgba(128,128,128,0.10);'
        f'white-space:pre-wrap;word-break:break-word;font-size:12px">{esc(text)}</pre>'
    )


def code(text: str) -> str:
    return f"<code>{esc(text)}</code>"


# --- content blocks -----------------------------------------------------------------------------


def text_card(block: Any) -> Card:
    body = clip(field(block, "text", "") or "")
    return Card(box("text", esc(t("ui.card.text")), esc(body)), f"[{t('ui.card.text')}] {body}")


def tool_use_card(block: Any) -> Card:
    name, tool_id, args = field(block, "name"), field(block, "id"), field(block, "input") or {}
    pretty = json.dumps(args, ensure_ascii=False, indent=2, default=str)
    title = f"{esc(t('ui.card.tool_use'))}: {code(name)} <small>id {code(tool_id)}</small>"
    text = f"[{t('ui.card.tool_use')}] {name} (id {tool_id})\n{indent(pretty)}"
    return Card(box("tool_use", title, pre(pretty)), text)


def _result_text(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    parts = []
    for b in content:
        kind = field(b, "type")
        parts.append(field(b, "text", "") if kind == "text" else f"[{kind}]")
    return "\n".join(parts)


def tool_result_card(block: Any) -> Card:
    tool_id = field(block, "tool_use_id")
    is_error = bool(field(block, "is_error"))
    content = clip(_result_text(field(block, "content")))
    label = t("ui.card.tool_result") + (" — " + t("ui.card.error") if is_error else "")
    title = f"{esc(label)} <small>tool_use_id {code(tool_id)}</small>"
    text = f"[{label}] (tool_use_id {tool_id})\n{indent(content)}"
    return Card(box("error" if is_error else "tool_result", title, pre(content)), text)


def other_block_card(block: Any) -> Card:
    kind = field(block, "type")
    data = json.dumps(block_dict(block), ensure_ascii=False, indent=2, default=str)
    label = t("ui.card.other", type=kind)
    return Card(box("usage", esc(label), pre(clip(data))), f"[{label}]\n{indent(clip(data))}")


def _folded_box(kind: str, summary: str, body_html: str) -> str:
    """A card shown as its title line only; a click opens the body (a thinking block is rarely read)."""
    border, background = COLORS[kind]
    return (
        f'<details class="hl-card hl-{kind.replace("_", "-")}" style="border-left:4px solid {border};'
        f'background:{background};padding:4px 8px;margin:4px 0;border-radius:3px;font-size:13px;line-height:1.45">'
        f'<summary style="cursor:pointer;font-weight:600;color:{border}">{esc(summary)}</summary>{body_html}</details>'
    )


def _note(text: str) -> str:
    return f'<div style="font-size:12px;opacity:0.8;margin-top:2px">{esc(text)}</div>'


def thinking_card(block: Any) -> Card:
    """A ``thinking`` block, folded: its text when the API sent any, else 「思考（本文は非表示）」."""
    text, signature = field(block, "thinking", "") or "", field(block, "signature", "") or ""
    label = t("ui.card.thinking") if text else t("ui.card.thinking_omitted")
    summary = t("ui.card.thinking_head", label=label, n=len(signature))
    body = pre(clip(text)) if text else _note(t("ui.card.thinking_omitted_note"))
    return Card(_folded_box("thinking", summary, body), f"[{summary}]" + (f"\n{indent(clip(text))}" if text else ""))


def redacted_thinking_card(block: Any) -> Card:
    """A ``redacted_thinking`` block: encrypted, never readable; it goes back to the API as it came."""
    summary = t("ui.card.thinking_redacted", n=len(field(block, "data", "") or ""))
    return Card(_folded_box("thinking", summary, _note(t("ui.card.thinking_redacted_note"))), f"[{summary}]")


BLOCK_CARDS = {
    "text": text_card,
    "tool_use": tool_use_card,
    "tool_result": tool_result_card,
    "thinking": thinking_card,
    "redacted_thinking": redacted_thinking_card,
}


def block_card(block: Any) -> Card:
    return BLOCK_CARDS.get(field(block, "type"), other_block_card)(block)


def blocks_card(content: Any) -> Card:
    if isinstance(content, str):
        return text_card({"type": "text", "text": content})
    return Card.join((block_card(b) for b in content or ()), "blocks")


def message_card(message: dict) -> Card:
    role = message.get("role", "")
    label = t(f"ui.card.role_{role}" if role in ("user", "system") else "ui.card.role_assistant")
    inner = blocks_card(message.get("content"))
    return Card(
        f'<div class="hl-message hl-{html.escape(role)}"><div style="font-size:12px;opacity:0.7">'
        f"{esc(label)}</div>{inner.html}</div>",
        f"--- {label} ---\n{inner.text}",
    )


# --- usage ----------------------------------------------------------------------------------------


def thinking_tokens(usage: Any) -> int:
    """How many of a response's output tokens were thinking (``usage.output_tokens_details``), or 0."""
    details = field(usage, "output_tokens_details") if usage is not None else None
    return int(field(details, "thinking_tokens", 0) or 0) if details is not None else 0


def usage_line(usage: Usage, thinking: int = 0) -> str:
    """One line of a usage; ``thinking`` (part of the output) is named when there is any."""
    if isinstance(usage, CountedUsage) and usage.input_tokens:  # nothing counted: each part shows its 0
        return t("ui.card.usage_counted", total=usage.input_tokens)
    return t(
        "ui.card.usage_line",
        input_tokens=usage.input_tokens,
        output_tokens=t("ui.card.output_thinking", output=usage.output_tokens, thinking=thinking)
        if thinking
        else usage.output_tokens,
        cache_creation_input_tokens=usage.cache_creation_input_tokens,
        cache_read_input_tokens=usage.cache_read_input_tokens,
        total=usage.total,
    ) + _premiums(usage)


# Where a line of counts may break: after the mark between its parts (" ・ " in Japanese, " · " in
# English, so no line starts with the mark), before an opening bracket and after a closing one.
_BREAKS = re.compile(r"((?<= [・·]) | (?=\()|(?<=\)) |(?=（)|(?<=）))")


def parts_html(line: str) -> str:
    """``line`` as HTML that wraps only where ``_BREAKS`` allows. Browsers break Japanese between any two
    characters: in a narrow column a count broke inside a word ("キ" / "ャッシュ読み込み", "トーク" / "ン")."""
    pieces = _BREAKS.split(line)  # part, break, part, ...
    return "".join(
        esc(p) if i % 2 else f'<span style="white-space:nowrap">{esc(p)}</span>' if p else ""
        for i, p in enumerate(pieces)
    )


def usage_html(usage: Usage, thinking: int = 0) -> str:
    return parts_html(usage_line(usage, thinking))


def _premiums(usage: Usage) -> str:
    """What a usage ran at that costs more than the price table says (fast mode, US-only inference)."""
    return (t("ui.card.usage_fast") if usage.speed == "fast" else "") + (
        t("ui.card.usage_us") if usage.inference_geo == "us" else ""
    )


def usage_card(usage: Any, thinking: int | None = None) -> Card:
    """A usage; ``thinking`` defaults to what an API usage reports (our ``Usage`` keeps no split)."""
    thinking = thinking_tokens(usage) if thinking is None else thinking
    usage = usage if isinstance(usage, Usage) else Usage.of(usage)
    line = usage_line(usage, thinking)
    return Card(
        box("usage", f"{esc(t('ui.card.usage'))}: <span style='font-weight:400'>{usage_html(usage, thinking)}</span>"),
        f"[{t('ui.card.usage')}] {line}",
    )
