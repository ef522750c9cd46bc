"""The loop diagram as a PNG, drawn with matplotlib from the same shapes as its SVG.

A PNG shows where SVG does not: in a notebook that is not trusted yet (JupyterLab strips SVG from
its HTML), on GitHub and in nbconvert's pages. The bytes are the same for the same diagram on every
run: one bundled font (IPAexGothic from matplotlib-fontja), no date or software tag in the file.
One diagram pixel is one point, drawn at ``SCALE`` times, and the output asks to be shown at the
diagram's own width, so text is as large as in the SVG and sharp on high-density screens.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable

import matplotlib_fontja
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch, PathPatch
from matplotlib.path import Path
from PIL import Image  # installed with matplotlib

__all__ = ["SCALE", "render_png"]

SCALE = 2  # output pixels per diagram pixel
COLORS = 32
INK_ON_WHITE = "#222222"  # the SVG's currentColor, on the PNG's white background
TITLE, CAPTION = 24, 26  # room above and below the drawing for the title and the caption lines
_RGBA = re.compile(r"rgba\((\d+),(\d+),(\d+),([\d.]+)\)")


def _color(value: str):
    if value == "none":
        return "none"
    if value == "currentColor":
        return INK_ON_WHITE
    match = _RGBA.fullmatch(value.replace(" ", ""))
    if match:
        r, g, b, a = match.groups()
        return (int(r) / 255, int(g) / 255, int(b) / 255, float(a))
    return value


def _path(points: Iterable[tuple]) -> Path:
    vertices, codes = [], []
    for op, *xy in points:
        if op == "Q":
            vertices += [(xy[0], xy[1]), (xy[2], xy[3])]
            codes += [Path.CURVE3, Path.CURVE3]
        else:
            vertices.append((xy[0], xy[1]))
            codes.append(Path.MOVETO if op == "M" else Path.LINETO)
    return Path(vertices, codes)


def render_png(shapes: list, width: int, height: int, title: str, caption: str) -> bytes:
    """PNG bytes of ``shapes`` on a ``width`` x ``height`` canvas, with the title above and caption below."""
    font = FontProperties(fname=matplotlib_fontja.get_font_ttf_path())
    total = height + TITLE + (CAPTION if caption else 0)
    figure = Figure(figsize=(width / 72, total / 72), dpi=72 * SCALE, facecolor="white")
    axes = figure.add_axes((0, 0, 1, 1))
    axes.set_xlim(0, width)
    axes.set_ylim(height + (CAPTION if caption else 0), -TITLE)  # y grows downwards, as in SVG
    axes.axis("off")
    axes.text(8, -8, title, fontproperties=font, fontsize=14, weight="bold", color=INK_ON_WHITE)
    if caption:
        axes.text(8, height + 16, caption, fontproperties=font, fontsize=13, color=INK_ON_WHITE)
    for s in shapes:
        # Line widths are in points, like every other length here (one diagram pixel = one point).
        if s.kind == "rect":
            axes.add_patch(
                FancyBboxPatch(
                    (s.x, s.y),
                    s.w,
                    s.h,
                    boxstyle=f"round,pad=0,rounding_size={s.radius}",
                    facecolor=_color(s.fill),
                    edgecolor=_color(s.stroke),
                    linewidth=s.width,
                    linestyle=(0, (3, 3)) if s.dash else "-",
                )
            )
        elif s.kind in ("line", "path"):
            path = _path(s.points) if s.kind == "path" else Path([(s.x, s.y), (s.x2, s.y2)])
            style = dict(color=_color(s.stroke), linewidth=s.width, linestyle=(0, (3, 3)) if s.dash else "-")
            if s.arrow:
                axes.add_patch(
                    FancyArrowPatch(
                        path=path,
                        arrowstyle="-|>,head_length=7,head_width=3.5",
                        mutation_scale=1,
                        shrinkA=0,
                        shrinkB=0,
                        **style,
                    )
                )
            else:
                axes.add_patch(PathPatch(path, fill=False, **style))
        elif s.kind == "text":
            axes.text(
                s.x,
                s.y - s.size * 0.35,
                s.text,
                fontproperties=font,
                fontsize=s.size,
                color=_color(s.color),
                ha={"middle": "center", "start": "left", "end": "right"}[s.anchor],
                va="center",
            )
    drawn = io.BytesIO()
    FigureCanvasAgg(figure).print_png(drawn, metadata={"Software": None})
    # A few flat colours: a 32-colour palette keeps every edge and letter and a quarter of the bytes.
    image = Image.open(drawn).convert("RGB").quantize(COLORS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()
