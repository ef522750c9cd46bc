"""The rate-limit headers a Messages answer carries (the Rate limits page, "Response headers").

Live, each answer says how much of the organisation's per-minute allowance is left: requests,
input tokens and output tokens, and their sum. The emulator answers as an organisation whose bucket
was full when the request came, with the allowance the model table gives the model (``ModelSpec.
rate_limits``: the page's tier-1 row for its line, sources in docs/api_facts.md), so the figures
depend on the request alone. Input counts ``input_tokens`` and ``cache_creation_input_tokens``, not
cache reads ("Cache-aware ITPM"); token figures are "rounded to the nearest thousand". A reset is
"the time when the ... rate limit will be fully replenished": the bucket refills at its limit per
minute, so it is full again that many seconds after the request. Those times are read from the
clock: a reset dated 1970 would tell a learner who prints the headers something false. The
answer's body stays a function of the request alone (a cassette keeps no rate-limit header).
"""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

from .models import DEFAULT_MODEL, MODELS

__all__ = ["input_limit", "rate_limit_headers"]


def _reset(now: datetime, used: int, limit: int) -> str:
    seconds = math.ceil(60 * min(used, limit) / limit)
    return (now + timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%SZ")


def _left(limit: int, used: int) -> int:
    return max(0, round((limit - used) / 1000) * 1000)


def _limits(model: object) -> tuple[int, int, int]:
    """(requests, input tokens, output tokens) a minute: the model's row, the default model's for an id the table
    does not know (a 429 can name any id the request sent)."""
    row = MODELS.get(model) if isinstance(model, str) else None
    return (row or MODELS[DEFAULT_MODEL]).rate_limits


def input_limit(model: object) -> int:
    """Input tokens a minute for ``model``: the figure a 429 quotes."""
    return _limits(model)[1]


def rate_limit_headers(model: str, usage: dict) -> dict:
    """The ``anthropic-ratelimit-*`` headers after one request that used ``usage`` on ``model``."""
    requests, input_limit, output_limit = _limits(model)
    read = usage.get("input_tokens", 0) + usage.get("cache_creation_input_tokens", 0)
    wrote = usage.get("output_tokens", 0)
    now = datetime.now(UTC).replace(microsecond=0)
    figures = {
        "requests": (requests, requests - 1, _reset(now, 1, requests)),
        "input-tokens": (input_limit, _left(input_limit, read), _reset(now, read, input_limit)),
        "output-tokens": (output_limit, _left(output_limit, wrote), _reset(now, wrote, output_limit)),
        # "If Workspace limits do not apply, the headers will return the total tokens remaining, where
        # total is the sum of input and output tokens."
        "tokens": (
            input_limit + output_limit,
            _left(input_limit, read) + _left(output_limit, wrote),
            max(_reset(now, read, input_limit), _reset(now, wrote, output_limit)),
        ),
    }
    headers = {}
    for name, (limit, remaining, reset) in figures.items():
        headers[f"anthropic-ratelimit-{name}-limit"] = str(limit)
        headers[f"anthropic-ratelimit-{name}-remaining"] = str(remaining)
        headers[f"anthropic-ratelimit-{name}-reset"] = reset
    return headers
