"""Valve 3, no-progress detection (lesson 4: spinning in place).

A turn's signature flattens its tool calls to ``name(canonical JSON of input)``, sorted and joined
with `` | ``. The lesson uses ``JSON.stringify(input)``, where ``{"a":1,"b":2}`` and ``{"b":2,"a":1}``
differ; sorting the keys makes the same call look the same whatever order the model wrote it in.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..messages import field, tool_calls
from ..state import RunState
from ..text import t

__all__ = ["NoProgress", "canonical_json", "signature_of"]


def canonical_json(value: Any) -> str:
    """One spelling per value: sorted keys, no spaces, Japanese kept readable."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def signature_of(content: Any) -> str:
    """The turn's tool calls as one comparable string (empty when there are none)."""
    return " | ".join(sorted(f"{c['name']}({canonical_json(c['input'])})" for c in tool_calls(content)))


@dataclass
class NoProgress:
    """Stop when this turn's signature was already seen in the last ``window - 1`` turns.

    ``window=2`` (the lesson) compares with the previous turn only. ``window=3`` also catches an
    A-B-A pattern, ``window=4`` A-B-A-B; legitimate polling looks like spinning too, so widen with care.
    """

    window: int = 2

    name = "no_progress"
    step = "after_response"

    def __post_init__(self) -> None:
        if isinstance(self.window, bool) or not isinstance(self.window, int) or self.window < 2:
            raise ValueError(f"NoProgress window must be a whole number >= 2 (2 = the previous turn), not {self.window!r}")

    def check(self, state: RunState) -> str | None:
        if state.pending is None:
            return None
        signature = signature_of(field(state.pending, "content") or [])
        recent = state.signatures[-(self.window - 1):] if self.window > 1 else []
        if not signature or signature not in recent:
            return None
        if self.window == 2:
            return t("stop.no_progress", window=self.window, signature=signature)
        return t("stop.no_progress_window", window=self.window, signature=signature)

    def reading(self, state: RunState) -> str:
        return state.signatures[-1] if state.signatures else ""
