"""The few rules of the model table a lesson must know to run each demo on the learner's model.

Notebook 06 shows the 2026 API on whatever ``HARNESS_LAB_MODEL`` names, so where a model differs from
the default in a way a demo meets (it does not think unless asked, it binds thinking to its
conversation, it lacks compaction), the notebook asks here and says what it does instead. Each answer
reads the row in models.py, the same one that accepts or refuses the emulator's requests, so the two
never disagree. An id the table does not know gets the answer that sends the request as written:
the API's 404 then names the id, which says more than a guess here would.
"""

from __future__ import annotations

from ..text import t
from .models import BINDING_BETA, DEFAULT_MODEL, MODELS

__all__ = [
    "ask_to_think",
    "binds_thinking",
    "compaction_model",
    "compacts",
    "drop_rebound_thinking",
    "thinking_fields",
]

# The smallest budget manual thinking takes ("greater than or equal to 1024"), and room for the
# answer above it: max_tokens must exceed the budget (docs/api_facts.md, "Thinking configuration").
_SMALLEST_BUDGET = 1024
_ANSWER_ROOM = 1024


def thinking_fields(model: str) -> dict:
    """The request fields that make ``model`` think before it answers: none where it does unasked
    (the course's default model), adaptive thinking where the model takes it, else manual thinking
    with the smallest budget and a ``max_tokens`` above it (the Claude 4.5 models refuse adaptive)."""
    row = MODELS.get(model)
    if row is None or row.thinking_default != "disabled":
        return {}
    if row.rejection("adaptive") is None:
        return {"thinking": {"type": "adaptive"}}
    return {
        "thinking": {"type": "enabled", "budget_tokens": _SMALLEST_BUDGET},
        "max_tokens": _SMALLEST_BUDGET + _ANSWER_ROOM,
    }


def binds_thinking(model: str) -> bool:
    """Whether replayed thinking is bound to its conversation (preserved thinking, Fable 5.1 on): an edit
    before a thinking block makes it a 400 unless ``thinking.block_binding`` says to drop it."""
    row = MODELS.get(model)
    return row is not None and row.preserved_thinking


def compacts(model: str) -> bool:
    """Whether ``model`` takes ``compact_20260112`` (the compaction page's list; no Haiku, no 4.5 model)."""
    row = MODELS.get(model)
    return row is None or row.compaction


# What notebook 06 calls: each sends the demo's request on the learner's model where it can, and says in
# one line what it added or where it sent the request instead; on the default model it adds nothing and
# says nothing, so the notebook's stored outputs are the default model's.


def ask_to_think(model: str) -> dict:
    """``thinking_fields(model)``, said aloud where there are any."""
    fields = thinking_fields(model)
    if fields:
        print(t("model.asks_to_think", model=model, fields=fields))
    return fields


def drop_rebound_thinking(model: str) -> dict:
    """The request fields (for ``client.beta``) that let an edited history go on where ``model`` binds thinking:
    the blocks behind the edit are dropped and listed in ``input_transformations`` instead of a 400."""
    if not binds_thinking(model):
        return {}
    print(t("model.drops_rebound_thinking", model=model))
    binding = {"prefix_mismatch_behavior": "drop_block"}
    return {"thinking": {"type": "adaptive", "block_binding": binding}, "betas": [BINDING_BETA]}


def compaction_model(model: str) -> str:
    """``model`` where it compacts, else the course's default model (which does), said aloud."""
    if compacts(model):
        return model
    print(t("model.no_compaction", model=model, other=DEFAULT_MODEL))
    return DEFAULT_MODEL
