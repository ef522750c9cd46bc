"""The lessons meet the default model's thinking (issue 22.5): every check that sends a history does so to
``claude-sonnet-5`` with thinking on, so a loop that filters or rebuilds the assistant turn fails offline
with the live API's 400 and a hint that names the thinking block; every way of keeping it whole passes."""

from __future__ import annotations

import anthropic
import pytest

from harness_lab import lessons
from harness_lab.emulator import call, emulated_client, say
from harness_lab.lessons.scenes import runaway_guard, scene_tools
from harness_lab.text import CATALOG
from tests.lessons.answers6 import loaded
from tests.lessons.answers_thinking import (
    RIGHT_RUN_AGENT_2,
    WRONG_MY_AGENT_THINKING,
    WRONG_RUN_AGENT_2,
    WRONG_RUN_AGENT_6,
    agent_keeps_text_and_tool_use,
)
from tests.lessons.test_capstone import at_point


@pytest.mark.parametrize("wrong, key", WRONG_RUN_AGENT_2, ids=[w[0].__name__ for w in WRONG_RUN_AGENT_2])
def test_a_lesson_2_loop_that_loses_the_thinking_block_gets_the_thinking_hint(wrong, key):
    verdict = lessons.judge(at_point("run_agent", 2), wrong)
    miss = verdict.checks[0]
    assert not miss.passed and miss.key == key, verdict.text()
    assert "400" in miss.hint and "{error}" not in miss.hint


@pytest.mark.parametrize("right", RIGHT_RUN_AGENT_2, ids=range(len(RIGHT_RUN_AGENT_2)))
def test_every_way_of_keeping_the_turn_whole_passes(right):
    verdict = lessons.judge(lessons.piece("run_agent", 2), right)
    assert verdict.passed, verdict.text()


@pytest.mark.parametrize("source, point, key", WRONG_RUN_AGENT_6, ids=["filtered", "rebuilt", "filtered-approval"])
def test_a_whole_harness_that_loses_the_thinking_block_gets_the_thinking_hint(source, point, key):
    verdict = lessons.judge(at_point("run_agent", point, 6), loaded(source))
    assert not verdict.checks[0].passed and verdict.checks[0].key == key, verdict.text()


@pytest.mark.parametrize("source, point, key", WRONG_MY_AGENT_THINKING, ids=["own-loop-filtered"])
def test_a_capstone_on_a_loop_that_loses_the_thinking_block_gets_the_thinking_hint(source, point, key):
    verdict = lessons.judge(at_point("my_agent", point), loaded(source, "my_agent"))
    assert not verdict.checks[0].passed and verdict.checks[0].key == key, verdict.text()


def test_the_hint_names_the_thinking_block_and_quotes_the_live_400_in_both_languages(capsys):
    lessons.check("run_agent", agent_keeps_text_and_tool_use)
    out = capsys.readouterr().out
    assert "思考ブロック" in out and "response.content をまるごと" in out
    assert "Expected `thinking` or `redacted_thinking`, but found" in out  # the API's own words
    for key in ("lesson.l2.keep_thinking", "lesson.l2.thinking_changed"):
        ja, en = CATALOG[key]
        assert "思考ブロック" in ja and "thinking block" in en


def test_the_checks_model_thinks_whatever_model_the_learner_names():
    emulator = runaway_guard(lambda request: call("get_time"), 4)
    client = emulated_client(emulator)
    for model in ("claude-haiku-4-5", "claude-sonnet-4-6", "claude-sonnet-5"):
        response = client.messages.create(
            model=model, max_tokens=256, tools=scene_tools(), messages=[{"role": "user", "content": "いま何時？"}]
        )
        assert [b.type for b in response.content] == ["thinking", "tool_use"], model
    with pytest.raises(anthropic.NotFoundError, match=r"404|model"):  # an id the API does not know keeps its 404
        client.messages.create(model="claude-sonnet-9", max_tokens=256, messages=[{"role": "user", "content": "?"}])


def test_the_default_model_still_answers_a_plain_question_without_a_history_rule():
    client = emulated_client(runaway_guard(lambda request: say("はい。"), 2))
    response = client.messages.create(
        model="claude-sonnet-5", max_tokens=64, messages=[{"role": "user", "content": "?"}]
    )
    assert response.content[0].type == "thinking" and response.content[-1].text == "はい。"
