"""Every Messages answer carries the rate-limit headers the Rate limits page lists, as a tier-1
organisation's full bucket would after that one request."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import anthropic
import pytest

from harness_lab.emulator import emulated_client, models, say

NAMES = ("requests", "tokens", "input-tokens", "output-tokens")


def _headers(model: str, text: str, stream: bool = False):
    client = emulated_client([say("はい")], max_retries=0)
    ask = {"model": model, "max_tokens": 64, "messages": [{"role": "user", "content": text}]}
    if stream:
        with client.messages.with_streaming_response.create(**ask, stream=True) as raw:
            return raw.headers, None
    raw = client.messages.with_raw_response.create(**ask)
    return raw.headers, raw.parse().usage


@pytest.mark.parametrize("stream", [False, True])
def test_an_answer_says_the_limits_left_and_when_they_refill(stream):
    asked = datetime.now(UTC).replace(microsecond=0)
    headers, _ = _headers("claude-sonnet-5", "q", stream)
    answered = datetime.now(UTC)
    for name in NAMES:
        limit = int(headers[f"anthropic-ratelimit-{name}-limit"])
        assert 0 <= int(headers[f"anthropic-ratelimit-{name}-remaining"]) <= limit
        reset = datetime.strptime(headers[f"anthropic-ratelimit-{name}-reset"], "%Y-%m-%dT%H:%M:%SZ")  # RFC 3339
        assert asked <= reset.replace(tzinfo=UTC) <= answered + timedelta(minutes=1)  # full again within the minute
    assert headers["anthropic-ratelimit-requests-limit"] == "50"
    assert headers["anthropic-ratelimit-requests-remaining"] == "49"
    assert headers["request-id"].startswith("req_")


def test_the_token_figures_follow_the_models_line_and_the_request():
    small, _ = _headers("claude-haiku-4-5", "q")
    assert small["anthropic-ratelimit-input-tokens-limit"] == "50000"  # Haiku's tier-1 figure
    assert small["anthropic-ratelimit-output-tokens-limit"] == "10000"
    assert small["anthropic-ratelimit-tokens-limit"] == "60000"  # the sum, where no workspace limit applies
    big, usage = _headers("claude-sonnet-5", "word " * 12_000)
    assert usage is not None and usage.input_tokens > 5_000
    left = int(big["anthropic-ratelimit-input-tokens-remaining"])
    assert left % 1000 == 0 and abs(30_000 - usage.input_tokens - left) <= 500  # rounded to the nearest thousand
    assert big["anthropic-ratelimit-input-tokens-reset"] > small["anthropic-ratelimit-input-tokens-reset"]


def test_the_figures_come_from_the_models_row_in_the_table(monkeypatch):
    # The row, not the model's name, says the allowance: a row given other figures is answered with them,
    # in the headers and in the 429 that quotes the input limit.
    row = models.MODELS["claude-opus-5"]
    monkeypatch.setitem(models.MODELS, "claude-opus-5", replace(row, rate_limits=(7, 123_000, 45_000)))
    headers, _ = _headers("claude-opus-5", "q")
    assert headers["anthropic-ratelimit-requests-limit"] == "7"
    assert headers["anthropic-ratelimit-requests-remaining"] == "6"
    assert headers["anthropic-ratelimit-input-tokens-limit"] == "123000"
    assert headers["anthropic-ratelimit-output-tokens-limit"] == "45000"
    assert headers["anthropic-ratelimit-tokens-limit"] == "168000"
    client = emulated_client([say("x")], faults={1: "429"}, max_retries=0)
    with pytest.raises(anthropic.RateLimitError) as caught:
        client.messages.create(model="claude-opus-5", max_tokens=64, messages=[{"role": "user", "content": "q"}])
    assert "rate limit of 123,000 input tokens per minute" in caught.value.body["error"]["message"]
    other, _ = _headers("claude-sonnet-5", "q")  # the other rows keep their own
    assert other["anthropic-ratelimit-input-tokens-limit"] == "30000"
