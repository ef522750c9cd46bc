"""The loop diagram: one picture every lesson hangs on (lessons 2-6, valves from lesson 6).

request → response → stop_reason check → tools → results, and back to the request, with each valve
drawn at the step it belongs to: max turns and budget before the request, no-progress after the
response, approval before the tool runs. ``diagram(highlight=..., fired=..., acted=...)`` marks where
a run is, which valve (or other stop) ended it, and a valve that acted without ending it (approval,
on the turn it denied a call). It is inline SVG inside HTML (not an ``image/svg+xml`` output) and its
plain text says the same, so both stored forms are deterministic.
"""

from __future__ import annotations

import html

from ..text import t

__all__ = ["LoopDiagram", "NODES", "STEPS", "VALVES", "diagram", "place_of"]

# The loop's five nodes, left to right, then the exit.
NODES = ("request", "response", "stop_reason", "tools", "results")
EXIT = "end"
# Valve step -> the valves that live there (lesson 6's four valves, DESIGN.md principle 4).
STEPS = {
    "before_request": ("max_turns", "token_budget"),
    "after_response": ("no_progress",),
    "before_tool": ("approval",),
}
VALVES = {valve: step for step, valves in STEPS.items() for valve in valves}

# Stops that are not valves still happen at one place in the loop (each has a ui.stop_name.* label).
OTHER_STOPS = {
    "max_tokens": "stop_reason",
    "refusal": "stop_reason",
    "model_context_window_exceeded": "stop_reason",
    "pause_turn": "stop_reason",
    "unexpected": "stop_reason",
    "api_error": "response",
    "interrupted": "before_request",
}

# Geometry (px). Boxes sit in one row; valve badges hang under the step they guard.
BOX_W, BOX_H, GAP, LEFT, ROW_Y = 134, 46, 46, 40, 86
WIDTH, HEIGHT = LEFT * 2 + 5 * BOX_W + 4 * GAP, 262
BADGE_W, BADGE_H = 118, 26
ACCENT, FIRED, INK, FAINT = "#e08a00", "#c8372d", "#444444", "#888888"


def _x(node: str) -> int:
    return LEFT + NODES.index(node) * (BOX_W + GAP)


def _badge_anchor(step: str) -> int:
    """The x where a step's badges hang: on the arrow into the step's node."""
    if step == "before_request":
        return _x("request") + BOX_W // 2
    if step == "after_response":
        return _x("stop_reason") - GAP // 2
    return _x("tools") - GAP // 2


def place_of(name: str | None) -> str | None:
    """The diagram place (node or valve step) for a node, a step, a valve or a stop's name."""
    if name is None or name in NODES or name == EXIT or name in STEPS:
        return name
    return VALVES.get(name) or OTHER_STOPS.get(name)


class LoopDiagram:
    """The diagram with an optional highlighted place, fired valve (or stop) and acting valve."""

    def __init__(self, highlight: str | None = None, fired: str | None = None, acted: str | None = None):
        self.highlight = place_of(highlight)
        if highlight is not None and self.highlight is None:
            raise ValueError(f"unknown place in the loop: {highlight!r}")
        self.fired = fired
        self.acted = acted if acted != fired else None

    # --- SVG ------------------------------------------------------------------------------------

    def _node(self, node: str, x: int, y: int, label: str, h: int = BOX_H) -> str:
        here = self.highlight == node
        stopped_here = self.fired is not None and place_of(self.fired) == node
        stroke = FIRED if stopped_here else ACCENT if here else INK
        fill = "rgba(224,138,0,0.18)" if here else "rgba(128,128,128,0.08)"
        width = 3 if here or stopped_here else 1.2
        return (
            f'<g class="hl-node hl-node-{node}{" hl-here" if here else ""}">'
            f'<rect x="{x}" y="{y}" width="{BOX_W}" height="{h}" rx="8" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="{width}"/>'
            f'<text x="{x + BOX_W // 2}" y="{y + h // 2 + 5}" text-anchor="middle" '
            f'font-size="13" fill="currentColor">{html.escape(label)}</text></g>'
        )

    def _badges(self) -> str:
        parts = []
        for step, valves in STEPS.items():
            cx = _badge_anchor(step)
            here = self.highlight == step
            top = ROW_Y + BOX_H + 22
            line_to = ROW_Y + BOX_H // 2 if step != "before_request" else ROW_Y + BOX_H
            parts.append(
                f'<line x1="{cx}" y1="{top}" x2="{cx}" y2="{line_to}" stroke="{ACCENT if here else FAINT}" '
                f'stroke-dasharray="3 3"/>'
            )
            below = top + len(valves) * (BADGE_H + 6) + 8
            parts.append(
                f'<text x="{cx}" y="{below}" text-anchor="middle" font-size="10" fill="{FAINT}">'
                f"{html.escape(step)}</text>"
            )
            for i, valve in enumerate(valves):
                y = top + i * (BADGE_H + 6)
                fired, acted = self.fired == valve, self.acted == valve
                stroke = FIRED if fired else ACCENT if here or acted else FAINT
                fill = (
                    "rgba(200,55,45,0.85)" if fired else "rgba(224,138,0,0.85)" if acted
                    else "rgba(224,138,0,0.15)" if here else "rgba(128,128,128,0.06)"
                )
                ink = "#ffffff" if fired or acted else "currentColor"
                mark = " hl-fired" if fired else " hl-acted" if acted else ""
                parts.append(
                    f'<g class="hl-valve hl-valve-{valve}{mark}">'
                    f'<rect x="{cx - BADGE_W // 2}" y="{y}" width="{BADGE_W}" height="{BADGE_H}" rx="13" '
                    f'fill="{fill}" stroke="{stroke}" stroke-width="{2.5 if fired or acted or here else 1}"/>'
                    f'<text x="{cx}" y="{y + 17}" text-anchor="middle" font-size="12" fill="{ink}">'
                    f"{html.escape(self._badge_label(valve))}</text></g>"
                )
        return "".join(parts)

    def _badge_label(self, valve: str) -> str:
        if self.fired == valve:
            return f"{t(f'ui.valve.{valve}')} ({t('ui.diagram.fired_badge')})"
        if self.acted == valve:
            return f"{t(f'ui.valve.{valve}')} ({t('ui.diagram.acted_badge')})"
        return t(f"ui.valve.{valve}")

    def svg(self) -> str:
        y, mid = ROW_Y, ROW_Y + BOX_H // 2
        parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="100%" style="max-width:{WIDTH}px;height:auto" '
            f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" role="img" '
            f'aria-label="{html.escape(t("ui.diagram.title"))}">',
            f'<defs><marker id="hl-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
            f'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{INK}"/>'
            f"</marker></defs>",
        ]
        for node in NODES:
            parts.append(self._node(node, _x(node), y, t(f"ui.diagram.{node}")))
        for a, b in zip(NODES, NODES[1:]):
            parts.append(
                f'<line x1="{_x(a) + BOX_W}" y1="{mid}" x2="{_x(b) - 2}" y2="{mid}" stroke="{INK}" '
                f'stroke-width="1.4" marker-end="url(#hl-arrow)"/>'
            )
        parts.append(
            f'<text x="{_x("tools") - GAP // 2}" y="{mid - 6}" text-anchor="middle" font-size="10" '
            f'fill="{FAINT}">tool_use</text>'
        )
        # The exit: any stop_reason but tool_use leaves the loop upward.
        sx = _x("stop_reason")
        parts.append(self._node(EXIT, sx, 8, t("ui.diagram.end"), h=38))
        parts.append(
            f'<line x1="{sx + BOX_W // 2}" y1="{y}" x2="{sx + BOX_W // 2}" y2="46" stroke="{INK}" '
            f'stroke-width="1.4" marker-end="url(#hl-arrow)"/>'
            f'<text x="{sx + BOX_W // 2 + 6}" y="68" font-size="10" fill="{FAINT}">'
            f'{html.escape(t("ui.diagram.end_edge"))}</text>'
        )
        # The loop back: results go out with the whole history in the next request.
        rx, lx, low = _x("results") + BOX_W // 2, 16, HEIGHT - 14
        parts.append(
            f'<path d="M{rx},{y + BOX_H} L{rx},{low} L{lx + 12},{low} Q{lx},{low} {lx},{low - 12} '
            f'L{lx},{mid + 12} Q{lx},{mid} {lx + 12},{mid} L{LEFT - 2},{mid}" fill="none" '
            f'stroke="{INK}" stroke-width="1.4" marker-end="url(#hl-arrow)"/>'
            f'<text x="{(rx + _x("response")) // 2}" y="{low - 5}" text-anchor="middle" font-size="11" '
            f'fill="{FAINT}">{html.escape(t("ui.diagram.loop_edge"))}</text>'
        )
        parts.append(self._badges())
        parts.append("</svg>")
        return "".join(parts)

    # --- renderers ------------------------------------------------------------------------------

    def _repr_html_(self) -> str:
        caption = html.escape(self.caption())
        return (
            f'<div class="hl-diagram" style="max-width:100%;overflow-x:auto">'
            f'<div style="font-weight:600;font-size:13px">{html.escape(t("ui.diagram.title"))}</div>'
            f"{self.svg()}"
            f'<div class="hl-diagram-caption" style="font-size:12px;opacity:0.8">{caption}</div></div>'
        )

    def caption(self) -> str:
        bits = []
        if self.highlight:
            bits.append(f"{t('ui.diagram.here')}: {self._place_label(self.highlight)}")
        if self.fired in OTHER_STOPS:  # the run ended, but no valve did it: say why, not "valve"
            bits.append(f"{t('ui.diagram.stopped_by')}: {t(f'ui.stop_name.{self.fired}')}")
        elif self.fired:  # one of the four, or a learner's own valve (shown by its name)
            name = t(f"ui.valve.{self.fired}") if self.fired in VALVES else self.fired
            bits.append(f"{t('ui.diagram.fired')}: {name}")
        if self.acted:
            name = t(f"ui.valve.{self.acted}") if self.acted in VALVES else self.acted
            bits.append(f"{t('ui.diagram.acted')}: {name}")
        return " / ".join(bits)

    @staticmethod
    def _place_label(place: str) -> str:
        if place in STEPS:
            return t("ui.diagram.step_label", step=place, label=t(f"ui.diagram.{place}"))
        return t(f"ui.diagram.{place}")

    def __repr__(self) -> str:
        row = " → ".join(
            ("▶" if self.highlight == n else "") + f"[{t(f'ui.diagram.{n}')}]" for n in NODES
        )
        lines = [
            t("ui.diagram.title"),
            f"{row} ↺ {t('ui.diagram.loop_edge')}",
            f"  [{t('ui.diagram.stop_reason')}] → {t('ui.diagram.end_edge')} → "
            + ("▶" if self.highlight == EXIT else "")
            + f"[{t('ui.diagram.end')}]",
        ]
        for step, valves in STEPS.items():
            mark = "▶" if self.highlight == step else " "
            names = ", ".join(self._badge_label(v) for v in valves)
            lines.append(f"{mark} {self._place_label(step)}: {names}")
        if self.caption():
            lines.append(self.caption())
        return "\n".join(lines)

    def _repr_pretty_(self, p, cycle) -> None:
        p.text(repr(self))


def diagram(highlight: str | None = None, fired: str | None = None, acted: str | None = None) -> LoopDiagram:
    """The loop diagram; ``highlight`` is a node, a step or a valve name, ``fired`` the valve (or stop,
    e.g. ``"interrupted"``) that ended the run, ``acted`` a valve that acted and let the run go on."""
    return LoopDiagram(highlight, fired, acted)
