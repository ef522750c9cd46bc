"""The context gauge drawn: one stacked bar per model request, so a learner sees what grows (lesson 4).

Bars share one scale, the largest request of the run, so growth is visible even when every request
is a sliver of the context window; each row also says its share of the window.
"""

from __future__ import annotations

import html
from typing import Any

from ..text import t
from .cards import Card
from .context import PARTS, context_rows

__all__ = ["COLORS", "context_card"]

COLORS = {
    "tools": "#9b6fd1",
    "system": "#7f7f7f",
    "user_text": "#4a7bd0",
    "assistant_text": "#e08a00",
    "tool_use": "#b5651d",
    "tool_result": "#3f9a5a",
    "other": "#17a2b8",
    "framing": "#c9c9c9",
}
OPEN_ROWS = 12  # older requests fold under one line


def _row_text(row: Any) -> str:
    parts = " ・ ".join(f"{t(f'ui.context.{p}')} {row.parts[p]}" for p in PARTS if row.parts[p])
    line = t(
        "ui.context.row",
        number=row.request_number,
        total=row.total,
        window=row.window,
        share=f"{row.share * 100:.1f}",
        parts=parts,
    )
    if row.cache_read or row.cache_write:
        line += " " + t("ui.context.cache", read=row.cache_read, write=row.cache_write)
    if row.estimated:
        line += " " + t("ui.context.estimated")
    return line


def _row_html(row: Any, scale: int) -> str:
    segments = "".join(
        f'<div title="{html.escape(t(f"ui.context.{p}"))} {row.parts[p]}" '
        f'style="width:{row.parts[p] * 100 / scale:.3f}%;background:{COLORS[p]}"></div>'
        for p in PARTS
        if row.parts[p]
    )
    return (
        f'<div class="hl-context-row" style="margin:3px 0">'
        f'<div style="display:flex;height:14px;background:rgba(128,128,128,0.08)">{segments}</div>'
        f'<div style="font-size:12px">{html.escape(_row_text(row))}</div></div>'
    )


def context_card(run: Any) -> Card:
    """Each request's input tokens split by what filled them, against the model's context window."""
    rows = context_rows(run)
    title = t("ui.context.title")
    if not rows:
        empty = t("ui.context.empty")
        return Card(f'<div class="hl-context" style="opacity:0.6">{html.escape(empty)}</div>', f"{title}\n{empty}")
    scale = max(row.total for row in rows) or 1
    legend = "".join(
        f'<span style="margin-right:10px;white-space:nowrap"><span style="display:inline-block;width:10px;height:10px;'
        f'background:{COLORS[p]};margin-right:3px"></span>{html.escape(t(f"ui.context.{p}"))}</span>'
        for p in PARTS
    )
    note = t("ui.context.scale", total=scale)
    shown = "".join(_row_html(row, scale) for row in rows[-OPEN_ROWS:])
    older = ""
    if len(rows) > OPEN_ROWS:
        older = (
            f'<details><summary style="cursor:pointer;font-size:12px">'
            f"{html.escape(t('ui.context.older', n=len(rows) - OPEN_ROWS))}</summary>"
            + "".join(_row_html(row, scale) for row in rows[:-OPEN_ROWS])
            + "</details>"
        )
    html_text = (
        f'<div class="hl-context" style="font-size:13px"><div style="font-weight:700">{html.escape(title)}</div>'
        f'<div style="font-size:12px;margin:2px 0 4px">{legend}</div>'
        f'<div style="font-size:12px;opacity:0.8">{html.escape(note)}</div>{older}{shown}</div>'
    )
    return Card(html_text, "\n".join([title, note, *map(_row_text, rows)]))
