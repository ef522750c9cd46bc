"""Lesson 6 (notebook 05): the checks of valve 3, no-progress detection, in the learner's whole ``run_agent``.

Scripted models that repeat a turn's calls (one call, or two in another order with an input's keys in
another order), and ones that do not (a call made again after another, another tool with the same
input): valve 3 stops the first kind on the second turn, as the package's ``Run`` does, and never the second.
The call that fails again and again must go back to the model as a failure (``is_error``) all the same.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from ..emulator import call, last_results, reply, say
from .checking import Miss
from .diagnosis import VALVES, compare, learner_end, package_end
from .lesson6_approval import asked_only_what_runs
from .scenes import answered, blocks, fact, said, user_turn

__all__ = ["ends_like_the_package", "stops_spinning"]

_said = partial(said, "l6")


def ends_like_the_package(fn, script, runaway: Miss | None = None, **limits: Any) -> Miss | None:
    mine, _, _ = learner_end(fn, script, runaway=runaway, **limits)
    return compare(mine, package_end(script, **limits), **limits)


def _spinning(request: dict) -> Any:
    return say(_said("not_found")) if len(last_results(request)) > 3 else call("read_file", path="notes.txt")


def _back_to_an_earlier_call(request: dict) -> Any:
    # README read, the time asked, README read again, then the answer: no two turns in a row call alike.
    steps = [call("read_file", path="README.md"), call("get_time"), call("read_file", path="README.md")]
    return steps[answered(request)] if answered(request) < 3 else say(_said("answer"))


def _spinning_reordered(request: dict) -> Any:
    # The same two calls every turn, the other way round each time and an input's keys in another order:
    # the same calls again, so valve 3 stops the second turn, as it stops one call made again.
    n = answered(request)
    read = call("read_file", **({"path": "notes.txt", "limit": 100} if n % 2 else {"limit": 100, "path": "notes.txt"}))
    look = call("search", query=_said("clue", n=1))
    return reply(look, read) if n % 2 else reply(read, look)


def _read_then_delete(request: dict) -> Any:
    # Another tool with the same input is a new call: a signature without the names calls it a spin.
    steps = [call("read_file", path="old.md"), call("delete_file", path="old.md")]
    return steps[answered(request)] if answered(request) < 2 else say(_said("answer"))


def _spinning_after_a_look(request: dict) -> Any:
    # The time asked once, then the same read again and again: the spin starts on the second turn.
    return call("get_time") if answered(request) == 0 else _spinning(request)


def stops_spinning(fn) -> Miss | None:
    if miss := ends_like_the_package(fn, _spinning):
        return miss
    # Once more in the same process: valve 3's memory belongs to one run, as the history does.
    mine, _, _ = learner_end(fn, _spinning)
    if mine.miss is None and mine.cause == "no_progress" and mine.rounds == 0:
        return Miss("lesson.l6.run_agent.signature_carried")
    if miss := compare(mine, package_end(_spinning)):
        return miss
    # A call made again after another one in between is no spin: valve 3 looks at the previous turn only.
    mine, _, _ = learner_end(fn, _back_to_an_earlier_call)
    if mine.miss is None and mine.cause == "no_progress" and mine.rounds == 2:
        # Every signature kept, or only the first turn's: a spin that starts on the second turn tells them apart.
        later, _, _ = learner_end(fn, _spinning_after_a_look)
        if later.miss is None and later.cause != "no_progress":
            return Miss("lesson.l6.run_agent.spin_first_only", {"call": "read_file"})
        return Miss("lesson.l6.run_agent.spin_not_in_a_row", {"call": "read_file"})
    if miss := compare(mine, package_end(_back_to_an_earlier_call)):
        return miss
    # The signature is the turn's calls as a set of names and inputs: not their order, nor the keys' order.
    mine, _, _ = learner_end(fn, _spinning_reordered)
    if mine.miss is None and mine.cause != "no_progress":
        calls = " / ".join(" + ".join(turn) for turn in mine.calls[:2])
        return Miss("lesson.l6.run_agent.spin_reordered", {"calls": calls})
    mine, _, _ = learner_end(fn, _read_then_delete, decide=lambda name, given: True)
    if mine.miss is None and mine.cause == "no_progress":
        return Miss("lesson.l6.run_agent.spin_names_dropped", {"calls": " / ".join(c for t in mine.calls for c in t)})
    # The spin the lessons start from: one call failing again and again. Valve 3 compares the calls
    # whatever their results, so a loop that keeps the signature of calls that worked never stops it.
    mine, _, emulator = learner_end(fn, _spinning, failing=("read_file",))
    want = package_end(_spinning, failing=("read_file",))
    unsent = mine.miss is None or mine.miss.key == "lesson.l6.run_agent.no_yield"  # it returned before its yield
    if unsent and mine.requests == mine.rounds == 1 and mine.cause not in VALVES:
        # The failure never reached the model: the loop ended on it instead of sending it back.
        got = "lessons.finished(...)" if mine.cause == "finish" else f"lessons.stopped({mine.cause!r}, ...)"
        return Miss("lesson.l6.run_agent.ended_on_failure", {"got": got, "call": "read_file"})
    if mine.miss is None and want.cause == "no_progress" and mine.cause != "no_progress":
        return Miss("lesson.l6.run_agent.spin_on_failures", {"call": "read_file"})
    if mine.miss is None and _failure_unflagged(emulator):
        return Miss("lesson.l6.run_agent.failure_not_error", {"call": "read_file"})
    return compare(mine, want) or asked_only_what_runs(fn, "no_progress")


def _failure_unflagged(emulator: Any) -> bool:
    """Did the failed read_file go back to the model without is_error (its error text read as its output)?"""
    sent = emulator.requests[1]["messages"] if len(emulator.requests) > 1 else []
    results = [fact(b) for m in user_turn(sent) for b in blocks(m, "tool_result")]
    return bool(results) and not results[0]["is_error"]
