"""``thinking.display: "updates"`` as the API takes it: a beta value, on the models whose text between tool calls
comes back as thinking (docs/api_facts.md, "Checked on 2026-12-07 (round three)")."""

import pytest

from harness_lab.emulator import call, emulated_client, roundtrip, say
from harness_lab.emulator.models import MODELS
from tests.emulator.refusals import refusal_of

UPDATES_BETA = "thinking-display-updates-2026-08-18"
TOOLS = [{"name": "get_time", "description": "the time", "input_schema": {"type": "object", "properties": {}}}]
QUESTION = [{"role": "user", "content": "今何時?"}]


def ask(model, thinking, betas=None):
    client = emulated_client([call("get_time"), say("12時です")], max_retries=0)
    api = client.beta.messages if betas else client.messages
    extra = {"betas": betas} if betas else {}
    return lambda: api.create(model=model, max_tokens=2048, tools=TOOLS, messages=QUESTION, thinking=thinking, **extra)


def test_updates_without_its_beta_is_a_value_the_ga_schema_does_not_know():
    message = refusal_of(ask("claude-sonnet-5-5", {"type": "adaptive", "display": "updates"}))
    assert message == "thinking.adaptive.display: Input should be 'summarized' or 'omitted'"


@pytest.mark.parametrize("model", sorted(MODELS))
def test_updates_is_taken_only_where_text_between_tool_calls_comes_back_as_thinking(model):
    row = MODELS[model]
    thinking = {"type": "adaptive", "display": "updates"}
    if row.rejection("adaptive") is not None:
        thinking = {"type": "enabled", "budget_tokens": 1024, "display": "updates"}
    if row.text_between_tools_as_thinking:
        assert ask(model, thinking, [UPDATES_BETA])().stop_reason == "tool_use"
    else:
        assert refusal_of(ask(model, thinking, [UPDATES_BETA])) == roundtrip.DISPLAY_UPDATES_UNSUPPORTED


def test_the_default_model_takes_summarized_and_omitted_without_a_beta():
    for display in ("summarized", "omitted"):
        assert ask("claude-sonnet-5", {"type": "adaptive", "display": display})().stop_reason == "tool_use"
