"""Block cards: every block and event drawn as HTML and as plain text (lessons 2-6).

Learners should see a turn, not read a log. ``card(x)`` turns a content block (dict or SDK object),
a message, a ``Usage`` or a loop event into a ``Card`` that notebooks render as HTML, while static
renderers and nbval read its plain text. Both forms are deterministic: no object ids, no times, only
what the API sent (the emulator's tool_use ids are derived from the request, so they are stable).
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterable, Mapping
from typing import Any

from ..events import ApprovalRequest, Decision, Finished, Stopped, Turn, Usage
from ..messages import block_dict, field, tool_calls
from ..text import t

__all__ = ["Card", "approvals_header", "card", "steering_card", "transcript", "turn_summary"]

# Long tool output would bury the turn; the rest is still in run.messages.
MAX_CHARS = 1200

# One palette: (border, background) per card kind; translucent so dark themes stay readable.
COLORS = {
    "text": ("#4a7bd0", "rgba(74,123,208,0.07)"),
    "tool_use": ("#c98a1b", "rgba(201,138,27,0.08)"),
    "tool_result": ("#3f9a5a", "rgba(63,154,90,0.08)"),
    "error": ("#c8372d", "rgba(200,55,45,0.10)"),
    "usage": ("#888888", "rgba(128,128,128,0.06)"),
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


def _esc(value: Any) -> str:
    return html.escape(str(value), quote=False)  # text nodes only; quotes stay readable


def _clip(text: str) -> str:
    if len(text) <= MAX_CHARS:
        return text
    return text[:MAX_CHARS] + t("ui.card.truncated", n=len(text) - MAX_CHARS)


def _indent(text: str) -> str:
    return "\n".join("  " + line for line in text.splitlines() or [""])


def _box(kind: str, title_html: str, body_html: str = "", extra_class: str = "") -> str:
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


def _pre(text: str) -> str:
    return (
        '<pre style="margin:2px 0;padding:4px 6px;background:rgba(128,128,128,0.10);'
        f'white-space:pre-wrap;word-break:break-word;font-size:12px">{_esc(text)}</pre>'
    )


def _code(text: str) -> str:
    return f"<code>{_esc(text)}</code>"


# --- content blocks -----------------------------------------------------------------------------


def text_card(block: Any) -> Card:
    body = _clip(field(block, "text", "") or "")
    return Card(_box("text", _esc(t("ui.card.text")), _esc(body)), f"[{t('ui.card.text')}] {body}")


def tool_use_card(block: Any) -> Card:
    name, tool_id, args = field(block, "name"), field(block, "id"), field(block, "input") or {}
    pretty = json.dumps(args, ensure_ascii=False, indent=2, default=str)
    title = f"{_esc(t('ui.card.tool_use'))}: {_code(name)} <small>id {_code(tool_id)}</small>"
    text = f"[{t('ui.card.tool_use')}] {name} (id {tool_id})\n{_indent(pretty)}"
    return Card(_box("tool_use", title, _pre(pretty)), text)


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
    content = _clip(_result_text(field(block, "content")))
    label = t("ui.card.tool_result") + (" — " + t("ui.card.error") if is_error else "")
    title = f"{_esc(label)} <small>tool_use_id {_code(tool_id)}</small>"
    text = f"[{label}] (tool_use_id {tool_id})\n{_indent(content)}"
    return Card(_box("error" if is_error else "tool_result", title, _pre(content)), text)


def other_block_card(block: Any) -> Card:
    kind = field(block, "type")
    data = json.dumps(block_dict(block), ensure_ascii=False, indent=2, default=str)
    label = t("ui.card.other", type=kind)
    return Card(_box("usage", _esc(label), _pre(_clip(data))), f"[{label}]\n{_indent(_clip(data))}")


BLOCK_CARDS = {"text": text_card, "tool_use": tool_use_card, "tool_result": tool_result_card}


def block_card(block: Any) -> Card:
    return BLOCK_CARDS.get(field(block, "type"), other_block_card)(block)


def blocks_card(content: Any) -> Card:
    if isinstance(content, str):
        return text_card({"type": "text", "text": content})
    return Card.join((block_card(b) for b in content or ()), "blocks")


def message_card(message: dict) -> Card:
    role = message.get("role", "")
    label = t("ui.card.role_user") if role == "user" else t("ui.card.role_assistant")
    inner = blocks_card(message.get("content"))
    return Card(
        f'<div class="hl-message hl-{html.escape(role)}"><div style="font-size:12px;opacity:0.7">'
        f"{_esc(label)}</div>{inner.html}</div>",
        f"--- {label} ---\n{inner.text}",
    )


# --- usage and events ---------------------------------------------------------------------------


def usage_line(usage: Usage) -> str:
    if usage.input_tokens and not (
        usage.output_tokens or usage.cache_creation_input_tokens or usage.cache_read_input_tokens
    ):
        # Every response has output tokens: a usage without any is a total a hand-written loop kept
        # itself (lesson 6's tokensUsed), so it is shown as that total, not split.
        return t("ui.card.usage_counted", total=usage.input_tokens)
    return t(
        "ui.card.usage_line",
        input_tokens=usage.input_tokens,
        output_tokens=usage.output_tokens,
        cache_creation_input_tokens=usage.cache_creation_input_tokens,
        cache_read_input_tokens=usage.cache_read_input_tokens,
        total=usage.total,
    )


def usage_card(usage: Any) -> Card:
    usage = usage if isinstance(usage, Usage) else Usage.of(usage)
    line = usage_line(usage)
    return Card(
        _box("usage", f"{_esc(t('ui.card.usage'))}: <span style='font-weight:400'>{_esc(line)}</span>"),
        f"[{t('ui.card.usage')}] {line}",
    )


def steering_card(text: str) -> Card:
    """A person's instruction that went out with the tool results (lesson 5: 操舵)."""
    label = t("ui.card.steering")
    return Card(_box("text", _esc(label), _esc(_clip(text)), "hl-steering"), f"[{label}] {_clip(text)}")


def turn_card(turn: Turn, approvals: Iterable[Card] = (), steering: Iterable[str] = ()) -> Card:
    """A turn in full; ``approvals`` go between the model's calls and the results they allowed, and
    ``steering`` (instructions sent in the same user message) after the results."""
    title = t("ui.card.turn", number=turn.request_number)
    head = f"{title} — stop_reason: {turn.stop_reason}"
    parts = [
        blocks_card(field(turn.response, "content") or ()),
        *approvals,
        *map(tool_result_card, turn.results),
        *map(steering_card, steering),
    ]
    parts.append(usage_card(turn.usage))
    extras = []
    if turn.signature:
        extras.append(f"{t('ui.card.signature')}: {turn.signature}")
    if turn.readings:
        extras.append(t("ui.card.readings") + ": " + ", ".join(f"{k} {v}" for k, v in turn.readings.items()))
    body = "".join(c.html for c in parts) + "".join(
        f'<div style="font-size:12px;opacity:0.8">{_esc(e)}</div>' for e in extras
    )
    return Card(
        f'<div class="hl-card hl-turn" style="border:1px solid rgba(128,128,128,0.35);border-radius:4px;'
        f'padding:4px 8px;margin:6px 0"><div style="font-weight:700">{_esc(head)}</div>{body}</div>',
        "\n".join([f"=== {head} ===", *(c.text for c in parts), *extras]),
    )


def _answer_text(decision: Decision) -> str:
    answer = t("ui.card.decision_allow") if decision.allowed else t("ui.card.decision_deny")
    return answer + (f": {decision.reason}" if decision.reason else "")


def approval_card(request: ApprovalRequest, decision: Decision | None = None) -> Card:
    """A call waiting for a human; once answered, one line (the turn card shows the call in full)."""
    title = t("ui.card.approval", name=request.name)
    if decision is not None:
        title, answer = t("ui.card.approval_answered", name=request.name), _answer_text(decision)
        return Card(
            _box("approval", f"{_esc(title)} <small>id {_code(request.tool_use_id)}</small> → <b>{_esc(answer)}</b>"),
            f"[{title}] (id {request.tool_use_id}) → {answer}",
        )
    call = tool_use_card({"type": "tool_use", "id": request.tool_use_id, "name": request.name, "input": request.input})
    return Card(
        _box("approval", _esc(title), call.html),
        f"[{title}] ({t('ui.card.turn', number=request.request_number)})\n{call.text}",
    )


def finished_card(event: Finished) -> Card:
    head = f"{t('ui.card.finished')} — stop_reason: {event.stop_reason}"
    answer = _clip(event.text)
    text = f"### {head}\n[{t('ui.card.answer')}] {answer}\n[{t('ui.card.usage')}] {usage_line(event.usage)}"
    body = (
        f'<div class="hl-answer" style="font-size:14px">{_esc(answer)}</div>'
        f'<div style="font-size:12px;opacity:0.8">{_esc(usage_line(event.usage))}</div>'
    )
    return Card(_box("finished", _esc(head), body), text)


def stopped_card(event: Stopped) -> Card:
    head = t("ui.card.stopped", valve=event.cause)
    text = f"### {head}\n{event.reason}\n[{t('ui.card.usage')}] {usage_line(event.usage)}"
    body = (
        f'<div class="hl-stop-reason">{_esc(event.reason)}</div>'
        f'<div style="font-size:12px;opacity:0.8">{_esc(usage_line(event.usage))}</div>'
    )
    return Card(_box("stopped", _esc(head), body), text)


def decision_card(decision: Decision) -> Card:
    answer = _answer_text(decision)
    return Card(_box("approval", _esc(answer)), f"→ {answer}")


EVENT_CARDS = {
    Turn: turn_card,
    ApprovalRequest: approval_card,
    Finished: finished_card,
    Stopped: stopped_card,
    Decision: decision_card,
    Usage: usage_card,
}


def card(obj: Any) -> Card:
    """A ``Card`` for a block, a message, a list of either, a ``Usage`` or a loop event."""
    if isinstance(obj, Card):
        return obj
    for kind, render in EVENT_CARDS.items():
        if isinstance(obj, kind):
            return render(obj)
    if isinstance(obj, dict) and "role" in obj:
        return message_card(obj)
    if isinstance(obj, (list, tuple)):
        return Card.join(map(card, obj))
    if isinstance(obj, str):
        return text_card({"type": "text", "text": obj})
    if field(obj, "type") == "message" or (field(obj, "content") is not None and field(obj, "role")):
        # An SDK Message (a whole response): its blocks, then its usage.
        return Card.join([blocks_card(field(obj, "content")), usage_card(field(obj, "usage"))])
    if field(obj, "type") is not None:
        return block_card(obj)
    raise TypeError(f"no card for {type(obj).__name__}")


def _as_approval(item: Any) -> tuple[ApprovalRequest, Decision | None] | None:
    """A request with its answer so far: a bare ApprovalRequest, or the Stepper's answered wrapper."""
    if isinstance(item, ApprovalRequest):
        return item, None
    request = getattr(item, "request", None)
    if isinstance(request, ApprovalRequest):
        return request, getattr(item, "decision", None)
    return None


def approvals_header(number: int) -> Card:
    """Heads approvals whose turn has not ended yet, so they never float above their turn."""
    head = t("ui.card.turn_approvals", number=number)
    return Card(
        f'<div class="hl-turn-head" style="font-weight:700;margin:6px 0 0">{_esc(head)}</div>', f"=== {head} ==="
    )


def _loose_approvals(waiting: list) -> list[Card]:
    cards, number = [], None
    for request, decision in waiting:
        if request.request_number != number:
            number = request.request_number
            cards.append(approvals_header(number))
        cards.append(approval_card(request, decision))
    return cards


def _folded(card_: Card, summary: str) -> Card:
    """A turn shown as one line that opens to the whole card (the text form stays whole)."""
    return Card(
        f'<details class="hl-folded"><summary style="cursor:pointer;font-size:13px;margin:4px 0">'
        f"{_esc(summary)}</summary>{card_.html}</details>",
        card_.text,
    )


def turn_summary(turn: Turn) -> str:
    """One line for a folded turn: its number, the calls it made and its tokens."""
    calls = ", ".join(c["name"] for c in tool_calls(field(turn.response, "content") or ())) or "-"
    errors = sum(1 for r in turn.results if r.get("is_error"))
    return t("ui.card.turn_folded", number=turn.request_number, calls=calls, errors=errors, tokens=turn.usage.total)


def transcript(
    items: Iterable[Any], steering: Mapping[int, Iterable[str]] | None = None, open_turns: int | None = None
) -> Card:
    """Cards for a sequence of events or messages, one after the other.

    The loop asks for approval before a turn ends, so a request comes before its ``Turn`` event.
    Answered requests are drawn inside their turn's card (between its calls and its results); those
    whose turn has not ended get a 「ターン N — 承認待ち」 header. A ``Decision`` right after a
    request is taken as its answer. ``steering`` maps a request number to the instructions sent with
    that turn's results. With ``open_turns``, only the last that many turns are open in HTML; older
    ones fold to one line each (a long run stays one screen tall).
    """
    steering = steering or {}
    items = list(items)
    turns = sum(1 for item in items if isinstance(item, Turn))
    cards: list[Card] = []
    waiting: list[tuple[ApprovalRequest, Decision | None]] = []
    seen = 0
    for item in items:
        approval = _as_approval(item)
        if approval is not None:
            waiting.append(approval)
        elif isinstance(item, Decision) and waiting and waiting[-1][1] is None:
            waiting[-1] = (waiting[-1][0], item)
        elif isinstance(item, Turn):
            mine = [w for w in waiting if w[0].request_number == item.request_number]
            cards += _loose_approvals([w for w in waiting if w[0].request_number != item.request_number])
            one = turn_card(item, [approval_card(r, d) for r, d in mine], steering.get(item.request_number, ()))
            seen += 1
            cards.append(
                _folded(one, turn_summary(item)) if open_turns is not None and seen <= turns - open_turns else one
            )
            waiting = []
        else:
            cards += _loose_approvals(waiting)
            waiting = []
            cards.append(card(item))
    cards += _loose_approvals(waiting)
    if not cards:
        empty = t("ui.card.empty")
        return Card(f'<div class="hl-transcript" style="opacity:0.6">{_esc(empty)}</div>', empty)
    return Card.join(cards, "transcript")
