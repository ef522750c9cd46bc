"""The lesson checks against more wrong answers a learner writes, each of which must get ×
with the hint naming its own cause (in one line, never a traceback), and right answers in other styles
than the references', each of which must still pass."""

from __future__ import annotations

import pytest

from harness_lab import lessons
from harness_lab.grading.report import Report
from harness_lab.lessons.scenes import rejection_hint
from harness_lab.text import t
from tests.lessons.answers6 import loaded
from tests.lessons.answers_counts_and_flags import (
    RIGHT_COUNTS,
    RIGHT_RUN_AGENT_COUNTS,
    WRONG_COUNTS,
    WRONG_RUN_AGENT_COUNTS,
)
from tests.lessons.answers_habits import RIGHT_HABITS, WRONG_HABITS
from tests.lessons.answers_habits_gates import RIGHT_HABITS_GATES, WRONG_HABITS_GATES
from tests.lessons.answers_habits_loop import RIGHT_RUN_AGENT_HABITS, WRONG_RUN_AGENT_HABITS
from tests.lessons.answers_interrupts_and_compaction import RIGHT_ROUND_16, WRONG_ROUND_16
from tests.lessons.answers_merged_turn import RIGHT_MERGED, RIGHT_RUN_AGENT_MERGED, WRONG_MERGED
from tests.lessons.answers_misreadings import RIGHT_MISREAD, WRONG_MISREAD, WRONG_RUN_AGENT_MISREAD
from tests.lessons.answers_mixups import RIGHT_MIXUPS, RIGHT_RUN_AGENT_MIXUPS, WRONG_MIXUPS, WRONG_RUN_AGENT_MIXUPS
from tests.lessons.answers_more import (
    RIGHT_MORE,
    RIGHT_RUN_AGENT_MORE,
    STALLED,
    STALLED_RUN_AGENT,
    WRONG_MORE,
    WRONG_RUN_AGENT_MORE,
)
from tests.lessons.answers_probes import RIGHT_PROBES, RIGHT_RUN_AGENT_PROBES, WRONG_PROBES, WRONG_RUN_AGENT_PROBES
from tests.lessons.answers_reuse import RIGHT_REUSE, RIGHT_RUN_AGENT_REUSE, WRONG_REUSE, WRONG_RUN_AGENT_REUSE
from tests.lessons.answers_round_18 import RIGHT_ROUND_18, WRONG_ROUND_18, tools_popped_from_the_end
from tests.lessons.answers_round_18_harness import RIGHT_RUN_AGENT_ROUND_18, WRONG_RUN_AGENT_ROUND_18
from tests.lessons.answers_round_19 import RIGHT_ROUND_19, WRONG_ROUND_19
from tests.lessons.answers_round_19_harness import RIGHT_RUN_AGENT_ROUND_19, WRONG_RUN_AGENT_ROUND_19
from tests.lessons.answers_round_20 import RIGHT_ROUND_20, WRONG_ROUND_20
from tests.lessons.answers_round_20_harness import RIGHT_RUN_AGENT_ROUND_20, WRONG_RUN_AGENT_ROUND_20
from tests.lessons.answers_round_21 import RIGHT_ROUND_21, WRONG_ROUND_21
from tests.lessons.answers_round_21_harness import (
    MISSED_RUN_AGENT_ROUND_21,
    RIGHT_RUN_AGENT_ROUND_21,
    WRONG_RUN_AGENT_ROUND_21,
)
from tests.lessons.answers_round_21_later_lessons import RIGHT_ROUND_21_LATER, WRONG_ROUND_21_LATER
from tests.lessons.answers_slips import RIGHT_RUN_AGENT_SLIPS, RIGHT_SLIPS, WRONG_RUN_AGENT_SLIPS, WRONG_SLIPS
from tests.lessons.answers_state_and_types import (
    RIGHT_RUN_AGENT_STATE,
    RIGHT_STATE,
    WRONG_RUN_AGENT_STATE,
    WRONG_STATE,
)
from tests.lessons.answers_tool_calls import (
    RIGHT_RUN_AGENT_CALLS,
    RIGHT_TOOL_CALLS,
    WRONG_RUN_AGENT_CALLS,
    WRONG_TOOL_CALLS,
)
from tests.lessons.answers_whole_harness import WRONG_RUN_AGENT_ROUND_17
from tests.lessons.answers_whole_harness_right import RIGHT_RUN_AGENT_ROUND_17
from tests.lessons.test_capstone import at_point


def _named(verdict: Report, key: str) -> None:
    assert not verdict.passed
    miss = verdict.checks[0]
    assert not miss.passed and miss.key == key, (miss, verdict.text())
    for line in lessons.point_lines(verdict):  # a crash is a one-line hint, never a traceback wall
        assert line.startswith("×") and "\n" not in line and "Traceback" not in line, line


WRONG = WRONG_MORE + WRONG_REUSE + WRONG_PROBES + WRONG_MERGED + WRONG_SLIPS + WRONG_STATE
WRONG += WRONG_MISREAD + WRONG_COUNTS
WRONG += WRONG_HABITS + WRONG_HABITS_GATES  # other SDKs' shapes, async, approve's answer read as words
WRONG += WRONG_MIXUPS  # content changed in place, stop_reason words from elsewhere, failures raised
WRONG += WRONG_TOOL_CALLS  # tools given their input by position in the loop itself
WRONG += WRONG_ROUND_16  # Ctrl-C caught with the failures, compaction read as an ending
WRONG += WRONG_ROUND_18  # results popped backwards, an answer kept by tool name, a history as a default argument
WRONG += WRONG_ROUND_19  # stop reasons with typos, approvals failing open, signatures keyed on ids
WRONG += WRONG_ROUND_20  # is_error as words, one answer for the turn, a history rebuilt from the last turn
WRONG += WRONG_ROUND_21 + WRONG_ROUND_21_LATER  # SDK examples, yield for return, input(), one dict, typos
WRONG_RUN_AGENT = WRONG_RUN_AGENT_MORE + STALLED_RUN_AGENT + WRONG_RUN_AGENT_REUSE + WRONG_RUN_AGENT_PROBES
WRONG_RUN_AGENT += WRONG_RUN_AGENT_SLIPS + WRONG_RUN_AGENT_STATE + WRONG_RUN_AGENT_MISREAD + WRONG_RUN_AGENT_COUNTS
WRONG_RUN_AGENT += WRONG_RUN_AGENT_HABITS + WRONG_RUN_AGENT_MIXUPS
WRONG_RUN_AGENT += WRONG_RUN_AGENT_CALLS  # tools run in the loop itself, given their input by position
WRONG_RUN_AGENT += WRONG_RUN_AGENT_ROUND_17  # Ctrl-C caught, results reordered, the caller's tools changed
WRONG_RUN_AGENT += (
    WRONG_RUN_AGENT_ROUND_18  # a counter reset, a person asked before valves 1 and 3, a failure unflagged
)
WRONG_RUN_AGENT += WRONG_RUN_AGENT_ROUND_19  # API errors retried without end, a history copy left unsent
WRONG_RUN_AGENT += WRONG_RUN_AGENT_ROUND_20  # async retries, a yes kept by name, results reversed
WRONG_RUN_AGENT += WRONG_RUN_AGENT_ROUND_21  # count_tokens as the budget, a stream counted twice, the tool runner
RIGHT = (
    RIGHT_MORE + RIGHT_REUSE + RIGHT_PROBES + RIGHT_MERGED + RIGHT_SLIPS + RIGHT_STATE + RIGHT_MISREAD + RIGHT_COUNTS
)
RIGHT_RUN_AGENT = RIGHT_RUN_AGENT_MORE + RIGHT_RUN_AGENT_REUSE + RIGHT_RUN_AGENT_PROBES + RIGHT_RUN_AGENT_MERGED
RIGHT_RUN_AGENT += RIGHT_RUN_AGENT_SLIPS + RIGHT_RUN_AGENT_STATE + RIGHT_RUN_AGENT_COUNTS
RIGHT_RUN_AGENT += RIGHT_RUN_AGENT_HABITS + RIGHT_RUN_AGENT_MIXUPS + RIGHT_RUN_AGENT_CALLS + RIGHT_RUN_AGENT_ROUND_17
RIGHT_RUN_AGENT += RIGHT_RUN_AGENT_ROUND_18 + RIGHT_RUN_AGENT_ROUND_19 + RIGHT_RUN_AGENT_ROUND_20
RIGHT_RUN_AGENT += RIGHT_RUN_AGENT_ROUND_21
RIGHT += RIGHT_HABITS + RIGHT_HABITS_GATES + RIGHT_MIXUPS + RIGHT_TOOL_CALLS + RIGHT_ROUND_16 + RIGHT_ROUND_18
RIGHT += RIGHT_ROUND_19 + RIGHT_ROUND_20 + RIGHT_ROUND_21 + RIGHT_ROUND_21_LATER


@pytest.mark.parametrize("name, wrong, point, key", WRONG, ids=[w[1].__name__ for w in WRONG])
def test_a_wrong_piece_gets_the_hint_of_its_own_cause(name, wrong, point, key):
    _named(lessons.judge(at_point(name, point), wrong), key)


def test_results_in_another_order_are_told_the_order_alone():
    # the points that read one call's result read that call's own: the output and the failure are right
    verdict = lessons.judge(lessons.piece("run_tools"), tools_popped_from_the_end)
    assert [(c.number, c.key) for c in verdict.checks if not c.passed] == [(1, "lesson.l2.run_tools.order")]


@pytest.mark.parametrize("name, wrong, point, key", STALLED, ids=[w[1].__name__ for w in STALLED])
def test_a_loop_that_never_sends_again_is_cut_off_with_its_cause(name, wrong, point, key):
    _named(lessons.judge(at_point(name, point), wrong, timeout=1.5), key)


@pytest.mark.parametrize(
    "source, point, key", WRONG_RUN_AGENT, ids=[f"{w[2].rsplit('.', 1)[-1]}-{w[1]}" for w in WRONG_RUN_AGENT]
)
def test_a_wrong_whole_harness_gets_the_hint_of_its_own_cause(source, point, key):
    timeout = 1.5 if key.endswith("stalled") else 5  # a stalled loop never returns: cut off sooner
    _named(lessons.judge(at_point("run_agent", point, 6), loaded(source), timeout=timeout), key)


@pytest.mark.parametrize(
    "source, missed",
    MISSED_RUN_AGENT_ROUND_21,
    ids=[next(iter(m.values())).rsplit(".", 1)[-1] for _, m in MISSED_RUN_AGENT_ROUND_21],
)
def test_a_wrong_whole_harness_names_its_own_cause_on_every_point_it_misses(source, missed):
    verdict = lessons.judge(lessons.piece("run_agent", 6), loaded(source))
    assert {c.number: c.key for c in verdict.checks if not c.passed} == missed, verdict.text()


@pytest.mark.parametrize("name, right", RIGHT, ids=[r[1].__name__ for r in RIGHT])
def test_a_right_piece_in_another_style_passes(name, right):
    verdict = lessons.judge(lessons.piece(name), right)
    assert verdict.passed, verdict.text()


@pytest.mark.parametrize("source", RIGHT_RUN_AGENT)
def test_a_right_whole_harness_in_another_style_passes(source):
    verdict = lessons.judge(lessons.piece("run_agent", 6), loaded(source))
    assert verdict.passed, verdict.text()


@pytest.mark.parametrize("point", (4, 6, 7))  # valve 2 counts what this loop sent; valve 4 reads the results
@pytest.mark.parametrize("source", RIGHT_RUN_AGENT_MERGED)
def test_a_person_s_word_after_the_results_is_read_as_the_api_merges_it(source, point):
    verdict = lessons.judge(at_point("run_agent", point, 6), loaded(source), timeout=5)
    assert verdict.passed, verdict.text()


# The API's 400s for a history whose thinking blocks were dropped or edited (the default model thinks first).
THINKING_400S = [
    "messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`. When `thinking` "
    "is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of "
    "`tool_use` and `tool_result` blocks).",
    "messages.1.content.0: `thinking` or `redacted_thinking` blocks in the latest assistant message cannot be "
    "modified. These blocks must remain as they were in the original response.",
]


@pytest.mark.parametrize(
    ("message", "key"), list(zip(THINKING_400S, ["lesson.l2.keep_thinking", "lesson.l2.thinking_changed"], strict=True))
)
def test_a_400_for_a_dropped_thinking_block_says_to_send_the_content_whole(message, key):
    assert rejection_hint(message).key == key
    assert "response.content" in t(key, error=message)


@pytest.mark.parametrize("piece", lessons.ALL, ids=lambda p: f"{p.name}-{p.lesson}")
def test_an_unwritten_todo_counts_as_unwritten_on_every_point(piece):
    def todo(*args, **kwargs):
        raise NotImplementedError  # the TODO cell as shipped

    verdict = lessons.judge(piece, todo)
    assert lessons.unwritten(verdict), [c.key for c in verdict.checks]
