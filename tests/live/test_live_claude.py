"""Live Claude, only with a key: the harness on the real API, and the emulator held to it.

Skipped unless ANTHROPIC_API_KEY is set (``python3 dev.py test`` always runs offline; run these with
``python3 dev.py live``). One small lesson-6 run, a few thousand tokens, and one-line questions that hold
the emulator's model table to the API's answers.
"""

from __future__ import annotations

import os
from pathlib import Path

import anthropic
import pytest

import harness_lab as hl
from harness_lab.emulator import emulated_client, say
from harness_lab.emulator.validate import validate

pytestmark = pytest.mark.skipif(not os.environ.get("ANTHROPIC_API_KEY"), reason="ANTHROPIC_API_KEY is not set")

ROOT = Path(__file__).resolve().parents[2]


def test_lesson6_on_live_claude_and_its_history_passes_the_emulators_rules():
    client = hl.connect(live=True)
    assert hl.client.is_live(client)
    tools = [hl.make_read_file(ROOT), hl.get_time]
    outcome = hl.run(
        client,
        "README.md の1行目を読んで、それから今何時か教えて",
        tools=tools,
        valves=[hl.MaxTurns(4), hl.TokenBudget(30_000)],
    )
    assert isinstance(outcome.stop, hl.Finished), outcome.stop
    assert outcome.turns >= 1 and outcome.text
    # What the real API accepted, the emulator must accept too (and answer with the same shape).
    messages = list(outcome.messages) + [hl.user("ありがとう")]
    request = {
        "model": hl.MODEL,
        "max_tokens": 256,
        "messages": messages,
        "tools": [t.definition for t in hl.tools.as_tools(tools).values()],
    }
    error, _ = validate(request)
    assert error is None, error


@pytest.mark.parametrize("model", [hl.MODEL, "claude-opus-4-8", "claude-sonnet-4-6", "claude-haiku-4-5"])
def test_a_mid_conversation_system_message_is_taken_or_refused_as_the_emulator_says(model):
    messages = [hl.user("1 + 1 は？"), {"role": "system", "content": "数字だけで答えてください。"}]

    def outcome(client) -> str:
        try:
            client.messages.create(model=model, max_tokens=64, messages=messages)
        except anthropic.BadRequestError as exc:
            return exc.body["error"]["message"]
        return "accepted"

    assert outcome(hl.connect(live=True)) == outcome(emulated_client([say("2")], max_retries=0))


QUESTION = [{"role": "user", "content": "1 + 1 は？"}]
DEFERRED = [{"name": "get_time", "description": "今の時刻", "input_schema": {"type": "object"}, "defer_loading": True}]
SIDE_BY_SIDE = [*QUESTION, {"role": "system", "content": "数字だけで。"}, {"role": "system", "content": "短く。"}]
# (model, fields, betas): the model table's rules of late 2026 (docs/api_facts.md), some 400 texts inferred;
# a difference here is the emulator drifting from the API, or an inferred text to correct.
RULES = {
    "effort on Haiku 4.5": ("claude-haiku-4-5", {"output_config": {"effort": "low"}}, ()),
    "xhigh without thinking on Opus 5": (
        "claude-opus-5",
        {"output_config": {"effort": "xhigh"}, "thinking": {"type": "disabled"}},
        (),
    ),
    "task budget on Sonnet 5": (
        hl.MODEL,
        {"output_config": {"task_budget": {"type": "tokens", "total": 20_000}}},
        ("task-budgets-2026-03-13",),
    ),
    "task budget under 20,000": (
        "claude-opus-5",
        {"output_config": {"task_budget": {"type": "tokens", "total": 19_999}}},
        ("task-budgets-2026-03-13",),
    ),
    "compaction trigger under 50,000": (
        hl.MODEL,
        {
            "context_management": {
                "edits": [{"type": "compact_20260112", "trigger": {"type": "input_tokens", "value": 49_999}}]
            }
        },
        ("compact-2026-01-12",),
    ),
    "every tool deferred": (hl.MODEL, {"tools": DEFERRED}, ()),
    "fast mode on Sonnet 5": (hl.MODEL, {"speed": "fast"}, ("fast-mode-2026-02-01",)),
    "inference_geo on Haiku 4.5": ("claude-haiku-4-5", {"inference_geo": "us"}, ()),
    "system messages side by side": (hl.MODEL, {"messages": SIDE_BY_SIDE}, ()),
}


@pytest.mark.parametrize("case", sorted(RULES))
def test_the_model_tables_rules_answer_as_the_api_does(case):
    model, fields, betas = RULES[case]
    request = {"model": model, "max_tokens": 64, "messages": QUESTION, **fields}

    def outcome(client) -> str:
        try:
            if betas:
                client.beta.messages.create(**request, betas=list(betas))
            else:
                client.messages.create(**request)
        except anthropic.BadRequestError as exc:
            return exc.body["error"]["message"]
        return "accepted"

    assert outcome(hl.connect(live=True)) == outcome(emulated_client([say("2")], max_retries=0)), case


def test_cache_diagnostics_name_an_edited_history_live_as_offline():
    def reasons(client) -> list:
        first = client.messages.create(
            model=hl.MODEL, max_tokens=64, messages=QUESTION, diagnostics={"previous_message_id": None}
        )
        edited = [{"role": "user", "content": "2 + 2 は？"}, {"role": "assistant", "content": "4"}, *QUESTION]
        second = client.messages.create(
            model=hl.MODEL, max_tokens=64, messages=edited, diagnostics={"previous_message_id": first.id}
        )
        found = second.diagnostics.cache_miss_reason if second.diagnostics else None
        return [first.diagnostics, found.type if found else None]

    live = reasons(hl.connect(live=True))
    assert live[0] is None and live[1] in ("messages_changed", None)  # None: the comparison was still running
    assert reasons(emulated_client([say("2")] * 2, max_retries=0)) == [None, "messages_changed"]
