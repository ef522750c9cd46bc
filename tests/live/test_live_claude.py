"""Live Claude, only with a key: the harness on the real API, and the emulator held to it.

Skipped unless ANTHROPIC_API_KEY is set (``python3 dev.py test`` always runs offline; run these with
``python3 dev.py live``). One small lesson-6 run, a few thousand tokens, and four one-line questions.
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
