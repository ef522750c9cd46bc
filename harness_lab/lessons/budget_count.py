"""What valve 2 counted, read from a lesson-6 loop's end: when the token budget did not stop the loop where
the package's ``Run`` stopped, the hint names the fields ``tokens_used`` left out or the comparison that missed."""

from __future__ import annotations

from itertools import combinations

from ..text import t
from .checking import Miss
from .ending import Ending

__all__ = ["budget_cause", "every_token_once", "miscounted", "spent"]

FIELDS = ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens", "output_tokens")


def spent(mine: Ending, upto: int | None = None) -> tuple[int, int]:
    """(input, output) tokens of the first ``upto`` responses the loop received."""
    used = mine.usage[:upto] if upto is not None else mine.usage
    return sum(i for i, _ in used), sum(o for _, o in used)


def budget_cause(mine: Ending, limit: dict, want: Ending | None = None) -> Miss:
    """The token budget did not stop the loop where it should (``want``: where the package's stopped):
    what did the loop count, and what did valve 2 compare?"""
    if miss := miscounted(mine):
        return miss
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


def miscounted(mine: Ending) -> Miss | None:
    """A count of something other than usage, whichever way valve 2 then went: the next prompt's size from
    count_tokens, or a stream's output counted twice (its deltas and its final message)."""
    inputs, outputs = spent(mine)
    cached = sum(mine.cached)
    if mine.counted_prompts and mine.reported != inputs + outputs + cached:
        return Miss(
            "lesson.l6.run_agent.budget_count_tokens", {"used": mine.reported, "total": inputs + outputs + cached}
        )
    if mine.reported and outputs and mine.reported == inputs + 2 * outputs + cached:
        return Miss("lesson.l6.run_agent.budget_output_twice", {"used": mine.reported, "output": outputs})
    return None


def every_token_once(free: Ending, plain: Ending | None = None) -> Miss | None:
    """The whole run's count against what the API billed, once caching is on (the learner's or the probe's):
    the budgets valve 2 is tried with are crossed after two responses, before the first cache read, so a
    count that adds the cache twice (or cache writes alone) still stops there, and would stop a longer run
    too early (or too late). A count some fields short is named by those fields."""
    cached = sum(free.cached)
    if not cached or not isinstance(free.reported, int) or free.miss is not None:
        return None
    inputs, outputs = spent(free)
    total = inputs + outputs + cached
    missing = left_out(free, plain)
    if missing == FIELDS[1:3]:
        return Miss(
            "lesson.l6.run_agent.budget_cache_omitted", {"used": free.reported, "cached": cached, "total": total}
        )
    if missing in (FIELDS[1:], FIELDS[:3]):  # one field alone: the hint names what it leaves out
        how = "input_only" if missing == FIELDS[1:] else "output_only"
        return Miss(f"lesson.l6.run_agent.budget_{how}", {"used": free.reported, "total": total})
    if missing:
        field = t("lesson.fields_joiner").join(missing)
        values = {"used": free.reported, "field": field, "missing": total - free.reported, "total": total}
        return Miss("lesson.l6.run_agent.budget_field_omitted", values)
    if inputs + outputs <= free.reported < total:
        return Miss(
            "lesson.l6.run_agent.budget_cache_omitted",
            {"used": free.reported, "cached": total - free.reported, "total": total},
        )
    if free.reported == total + cached:
        return Miss("lesson.l6.run_agent.budget_cache_twice", {"used": free.reported, "total": total, "cached": cached})
    if free.reported > total:
        return Miss(
            "lesson.l6.run_agent.budget_overcounted",
            {"used": free.reported, "total": total, "extra": free.reported - total},
        )
    return None


def left_out(free: Ending, plain: Ending | None = None) -> tuple[str, ...] | None:
    """The usage fields a count left out, when only one set of them fits what it reported with caching on
    (``free``). Two sets can add up alike (the cache reads of a run often equal its input and cache writes);
    ``plain``, the same run without caching, both cache fields 0, tells whether input and output were counted."""
    (inputs, outputs), writes = spent(free), sum(free.written)
    parts = dict(zip(FIELDS, (inputs, writes, sum(free.cached) - writes, outputs), strict=True))
    short = sum(parts.values()) - (free.reported or 0)
    known = plain if plain is not None and plain.miss is None and isinstance(plain.reported, int) else None
    fits = [
        names
        for size in (1, 2, 3)
        for names in combinations(FIELDS, size)
        if all(parts[name] for name in names)
        and sum(parts[name] for name in names) == short
        and (known is None or known.reported == _plain_count(known, names))
    ]
    return fits[0] if len(fits) == 1 else None


def _plain_count(plain: Ending, missing: tuple[str, ...]) -> int:
    """What a count leaving out ``missing`` reports on a run without caching."""
    inputs, outputs = spent(plain)
    return (inputs if FIELDS[0] not in missing else 0) + (outputs if FIELDS[3] not in missing else 0)
