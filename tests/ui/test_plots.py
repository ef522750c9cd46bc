"""Token-burn plots: Japanese labels with real glyphs, budget and stop drawn, deterministic."""

import contextlib
import io
import subprocess
import sys
import warnings
from itertools import pairwise
from pathlib import Path

import pytest

from harness_lab import ui
from harness_lab.events import Stopped, Turn, Usage
from harness_lab.text import t

USAGES = [Usage(400 + 300 * i, 50, 100 if i == 0 else 0, 80 if i else 0) for i in range(5)]
STOP = Stopped(cause="token_budget", reason="予算", turns=5, usage=sum(USAGES, Usage()))


def _plots():
    """The plots module, imported when a test draws: collecting this file loads no matplotlib (every
    pytest worker collects it, and each check's fork would copy matplotlib too)."""
    from harness_lab.ui import plots

    return plots


def _text_class():
    from matplotlib.text import Text

    return Text


def _draw(fig):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fig.canvas.draw()
    return [str(w.message) for w in caught]


def test_japanese_labels_draw_without_missing_glyphs():
    fig = ui.plot_token_burn(USAGES + [STOP], budget=5000)
    assert _draw(fig) == []
    assert any("トークン" in ax.get_ylabel() for ax in fig.axes)
    assert _draw(ui.compare_runs({"裸のループ": USAGES + [STOP], "ハーネス": USAGES[:2]}, budget=5000)) == []


def test_the_glyph_check_can_fail():
    # Proof the test above can fail: a Latin-only font cannot draw these labels.
    fig = ui.plot_token_burn(USAGES)
    for text in fig.findobj(_text_class()):
        text.set_fontfamily("DejaVu Sans")
    assert any("missing from font" in m for m in _draw(fig))


def test_budget_line_stop_mark_and_usd_axis():
    fig = ui.plot_token_burn(USAGES + [STOP], budget=5000, usd_prices={"input": 3.0, "output": 15.0})
    burn, total, usd = fig.axes
    assert [len(c.patches) for c in burn.containers] == [5, 5, 5, 5]  # four stacked parts per turn
    ys = [line.get_ydata()[0] for line in total.get_lines() if len(set(line.get_ydata())) == 1]
    assert 5000 in ys
    assert any("token_budget" in a.get_text() for a in total.texts)
    cumulative = list(total.get_lines()[0].get_ydata())
    assert cumulative[-1] == sum(u.total for u in USAGES)
    assert "USD" in usd.get_ylabel()
    expected = sum(_plots().run_cost_usd(u, usd_prices={"input": 3.0, "output": 15.0}) for u in USAGES)
    assert usd.get_lines()[0].get_ydata()[-1] == pytest.approx(expected)


def test_no_stop_mark_for_a_finished_run():
    fig = ui.plot_token_burn(USAGES)
    assert len(fig.axes[1].texts) == 0


def test_the_total_names_a_budget_only_when_one_is_drawn():
    assert ui.plot_token_burn(USAGES, budget=5000).axes[1].get_title() == t("ui.plot.total_title")
    assert ui.plot_token_burn(USAGES).axes[1].get_title() == t("ui.plot.total_title_no_budget")


def test_turn_events_are_read_too():
    turns = [Turn(request_number=i + 1, response=None, stop_reason="tool_use", usage=u) for i, u in enumerate(USAGES)]
    assert _plots().turn_usages(turns) == USAGES


def test_compare_runs_draws_one_line_per_run():
    fig = ui.compare_runs({"A": USAGES, "B": USAGES[:3]})
    labels = [line.get_label() for line in fig.axes[0].get_lines()]
    assert labels[0].startswith("A ($") and labels[1].startswith("B ($")


def test_compare_runs_by_usd_shows_what_caching_changes():
    # The same tokens, read from the cache: the token plot cannot tell the runs apart, the dollar plot can.
    plain = [Usage(1000 + 500 * i, 50) for i in range(4)]
    cached = [Usage(1000, 50)] + [Usage(100, 50, 500, 900 + 500 * (i - 1)) for i in range(1, 4)]
    by_tokens = ui.compare_runs({"plain": plain, "cached": cached})
    by_usd = ui.compare_runs({"plain": plain, "cached": cached}, by="usd")
    plain_tokens, cached_tokens = (line.get_ydata()[-1] for line in by_tokens.axes[0].get_lines()[:2])
    plain_usd, cached_usd = (line.get_ydata()[-1] for line in by_usd.axes[0].get_lines()[:2])
    assert plain_tokens == cached_tokens and cached_usd < plain_usd
    assert by_usd.axes[0].get_ylabel() == t("ui.plot.usd") and by_usd.axes[1].get_title() == t(
        "ui.plot.request_usd_title"
    )
    with pytest.raises(ValueError, match="usd"):
        ui.compare_runs({"plain": plain}, by="dollars")


def test_output_is_deterministic():
    def png():
        buf = io.BytesIO()
        ui.plot_token_burn(USAGES + [STOP], budget=5000).savefig(buf, format="png")
        return buf.getvalue()

    assert png() == png()


def test_a_stepper_over_a_real_run_gives_budget_and_stop(make_run):
    from harness_lab.ui import Stepper

    run = make_run("budget_burning", max_turns=50, budget=6_000)
    s = Stepper(run, "ログを分析して")
    s.run_all()
    fig = ui.plot_token_burn(s)
    total = fig.axes[1]
    assert len(fig.axes[0].containers[0].patches) == run.state.model_calls
    assert any(set(line.get_ydata()) == {6_000} for line in total.get_lines())
    assert [a.get_text() for a in total.texts] == ["停止: token_budget"]
    assert _draw(fig) == []


def _budget_y_pixels(ax, budget):
    return ax.transData.transform((0, budget))[1]


@pytest.mark.parametrize("budget", [5000, 1000])
def test_stop_labels_stay_clear_of_the_budget_line(budget):
    # A budget stop ends at the budget line; a label placed at the last point would sit on it.
    stopped_at_budget = [Usage(budget // 5, 0)] * 5  # the running total lands on the line
    runs = {"A": stopped_at_budget + [STOP], "B": USAGES + [STOP]}
    for fig, ax in ((ui.plot_token_burn(runs["A"], budget=budget), 1), (ui.compare_runs(runs, budget=budget), 0)):
        fig.canvas.draw()
        axes = fig.axes[ax]
        line_y = _budget_y_pixels(axes, budget)
        renderer = fig.canvas.get_renderer()
        assert axes.texts
        for text in axes.texts:
            box = _text_class().get_window_extent(text, renderer)  # the words, not the arrow
            assert not (box.y0 <= line_y <= box.y1), (text.get_text(), box, line_y)


def _show_through(fig, axes, budget):
    """Pixels of the legend over ``axes``, on the budget line's row, tinted the line's red through it."""
    import numpy as np

    fig.canvas.draw()
    pixels = np.asarray(fig.canvas.buffer_rgba())[..., :3].astype(int)
    legends = [ax.get_legend().get_window_extent() for ax in fig.axes if ax.get_legend()]
    (box,) = [box for box in legends if axes.get_window_extent().contains(box.x0, box.y0)]
    row = pixels.shape[0] - round(_budget_y_pixels(axes, budget))
    assert box.y0 + 4 < _budget_y_pixels(axes, budget) < box.y1 - 4  # the line does cross the legend
    inside = pixels[row - 1 : row + 1, round(box.x0) + 3 : round(box.x1) - 3].reshape(-1, 3)
    return [tuple(p) for p in inside if p[0] > 230 and 180 < p[1] < 235 and 180 < p[2] < 235 and p[0] - p[1] > 10]


def test_the_budget_line_does_not_show_through_a_legend():
    # Lesson 03's comparison: a run that overshot its budget draws the budget line high, through the
    # legend, whose frame let it show pink across the run names.
    usages = [Usage(2000 + 1500 * i, 300) for i in range(6)]
    runs = {"受け取った後に数える (loop_top)": usages + [STOP], "送る前に見積もる (before_send)": usages[:4]}
    fig = ui.compare_runs(runs, budget=34_000)
    assert _show_through(fig, fig.axes[0], 34_000) == []
    fig = ui.plot_token_burn(usages + [STOP], budget=34_000)
    assert _show_through(fig, fig.axes[1], 34_000) == []


def test_x_axis_counts_model_calls_not_turns():
    fig = ui.plot_token_burn(USAGES + [STOP], budget=5000)
    assert all(ax.get_xlabel() == t("ui.plot.call") == "モデルへのリクエスト（回目）" for ax in fig.axes[:2])
    assert all("ターン" not in ax.get_xlabel() for ax in ui.compare_runs({"A": USAGES}).axes)


def test_usd_prices_honour_the_cache_prices():
    write, read = Usage(cache_creation_input_tokens=1_000_000), Usage(cache_read_input_tokens=1_000_000)
    base = {"input": 3.0, "output": 15.0}
    assert _plots().run_cost_usd(write, usd_prices={**base, "cache_write": 100.0}) == pytest.approx(100.0)
    assert _plots().run_cost_usd(read, usd_prices={**base, "cache_read": 0}) == 0
    # Left out, they follow the input price as the API bills them: writes 1.25x, reads 0.1x.
    assert _plots().run_cost_usd(write, usd_prices=base) == pytest.approx(3.75)
    assert _plots().run_cost_usd(read, usd_prices=base) == pytest.approx(0.3)
    fig = ui.plot_token_burn([write, read], usd_prices={**base, "cache_write": 100.0, "cache_read": 1.0})
    assert list(fig.axes[2].get_lines()[0].get_ydata()) == pytest.approx([100.0, 101.0])


@pytest.mark.parametrize(
    "prices, error, named",
    [
        ({"input": 3.0}, ValueError, "output"),
        ({"input": 3.0, "output": 15.0, "cache_writes": 3.75}, ValueError, "cache_writes"),
        ({"input": "3", "output": 15.0}, ValueError, "input"),
        ({"input": 3.0, "output": -1}, ValueError, "output"),
        ({}, ValueError, "input, output"),
        ([3.0, 15.0], TypeError, "[3.0, 15.0]"),
    ],
)
def test_an_incomplete_price_dict_is_a_clear_error(prices, error, named):
    for plot in (
        lambda: ui.plot_token_burn(USAGES, usd_prices=prices),
        lambda: ui.compare_runs({"A": USAGES}, usd_prices=prices),
    ):
        with pytest.raises(error) as caught:
            plot()
        message = str(caught.value)
        assert named in message and '"input": 3.0, "output": 15.0' in message


def test_svg_is_the_same_in_every_process():
    # SVG ids come from a per-process random salt and the file carries the save date, unless set.
    # This process is one of the two: a second fresh one would only start Python and matplotlib again.
    code = (
        "import hashlib, io, matplotlib; matplotlib.use('Agg')\n"
        "from harness_lab.events import Usage\n"
        "from harness_lab.ui import compare_runs\n"
        "usages = [Usage(400 + 300 * i, 50, 100 if i == 0 else 0, 80 if i else 0) for i in range(5)]\n"
        "buf = io.BytesIO()\n"
        "compare_runs({'A': usages, 'B': usages[:3]}).savefig(buf, format='svg')\n"
        "print(hashlib.sha256(buf.getvalue()).hexdigest())\n"
    )
    root = Path(__file__).resolve().parents[2]
    there = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root)
    here = io.StringIO()
    with contextlib.redirect_stdout(here):
        exec(code, {})
    assert there.stdout == here.getvalue() and len(there.stdout.strip()) == 64


def test_the_stepper_loads_no_matplotlib_until_a_plot_is_asked_for():
    # Every process that forks a child per check copies what it has loaded: matplotlib is about 45 MB.
    code = (
        "import sys\n"
        "from harness_lab import ui\n"
        "ui.Stepper, ui.diagram, ui.transcript\n"
        "print('matplotlib' in sys.modules)\n"
        "ui.plot_token_burn\n"
        "print('matplotlib' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True"]


@pytest.mark.parametrize("draw", ["burn", "compare"])
def test_request_numbers_on_the_x_axis_never_run_together(draw):
    """Lesson 06's twenty-request comparison labelled every request: at the plots' width the numbers
    read "10111213141516171819 20"."""
    many = [Usage(400 + 300 * i, 50, 0, 0) for i in range(20)]
    fig = ui.plot_token_burn(many) if draw == "burn" else ui.compare_runs({"A": many, "B": many[:12]})
    _draw(fig)
    renderer = fig.canvas.get_renderer()
    for ax in fig.axes[:2]:
        boxes = [label.get_window_extent(renderer) for label in ax.get_xticklabels() if label.get_text()]
        assert len(boxes) >= 5
        gaps = [right.x0 - left.x1 for left, right in pairwise(boxes)]
        assert min(gaps) >= 4, gaps  # at least 4 px between two numbers
