"""The loop's events as cards, and a whole run as one transcript (lessons 2-6).

A turn card holds the model's blocks (thinking folded first, then text and tool calls), the
approvals a person answered, the results and the usage; ``transcript`` puts a run's events in order
and folds older turns to one line. ``card(x)`` draws anything a notebook may show: a block, a
message, a list of either, a ``Usage`` or a loop event. Built on the block cards of ``cards.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..events import ApprovalRequest, Decision, Finished, Stopped, Turn, Usage
from ..messages import field, tool_calls
from ..text import t
from .cards import (
    Card,
    block_card,
    blocks_card,
    box,
    clip,
    code,
    esc,
    message_card,
    text_card,
    thinking_tokens,
    tool_result_card,
    tool_use_card,
    usage_card,
    usage_html,
    usage_line,
)
from .status import valve_label

__all__ = ["approval_card", "approvals_header", "card", "steering_card", "transcript", "turn_card", "turn_summary"]


def steering_card(text: str) -> Card:
    """A person's instruction that went out with the tool results (lesson 5: 操舵)."""
    label = t("ui.card.steering")
    return Card(box("text", esc(label), esc(clip(text)), "hl-steering"), f"[{label}] {clip(text)}")


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
    parts.append(usage_card(turn.usage, thinking_tokens(field(turn.response, "usage"))))
    extras = []
    if turn.signature:
        extras.append(f"{t('ui.card.signature')}: {turn.signature}")
    if readings := {
        k: v for k, v in turn.readings.items() if v
    }:  # no signature yet after a pause_turn: nothing to read
        extras.append(t("ui.card.readings") + ": " + ", ".join(f"{valve_label(k)} {v}" for k, v in readings.items()))
    body = "".join(c.html for c in parts) + "".join(
        f'<div style="font-size:12px;opacity:0.8">{esc(e)}</div>' for e in extras
    )
    return Card(
        f'<div class="hl-card hl-turn" style="border:1px solid rgba(128,128,128,0.35);border-radius:4px;'
        f'padding:4px 8px;margin:6px 0"><div style="font-weight:700">{esc(head)}</div>{body}</div>',
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
            box("approval", f"{esc(title)} <small>id {code(request.tool_use_id)}</small> → <b>{esc(answer)}</b>"),
            f"[{title}] (id {request.tool_use_id}) → {answer}",
        )
    call = tool_use_card({"type": "tool_use", "id": request.tool_use_id, "name": request.name, "input": request.input})
    return Card(
        box("approval", esc(title), call.html),
        f"[{title}] ({t('ui.card.turn', number=request.request_number)})\n{call.text}",
    )


def _end_card(kind: str, head: str, line: str, line_html: str, usage: Usage) -> Card:
    """How a run ended: a head, one line (the answer or the stop's reason) and the run's usage."""
    used = usage_line(usage)
    body = f'{line_html}<div style="font-size:12px;opacity:0.8">{usage_html(usage)}</div>'
    return Card(box(kind, esc(head), body), f"### {head}\n{line}\n[{t('ui.card.usage')}] {used}")


def finished_card(event: Finished) -> Card:
    head, answer = f"{t('ui.card.finished')} — stop_reason: {event.stop_reason}", clip(event.text)
    answer_html = f'<div class="hl-answer" style="font-size:14px">{esc(answer)}</div>'
    return _end_card("finished", head, f"[{t('ui.card.answer')}] {answer}", answer_html, event.usage)


def stopped_card(event: Stopped) -> Card:
    reason_html = f'<div class="hl-stop-reason">{esc(event.reason)}</div>'
    return _end_card("stopped", t("ui.card.stopped", valve=event.cause), event.reason, reason_html, event.usage)


def decision_card(decision: Decision) -> Card:
    answer = _answer_text(decision)
    return Card(box("approval", esc(answer)), f"→ {answer}")


EVENT_CARDS: dict[type, Callable[[Any], Card]] = {
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
    raise TypeError(t("ui.card.unknown", kind=type(obj).__name__))


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
        f'<div class="hl-turn-head" style="font-weight:700;margin:6px 0 0">{esc(head)}</div>', f"=== {head} ==="
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
        f"{esc(summary)}</summary>{card_.html}</details>",
        card_.text,
    )


def turn_summary(turn: Turn) -> str:
    """One line for a folded turn: its number, the calls it made and its tokens."""
    calls = ", ".join(c["name"] for c in tool_calls(field(turn.response, "content") or ())) or "-"
    errors = sum(1 for r in turn.results if r.get("is_error"))
    return t(
        "ui.card.turn_folded", number=turn.request_number, calls=calls, errors=errors, tokens=f"{turn.usage.total:,}"
    )


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
        return Card(f'<div class="hl-transcript" style="opacity:0.6">{esc(empty)}</div>', empty)
    return Card.join(cards, "transcript")
