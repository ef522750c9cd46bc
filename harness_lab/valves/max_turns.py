"""Valve 1, max turns (lesson 3: when should an agent let go?).

The lesson puts ``if (turns >= MAX_TURNS)`` at the very top of the while body, before ``turns++``:
"before entering this lap, ask whether one more lap is allowed". A lap is one tool round plus the
request that follows it, so the check guards the next request. With a limit of N, a model that never
stops gets exactly N tool rounds and N + 1 model calls: the first call goes out unchecked, and the
(N+1)th response's tools are never run.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..checks import whole_number
from ..state import RunState
from ..text import t

__all__ = ["MaxTurns"]


@dataclass
class MaxTurns:
    """Stop once ``limit`` tool rounds are done; raise ``limit`` and resume to go on."""

    limit: int = 8

    name = "max_turns"
    step = "loop_top"

    def __post_init__(self) -> None:
        if self.limit == 0 and not isinstance(self.limit, bool):  # often meant as "no limit", which it is not
            raise ValueError(t("usage.max_turns_zero"))
        whole_number(self.limit, "MaxTurns limit", 1)

    def check(self, state: RunState) -> str | None:
        # `turns` counts finished tool rounds; the counter moves only after this check passes.
        if state.turns >= self.limit:
            return t("stop.max_turns", limit=self.limit)
        return None

    def reading(self, state: RunState) -> str:
        return f"{state.turns}/{self.limit}"
