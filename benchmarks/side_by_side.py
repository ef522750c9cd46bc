"""The contenders side by side on the shared workload, interleaved, plus the emulator's own share."""

from __future__ import annotations

from collections.abc import Callable

from . import bare_loop, emulator_share, harness, pydantic_agent, tool_runner, workload
from .contender import Outcome, Prepared
from .timing import Timings, interleaved

ROUNDS = 50


def contenders(rounds: int = ROUNDS, threaded: bool = True) -> dict[str, Callable[[], Prepared]]:
    """Name -> setup for every contender (and the emulator replay), each doing ``rounds`` rounds.

    ``threaded`` adds the tool runner on its default beta thread (only if the emulator keeps threads).
    """
    named = {
        "bare": lambda: bare_loop.prepare(rounds),
        "bare_dicts": lambda: bare_loop.prepare(rounds, plain_history=True),
        "bare_no_thinking": lambda: bare_loop.prepare(rounds, thinking={"type": "disabled"}),
        "harness_lab": lambda: harness.prepare(rounds),
        "tool_runner": lambda: tool_runner.prepare(rounds),
        "pydantic_ai_stream": lambda: pydantic_agent.prepare(rounds, streamed=True),
        "pydantic_ai_run": lambda: pydantic_agent.prepare(rounds, streamed=False),
        "emulator": lambda: emulator_share.prepare(rounds),
    }
    if threaded:
        named["tool_runner_threaded"] = lambda: tool_runner.prepare(rounds, threaded=True)
    return named


def checker(rounds: int) -> Callable[[str, Outcome], None]:
    """Reject any run that did not do exactly the scripted work."""
    expected = Outcome(workload.final_text(rounds), rounds, rounds + 1)

    def check(name: str, outcome: Outcome) -> None:
        if outcome != expected:
            raise AssertionError(f"{name} did not do the scripted work: {outcome} != {expected}")

    return check


def measure(reps: int, rounds: int = ROUNDS, threaded: bool = True) -> Timings:
    return interleaved(contenders(rounds, threaded), reps, checker(rounds))
