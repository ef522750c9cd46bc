"""pydantic-ai: an ``Agent`` on its ``AnthropicModel`` over an injected ``AsyncAnthropic``.

The client is the emulator's async client, so pydantic-ai talks to the same scripted model through
the real SDK. ``streamed=True`` runs with an event-stream handler, which makes pydantic-ai stream
every model call (the emulator's SSE path); ``streamed=False`` is its plain ``agent.run``.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from harness_lab.emulator import emulated_async_client

from . import workload
from .contender import Outcome, Prepared, scripted_emulator

# pydantic-ai is imported when a contender is built, not with this module: the test suite's collection
# imports it in every pytest worker, and its 24 MB there made each of the thousands of forks the
# graders and lesson checks make (page tables copied, then freed) cost more in every worker.
if TYPE_CHECKING:
    from pydantic_ai import Agent


def build_agent(client) -> Agent:
    from pydantic_ai import Agent
    from pydantic_ai.models.anthropic import AnthropicModel
    from pydantic_ai.providers.anthropic import AnthropicProvider

    model = AnthropicModel(workload.MODEL, provider=AnthropicProvider(anthropic_client=client))
    agent = Agent(model, model_settings={"max_tokens": workload.MAX_TOKENS})
    agent.tool_plain(workload.add)
    agent.tool_plain(workload.echo)
    return agent


async def _drain(ctx, events) -> None:
    # Consuming the events is what a UI would do; its presence is what makes the run stream.
    async for _ in events:
        pass


def prepare(rounds: int, streamed: bool = True) -> Prepared:
    from pydantic_ai.messages import ModelResponse, ToolCallPart
    from pydantic_ai.usage import UsageLimits

    emulator = scripted_emulator(rounds)
    # One event loop per repetition, made here so building it is not timed; the async client and
    # the agent are created inside it because async clients belong to the loop that made them.
    loop = asyncio.new_event_loop()

    async def setup() -> Agent:
        return build_agent(emulated_async_client(emulator))

    agent = loop.run_until_complete(setup())
    limits = UsageLimits(request_limit=rounds + 1)

    def go() -> Outcome:
        try:
            result = loop.run_until_complete(
                agent.run(workload.PROMPT, usage_limits=limits, event_stream_handler=_drain if streamed else None)
            )
        finally:
            loop.close()
        done = sum(
            isinstance(m, ModelResponse) and any(isinstance(p, ToolCallPart) for p in m.parts)
            for m in result.all_messages()
        )
        return Outcome(result.output, done, len(emulator.requests))

    return go
