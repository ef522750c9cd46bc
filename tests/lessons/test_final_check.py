"""Lesson 05's final check of the whole harness (issue 30.1, 30.4): valve 4 is probed on every high-impact
tool, not only write_file, and a wrong valve gets the hint naming its own cause, in both languages."""

from __future__ import annotations

import pytest

from harness_lab import lessons
from harness_lab.lessons import lesson6
from harness_lab.lessons.lesson5 import HIGH_IMPACT
from harness_lab.text import speaking
from tests.lessons.answers6 import loaded
from tests.lessons.answers_valves import RIGHT_RUN_AGENT_VALVES, WRONG_RUN_AGENT_VALVES
from tests.lessons.test_capstone import at_point

# The valve each point is about (point 4: the budget; points 6 and 7: approval), as each language names it.
VALVE_NAMES = {4: {"ja": "弁2", "en": "valve 2"}, 6: {"ja": "弁4", "en": "valve 4"}, 7: {"ja": "弁4", "en": "valve 4"}}


def test_the_approval_probe_calls_every_high_impact_tool():
    assert set(lesson6.RISKY) == HIGH_IMPACT


@pytest.mark.parametrize(
    "source, point, key",
    WRONG_RUN_AGENT_VALVES,
    ids=[f"{w[2].rsplit('.', 1)[-1]}-{n}" for n, w in enumerate(WRONG_RUN_AGENT_VALVES)],
)
@pytest.mark.parametrize("code", ["ja", "en"])
def test_a_wrong_valve_gets_the_hint_naming_its_cause_and_the_valve(source, point, key, code):
    with speaking(code):
        verdict = lessons.judge(at_point("run_agent", point, 6), loaded(source), timeout=5)
    miss = verdict.checks[0]
    assert not miss.passed and miss.key == key, (miss, verdict.text())
    assert VALVE_NAMES[point][code] in miss.hint, miss.hint


@pytest.mark.parametrize("source", [w[0] for w in WRONG_RUN_AGENT_VALVES[:3]], ids=["A13", "A14", "http_post_only"])
def test_a_fallback_that_refuses_only_some_high_impact_tools_is_not_certified(source):
    verdict = lessons.judge(lessons.piece("run_agent", 6), loaded(source))
    assert not verdict.passed
    assert [c.number for c in verdict.checks if not c.passed] == [6], verdict.text()


@pytest.mark.parametrize("source", [*RIGHT_RUN_AGENT_VALVES], ids=["fallback_by_name"])
def test_a_right_valve_in_another_style_passes(source):
    verdict = lessons.judge(lessons.piece("run_agent", 6), loaded(source))
    assert verdict.passed, verdict.text()
