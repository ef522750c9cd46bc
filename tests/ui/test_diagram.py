"""The loop diagram: every node and valve drawn, the run's place and the fired valve marked."""

import xml.etree.ElementTree as ET

import pytest

from harness_lab.text import t
from harness_lab.ui import diagram
from harness_lab.ui.diagram import NODES, STEPS

SVG = "{http://www.w3.org/2000/svg}"


def _groups(d, kind):
    root = ET.fromstring(d.svg())
    return {g.get("class") for g in root.iter(f"{SVG}g") if kind in (g.get("class") or "")}


def test_every_node_and_valve_is_drawn_with_its_label():
    d = diagram()
    svg = d.svg()
    for node in NODES:
        assert t(f"ui.diagram.{node}") in svg and f"hl-node-{node}" in svg
    for valves in STEPS.values():
        for valve in valves:
            assert f"hl-valve-{valve}" in svg and t(f"ui.valve.{valve}") in svg


def test_valves_sit_at_their_steps():
    assert STEPS == {"before_request": ("max_turns", "token_budget"), "after_response": ("no_progress",),
                     "before_tool": ("approval",)}
    text = repr(diagram())
    assert "before_request" in text and text.index(t("ui.valve.max_turns")) < text.index("after_response")


def test_highlight_and_fired_are_marked():
    d = diagram(highlight="before_tool", fired="max_turns")
    assert _groups(d, "hl-fired") == {"hl-valve hl-valve-max_turns hl-fired"}
    assert "▶ before_tool" in repr(d)
    assert t("ui.diagram.fired") in repr(d) and t("ui.valve.max_turns") in repr(d)
    node = diagram(highlight="tools")
    assert _groups(node, "hl-here") == {"hl-node hl-node-tools hl-here"}
    assert _groups(diagram(), "hl-here") == set() and _groups(diagram(), "hl-fired") == set()


def test_a_valve_name_highlights_its_step():
    assert diagram(highlight="no_progress").highlight == "after_response"
    assert diagram(highlight="interrupted").highlight == "before_request"


def test_unknown_place_is_an_error():
    with pytest.raises(ValueError):
        diagram(highlight="somewhere")


def test_html_is_inline_svg_and_deterministic():
    a, b = diagram("results", "approval")._repr_html_(), diagram("results", "approval")._repr_html_()
    assert a == b and "<svg" in a and a.startswith("<div")
    ET.fromstring(a)
