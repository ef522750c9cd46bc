"""An offline, deterministic emulator of the Messages API under the real ``anthropic`` client.

Lessons 2-6 run on it when there is no API key: ``emulated_client("lesson6")`` is a real
``anthropic.Anthropic`` whose requests are validated like the real API's and answered by a script.
Per-model rules (thinking, windows, forced tool choice) come from the model table in ``models.py``,
whose facts and sources are in docs/api_facts.md. See docs/architecture.md for the contract and
``scenarios.py``, ``scenarios_stops.py`` and ``scenarios_2026.py`` for the named demos.
"""

from . import scenarios_2026, scenarios_runaway, scenarios_stops  # noqa: F401  (register lessons 3, 4 and 6's scenarios with the others)
from .history import assistant_turns
from .model_rules import (
    ask_to_think,
    binds_thinking,
    compaction_model,
    compacts,
    drop_rebound_thinking,
    thinking_fields,
)
from .models import DEFAULT_MODEL, KNOWN_MODELS, MODELS, context_window
from .reading import Result, first_user_text, last_results, results_by_name, task_budget_left
from .replies import Reply, call, redacted, reply, say, think
from .scenarios import SCENARIOS, scenario, scenario_names
from .server import Emulator, respond
from .tokens import estimate_reply, estimate_request, text_tokens
from .transport import emulated_async_client, emulated_client, emulator_of

__all__ = [
    "DEFAULT_MODEL",
    "Emulator",
    "KNOWN_MODELS",
    "MODELS",
    "Reply",
    "Result",
    "SCENARIOS",
    "ask_to_think",
    "assistant_turns",
    "binds_thinking",
    "call",
    "compaction_model",
    "compacts",
    "context_window",
    "drop_rebound_thinking",
    "emulated_async_client",
    "emulated_client",
    "emulator_of",
    "estimate_reply",
    "estimate_request",
    "first_user_text",
    "last_results",
    "redacted",
    "reply",
    "respond",
    "results_by_name",
    "say",
    "scenario",
    "scenario_names",
    "task_budget_left",
    "text_tokens",
    "think",
    "thinking_fields",
]
