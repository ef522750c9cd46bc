"""An offline, deterministic emulator of the Messages API under the real ``anthropic`` client.

Lessons 2-6 run on it when there is no API key: ``emulated_client("lesson6")`` is a real
``anthropic.Anthropic`` whose requests are validated like the real API's and answered by a script.
See docs/architecture.md for the contract and ``scenarios.py`` for the named demos.
"""

from .history import assistant_turns
from .models import DEFAULT_MODEL, KNOWN_MODELS
from .reading import Result, first_user_text, last_results, results_by_name
from .replies import Reply, call, reply, say
from .scenarios import SCENARIOS, scenario, scenario_names
from .server import Emulator, respond
from .tokens import estimate_reply, estimate_request, text_tokens
from .transport import emulated_async_client, emulated_client, emulator_of

__all__ = [
    "DEFAULT_MODEL",
    "Emulator",
    "KNOWN_MODELS",
    "Reply",
    "Result",
    "SCENARIOS",
    "assistant_turns",
    "call",
    "emulated_async_client",
    "emulated_client",
    "emulator_of",
    "estimate_reply",
    "estimate_request",
    "first_user_text",
    "last_results",
    "reply",
    "respond",
    "results_by_name",
    "say",
    "scenario",
    "scenario_names",
    "text_tokens",
]
