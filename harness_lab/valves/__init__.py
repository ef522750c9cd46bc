"""The four control valves (lesson 6), each a pure check of ``RunState`` tied to one loop step.

A valve has a ``name``, a ``step`` ("before_request", "after_response" or "before_tool"),
``check(state) -> str | None`` (the learner-facing stop message, or None to go on) and
``reading(state) -> str`` for the gauges. The loop calls each one at its step and nowhere else.
"""

from .approval import TIERS, Approval, Policy, Rule
from .budget import PRICES, TokenBudget, cost_usd
from .max_turns import MaxTurns
from .progress import NoProgress, canonical_json, signature_of

__all__ = [
    "PRICES",
    "TIERS",
    "Approval",
    "MaxTurns",
    "NoProgress",
    "Policy",
    "Rule",
    "TokenBudget",
    "canonical_json",
    "cost_usd",
    "signature_of",
]
