"""Parallel tools: eight calls in one turn that each sleep 200 ms, through harness_lab's loop.

If the loop ran them one after another the turn would take eight calls' time; run concurrently it
takes about one. The measure is the turn's wall time (model call included) over one call's sleep.
"""

from __future__ import annotations

import time

from harness_lab.emulator import Emulator, call, emulated_client, reply, say
from harness_lab.loop import Run
from harness_lab.messages import tool_results
from harness_lab.tools import tool
from harness_lab.valves import Approval, MaxTurns, NoProgress, Policy, TokenBudget

from . import workload

CALLS = 8
SLEEP = 0.2


@tool
def nap(i: int) -> str:
    """Sleep 200 ms, then say which call this was."""
    time.sleep(SLEEP)
    return f"nap {i}"


def _policy(request: dict):
    results = tool_results(request["messages"][-1])
    if not results:
        return reply(*(call("nap", i=i) for i in range(CALLS)))
    return say(f"{len(results)} 件の待ちが終わりました")


def turn_seconds() -> float:
    """Wall time of the one turn that runs the eight calls; raises if a call did not come back."""
    run = Run(
        emulated_client(Emulator(_policy)),
        tools=[nap],
        valves=[MaxTurns(3), TokenBudget(10**9), NoProgress(), Approval(Policy({"nap": "allow"}, default="ask"))],
        model=workload.MODEL,
        max_tokens=workload.MAX_TOKENS,
    )
    events = run.start("8 回待ってください")
    start = time.perf_counter()
    next(events)  # the first Turn: one model call plus the eight naps
    seconds = time.perf_counter() - start
    for _ in events:
        pass
    answered = tool_results(run.messages[2])
    if [r["content"] for r in answered] != [f"nap {i}" for i in range(CALLS)]:
        raise AssertionError(f"parallel turn returned {answered!r}")
    return seconds


def ratios(reps: int) -> list[float]:
    """Per repetition: the turn's wall time over one call's 200 ms."""
    return [turn_seconds() / SLEEP for _ in range(reps)]
