"""The loop diagram: every node and valve drawn, the run's place and the fired valve marked."""

import base64
import itertools
import re
import struct
import xml.etree.ElementTree as ET

import pytest

from harness_lab.text import speaking, t
from harness_lab.ui import diagram
from harness_lab.ui.diagram import BADGE_FONT, NODES, OTHER_STOPS, WIDTH, place_of
from harness_lab.valves import MaxTurns, NoProgress, TokenBudget

SVG = "{http://www.w3.org/2000/svg}"


def _groups(d, kind):
    root = ET.fromstring(d.svg())
    return {g.get("class") for g in root.iter(f"{SVG}g") if kind in (g.get("class") or "")}


def test_every_node_and_valve_is_drawn_with_its_label():
    d = diagram()
    svg = d.svg()
    for node in NODES:
        assert t(f"ui.diagram.{node}") in svg and f"hl-node-{node}" in svg
    for valve in ("max_turns", "token_budget", "no_progress", "approval"):
        assert f"hl-valve-{valve}" in svg and t(f"ui.valve.{valve}") in svg


def test_valves_sit_at_the_steps_they_name_themselves():
    assert {step: names for step, names in diagram().steps.items() if names} == {
        "loop_top": ["max_turns", "token_budget"],
        "before_tools": ["no_progress"],
        "before_each_tool": ["approval"],
    }
    text = repr(diagram())
    assert "loop_top" in text and text.index(t("ui.valve.max_turns")) < text.index("before_tools")
    # The diagram reads each valve's own step: a budget that checks before sending is drawn there.
    moved = diagram(valves=[MaxTurns(), TokenBudget(preflight=True), NoProgress()])
    assert moved.steps["before_send"] == ["token_budget"] and moved.steps["loop_top"] == ["max_turns"]
    assert "hl-valve-approval" not in moved.svg()  # a run without approval shows none


def test_highlight_and_fired_are_marked():
    d = diagram(highlight="before_each_tool", fired="max_turns")
    assert _groups(d, "hl-fired") == {"hl-valve hl-valve-max_turns hl-fired"}
    assert "▶ before_each_tool" in repr(d)
    assert t("ui.diagram.fired") in repr(d) and t("ui.valve.max_turns") in repr(d)
    node = diagram(highlight="tools")
    assert _groups(node, "hl-here") == {"hl-node hl-node-tools hl-here"}
    assert _groups(diagram(), "hl-here") == set() and _groups(diagram(), "hl-fired") == set()


def test_a_valve_name_highlights_its_step():
    assert diagram(highlight="no_progress").highlight == "before_tools"
    assert diagram(highlight="interrupted").highlight == "loop_top"


def test_unknown_place_is_an_error():
    with pytest.raises(ValueError, match="'somewhere'"):
        diagram(highlight="somewhere")


def test_html_is_inline_svg_and_deterministic():
    a, b = diagram("results", "approval").html(), diagram("results", "approval").html()
    assert a == b and "<svg" in a and a.startswith("<div")
    ET.fromstring(a)


def test_english_uses_ascii_brackets(monkeypatch):
    monkeypatch.setenv("HARNESS_LAB_LANG", "en")
    d = diagram("before_each_tool", "max_turns")
    full_width = re.compile(r"[\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef]")
    assert full_width.findall(repr(d) + d.html()) == []
    assert "▶ before_each_tool (right before each tool runs): Approval valve" in repr(d)
    assert d.caption().startswith("You are here: before_each_tool (right before each tool runs) / ")


@pytest.mark.parametrize("stop", sorted(OTHER_STOPS))
def test_a_stop_that_is_no_valve_is_named_as_a_stop(stop):
    caption = diagram(place_of(stop), stop).caption()
    assert caption.endswith(f"{t('ui.diagram.stopped_by')}: {t(f'ui.stop_name.{stop}')}")
    assert t("ui.diagram.fired") not in caption


def test_a_learners_own_valve_is_still_a_valve():
    assert diagram(fired="my_valve").caption() == f"{t('ui.diagram.fired')}: my_valve"


def test_a_valve_that_acted_is_marked_but_not_as_fired():
    d = diagram("results", acted="approval")
    assert _groups(d, "hl-acted") == {"hl-valve hl-valve-approval hl-acted"} and _groups(d, "hl-fired") == set()
    assert f"{t('ui.valve.approval')} ({t('ui.diagram.acted_badge')})" in repr(d)
    assert d.caption().endswith(f"{t('ui.diagram.acted')}: {t('ui.valve.approval')}")
    assert diagram(fired="approval", acted="approval").acted is None  # fired says more than acted


def test_every_label_is_at_least_12_px_at_the_diagrams_own_width():
    d = diagram("loop_top", fired="token_budget", valves=[MaxTurns(), TokenBudget(preflight=True), NoProgress()])
    sizes = [int(size) for size in re.findall(r'font-size="(\d+)"', d.svg())]
    assert sizes and min(sizes) >= 12
    # The Stepper shows it at that width, never squeezed into a narrower box: the box scrolls instead.
    assert f'width="{WIDTH}"' in d.svg() and f"width:{WIDTH}px;max-width:none" in d.svg()
    assert "overflow-x:auto" in d.html()


@pytest.mark.parametrize("language", ["ja", "en"])
@pytest.mark.parametrize("mark", ["fired", "acted", None])
def test_every_valve_badge_holds_its_label_in_the_pictures_font(language, mark):
    # "No-progress detection (fired)" is 174 px in the PNG's font (wider in a browser's), and ran past
    # both rounded ends of its 150 px badge.
    import matplotlib_fontja
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextPath

    font = FontProperties(fname=matplotlib_fontja.get_font_ttf_path())
    with speaking(language):
        for valve in ("max_turns", "token_budget", "no_progress", "approval"):
            d = diagram(valve, **({mark: valve} if mark else {}))
            group = next(g for g in ET.fromstring(d.svg()).iter(f"{SVG}g") if f"hl-valve-{valve}" in g.get("class", ""))
            badge, label = float(group.find(f"{SVG}rect").get("width")), group.find(f"{SVG}text").text
            wide = TextPath((0, 0), label, size=BADGE_FONT, prop=font).get_extents().width
            assert wide + 16 <= badge, (label, wide, badge)  # 8 px clear of each rounded end


@pytest.mark.parametrize("language", ["ja", "en"])
def test_badges_side_by_side_never_overlap(language):
    with speaking(language):
        for fired in ("max_turns", "token_budget", "no_progress"):  # beside a denial that turn
            rows = {}
            for rect in ET.fromstring(diagram(fired, fired=fired, acted="approval").svg()).iter(f"{SVG}rect"):
                x, width = float(rect.get("x")), float(rect.get("width"))
                rows.setdefault(rect.get("y"), []).append((x, x + width))
            for spans in rows.values():
                spans.sort()
                assert all(left[1] <= right[0] for left, right in itertools.pairwise(spans)), (fired, spans)


def test_a_cell_shows_the_diagram_as_a_png_with_its_text_and_no_html():
    data, metadata = diagram("before_each_tool", acted="approval")._repr_mimebundle_()
    # No text/html: an untrusted notebook would pick it over the picture and strip its SVG.
    assert set(data) == {"image/png", "text/plain"} and metadata == {"image/png": {"width": WIDTH, "unconfined": True}}
    png = base64.b64decode(data["image/png"])
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and b"matplotlib" not in png  # no software or date tag
    width, height = struct.unpack(">II", png[16:24])
    from harness_lab.ui import diagram_png  # matplotlib, imported when a picture is drawn, as the package does

    assert width == WIDTH * diagram_png.SCALE and height > 500
    assert len(png) < 60_000  # a few flat colours: small enough to store in every lesson
    assert data["text/plain"] == repr(diagram("before_each_tool", acted="approval"))


def test_the_png_is_the_same_bytes_every_time_and_differs_when_the_picture_does():
    a = diagram("loop_top", fired="max_turns").png()
    assert a == diagram("loop_top", fired="max_turns").png()
    assert a != diagram("loop_top", fired="token_budget").png()


def test_a_run_without_a_budget_valve_draws_none(make_run):
    from harness_lab.ui import Stepper

    run = make_run("never_ending", max_turns=2)
    run.valves = [v for v in run.valves if v.name != "token_budget"]
    s = Stepper(run, "メモを順に読んで")
    s.run_all()
    assert "hl-valve-token_budget" not in s.diagram_html.value and "hl-valve-max_turns hl-fired" in s.diagram_html.value


def test_a_highlighted_step_with_no_valve_is_drawn_and_a_quiet_one_is_not():
    bare = diagram(highlight="loop_top", valves=[])
    assert _groups(bare, "hl-no-valve") == {"hl-no-valve"} and "▶ loop_top" in repr(bare)
    assert t("ui.diagram.no_valve") in repr(bare)
    assert _groups(diagram(highlight="request", valves=[]), "hl-no-valve") == set()
    assert _groups(diagram(highlight="loop_top"), "hl-no-valve") == set()  # valves there: they are the box
