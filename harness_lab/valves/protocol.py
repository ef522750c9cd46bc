"""What a valve provides (lesson 6's four, and any a learner writes): a name, a step, a check.

The loop never asks what class a valve is: anything with these attributes is a valve (notebooks
write their own by duck typing). ``step`` is one of ``harness_lab.steps.STEPS``; the loop calls
``check`` there and nowhere else. A valve at ``before_each_tool`` is a gate: it decides each call.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from ..events import ApprovalRequest, Decision
from ..state import RunState

__all__ = ["Gate", "Valve"]


@runtime_checkable
class Valve(Protocol):
    # Read-only here, so a plain attribute, a class attribute or a property all fit (TokenBudget's step
    # is a property: ``preflight`` moves it).
    @property
    def name(self) -> str:
        """What a Stopped's ``cause`` says when this valve stops the run."""

    @property
    def step(self) -> str:
        """Where in the loop it is checked: "before_send", "loop_top", "before_tools", ..."""

    def check(self, state: RunState) -> str | None:
        """The learner-facing stop message, or None to go on."""

    def reading(self, state: RunState) -> str:
        """A short gauge reading, e.g. ``"3/8"``."""


@runtime_checkable
class Gate(Valve, Protocol):
    """A valve at ``before_each_tool`` (approval, a tiered policy)."""

    def tier(self, name: str, tool_input: dict[str, Any], high_impact: bool = False) -> str:
        """``"allow"``, ``"ask"`` or ``"deny"`` for one call."""

    def ask(self, request: ApprovalRequest) -> Decision | None:
        """The decision for an ``ask``, or None to let the loop's caller answer it."""
