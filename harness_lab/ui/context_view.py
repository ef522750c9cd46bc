"""The context gauge drawn: one stacked bar per model request, so a learner sees what grows (lesson 4).

Each bar is the request's input by part, then its response's output (thinking included, hatched).
Bars share one scale, the largest request of the run, so growth is visible even when every request
is a sliver of the context window; each row also says its share of the window. When the prompt
cache was used, a thin strip under the bar splits the input into uncached, written and read.
"""

from __future__ import annotations

import html
from typing import Any

from ..text import t
from .cards import Card, parts_html
from .context import PARTS, context_rows

__all__ = ["COLORS", "context_card"]

COLORS = {
    "tools": "#9b6fd1",
    "system": "#7f7f7f",
    "user_text": "#4a7bd0",
    "assistant_text": "#e08a00",
    "thinking": "#d4589a",  # far from the tool definitions' purple: the two sit side by side
    "tool_use": "#b5651d",
    "tool_result": "#3f9a5a",
    "other": "#17a2b8",
    "framing": "#c9c9c9",
}
OUTPUT = "repeating-linear-gradient(135deg,#e08a00 0 4px,rgba(224,138,0,0.35) 4px 8px)"
# The cache strip, in the token-burn plot's colours: uncached input, cache writes, cache reads.
CACHE = (("uncached", "#4a7bd0"), ("cache_write", "#9b6fd1"), ("cache_read", "#8cc4e8"))
OPEN_ROWS = 12  # older requests fold under one line


def _row_text(row: Any) -> str:
    parts = t("ui.context.joiner").join(f"{t(f'ui.context.{p}')} {row.parts[p]:,}" for p in PARTS if row.parts[p])
    line = t(
        "ui.context.row",
        number=row.request_number,
        total=f"{row.total:,}",
        output=f"{row.output:,}",
        used=f"{row.used:,}",
        window=f"{row.window:,}",
        share=f"{row.share * 100:.1f}",
        parts=parts,
    )
    if row.cache_read or row.cache_write:
        line += " " + t("ui.context.cache", read=f"{row.cache_read:,}", write=f"{row.cache_write:,}")
    if row.estimated:
        line += " " + t("ui.context.estimated")
    return line


def _segment(label: str, tokens: int, scale: int, background: str, kind: str = "") -> str:
    classes = f' class="{kind}"' if kind else ""
    return (
        f'<div{classes} title="{html.escape(label)} {tokens}" '
        f'style="width:{tokens * 100 / scale:.3f}%;background:{background}"></div>'
    )


def _row_html(row: Any, scale: int) -> str:
    segments = "".join(_segment(t(f"ui.context.{p}"), row.parts[p], scale, COLORS[p]) for p in PARTS if row.parts[p])
    if row.output:
        segments += _segment(t("ui.context.output"), row.output, scale, OUTPUT, "hl-context-output")
    strip = ""
    if row.cache_read or row.cache_write:
        cached = {"uncached": row.total - row.cache_read - row.cache_write}
        cached.update(cache_write=row.cache_write, cache_read=row.cache_read)
        strip = (
            '<div class="hl-context-cache" style="display:flex;height:5px;margin-top:1px">'
            + "".join(_segment(t(f"ui.context.{k}"), cached[k], scale, color) for k, color in CACHE if cached[k] > 0)
            + "</div>"
        )
    return (
        f'<div class="hl-context-row" style="margin:3px 0">'
        f'<div style="display:flex;height:14px;background:rgba(128,128,128,0.08)">{segments}</div>{strip}'
        f'<div style="font-size:12px">{parts_html(_row_text(row))}</div></div>'
    )


def context_card(run: Any) -> Card:
    """Each request's input tokens split by what filled them, against the model's context window."""
    rows = context_rows(run)
    title = t("ui.context.title")
    if not rows:
        empty = t("ui.context.empty")
        return Card(f'<div class="hl-context" style="opacity:0.6">{html.escape(empty)}</div>', f"{title}\n{empty}")
    scale = max(row.used for row in rows) or 1
    keys = [(t(f"ui.context.{p}"), COLORS[p]) for p in PARTS] + [(t("ui.context.output"), OUTPUT)]
    if any(row.cache_read or row.cache_write for row in rows):
        keys += [(t(f"ui.context.{k}"), color) for k, color in CACHE]
    legend = "".join(
        f'<span style="margin-right:10px;white-space:nowrap"><span style="display:inline-block;width:10px;height:10px;'
        f'background:{color};margin-right:3px"></span>{html.escape(label)}</span>'
        for label, color in keys
    )
    note = t("ui.context.scale", total=f"{scale:,}")
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
