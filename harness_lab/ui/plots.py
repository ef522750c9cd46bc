"""Token-burn plots: where the budget goes, turn by turn (lesson 4: budget burnout).

History grows every turn, so each request re-sends everything before it: per-turn input grows
linearly and the running total quadratically. These plots show that, against the budget line, with
the stop marked and an estimated USD axis, and compare several runs on one chart.

Figures are plain ``matplotlib.figure.Figure`` objects, not pyplot ones: show one by making it a
cell's last expression or with ``display(fig)``. That avoids pyplot's global state and the double
display of a returned pyplot figure. Sizes and colours are fixed and nothing depends on the clock,
so the same run always draws the same picture, as PNG and as SVG.
"""

from __future__ import annotations

import io
import itertools
import reprlib
from collections.abc import Iterable, Mapping
from typing import Any

import matplotlib
import matplotlib_fontja
from IPython import get_ipython
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.backends.backend_svg import FigureCanvasSVG
from matplotlib.figure import Figure

from ..events import Finished, Stopped, Turn, Usage
from ..model import DEFAULT_MODEL
from ..text import t
from ..valves.budget import cost_usd, usd
from .status import valve_named

__all__ = ["compare_runs", "plot_token_burn", "run_cost_usd", "turn_usages"]

# Shown at this size, never squeezed (JupyterLab's "unconfined", as the diagram): in a narrow notebook
# it scrolls sideways, where shrunk to fit 900 px its 10-point labels were 6 px high. 960 px wide fits
# the output area of a 1400 px window with the file browser open.
SIZE, DPI = (9.6, 4.2), 100
# The parts of one call's tokens, bottom to top, with fixed colours.
PARTS = (
    ("input_tokens", "ui.plot.input", "#4a7bd0"),
    ("cache_creation_input_tokens", "ui.plot.cache_write", "#9b6fd1"),
    ("cache_read_input_tokens", "ui.plot.cache_read", "#8cc4e8"),
    ("output_tokens", "ui.plot.output", "#e08a00"),
)
RUN_COLORS = ("#4a7bd0", "#e08a00", "#3f9a5a", "#c8372d", "#9b6fd1", "#777777")
# The keys of usd_prices (USD per million tokens); the two cache prices are optional.
PRICE_KEYS = ("input", "output", "cache_write", "cache_read")
# SVG ids come from a per-process random salt unless one is set; any fixed string will do.
SVG_SALT = "harness_lab"


class _Canvas(FigureCanvasAgg):
    """Agg for drawing and PNG; SVG without the save date or random ids, so it is the same every time."""

    def print_svg(
        self, filename: Any, *, metadata: dict | None = None, bbox_inches_restore: Any = None, **_ignored: Any
    ) -> None:
        # print_figure passes dpi and colours for raster formats too; the SVG writer takes neither.
        with matplotlib.rc_context({"svg.hashsalt": SVG_SALT}):
            FigureCanvasSVG(self.figure).print_svg(
                filename, metadata={"Date": None, **(metadata or {})}, bbox_inches_restore=bbox_inches_restore
            )


def _figure() -> Figure:
    fig = Figure(figsize=SIZE, dpi=DPI, layout="constrained")
    _Canvas(fig)  # a real canvas, so fig.canvas.draw() renders (the base canvas does nothing)
    return fig


def _png(fig: Figure) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI)
    return buf.getvalue()


def _prepare() -> None:
    """Before a figure: the Japanese font again, and IPython told to show our pyplot-free figures as PNG
    (the inline backend may not be loaded)."""
    # matplotlib_fontja sets the family on import; set it again in case a notebook changed rcParams.
    matplotlib.rcParams["font.family"] = matplotlib_fontja.matplotlib_fontja.FONT_NAME
    matplotlib.rcParams["axes.unicode_minus"] = False
    shell = get_ipython()
    if shell is not None:
        shell.display_formatter.formatters["image/png"].for_type(Figure, lambda fig: (_png(fig), {"unconfined": True}))


# --- reading a run ------------------------------------------------------------------------------


def turn_usages(source: Any) -> list[Usage]:
    """Per-model-call usage from a Run, a RunState, a Stepper, an outcome, events or Usages."""
    if hasattr(source, "turn_usage"):
        return [Usage.of(u) for u in source.turn_usage]
    for attr in ("state", "run"):
        inner = getattr(source, attr, None)
        if inner is not None and inner is not source:
            return turn_usages(inner)
    if isinstance(source, Iterable) and not isinstance(source, (str, bytes, Mapping)):
        items = [x for x in source if not isinstance(x, (Finished, Stopped))]
        if any(isinstance(x, Turn) for x in items):
            return [x.usage for x in items if isinstance(x, Turn)]
        return [u if isinstance(u, Usage) else Usage.of(u) for u in items]
    raise TypeError(t("ui.plot.no_usage", kind=type(source).__name__))


def _outcome(source: Any) -> Finished | Stopped | None:
    """The end of a run if the source knows it (a Stepper, a Run, an ``Outcome`` or a list of events)."""
    if isinstance(source, (Finished, Stopped)):
        return source
    for attr in ("outcome", "end", "stop"):
        value = getattr(source, attr, None)
        if isinstance(value, (Finished, Stopped)):
            return value
    if isinstance(source, (list, tuple)):
        ends = [x for x in source if isinstance(x, (Finished, Stopped))]
        return ends[-1] if ends else None
    return None


def _model_of(source: Any) -> str:
    for obj in (source, getattr(source, "run", None)):
        model = getattr(getattr(obj, "state", obj), "model", "")
        if model:
            return str(model)
    return DEFAULT_MODEL


def _is_price(value: Any) -> bool:
    # NaN fails value >= 0 as it should; True is an int, but not a price.
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0


def _prices(usd_prices: Any) -> dict[str, float | None]:
    """``usd_prices`` checked, as the four prices in ``PRICE_KEYS`` order (a missing cache price: None)."""
    if not isinstance(usd_prices, Mapping):
        raise TypeError(t("ui.plot.prices", got=reprlib.repr(usd_prices), problem=t("ui.plot.prices_type")))
    problems = []
    if missing := [k for k in ("input", "output") if k not in usd_prices]:
        problems.append(t("ui.plot.prices_missing", keys=", ".join(missing)))
    if unknown := [str(k) for k in usd_prices if k not in PRICE_KEYS]:
        problems.append(t("ui.plot.prices_unknown", keys=", ".join(unknown)))
    if bad := [k for k in PRICE_KEYS if k in usd_prices and not _is_price(usd_prices[k])]:
        problems.append(t("ui.plot.prices_value", keys=", ".join(bad)))
    if problems:
        raise ValueError(t("ui.plot.prices", got=reprlib.repr(dict(usd_prices)), problem="; ".join(problems)))
    return {key: float(usd_prices[key]) if key in usd_prices else None for key in PRICE_KEYS}


def run_cost_usd(usage: Usage, source: Any = None, usd_prices: Mapping[str, float] | None = None) -> float:
    """Estimated USD for one usage: ``usd_prices`` (USD per million tokens: ``"input"``, ``"output"``
    and optionally ``"cache_write"`` / ``"cache_read"``) if given, else the price table of
    ``valves.budget`` for the run's model."""
    if usd_prices is None:
        return cost_usd(usage, _model_of(source))
    prices = _prices(usd_prices)
    return usd(usage, prices["input"] or 0.0, prices["output"] or 0.0, prices["cache_write"], prices["cache_read"])


def _stop_label(outcome: Finished | Stopped | None) -> str | None:
    if isinstance(outcome, Stopped):
        return t("ui.plot.stop", valve=outcome.cause)
    return None


def _label_height(ax: Any, budget: int | None) -> float:
    """Where stop labels go, as a fraction of the axes height: away from the budget line.

    A budget stop ends right at the budget line, so a label next to the last point sits on it.
    Labels go near the bottom, unless the budget line itself is low, then halfway up.
    """
    top = ax.get_ylim()[1]
    if budget is None or top <= 0 or budget / top > 0.35:
        return 0.06
    return 0.5


# --- the plots ----------------------------------------------------------------------------------


def plot_token_burn(
    source: Any,
    budget: int | None = None,
    usd_prices: Mapping[str, float] | None = None,
) -> Figure:
    """Per-turn token burn (stacked parts) and the running total against the budget, with USD.

    ``source`` is a Run, its state, a Stepper, a list of Turn events or a list of Usages.
    ``budget`` defaults to the run's TokenBudget limit; ``usd_prices`` is ``{"input": $, "output": $}``
    per million tokens (optionally ``cache_write`` / ``cache_read``).
    """
    if usd_prices is not None:
        _prices(usd_prices)  # a bad price dict fails here, not halfway through the drawing
    _prepare()
    usages = turn_usages(source)
    if budget is None:
        budget = getattr(valve_named(getattr(source, "run", source), "token_budget"), "limit", None)
    outcome = _outcome(source)
    xs = list(range(1, len(usages) + 1))

    fig = _figure()
    burn, total = fig.subplots(1, 2)

    bottom = [0] * len(usages)
    for attr, key, color in PARTS:
        heights = [getattr(u, attr) for u in usages]
        burn.bar(xs, heights, bottom=bottom, color=color, label=t(key), width=0.7)
        bottom = [b + h for b, h in zip(bottom, heights)]
    burn.set_title(t("ui.plot.burn_title"))
    burn.set_xlabel(t("ui.plot.call"))
    burn.set_ylabel(t("ui.plot.tokens"))
    burn.legend(loc="upper left", fontsize=9)

    running = list(itertools.accumulate(u.total for u in usages))
    total.plot(xs, running, marker="o", color="#333333", label=t("ui.plot.cumulative"))
    if budget is not None:
        total.axhline(budget, color="#c8372d", linestyle="--", label=t("ui.plot.budget", limit=budget))
    total.set_title(t("ui.plot.total_title" if budget is not None else "ui.plot.total_title_no_budget"))
    total.set_xlabel(t("ui.plot.call"))
    total.set_ylabel(t("ui.plot.tokens"))
    total.set_ylim(bottom=0)
    stop = _stop_label(outcome)
    if stop and xs:
        total.axvline(xs[-1], color="#c8372d", linestyle=":", linewidth=1.2)
        # x in data, y in axes fractions: beside the stop line, clear of the budget line.
        total.annotate(
            stop,
            (xs[-1], _label_height(total, budget)),
            xycoords=total.get_xaxis_transform(),
            xytext=(-6, 0),
            textcoords="offset points",
            ha="right",
            va="bottom",
            color="#c8372d",
            fontsize=10,
        )

    usd = total.twinx()
    usd.plot(
        xs,
        list(itertools.accumulate(run_cost_usd(u, source, usd_prices) for u in usages)),
        color="#3f9a5a",
        linestyle="-.",
        label=t("ui.plot.usd"),
    )
    usd.set_ylabel(t("ui.plot.usd"))
    usd.set_ylim(bottom=0)
    lines = total.get_legend_handles_labels()
    more = usd.get_legend_handles_labels()
    # On the USD axes, drawn last, and opaque: the budget and cost lines pass behind it, not through it.
    usd.legend(lines[0] + more[0], lines[1] + more[1], loc="upper left", fontsize=9, framealpha=1)
    for ax in (burn, total):
        _request_ticks(ax, len(xs))
    return fig


def compare_runs(
    runs: Mapping[str, Any],
    budget: int | None = None,
    usd_prices: Mapping[str, float] | None = None,
    by: str = "tokens",
) -> Figure:
    """Several runs side by side: running totals (stops marked) and per-turn prompt size.

    ``by="usd"`` draws dollars instead (the running cost, and each request's cost): prompt caching
    sends as many tokens as before, so only its price shows the difference.
    """
    if by not in ("tokens", "usd"):
        raise ValueError(t("ui.plot.by", got=repr(by)))
    if usd_prices is not None:
        _prices(usd_prices)
    _prepare()
    fig = _figure()
    total, prompt = fig.subplots(1, 2)
    longest = 1
    stops = []
    for i, (label, source) in enumerate(runs.items()):
        usages = turn_usages(source)
        xs = list(range(1, len(usages) + 1))
        longest = max(longest, len(xs))
        color = RUN_COLORS[i % len(RUN_COLORS)]
        costs = [run_cost_usd(u, source, usd_prices) for u in usages]
        running = list(itertools.accumulate(costs if by == "usd" else [u.total for u in usages]))
        total.plot(xs, running, marker="o", color=color, label=f"{label} (${sum(costs):.4f})")
        each = costs if by == "usd" else [u.prompt_tokens for u in usages]
        prompt.plot(xs, each, marker="o", color=color, label=label)
        stop = _stop_label(_outcome(source))
        if stop and xs:
            total.plot([xs[-1]], [running[-1]], marker="X", markersize=11, color="#c8372d")
            stops.append((stop, xs[-1], running[-1], color))
    if budget is not None:
        total.axhline(budget, color="#c8372d", linestyle="--", label=t("ui.plot.budget", limit=budget))
    total.set_ylim(bottom=0)
    base = _label_height(total, budget)
    for k, (stop, x, y, color) in enumerate(stops):
        # Stacked clear of the budget line, each with an arrow to the X where its run stopped.
        total.annotate(
            stop,
            (x, y),
            xytext=(x, base + 0.08 * k),
            textcoords=total.get_xaxis_transform(),
            ha="right",
            va="bottom",
            color=color,
            fontsize=9,
            arrowprops={"arrowstyle": "-", "color": color, "linewidth": 0.8, "linestyle": ":"},
        )
    total.set_title(t("ui.plot.compare_usd_title" if by == "usd" else "ui.plot.compare_title"))
    prompt.set_title(t("ui.plot.request_usd_title" if by == "usd" else "ui.plot.prompt_title"))
    for ax in (total, prompt):
        ax.set_xlabel(t("ui.plot.call"))
        ax.set_ylabel(t("ui.plot.usd" if by == "usd" else "ui.plot.tokens"))
        ax.set_ylim(bottom=0)
        _request_ticks(ax, longest)
        ax.legend(loc="upper left", fontsize=9, framealpha=1)  # a budget line high up passes behind it
    return fig


def _request_ticks(ax: Any, requests: int) -> None:
    """Number the requests on the x axis, every one up to 12 and every second or third beyond: twenty
    numbers on one half of the figure ran together ("10111213")."""
    ax.set_xticks(range(1, requests + 1, -(-requests // 12)))
