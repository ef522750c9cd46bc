"""The loop diagram: every node and valve drawn, the run's place and the fired valve marked."""

import re
import xml.etree.ElementTree as ET

import pytest

from harness_lab.text import t
from harness_lab.ui import diagram
from harness_lab.ui.diagram import NODES, OTHER_STOPS, STEPS, place_of

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


def test_english_uses_ascii_brackets(monkeypatch):
    monkeypatch.setenv("HARNESS_LAB_LANG", "en")
    d = diagram("before_tool", "max_turns")
    full_width = re.compile(r"[\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef]")
    assert full_width.findall(repr(d) + d._repr_html_()) == []
    assert "▶ before_tool (before the tool runs): approval" in repr(d)
    assert d.caption().startswith("you are here: before_tool (before the tool runs) / ")


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
