"""The rules a lesson reads from the model table (``model_rules``) say what the emulator's replies do: the
fields that make a model think do, and only where it would not; a model said to compact takes compaction,
the others refuse it; a model said to bind thinking refuses an edit before a replayed thinking block. What
notebook 06 calls says, naming the model, each time it departs from the request as written, and only then."""

from __future__ import annotations

import anthropic
import pytest

from harness_lab.emulator import (
    DEFAULT_MODEL,
    ask_to_think,
    binds_thinking,
    compaction_model,
    compacts,
    drop_rebound_thinking,
    emulated_client,
    thinking_fields,
)
from harness_lab.emulator.models import MODELS

TOOLS = [{"name": "read_file", "description": "read a file", "input_schema": {"type": "object", "properties": {}}}]
ASK = [{"role": "user", "content": "README.md の1行目と、今の時刻を教えて"}]


def first_block(model: str, **fields) -> str:
    request = {"model": model, "max_tokens": 1024, "tools": TOOLS, **fields}
    return emulated_client("interleaved", max_retries=0).messages.create(**request, messages=ASK).content[0].type


@pytest.mark.parametrize("model", sorted(MODELS))
def test_the_thinking_fields_make_the_model_think_and_are_empty_where_it_thinks_unasked(model):
    fields = thinking_fields(model)
    assert first_block(model, **fields) == "thinking"
    assert (first_block(model) == "thinking") == (fields == {})


@pytest.mark.parametrize("model", sorted(MODELS))
def test_a_model_said_to_compact_takes_compaction_and_no_other_does(model):
    edits = {"edits": [{"type": "compact_20260112", "trigger": {"type": "input_tokens", "value": 50000}}]}
    client = emulated_client("interleaved", max_retries=0).beta
    request = {"model": model, "max_tokens": 1024, "messages": ASK, "betas": ["compact-2026-01-12"]}
    try:
        client.messages.create(**request, context_management=edits)
        taken = True
    except anthropic.BadRequestError as error:
        assert "compact_20260112 is not supported" in str(error)
        taken = False
    assert taken == compacts(model)


@pytest.mark.parametrize("model", sorted(MODELS))
def test_a_model_said_to_bind_thinking_refuses_an_edit_before_a_replayed_thinking_block(model):
    client = emulated_client("interleaved", max_retries=0)
    request = {"model": model, "max_tokens": 1024, "tools": TOOLS, **thinking_fields(model)}
    reply = client.messages.create(**request, messages=ASK)
    answers = [
        {"type": "tool_result", "tool_use_id": b.id, "content": "x"} for b in reply.content if b.type == "tool_use"
    ]
    edited = [{"role": "user", "content": "README.md の2行目を教えて"}]
    history = [*edited, {"role": "assistant", "content": reply.content}, {"role": "user", "content": answers}]
    try:
        client.messages.create(**request, messages=history)
        refused = False
    except anthropic.BadRequestError as error:
        assert "bound to a different conversation" in str(error)
        refused = True
    assert refused == binds_thinking(model)


def test_an_id_the_table_does_not_know_is_sent_as_written():
    assert (thinking_fields("claude-nonesuch"), binds_thinking("claude-nonesuch"), compacts("claude-nonesuch")) == (
        {},
        False,
        True,
    )


@pytest.mark.parametrize("model", sorted(MODELS))
def test_what_the_notebook_calls_names_the_model_once_for_each_departure_and_is_silent_otherwise(model, capsys):
    departures = [thinking_fields(model) != {}, binds_thinking(model), not compacts(model)]
    assert ask_to_think(model) == thinking_fields(model)
    bound = drop_rebound_thinking(model)
    assert (bound != {}) == binds_thinking(model)
    assert compaction_model(model) == (model if compacts(model) else DEFAULT_MODEL)
    said = capsys.readouterr().out.splitlines()
    assert len(said) == sum(departures) and all(model in line for line in said)
