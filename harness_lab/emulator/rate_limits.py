"""The rate-limit headers a Messages answer carries (the Rate limits page, "Response headers").

Live, each answer says how much of the organisation's per-minute allowance is left: requests,
input tokens and output tokens, and their sum. The emulator answers as a tier-1 organisation whose
bucket was full when the request came (the page's tier-1 table: 50 requests, 30,000 input and 8,000
output tokens a minute for the Sonnet and Opus models, 50,000 and 10,000 for Haiku; the models the
table does not name, Sonnet 5 and later, Fable and Mythos, are **inferred** to have their line's
figures, Fable and Mythos Sonnet's), so the figures depend on the request alone. Input counts
``input_tokens`` and ``cache_creation_input_tokens``, not cache reads ("Cache-aware ITPM"); token
figures are "rounded to the nearest thousand". A reset is "the time when the ... rate limit will be
fully replenished": the bucket refills at its limit per minute, so it is full again that many
seconds after the request. Those times are read from the clock: a reset dated 1970 would tell a
learner who prints the headers something false. The answer's body stays a function of the request
alone (a cassette keeps no rate-limit header).
"""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

__all__ = ["input_limit", "rate_limit_headers"]

REQUESTS_PER_MINUTE = 50
_TOKENS_PER_MINUTE = {"haiku": (50_000, 10_000)}  # (input, output); every other line (30,000, 8,000)
_OTHER_LINES = (30_000, 8_000)


def _reset(now: datetime, used: int, limit: int) -> str:
    seconds = math.ceil(60 * min(used, limit) / limit)
    return (now + timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%SZ")


def _left(limit: int, used: int) -> int:
    return max(0, round((limit - used) / 1000) * 1000)


def _limits(family: str) -> tuple[int, int]:
    return _TOKENS_PER_MINUTE.get(family.removeprefix("claude-").split("-")[0], _OTHER_LINES)


def input_limit(family: str) -> int:
    """Input tokens a minute for ``family``: the figure a 429 quotes."""
    return _limits(family)[0]


def rate_limit_headers(family: str, usage: dict) -> dict:
    """The ``anthropic-ratelimit-*`` headers after one request that used ``usage`` on ``family``."""
    input_limit, output_limit = _limits(family)
    read = usage.get("input_tokens", 0) + usage.get("cache_creation_input_tokens", 0)
    wrote = usage.get("output_tokens", 0)
    now = datetime.now(UTC).replace(microsecond=0)
    figures = {
        "requests": (REQUESTS_PER_MINUTE, REQUESTS_PER_MINUTE - 1, _reset(now, 1, REQUESTS_PER_MINUTE)),
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
