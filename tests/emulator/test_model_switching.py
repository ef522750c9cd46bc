"""Thinking blocks across a model switch: a newer model reads the blocks of the models its page lists, and
drops (never refuses) the others (the preserved thinking page, "Switching models mid-conversation")."""

from __future__ import annotations

import pytest

from harness_lab import messages as hl_messages
from harness_lab.emulator import call, emulated_client, say
from harness_lab.emulator.models import BINDING_BETA

TOOLS = [{"name": "get_time", "description": "the time", "input_schema": {"type": "object", "properties": {}}}]


def switched(made_by: str, read_by: str) -> list:
    """What ``read_by`` drops of a tool-use turn ``made_by`` thought in: its ``input_transformations``."""
    client = emulated_client([call("get_time"), say("done"), say("done")], max_retries=0)
    history = [{"role": "user", "content": "What time is it?"}]
    first = client.messages.create(model=made_by, max_tokens=2048, tools=TOOLS, messages=history)
    assert first.content[0].type == "thinking", made_by
    results = [hl_messages.tool_result(c["id"], "ok") for c in hl_messages.tool_calls(first.content)]
    history += [hl_messages.assistant(first.content), hl_messages.user(results)]
    reply = client.beta.messages.create(
        model=read_by, max_tokens=2048, tools=TOOLS, messages=history, betas=[BINDING_BETA]
    )
    return [t["reason"] for t in reply.to_dict().get("input_transformations") or []]


@pytest.mark.parametrize(
    ("made_by", "read_by", "kept"),
    [
        # Fable 5.1 and Mythos 5.1 read each other and "Claude Opus 4.8 and earlier Opus models, Claude Sonnet
        # models, and Claude Haiku 4.5", Opus 5, Fable 5, Mythos 5 (and Opus 5.5 on the Claude API).
        ("claude-sonnet-5", "claude-fable-5-1", True),
        ("claude-fable-5", "claude-mythos-5-1", True),
        ("claude-mythos-5-1", "claude-fable-5-1", True),
        ("claude-opus-5-5", "claude-mythos-5-1", True),
        # Opus 5.5: "Claude Opus 5 and earlier Opus, Sonnet, and Haiku models, but not ... Fable or ... Mythos".
        ("claude-opus-5", "claude-opus-5-5", True),
        ("claude-sonnet-5-5", "claude-opus-5-5", True),
        ("claude-fable-5-1", "claude-opus-5-5", False),
        # Sonnet 5.5 reads Sonnet 5, Opus 4.8, Haiku 4.5 and earlier; not Opus 5 or 5.5, nor Fable or Mythos.
        ("claude-sonnet-5", "claude-sonnet-5-5", True),
        ("claude-opus-5", "claude-sonnet-5-5", False),
        ("claude-sonnet-5-5", "claude-fable-5-1", False),
    ],
)
def test_a_newer_model_keeps_the_reasoning_of_the_models_it_reads(made_by, read_by, kept):
    assert switched(made_by, read_by) == ([] if kept else ["model_binding_mismatch"])


def test_an_earlier_models_block_is_not_bound_to_its_conversation_on_a_model_that_reads_it():
    # Inferred: "Each Claude Sonnet 5.5 thinking block is also signed over the conversation before it"; a
    # Sonnet 5 block was signed before preserved thinking, so an edited system prompt does not unbind it.
    client = emulated_client([call("get_time"), say("done")], max_retries=0)
    history = [{"role": "user", "content": "What time is it?"}]
    first = client.messages.create(model="claude-sonnet-5", max_tokens=2048, tools=TOOLS, messages=history)
    results = [hl_messages.tool_result(c["id"], "ok") for c in hl_messages.tool_calls(first.content)]
    history += [hl_messages.assistant(first.content), hl_messages.user(results)]
    edited = client.messages.create(
        model="claude-sonnet-5-5", max_tokens=2048, tools=TOOLS, system="Be brief.", messages=history
    )
    assert edited.stop_reason == "end_turn"


@pytest.mark.parametrize(
    ("made_by", "read_by", "kept"),
    [
        # What's new in Claude Fable 5.2: "Only Claude Fable 5.2 and Claude Mythos 5.2 read Claude Fable 5.2 thinking
        # blocks" (and Fable 5.2 Mythos 5.2's, inferred as the 5.1 pair).
        ("claude-fable-5-2", "claude-mythos-5-2", True),
        ("claude-mythos-5-2", "claude-fable-5-2", True),
        ("claude-fable-5-2", "claude-fable-5-1", False),
        ("claude-fable-5-2", "claude-opus-5-5", False),
    ],
)
def test_the_5_2_models_read_each_others_blocks_and_no_other_model_reads_theirs(made_by, read_by, kept):
    assert switched(made_by, read_by) == ([] if kept else ["model_binding_mismatch"])


@pytest.mark.parametrize(
    ("made_by", "read_by"), [("claude-opus-5-5", "claude-sonnet-5"), ("claude-sonnet-5", "claude-opus-4-8")]
)
def test_a_model_without_preserved_thinking_lists_the_block_it_drops_under_the_header(made_by, read_by):
    # A live reply of 2026-09-26 (docs/api_facts.md): Opus 5.5's block replayed to Sonnet 5 under the binding header
    # came back listed as a thinking_dropped model_binding_mismatch; the preserved thinking page: "every response from
    # a thinking-capable model carries `input_transformations`".
    assert switched(made_by, read_by) == ["model_binding_mismatch"]
