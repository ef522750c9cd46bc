"""What valve 2 counted, read from a lesson-6 loop's end: when the token budget did not stop the loop where
the package's ``Run`` stopped, the hint names the fields ``tokens_used`` left out or the comparison that missed."""

from __future__ import annotations

from .checking import Miss
from .ending import Ending

__all__ = ["budget_cause", "spent"]


def spent(mine: Ending, upto: int | None = None) -> tuple[int, int]:
    """(input, output) tokens of the first ``upto`` responses the loop received."""
    used = mine.usage[:upto] if upto is not None else mine.usage
    return sum(i for i, _ in used), sum(o for _, o in used)


def budget_cause(mine: Ending, limit: dict, want: Ending | None = None) -> Miss:
    """The token budget did not stop the loop where it should (``want``: where the package's stopped):
    what did the loop count, and what did valve 2 compare?"""
    inputs, outputs = spent(mine)
    cached = sum(mine.cached)
    if mine.reported and cached and inputs + outputs <= mine.reported < inputs + outputs + cached:
        total = inputs + outputs + cached  # prompt caching bills the history as cache writes and reads
        return Miss(
            "lesson.l6.run_agent.budget_cache_omitted",
            {"used": mine.reported, "cached": total - mine.reported, "total": total},
        )
    if mine.reported and mine.asked and mine.reported in (sum(mine.asked), sum(mine.asked[:-1])):
        # max_tokens is the ceiling the request set, not what the response spent (usage)
        return Miss("lesson.l6.run_agent.budget_max_tokens", {"used": mine.reported, "total": inputs + outputs})
    if mine.reported and len(mine.usage) > 1 and mine.reported == sum(mine.usage[-1]):
        return Miss("lesson.l6.run_agent.budget_last_only", {"used": mine.reported, "total": inputs + outputs})
    if mine.reported and mine.reported == outputs:
        return Miss("lesson.l6.run_agent.budget_output_only", {"used": mine.reported, "total": inputs + outputs})
    if mine.reported and mine.reported == inputs:
        return Miss("lesson.l6.run_agent.budget_input_only", {"used": mine.reported, "total": inputs + outputs})
    if mine.reported and mine.usage and mine.reported == inputs + outputs - sum(mine.usage[0]):
        return Miss("lesson.l6.run_agent.budget_first_missing", {"first": sum(mine.usage[0])})
    if mine.reported and len(mine.usage) > 1 and mine.reported == inputs + outputs - sum(mine.usage[-1]):
        # all but the latest response: each response is counted one lap late, after the valve looked
        return Miss("lesson.l6.run_agent.budget_counted_late", {"budget": limit["budget"], "used": mine.reported})
    if mine.cause == "token_budget" and want is not None and mine.reported == inputs + outputs + cached:
        # Counted right, and valve 2 did fire, only later than the running total reached the budget:
        # what it compares is not tokens_used (one response's tokens, the input alone...).
        reached = sum(map(sum, mine.usage[: want.requests])) + sum(mine.cached[: want.requests])
        return Miss(
            "lesson.l6.run_agent.budget_not_total",
            {"budget": limit["budget"], "stopped": mine.requests, "reached": want.requests, "total": reached},
        )
    if mine.reported and mine.reported >= limit["budget"]:
        return Miss("lesson.l6.run_agent.budget_ignored", {"budget": limit["budget"], "used": mine.reported})
    return Miss("lesson.l6.run_agent.budget_not_counted", {"budget": limit["budget"]})
