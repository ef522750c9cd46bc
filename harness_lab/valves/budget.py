"""Valve 2, the token budget (lesson 4: budget burnout).

Every turn resends the whole history, so input tokens per turn grow with the turn count and the
total grows faster still. Turns alone cannot bound the spend: a few turns with a huge context can
burn more than many small ones. This valve counts every token the API bills — uncached input,
output, cache writes and cache reads (``Usage.total``) — and can also put a ceiling on dollars.
"""

from __future__ import annotations

import reprlib
from collections.abc import Iterable
from dataclasses import dataclass

from ..checks import whole_number
from ..events import Usage
from ..state import RunState
from ..text import t

__all__ = ["PRICES", "TokenBudget", "cost_usd", "usd"]

# USD per million tokens, (input, output) or (input, output, 5-minute cache write, cache read) where a
# model's cache prices are not the usual 1.25x and 0.1x of input. Sources: each model's overview page
# on platform.claude.com (docs/api_facts.md); Sonnet 5.5's $0.10 reads are from its migration guide, and
# the 5.1 models' $0.25 reads (0.025x) from the pricing page's footnote.
Prices = dict[str, tuple[float, ...]]
PRICES: Prices = {
    "claude-fable-5-1": (10.0, 50.0, 12.50, 0.25),
    "claude-mythos-5-1": (10.0, 50.0, 12.50, 0.25),
    "claude-fable-5": (10.0, 50.0),
    "claude-mythos-5": (10.0, 50.0),
    "claude-opus-5-5": (4.0, 20.0, 5.0, 0.20),
    "claude-opus-5": (5.0, 25.0),
    "claude-sonnet-5-5": (2.0, 10.0, 2.50, 0.10),
    "claude-sonnet-5": (2.0, 10.0),
    "claude-haiku-5-5": (0.10, 0.50),  # up to 100,000 prompt tokens: LONG_PROMPTS for longer ones
    "claude-opus-4-8": (5.0, 25.0),
    "claude-opus-4-7": (5.0, 25.0),
    "claude-opus-4-6": (5.0, 25.0),
    "claude-opus-4-5": (5.0, 25.0),
    "claude-sonnet-4-6": (3.0, 15.0),
    "claude-haiku-4-5": (1.0, 5.0),
}
CACHE_WRITE = 1.25  # 5-minute cache writes
CACHE_WRITE_1H = 2.0  # one-hour writes (``ttl: "1h"``), of input on every model: Sonnet 5's $4 (docs/api_facts.md)
# A request whose prompt (input, cache writes and reads together) is over the threshold pays every price
# times the factor, its output too: Haiku 5.5's page, "$0.10 / MTok for prompts up to 100,000 tokens,
# $0.50 / MTok for prompts over 100,000 tokens", and 5x likewise for output and cache writes. Read per
# request, so only ``PRICES`` knows it: prices a caller gives are taken as they are.
LONG_PROMPTS = {"claude-haiku-5-5": (100_000, 5.0)}
CACHE_READ = 0.1
# Premiums that stack on every price above, cache prices included (the pricing page): fast mode
# (twice the standard price, Opus 5 at $10 / $50; it runs on Fable 5.2, Mythos 5.2, Opus 5.5 and Opus 5
# since Opus 4.8 lost it on 2026-11-30, and no page we have prices the first three: they are assumed
# to pay the same multiplier) and
# US-only inference (``inference_geo: "us"``, 1.1x). A sum of usages that ran both ways ("mixed")
# pays the premium, so a USD limit never fires late.
FAST_MODE = 2.0
US_ONLY = 1.1
# Each web search the API runs (``usage.server_tool_use.web_search_requests``) is billed on top of the tokens:
# $10 per 1,000 searches (the web search tool page, "Usage and pricing", and the pricing page's server
# tools). A fee per search, not per token, so neither the premiums nor a model's prices touch it.
WEB_SEARCH = 10.0 / 1_000


def _price(model: str, prices: Prices) -> tuple[float, ...]:
    # Dated ids ("claude-haiku-4-5-20251001") share their family's price; an unknown model pays the
    # dearest of each of the four prices, so a USD limit never fires late.
    for name in sorted(prices, key=len, reverse=True):
        if model == name or model.startswith(name + "-"):
            return prices[name]
    return tuple(map(max, zip(*(_four(*p) for p in prices.values()))))


def _four(
    per_in: float, per_out: float, cache_write: float | None = None, cache_read: float | None = None
) -> tuple[float, float, float, float]:
    write = per_in * CACHE_WRITE if cache_write is None else cache_write
    read = per_in * CACHE_READ if cache_read is None else cache_read
    return per_in, per_out, write, read


def usd(
    usage: Usage, per_in: float, per_out: float, cache_write: float | None = None, cache_read: float | None = None
) -> float:
    """USD for ``usage`` at these prices per million tokens; cache prices default to 1.25x and 0.1x input,
    and a one-hour cache write costs 2x input whatever the 5-minute price.

    A usage that ran in fast mode or US-only pays those premiums on top; its web searches pay their own fee.
    """
    per_in, per_out, write, read = _four(per_in, per_out, cache_write, cache_read)
    premium = (FAST_MODE if usage.speed in ("fast", "mixed") else 1.0) * (
        US_ONLY if usage.inference_geo in ("us", "mixed") else 1.0
    )
    return (
        premium
        * (
            usage.input_tokens * per_in
            + (usage.cache_creation_input_tokens - usage.cache_write_1h_input_tokens) * write
            + usage.cache_write_1h_input_tokens * per_in * CACHE_WRITE_1H
            + usage.cache_read_input_tokens * read
            + usage.output_tokens * per_out
        )
        / 1_000_000
        + usage.web_search_requests * WEB_SEARCH
    )


def cost_usd(usage: Iterable[Usage] | Usage, model: str, prices: Prices | None = None) -> float:
    """Estimated USD for one usage or a list of them, at the model's price in ``prices`` (or ``PRICES``).

    Each usage in a list is priced on its own, so a fast request among standard ones pays its premium alone,
    and so does a request whose prompt is long enough for a dearer rate (``LONG_PROMPTS``).
    """
    price = _price(model, prices or PRICES)
    over, factor = next(
        (rule for name, rule in LONG_PROMPTS.items() if prices is None and (model + "-").startswith(name + "-")),
        (None, 1.0),
    )
    usages = [usage] if isinstance(usage, Usage) else usage

    def at_its_rate(u: Usage) -> float:  # the long-prompt factor raises the token prices, not the searches' fee
        scale = factor if over is not None and u.prompt_tokens > over else 1.0
        return usd(u, *(p * scale for p in price))

    return sum(map(at_its_rate, usages))


@dataclass
class TokenBudget:
    """Stop once ``limit`` tokens (or ``usd`` dollars) are spent.

    It sits at the top of the loop body (``loop_top``), as lesson 6's 弁2 does. With
    ``preflight=True`` it moves to ``before_send`` and also refuses to send a request whose estimated
    prompt, plus the most its reply may cost (``max_tokens``), would cross the limit: checking after
    the response is too late when one request alone can blow the budget.
    """

    limit: int = 40_000
    usd: float | None = None
    prices: Prices | None = None
    preflight: bool = False

    name = "token_budget"

    def __post_init__(self) -> None:
        whole_number(self.limit, "TokenBudget limit", 1)
        if self.usd is not None and (
            isinstance(self.usd, bool) or not isinstance(self.usd, (int, float)) or self.usd <= 0
        ):
            raise ValueError(t("usage.budget_usd", got=reprlib.repr(self.usd)))

    def spent_usd(self, state: RunState) -> float:
        return cost_usd(state.turn_usage, state.model, self.prices)

    @property
    def step(self) -> str:
        return "before_send" if self.preflight else "loop_top"

    def check(self, state: RunState) -> str | None:
        used = state.usage.total
        # The reply is paid for too, and it may run to max_tokens: only both together keep the run inside.
        if self.preflight and used < self.limit < used + state.next_prompt + state.next_reply:
            return t(
                "stop.token_budget_preflight",
                prompt=state.next_prompt,
                reply=state.next_reply,
                limit=self.limit,
                used=used,
            )
        if used >= self.limit:
            return t("stop.token_budget", limit=self.limit, used=used)
        if self.usd is not None and self.spent_usd(state) >= self.usd:
            return t("stop.usd_budget", limit=f"{self.usd:.4f}", used=f"{self.spent_usd(state):.4f}")
        return None

    def reading(self, state: RunState) -> str:
        text = f"{state.usage.total}/{self.limit}"
        if self.usd is not None:
            text += f" (${self.spent_usd(state):.4f}/${self.usd})"
        return text
