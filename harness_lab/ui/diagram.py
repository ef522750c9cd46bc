"""The loop diagram: one picture every lesson hangs on (lessons 2-6, valves from lesson 6).

request → response → stop_reason check → tools → results, and back to the request, with each valve
drawn at the step it names in its own ``step`` (``harness_lab/steps.py``): max turns and budget at
the top of the loop body, no-progress before the tools, approval before each tool runs, a budget
that checks before sending at the request. ``diagram(highlight=..., fired=..., acted=...)`` marks where
a run is, which valve (or other stop) ended it, and a valve that acted without ending it (approval,
on the turn it denied a call).

The picture is laid out once as a list of shapes, then drawn twice: as inline SVG for the live
Stepper (``diagram_svg.py``: crisp, follows the theme's text colour) and as a PNG for a cell's output. A notebook that is
not trusted strips SVG from its HTML, and GitHub and nbconvert show images, so a diagram shown as
a cell's result is a PNG (``diagram_png.py``) with its plain text beside it. Every label is at least
12 px where the diagram is shown at its own width.
"""

from __future__ import annotations

import base64
import html
import itertools
import reprlib
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..steps import STEPS
from ..text import t
from ..valves import Approval, MaxTurns, NoProgress, TokenBudget
from .diagram_svg import render_svg
from .status import valve_label

__all__ = [
    "LoopDiagram",
    "NODES",
    "Shape",
    "diagram",
    "place_of",
]

# The loop's five nodes, left to right, then the exit.
NODES = ("request", "response", "stop_reason", "tools", "results")
EXIT = "end"
# The valves drawn when none are given: lesson 6's four, each at the step it names itself.
LESSON_VALVES = (MaxTurns(), TokenBudget(), NoProgress(), Approval())
# Where each step's badges hang: steps met one after the other between two boxes share a column.
COLUMNS = {
    "before_send": "request",
    "loop_top": "stop_reason",
    "before_tools": "stop_reason",
    "before_each_tool": "tools",
}

# Stops that are not valves still happen at one place in the loop (each has a ui.stop_name.* label).
OTHER_STOPS = {
    "max_tokens": "stop_reason",
    "refusal": "stop_reason",
    "model_context_window_exceeded": "stop_reason",
    "pause_turn": "stop_reason",
    "unexpected": "stop_reason",
    "api_error": "response",
    "interrupted": "loop_top",
}

# Geometry (px at the diagram's own width). Boxes sit in one row; valve badges hang under their step.
BOX_W, BOX_H, GAP, LEFT, ROW_Y = 140, 46, 36, 34, 86
WIDTH = LEFT * 2 + 5 * BOX_W + 4 * GAP
BADGE_W, BADGE_H, BADGE_STEP = 150, 28, 34
NODE_FONT, BADGE_FONT, SMALL_FONT = 14, 13, 12  # never below 12 px (the issue measured 9 px)
ACCENT, FIRED, INK, FAINT = "#e08a00", "#c8372d", "#444444", "#777777"
TEXT = "currentColor"  # the theme's text colour in SVG; the PNG draws it dark on white


@dataclass(frozen=True)
class Shape:
    """One drawing primitive, in diagram pixels; both renderers read the same list."""

    kind: str  # "rect", "line", "path", "text"
    group: str = ""  # SVG <g> class: hl-node-..., hl-valve-... (tests and CSS find them by it)
    x: float = 0
    y: float = 0
    w: float = 0
    h: float = 0
    x2: float = 0
    y2: float = 0
    points: tuple = ()  # path: ("M", x, y), ("L", x, y), ("Q", cx, cy, x, y)
    fill: str = "none"
    stroke: str = "none"
    width: float = 1.0
    dash: bool = False
    arrow: bool = False
    radius: float = 0
    text: str = ""
    size: int = SMALL_FONT
    anchor: str = "middle"  # SVG text-anchor: "middle", "start" or "end"
    color: str = TEXT


def _x(node: str) -> int:
    return LEFT + NODES.index(node) * (BOX_W + GAP)


def _badge_width(label: str) -> float:
    """A badge wide enough for its label, never narrower than BADGE_W: at 150 px, "No-progress detection
    (fired)" ran past both rounded ends. A wide (CJK) character takes about 1 em, another at most about
    0.55 em in the fonts the diagram meets (IPAexGothic in the PNG, Chromium's sans-serif in the SVG);
    wider, a fired badge would reach the acting one in the next column."""
    ems = sum(1.0 if unicodedata.east_asian_width(ch) in "WF" else 0.55 for ch in label)
    return max(BADGE_W, round(ems * BADGE_FONT) + 24)


def _badge_anchor(step: str) -> int:
    """The x where a step's badges hang: under the box whose work comes just before the step."""
    node = COLUMNS[step]
    return _x(node) + BOX_W // 2 if node == "request" else _x(node) + BOX_W + GAP // 2


def place_of(name: str | None, valves: Iterable = LESSON_VALVES) -> str | None:
    """The diagram place (node or valve step) for a node, a step, a valve's or a stop's name."""
    if name is None or name in NODES or name == EXIT or name in STEPS:
        return name
    steps = {valve.name: valve.step for valve in valves}
    return steps.get(name) or OTHER_STOPS.get(name)


class LoopDiagram:
    """The loop diagram; ``highlight`` is a node, a step or a valve name, ``fired`` the valve (or stop,
    e.g. ``"interrupted"``) that ended the run, ``acted`` a valve that acted and let the run go on.
    ``valves`` are drawn at their own steps (default: lesson 6's four)."""

    def __init__(
        self,
        highlight: str | None = None,
        fired: str | None = None,
        acted: str | None = None,
        valves: Iterable = LESSON_VALVES,
    ):
        self.valves = list(valves)
        self.steps = {step: [v.name for v in self.valves if v.step == step] for step in STEPS}
        self.highlight = place_of(highlight, self.valves)
        if highlight is not None and self.highlight is None:
            known = ", ".join([*NODES, EXIT, *STEPS, *(v.name for v in self.valves)])
            raise ValueError(t("ui.diagram.unknown_place", place=reprlib.repr(highlight), known=known))
        self.fired = fired
        self.acted = acted if acted != fired else None
        self.shapes, self.height = self._layout()

    # --- layout ---------------------------------------------------------------------------------

    def _node(self, node: str, x: int, y: int, label: str, h: int = BOX_H) -> list[Shape]:
        here = self.highlight == node
        stopped_here = self.fired is not None and place_of(self.fired, self.valves) == node
        group = f"hl-node hl-node-{node}" + (" hl-here" if here else "")
        return [
            Shape(
                "rect",
                group,
                x,
                y,
                BOX_W,
                h,
                fill="rgba(224,138,0,0.18)" if here else "rgba(128,128,128,0.08)",
                stroke=FIRED if stopped_here else ACCENT if here else INK,
                width=3 if here or stopped_here else 1.2,
                radius=8,
            ),
            Shape("text", group, x + BOX_W / 2, y + h / 2 + 5, text=label, size=NODE_FONT),
        ]

    def _badges(self) -> tuple[list[Shape], int]:
        shapes: list[Shape] = []
        tops: dict[int, int] = {}
        bottom = ROW_Y + BOX_H
        for step, valves in self.steps.items():
            if not valves and self.highlight != step:
                continue
            cx, here = _badge_anchor(step), self.highlight == step
            top = tops.get(cx, ROW_Y + BOX_H + 22)
            if cx not in tops:
                line_to = ROW_Y + BOX_H if COLUMNS[step] == "request" else ROW_Y + BOX_H // 2
                shapes.append(
                    Shape("line", "", cx, top, x2=cx, y2=line_to, stroke=ACCENT if here else FAINT, dash=True)
                )
            for i, valve in enumerate(valves):
                y = top + i * BADGE_STEP
                fired, acted = self.fired == valve, self.acted == valve
                group = f"hl-valve hl-valve-{valve}" + (" hl-fired" if fired else " hl-acted" if acted else "")
                label = self._badge_label(valve)
                shapes += [
                    Shape(
                        "rect",
                        group,
                        cx - _badge_width(label) / 2,
                        y,
                        _badge_width(label),
                        BADGE_H,
                        radius=BADGE_H / 2,
                        fill="rgba(200,55,45,0.85)"
                        if fired
                        else "rgba(224,138,0,0.85)"
                        if acted
                        else "rgba(224,138,0,0.15)"
                        if here
                        else "rgba(128,128,128,0.06)",
                        stroke=FIRED if fired else ACCENT if here or acted else FAINT,
                        width=2.5 if fired or acted or here else 1,
                    ),
                    Shape(
                        "text",
                        group,
                        cx,
                        y + 19,
                        text=label,
                        size=BADGE_FONT,
                        color="#ffffff" if fired or acted else TEXT,
                    ),
                ]
            if not valves:  # the run is here, at a step that holds no valve (a bare loop): say so
                shapes += [
                    Shape(
                        "rect",
                        "hl-no-valve",
                        cx - BADGE_W / 2,
                        top,
                        BADGE_W,
                        BADGE_H,
                        radius=BADGE_H / 2,
                        stroke=ACCENT,
                        width=1.5,
                        dash=True,
                    ),
                    Shape("text", "hl-no-valve", cx, top + 19, text=t("ui.diagram.no_valve"), size=BADGE_FONT),
                ]
            below = top + max(len(valves), 1) * BADGE_STEP + 12
            shapes.append(Shape("text", "", cx, below, text=step, size=SMALL_FONT, color=FAINT))
            tops[cx] = below + 12
            bottom = max(bottom, below)
        return shapes, bottom

    def _layout(self) -> tuple[list[Shape], int]:
        y, mid = ROW_Y, ROW_Y + BOX_H // 2
        badges, bottom = self._badges()
        low = bottom + 28  # the loop back runs under every badge
        shapes = []
        for node in NODES:
            shapes += self._node(node, _x(node), y, t(f"ui.diagram.{node}"))
        for a, b in itertools.pairwise(NODES):
            shapes.append(
                Shape("line", "", _x(a) + BOX_W, mid, x2=_x(b) - 2, y2=mid, stroke=INK, width=1.4, arrow=True)
            )
        shapes.append(Shape("text", "", _x("tools") - GAP / 2, y - 8, text="tool_use", size=SMALL_FONT, color=FAINT))
        # The exit: any stop_reason but tool_use leaves the loop upward.
        sx = _x("stop_reason")
        shapes += self._node(EXIT, sx, 8, t("ui.diagram.end"), h=38)
        shapes.append(Shape("line", "", sx + BOX_W / 2, y, x2=sx + BOX_W / 2, y2=47, stroke=INK, width=1.4, arrow=True))
        shapes.append(
            Shape(
                "text",
                "",
                sx + BOX_W / 2 - 8,
                70,
                text=t("ui.diagram.end_edge"),
                size=SMALL_FONT,
                anchor="end",
                color=FAINT,
            )
        )
        # The loop back: results go out with the whole history in the next request.
        rx, lx = _x("results") + BOX_W // 2, 12
        shapes.append(
            Shape(
                "path",
                "",
                points=(
                    ("M", rx, y + BOX_H),
                    ("L", rx, low),
                    ("L", lx + 12, low),
                    ("Q", lx, low, lx, low - 12),
                    ("L", lx, mid + 12),
                    ("Q", lx, mid, lx + 12, mid),
                    ("L", LEFT - 2, mid),
                ),
                stroke=INK,
                width=1.4,
                arrow=True,
            )
        )
        shapes.append(
            Shape(
                "text",
                "",
                (rx + _x("response")) / 2,
                low - 7,
                text=t("ui.diagram.loop_edge"),
                size=SMALL_FONT,
                color=FAINT,
            )
        )
        return shapes + badges, low + 14

    def _badge_label(self, valve: str) -> str:
        if self.fired == valve:
            return f"{valve_label(valve)} ({t('ui.diagram.fired_badge')})"
        if self.acted == valve:
            return f"{valve_label(valve)} ({t('ui.diagram.acted_badge')})"
        return valve_label(valve)

    def svg(self) -> str:
        """Inline SVG at the diagram's own width (wider than its box: it scrolls, never shrinks)."""
        return render_svg(self.shapes, WIDTH, self.height, t("ui.diagram.title"))

    # --- renderers ------------------------------------------------------------------------------

    def html(self) -> str:
        """Title, inline SVG and caption: for a live widget, where nothing strips the SVG."""
        return (
            f'<div class="hl-diagram" style="max-width:100%;overflow-x:auto">'
            f'<div style="font-weight:600;font-size:14px">{html.escape(t("ui.diagram.title"))}</div>'
            f"{self.svg()}"
            f'<div class="hl-diagram-caption" style="font-size:13px;opacity:0.85">{html.escape(self.caption())}</div></div>'
        )

    def png(self) -> bytes:
        """The same picture as a PNG: the same bytes for the same diagram, every time."""
        from .diagram_png import render_png  # matplotlib, only when a picture is asked for

        return render_png(self.shapes, WIDTH, self.height, t("ui.diagram.title"), self.caption())

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> tuple[dict, dict]:
        # No text/html on purpose: an untrusted notebook would pick it and strip its SVG.
        data = {"image/png": base64.b64encode(self.png()).decode("ascii"), "text/plain": repr(self)}
        # Shown at its own width, never squeezed (JupyterLab's "unconfined"): a narrow notebook scrolls
        # sideways instead of shrinking the labels below 12 px.
        return data, {"image/png": {"width": WIDTH, "unconfined": True}}

    def caption(self) -> str:
        bits = []
        if self.highlight:
            bits.append(f"{t('ui.diagram.here')}: {self._place_label(self.highlight)}")
        if self.fired in OTHER_STOPS:  # the run ended, but no valve did it: say why, not "valve"
            bits.append(f"{t('ui.diagram.stopped_by')}: {t(f'ui.stop_name.{self.fired}')}")
        elif self.fired:  # one of the four, or a learner's own valve (shown by its name)
            bits.append(f"{t('ui.diagram.fired')}: {valve_label(self.fired)}")
        if self.acted:
            bits.append(f"{t('ui.diagram.acted')}: {valve_label(self.acted)}")
        return " / ".join(bits)

    @staticmethod
    def _place_label(place: str) -> str:
        if place in STEPS:
            return t("ui.diagram.step_label", step=place, label=t(f"ui.diagram.{place}"))
        return t(f"ui.diagram.{place}")

    def __repr__(self) -> str:
        row = " → ".join(("▶" if self.highlight == n else "") + f"[{t(f'ui.diagram.{n}')}]" for n in NODES)
        lines = [
            t("ui.diagram.title"),
            f"{row} ↺ {t('ui.diagram.loop_edge')}",
            f"  [{t('ui.diagram.stop_reason')}] → {t('ui.diagram.end_edge')} → "
            + ("▶" if self.highlight == EXIT else "")
            + f"[{t('ui.diagram.end')}]",
        ]
        for step, valves in self.steps.items():
            if not valves and self.highlight != step:
                continue
            mark = "▶" if self.highlight == step else " "
            names = ", ".join(self._badge_label(v) for v in valves) or t("ui.diagram.no_valve")
            lines.append(f"{mark} {self._place_label(step)}: {names}")
        if self.caption():
            lines.append(self.caption())
        return "\n".join(lines)

    def _repr_pretty_(self, p, cycle) -> None:
        p.text(repr(self))


diagram = LoopDiagram  # what the lessons call: ``ui.diagram(highlight="before_each_tool")``
