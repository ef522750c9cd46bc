"""The four control valves (lesson 6), each a pure check of ``RunState`` tied to one loop step.

A valve has a ``name``, a ``step`` (one of ``harness_lab.steps.STEPS``), ``check(state) -> str |
None`` (the learner-facing stop message, or None to go on) and ``reading(state) -> str`` for the
gauges (``protocol.Valve``). The loop calls each one at its step and nowhere else.
"""

from ..events import TIERS
from .approval import Approval, Policy, Rule
from .budget import PRICES, TokenBudget, cost_usd
from .max_turns import MaxTurns
from .progress import NoProgress, canonical_json, signature_of
from .protocol import Gate, Valve

__all__ = [
    "Approval",
    "Gate",
    "MaxTurns",
    "NoProgress",
    "PRICES",
    "Policy",
    "Rule",
    "TIERS",
    "TokenBudget",
    "Valve",
    "canonical_json",
    "cost_usd",
    "signature_of",
]
