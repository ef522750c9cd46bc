"""Time travel, read-only: a run's turns one by one, the history as it stood at each, and what each
turn added (lessons 3-5: what happened at turn k, and what if it had gone otherwise?).

``turns_of(run)`` lists the committed turns (``run.state.laps``); ``turn_card(run, k)`` shows turn k:
the history as it stood when its response arrived, and the messages it added as a diff. Forking
itself is the core's ``run.fork(at=k, ...)``; ``fork_arguments`` turns the learner's edits (a result
text, a flipped answer, a new limit) into its arguments, and ``compare_card`` puts the runs side by
side. Everything here is a plain ``Card`` (HTML and text), so notebooks show it without widgets.
"""

from __future__ import annotations

import copy
import dataclasses
import html
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..checks import whole_number
from ..events import Decision, Finished, Stopped, Usage
from ..messages import field, text_of, tool_calls
from ..text import t
from .cards import Card, parts_html, usage_html, usage_line
from .context import context_rows
from .status import stop_words

__all__ = ["TurnView", "compare_card", "fork_arguments", "turn_card", "turns_of"]

LINE_CHARS = 90  # one message per line in the history view: its start is enough to recognise it


@dataclass(frozen=True)
class TurnView:
    """Turn ``k`` of a run (1-based, in the order turns were committed)."""

    k: int
    request_number: int  # the model request whose response made this turn
    start: int  # len(messages) before the turn's assistant message
    end: int  # len(messages) after the turn's messages
    calls: tuple  # {"id", "name", "input"} per tool_use
    results: tuple  # the tool_result blocks sent back
    steering: tuple  # instructions sent with the results
    decisions: dict  # tool_use id -> Decision, for the calls a person (or approver) answered
    usage: Usage

    def result_text(self, tool_use_id: str) -> str:
        for block in self.results:
            if block.get("tool_use_id") == tool_use_id:
                return text_of(block.get("content") or [])  # a string content comes back as it is
        return ""


def turns_of(run: Any) -> list[TurnView]:
    """Every committed turn of ``run``, oldest first."""
    state, views = run.state, []
    for k, lap in enumerate(state.laps, start=1):
        content = field(lap.response, "content") or []
        calls = tuple(tool_calls(content))
        end = lap.start + (1 if content else 0) + (1 if lap.results else 0)
        usage = state.turn_usage[lap.model_calls - 1] if lap.model_calls <= len(state.turn_usage) else Usage()
        views.append(
            TurnView(
                k,
                lap.model_calls,
                lap.start,
                end,
                calls,
                tuple(lap.results),
                tuple(lap.steering),
                {c["id"]: state.decided[c["id"]] for c in calls if c["id"] in state.decided},
                usage,
            )
        )
    return views


def turn_of(run: Any, k: int) -> TurnView:
    views = turns_of(run)
    whole_number(k, "k", 1)
    if k > len(views):
        raise ValueError(t("ui.timeline.no_turn", k=k, turns=len(views)))
    return views[k - 1]


# --- one turn: the history then, and what the turn added -----------------------------------------


def _block_line(block: Any) -> str:
    kind = block.get("type") if isinstance(block, dict) else "text"
    if kind == "text":
        return block.get("text", "") if isinstance(block, dict) else str(block)
    if kind == "tool_use":
        return f"tool_use {block.get('name')}({json.dumps(block.get('input') or {}, ensure_ascii=False)})"
    if kind == "tool_result":
        body = text_of(block.get("content") or [])
        return "tool_result" + (" is_error" if block.get("is_error") else "") + f": {body}"
    return f"[{kind}]"


def message_line(index: int, message: dict) -> str:
    """``[2] user: tool_result: …`` — one message on one line, cut to ``LINE_CHARS``."""
    content = message.get("content")
    blocks = [content] if isinstance(content, str) else list(content or [])
    text = " / ".join(_block_line(b) for b in blocks).replace("\n", " ")
    text = text if len(text) <= LINE_CHARS else text[: LINE_CHARS - 1] + "…"
    return f"[{index}] {message.get('role')}: {text}"


def _lines(lines: Iterable[tuple[str, str]]) -> str:
    colours = {"+": "rgba(63,154,90,0.14)", " ": "transparent", "…": "transparent"}
    return "".join(
        f'<div style="background:{colours[mark]};white-space:pre-wrap;word-break:break-word">'
        f"{html.escape(mark)} {html.escape(text)}</div>"
        for mark, text in lines
    )


def turn_card(run: Any, k: int) -> Card:
    """Turn ``k``: the history as it stood when its response arrived, then what it added, as a diff."""
    view, messages = turn_of(run, k), run.state.messages
    rows = {row.request_number: row for row in context_rows(run)}
    before = [(" ", message_line(i, m)) for i, m in enumerate(messages[: view.start])]
    if len(before) > 4:  # the start of the history is the same in every turn: keep its first and last lines
        before = [before[0], ("…", t("ui.timeline.same", n=len(before) - 3)), *before[-2:]]
    added = [("+", message_line(i, messages[i])) for i in range(view.start, min(view.end, len(messages)))]
    growth = ""
    if view.request_number in rows and view.request_number + 1 in rows:
        now, after = rows[view.request_number].total, rows[view.request_number + 1].total
        growth = t(
            "ui.timeline.growth",
            k=view.request_number,
            next=view.request_number + 1,
            now=now,
            after=after,
            diff=after - now,
        )
    head = t("ui.timeline.turn_head", k=k, number=view.request_number, messages=view.start)
    added_head = t("ui.timeline.added", n=len(added))
    box = "font-family:var(--jp-code-font-family,monospace);font-size:12px;margin:2px 0 6px"
    html_text = (
        f'<div class="hl-timeline-turn" style="font-size:13px"><div style="font-weight:700">{html.escape(head)}</div>'
        f'<div style="{box}">{_lines(before)}</div>'
        f'<div style="font-weight:600">{html.escape(added_head)}</div>'
        f'<div class="hl-diff" style="{box}">{_lines(added)}</div>'
        + (f'<div style="font-size:12px;opacity:0.85">{html.escape(growth)}</div>' if growth else "")
        + "</div>"
    )
    text = "\n".join(
        [
            head,
            *(f"{m} {line}" for m, line in before),
            added_head,
            *(f"{m} {line}" for m, line in added),
            *([growth] if growth else []),
        ]
    )
    return Card(html_text, text)


# --- forking: the learner's edits as run.fork arguments ------------------------------------------


def fork_arguments(
    run: Any,
    k: int,
    *,
    result: str | None = None,
    results: Mapping | None = None,
    decisions: Mapping | None = None,
    flip: bool = False,
    limits: Mapping | None = None,
) -> dict:
    """``run.fork`` keyword arguments for turn ``k`` from the learner's edits.

    ``result`` edits the one call of turn k; ``flip`` turns every answered approval of turn k the other
    way; ``limits`` ({valve name: limit}) gives the fork copies of the valves with new limits. The rest
    pass through (``results`` may also edit earlier turns' results, by tool_use id). A call gets an
    edited result or a new answer, not both: the answer decides its result.
    """
    view = turn_of(run, k)
    results, decisions = dict(results or {}), dict(decisions or {})
    if result is not None:
        if len(view.calls) != 1:
            raise ValueError(
                t("ui.timeline.one_call", k=k, n=len(view.calls), ids=", ".join(c["id"] for c in view.calls) or "-")
            )
        results[view.calls[0]["id"]] = result
    if flip:
        if not view.decisions:
            raise ValueError(t("ui.timeline.no_answer", k=k))
        for tool_use_id, decision in view.decisions.items():
            flipped = Decision(True) if not decision.allowed else Decision(False, t("ui.timeline.flipped_deny"))
            decisions.setdefault(tool_use_id, flipped)
    if both := sorted(set(results) & set(decisions)):
        # An answer decides the call's result (allowed: it runs; denied: the denial), so an edited
        # result beside it would say two things; which wins is not for a reader to guess.
        raise ValueError(t("ui.timeline.result_and_answer", ids=", ".join(both)))
    arguments: dict = {"results": results, "decisions": decisions}
    if limits:
        arguments["valves"] = _with_limits(run.valves, limits)
    return arguments


def _with_limits(valves: Iterable, limits: Mapping) -> list:
    names = {str(getattr(v, "name", "")) for v in valves if hasattr(v, "limit")}
    if unknown := sorted(set(limits) - names):
        raise ValueError(t("ui.timeline.no_limit", names=", ".join(unknown), known=", ".join(sorted(names)) or "-"))
    changed = []
    for valve in valves:
        name = getattr(valve, "name", None)
        if name not in limits:
            changed.append(copy.copy(valve))
        elif dataclasses.is_dataclass(valve) and not isinstance(valve, type):
            changed.append(dataclasses.replace(valve, limit=limits[name]))  # the valve checks the new limit itself
        else:
            whole_number(limits[name], f"{name} limit", 0)
            changed.append(copy.copy(valve))
            changed[-1].limit = limits[name]
    return changed


# --- side by side --------------------------------------------------------------------------------


def _ending(end: Any) -> str:
    if isinstance(end, Finished):
        return t("ui.compare.finished", stop_reason=end.stop_reason, text=end.text)
    if isinstance(end, Stopped):
        return stop_words(end, worded_here=True)  # only a harness_lab Run forks
    return t("ui.compare.running")


def compare_card(columns: Iterable[tuple[str, Any]]) -> Card:
    """Runs side by side: ``columns`` are (label, run); each shows its turns, tokens and how it ended."""
    columns = list(columns)
    rows = [
        (t("ui.compare.turns"), [str(run.state.turns) for _, run in columns]),
        (t("ui.compare.requests"), [str(run.state.model_calls) for _, run in columns]),
        (t("ui.compare.tokens"), [usage_line(run.state.usage) for _, run in columns]),
        (t("ui.compare.ending"), [_ending(run.end) for _, run in columns]),
    ]
    shown = {t("ui.compare.tokens"): [usage_html(run.state.usage) for _, run in columns]}
    # Left-aligned: a notebook's own table style (JupyterLab's) puts cells' text to the right, which
    # a wrapped sentence does not read well in. 12 px text and 6 px each side, not 13 and 8, as the panel's
    # timeline: at 900 px beside the file browser (an output 468 px wide) the row names and two runs' columns
    # needed 477 px, and the output scrolled.
    cell = (
        "padding:4px 6px;border:1px solid rgba(128,128,128,0.35);vertical-align:top;white-space:pre-wrap;"
        "text-align:left"
    )
    # A run's label breaks only before its bracket (「分岐 1」 / 「（ターン 1 から）」), never inside a word: with
    # several forks the columns cannot all keep their labels on one line.
    head = "".join(f'<th style="{cell};white-space:normal">{parts_html(label)}</th>' for label, _ in columns)
    # The row names stay in view when the runs are more than the output's width: the table scrolls in its
    # own box, not the whole output (which moved the cell's printed lines too).
    name_cell = f"{cell};white-space:nowrap;position:sticky;left:0;background:var(--jp-layout-color1, #fff)"
    # A stop names the repeated call as JSON, which has few spaces: 「（read_file({"path":"notes.txt"})）。」 could not
    # break, so lesson 03's comparison needed 514 px in the panel's timeline (428 px wide at 900 px) and cut the
    # fork's column off. A value breaks anywhere it must.
    value_cell = f"{cell};overflow-wrap:anywhere"
    body = "".join(
        f'<tr><th style="{name_cell}">{html.escape(name)}</th>'
        + "".join(f'<td style="{value_cell}">{value}</td>' for value in shown.get(name, map(html.escape, values)))
        + "</tr>"
        for name, values in rows
    )
    html_text = (
        '<div class="hl-compare-box" style="max-width:100%;overflow-x:auto;margin:6px 0">'
        f'<table class="hl-compare" style="border-collapse:collapse;font-size:12px;margin:0">'
        f'<tr><th style="{name_cell}"></th>{head}</tr>{body}</table></div>'
    )
    text = "\n".join(
        [
            t("ui.compare.title"),
            *(
                f"[{label}]" + "".join(f"\n  {name}: {values[i]}" for name, values in rows)
                for i, (label, _) in enumerate(columns)
            ),
        ]
    )
    return Card(html_text, text)
