"""harness_lab with all four valves on: max turns, token budget, no-progress and approval.

The limits are set so that no valve fires on the shared workload (each still checks every turn):
the point is the price of checking, not of stopping. Approval runs through a policy that allows
both tools, so no human is asked and the run needs no ``.send()``.
"""

from __future__ import annotations

from harness_lab.emulator import emulated_client
from harness_lab.events import Finished
from harness_lab.loop import Run
from harness_lab.tools import tool
from harness_lab.valves import Approval, MaxTurns, NoProgress, Policy, TokenBudget

from . import workload
from .contender import Outcome, Prepared, scripted_emulator

add = tool(workload.add)
echo = tool(workload.echo)


def valves(rounds: int) -> list:
    return [
        MaxTurns(rounds + 1),
        TokenBudget(10**9),
        NoProgress(),
        Approval(Policy({"add": "allow", "echo": "allow"}, default="ask")),
    ]


def make_run(client, rounds: int) -> Run:
    return Run(client, tools=[add, echo], valves=valves(rounds), model=workload.MODEL, max_tokens=workload.MAX_TOKENS)


def outcome_of(run: Run, last_event, model_calls: int) -> Outcome:
    # A Stopped event means a valve fired: report it whole so the smoke test shows which one.
    text = last_event.text if isinstance(last_event, Finished) else repr(last_event)
    return Outcome(text, run.state.turns, model_calls)


def prepare(rounds: int) -> Prepared:
    emulator = scripted_emulator(rounds)
    run = make_run(emulated_client(emulator), rounds)

    def go() -> Outcome:
        last = None
        for last in run.start(workload.PROMPT):  # noqa: B007 (the last event is the outcome)
            pass
        return outcome_of(run, last, len(emulator.requests))

    return go
