"""Model ids the emulator answers for (lesson 6 uses ``claude-sonnet-5``).

The list is the installed SDK's own (``anthropic.types.Model``); an id outside it gets the real
API's 404 ``model: <id>``. Context windows are the 200k the real "prompt is too long" message quotes.
"""

from __future__ import annotations

__all__ = ["CONTEXT_WINDOW", "DEFAULT_MODEL", "KNOWN_MODELS", "is_known"]

from ..model import DEFAULT_MODEL

CONTEXT_WINDOW = 200_000

KNOWN_MODELS = frozenset(
    {
        "claude-fable-5-2",
        "claude-mythos-5-2",
        "claude-haiku-5-5",
        "claude-sonnet-5-5",
        "claude-fable-5-1",
        "claude-opus-5-5",
        "claude-mythos-5-1",
        "claude-sonnet-5",
        "claude-fable-5",
        "claude-mythos-5",
        "claude-opus-5",
        "claude-opus-4-8",
        "claude-opus-4-7",
        "claude-mythos-preview",
        "claude-opus-4-6",
        "claude-sonnet-4-6",
        "claude-haiku-4-5",
        "claude-haiku-4-5-20251001",
        "claude-opus-4-5",
        "claude-opus-4-5-20251101",
        "claude-sonnet-4-5",
        "claude-sonnet-4-5-20250929",
    }
)


def is_known(model: object) -> bool:
    return isinstance(model, str) and model in KNOWN_MODELS
