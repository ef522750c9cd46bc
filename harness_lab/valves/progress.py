"""Valve 3, no-progress detection (lesson 4: spinning in place).

It compares this turn's signature (``harness_lab.signature``) with the last ones, once the response's
calls are known and before any of them runs: a repeat is stopped before it repeats its effects.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..checks import whole_number
from ..signature import canonical_json, signature_of
from ..state import RunState
from ..text import t

__all__ = ["NoProgress", "canonical_json", "signature_of"]


@dataclass
class NoProgress:
    """Stop when this turn's signature was already seen in the last ``window - 1`` turns.

    ``window=2`` (the lesson) compares with the previous turn only. ``window=3`` also catches an
    A-B-A pattern, ``window=4`` A-B-A-B; legitimate polling looks like spinning too, so widen with care.
    """

    window: int = 2

    name = "no_progress"
    step = "before_tools"

    def __post_init__(self) -> None:
        whole_number(self.window, "NoProgress window (2 = the previous turn)", 2)

    def check(self, state: RunState) -> str | None:
        if state.pending_message is None:
            return None
        signature = signature_of(state.pending_message["content"])
        recent = state.signatures[-(self.window - 1) :] if self.window > 1 else []
        if not signature or signature not in recent:
            return None
        if self.window == 2:
            return t("stop.no_progress", window=self.window, signature=signature)
        return t("stop.no_progress_window", window=self.window, signature=signature)

    def reading(self, state: RunState) -> str:
        return state.signatures[-1] if state.signatures else ""
