"""The loop diagram as inline SVG, for the live Stepper (``diagram.py`` lays it out).

The SVG keeps the diagram's own width in pixels: in a narrow notebook (a 1024 px window with the
file browser open) its box scrolls sideways instead of shrinking the labels below 12 px. Text is
drawn in ``currentColor``, so it follows the theme (light or dark).
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from typing import Any

__all__ = ["render_svg"]

INK = "#444444"  # arrow heads: the same ink the lines are drawn in


def _shape(s: Any) -> str:
    marker = ' marker-end="url(#hl-arrow)"' if s.arrow else ""
    dash = ' stroke-dasharray="3 3"' if s.dash else ""
    if s.kind == "rect":
        return (
            f'<rect x="{s.x:g}" y="{s.y:g}" width="{s.w:g}" height="{s.h:g}" rx="{s.radius:g}" fill="{s.fill}" '
            f'stroke="{s.stroke}" stroke-width="{s.width:g}"{dash}/>'
        )
    if s.kind == "line":
        return (
            f'<line x1="{s.x:g}" y1="{s.y:g}" x2="{s.x2:g}" y2="{s.y2:g}" stroke="{s.stroke}" '
            f'stroke-width="{s.width:g}"{dash}{marker}/>'
        )
    if s.kind == "path":
        d = " ".join(p[0] + ",".join(f"{v:g}" for v in p[1:]) for p in s.points)
        return f'<path d="{d}" fill="none" stroke="{s.stroke}" stroke-width="{s.width:g}"{marker}/>'
    return (
        f'<text x="{s.x:g}" y="{s.y:g}" text-anchor="{s.anchor}" font-size="{s.size}" '
        f'fill="{s.color}">{html.escape(s.text)}</text>'
    )


def render_svg(shapes: Iterable[Any], width: int, height: int, title: str) -> str:
    """``shapes`` as one ``<svg>`` element ``width`` x ``height`` pixels, grouped by their ``group`` class."""
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'style="width:{width}px;max-width:none;height:auto" viewBox="0 0 {width} {height}" '
        f'font-family="sans-serif" role="img" aria-label="{html.escape(title)}">',
        f'<defs><marker id="hl-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
        f'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{INK}"/>'
        f"</marker></defs>",
    ]
    group = ""
    for s in shapes:
        if s.group != group:
            parts.append("</g>" if group else "")
            parts.append(f'<g class="{s.group}">' if s.group else "")
            group = s.group
        parts.append(_shape(s))
    parts.append("</g></svg>" if group else "</svg>")
    return "".join(parts)
