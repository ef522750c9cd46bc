"""Running the learner's lesson-6 loop beside the package's ``Run`` on one scripted model, and naming the
cause when the two end differently.

What counts is what happened, recorded from outside the loop: the requests the emulator received, the
requests whose tools actually ran (spy tools note the request they ran after), the tokens each
response used, and what the loop returned. A loop that counts a turn it never sent back, or stops by
another valve than the package, gets the hint for that symptom: the valve that fired and why, not a
generic "check the valve positions".
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import anthropic

from ..emulator import emulated_client
from ..events import Finished, Stopped, Turn
from ..grading.level2_scene import function_of
from ..grading.sandbox import describe_error
from ..grading.spies import Recorder
from ..text import t
from .budget_count import budget_cause, spent
from .checking import Miss, notebook_approver, spies_misused
from .ending import Ending
from .lesson5 import HIGH_IMPACT
from .scenes import (
    Recording,
    api_refusal,
    blocks,
    kept_whole,
    out_of_order,
    runaway_guard,
    said,
    scene_tools,
    swallowed,
    tool_runner,
    user_turn,
)

__all__ = [
    "DEFAULTS",
    "VALVES",
    "Ending",
    "ask",
    "compare",
    "counter_reset",
    "learner_end",
    "not_grown",
    "outputs",
    "package_end",
    "rejected",
    "stale",
    "valve_name",
]

DEFAULTS = {"turns": 8, "budget": 40_000}  # the lesson's MAX_TURNS and TOKEN_BUDGET
VALVES = ("max_turns", "token_budget", "no_progress")
STOP_REASONS = (
    "tool_use",
    "pause_turn",
    "end_turn",
    "stop_sequence",
    "max_tokens",
    "refusal",
    "model_context_window_exceeded",
)
TIME = "2026-08-26T10:42:07+09:00"


def outputs(failing: tuple[str, ...] = ()) -> dict[str, Any]:
    """What each spy tool returns, in the kernel's language: a loop that hands a result back as its end
    value shows it in the hint. The tools named in ``failing`` raise instead (a file that is not there)."""
    spoken = ("read_file", "search", "write_file", "http_post", "delete_file")
    returns: dict[str, Any] = {"get_time": TIME} | {name: said("l6_outputs", name) for name in spoken}
    return returns | {name: FileNotFoundError(2, "No such file or directory", "notes.txt") for name in failing}


def handed(output: Any) -> Any:
    """A probe tool's output, or the exception it stands for, raised."""
    if isinstance(output, BaseException):
        raise output
    return output


def ask() -> str:
    """The user's request every lesson-6 probe starts with."""
    return said("l6", "ask")


def spied(rec: Recorder, emulator: Any, rounds: set, outputs: dict) -> dict:
    """Spy tools that also note which request's tools they are (the emulator's request count)."""

    def make(name: str, spy: Any) -> Any:
        def tool(*args: Any, **kwargs: Any) -> Any:
            rounds.add(len(emulator.requests))
            return handed(spy(*args, **kwargs))

        return tool

    return {name: make(name, spy) for name, spy in rec.tools(outputs).items()}


def learner_end(
    fn,
    script,
    decide=None,
    runaway: Miss | None = None,
    failing: tuple[str, ...] = (),
    caching: bool = False,
    **limits: int,
) -> tuple[Ending, Recorder, Any]:
    """Drive the learner's generator with the probe's limits: module variables ``MAX_TURNS`` and
    ``TOKEN_BUDGET``, and the keyword arguments ``max_turns`` / ``token_budget`` when it takes them.
    ``decide(name, input)`` answers approvals (a spy approver); None passes no approver. The tools
    named in ``failing`` raise; ``caching`` serves with prompt caching on."""
    turns, budget = limits.get("turns", DEFAULTS["turns"]), limits.get("budget", DEFAULTS["budget"])
    found, _ = function_of(fn)  # a callable object or a partial reads the limits of its code's module
    names = found.__globals__ if found is not None else {}
    names["MAX_TURNS"], names["TOKEN_BUDGET"] = turns, budget
    try:
        accepts: Mapping[str, Any] = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        accepts = {}
    extra = {k: v for k, v in (("max_turns", turns), ("token_budget", budget)) if k in accepts}
    emulator = runaway_guard(script, 40, runaway, caching)
    rounds: set[int] = set()
    client, rec, seen = emulated_client(emulator), Recorder(), Recording(emulator)
    approve = notebook_approver(rec, rec.approver(decide)) if decide is not None else None
    returns = outputs(failing)
    gen = fn(client, ask(), scene_tools(), spied(rec, emulator, rounds, returns), approve, **extra)
    ending = Ending("", 0, 0)
    if not hasattr(gen, "__next__"):
        ending.miss = Miss("lesson.l6.run_agent.not_generator", {"got": type(gen).__name__})
        return ending, rec, emulator
    try:
        events, end = _drive_to_an_end(gen)
    except anthropic.BadRequestError as exc:  # the history broke a rule the lessons teach: name it
        ending.miss = rejected(exc, emulator)
        return ending, rec, emulator
    except Exception as exc:
        ending.miss = spies_misused(rec)  # a tool or approve called wrongly raised, uncaught
        if ending.miss is None and not any(exc is returns[name] for name in failing):
            raise
        # the very error a failing tool raised came out of the loop: no is_error result went back for it
        ending.miss = ending.miss or Miss("lesson.l6.run_agent.tool_raised", {"error": describe_error(exc)})
        return ending, rec, emulator
    if runner := tool_runner(emulator):
        ending.miss = runner
        return ending, rec, emulator
    if isinstance(end, YieldedEnd):
        ending.miss = Miss("lesson.l6.run_agent.end_yielded", {"kind": end.kind})
        return ending, rec, emulator
    if hidden := swallowed(emulator):  # a 400 caught and turned into an end: its cause, not the end's
        ending.miss = hidden
        return ending, rec, emulator
    ending = Ending(
        cause=end.cause if isinstance(end, Stopped) else "finish",
        requests=len(emulator.requests),
        rounds=len(rounds),
        text=end.text if isinstance(end, (Finished, Stopped)) else "",
        reported=end.usage.input_tokens if isinstance(end, (Finished, Stopped)) else None,
        told_turns=end.turns if isinstance(end, (Finished, Stopped)) else None,
        labels=[e.request_number for e in events if isinstance(e, Turn)],
        usage=seen.usage,
        cached=seen.cached,
        written=seen.written,
        calls=seen.calls,
        whole=kept_whole(seen, emulator.requests),
        asked=[r.get("max_tokens", 0) for r in emulator.requests],
        counted_prompts=getattr(emulator, "prompts_counted", 0),
    )
    ending.miss = spies_misused(rec) or protocol_miss(events, end, ending.rounds, ending.requests)
    ending.miss = ending.miss or stale(emulator) or not_grown(emulator) or out_of_order(emulator)
    ending.miss = ending.miss or (_harmless_refused(emulator, rec) if approve is None else None)
    return ending, rec, emulator


def _harmless_refused(emulator: Any, rec: Recorder) -> Miss | None:
    """With no approver, a harmless call answered is_error without running: valve 4's no put on every tool."""
    sent = emulator.requests[1]["messages"] if len(emulator.requests) > 1 else []
    calls = {b["id"]: b["name"] for m in sent if m["role"] == "assistant" for b in blocks(m, "tool_use")}
    for result in (b for m in user_turn(sent) for b in blocks(m, "tool_result")):
        name = calls.get(result.get("tool_use_id"))
        if name is not None and name not in HIGH_IMPACT and result.get("is_error") and not rec.ran(name):
            return Miss("lesson.l6.run_agent.harmless_refused", {"tool": name})
    return None


@dataclass
class YieldedEnd:
    """An end value the loop yielded instead of returning: ``kind`` is "stopped" or "finished"."""

    kind: str


def _drive_to_an_end(gen: Any) -> tuple[list, Any]:
    """``drive``, halted at an end value yielded as though it were a turn: a yield only pauses the loop,
    so one that yields its stop goes on past it, and the probe would meet its runaway, not its cause."""
    events: list = []
    while True:
        try:
            event = next(gen)
        except StopIteration as end:
            return events, end.value
        if isinstance(event, (Finished, Stopped)):
            gen.close()
            return events, YieldedEnd("stopped" if isinstance(event, Stopped) else "finished")
        events.append(event)


def rejected(exc: anthropic.BadRequestError, emulator: Any) -> Miss:
    """The hint for the API's 400 on the history the loop sent last."""
    sent = emulator.requests[-1].get("messages") if emulator.requests else None
    last = sent[-1] if isinstance(sent, list) and sent and isinstance(sent[-1], dict) else {}
    results = blocks(last, "tool_result")
    if len(results) > 1 and all(r == results[0] for r in results):  # no two calls' results are alike (ids differ):
        return Miss("lesson.l2.run_tools.one_dict")  # one dict, refilled and appended for every call
    return api_refusal(exc, sent)


def stale(emulator: Any) -> Miss | None:
    """A first request that carries more than the prompt: a history kept from an earlier run."""
    first = emulator.requests[0].get("messages", []) if emulator.requests else []
    return Miss("lesson.l6.run_agent.stale_history", {"count": len(first)}) if len(first) > 1 else None


def not_grown(emulator: Any) -> Miss | None:
    """A request after a tool turn that carried no more messages than the one before: the turn went into
    another list (a copy), so the model saw the same history again and made the same call (valve 3's stop
    is its symptom). A resend after pause_turn has hints of its own."""
    sizes = [len(r.get("messages") or []) for r in emulator.requests]
    reasons = [m.get("stop_reason") for m in emulator.served]
    for number, (before, now) in enumerate(pairwise(sizes), 2):
        if now <= before and number - 2 < len(reasons) and reasons[number - 2] == "tool_use":
            return Miss("lesson.l6.run_agent.history_not_grown", {"request": number, "messages": now})
    return None


def protocol_miss(events: list, end: Any, rounds: int, requests: int) -> Miss | None:
    """Did the generator yield each turn with its results and end with an end value?"""
    if not isinstance(end, (Finished, Stopped)):
        return Miss("lesson.l6.run_agent.no_end", {"got": repr(end)[:40]})
    turns = [e for e in events if isinstance(e, Turn)]
    if not turns and rounds:
        return Miss("lesson.l6.run_agent.no_yield")
    # Every request after the first was sent by a lap that ended; a lap left unyielded (a resend, or the
    # last tool turn) is one the Stepper runs through without pausing. Only a finished run is counted so:
    # a valve's stop ends its lap before the yield.
    if isinstance(end, Finished) and len(turns) < requests - 1:
        return Miss(
            "lesson.l6.run_agent.lap_not_yielded", {"requests": requests, "laps": requests - 1, "yields": len(turns)}
        )
    for event in turns:  # a turn that ran tools yields them with their results, one per call
        calls = [b for b in getattr(event.response, "content", None) or () if getattr(b, "type", None) == "tool_use"]
        if event.stop_reason == "tool_use" and len(event.results) != len(calls):
            return Miss("lesson.l6.run_agent.yield_results", {"calls": len(calls), "results": len(event.results)})
        answered = [
            r.get("tool_use_id") if isinstance(r, dict) else getattr(r, "tool_use_id", None) for r in event.results
        ]
        ids = [getattr(b, "id", None) for b in calls]
        if event.results and sorted(map(str, answered)) == sorted(map(str, ids)) and answered != ids:
            return Miss("lesson.l6.run_agent.results_order", {"calls": len(calls)})  # this turn's, reordered
        if event.results and answered != ids:
            return Miss("lesson.l6.run_agent.yield_other_response")  # yielded after the next request was sent
    return None


def package_end(script, failing: tuple[str, ...] = (), **limits: int) -> Ending:
    """How the package's own ``Run`` ends on ``script`` with the same tools and limits."""
    from ..drain import drain
    from ..loop import Run
    from ..tools import tool
    from ..valves import MaxTurns, NoProgress, TokenBudget, Valve

    # The same tool definitions the learner's loop sends, so both requests cost the same tokens.
    returns = outputs(failing)
    tools = [
        tool(
            lambda d=d, **_: handed(returns.get(d["name"], "")),
            **{k: d[k] for k in ("name", "description", "input_schema")},
        )  # type: ignore[call-overload]  # these three keys of a ToolParam are tool()'s own
        for d in scene_tools()
    ]
    valves: list[Valve] = [
        MaxTurns(limits.get("turns", DEFAULTS["turns"])),
        TokenBudget(limits.get("budget", DEFAULTS["budget"])),
        NoProgress(),
    ]
    run = Run(emulated_client(script), tools, valves)
    turns: list = []  # the turns whose tools ran (a pause_turn resend is a turn with no results)
    end = drain(run.start(ask()), on_event=lambda e: turns.append(e) if isinstance(e, Turn) and e.results else None)
    return Ending(end.cause if isinstance(end, Stopped) else "finish", run.state.model_calls, len(turns), end.text)


def compare(mine: Ending, want: Ending, **limits: int) -> Miss | None:
    """None when the learner's loop ended as the package's did, else the hint naming the cause."""
    if mine.miss is not None:
        return mine.miss
    if not mine.whole:
        return Miss("lesson.l2.run_agent.not_whole")
    limit = {"turns": limits.get("turns", DEFAULTS["turns"]), "budget": limits.get("budget", DEFAULTS["budget"])}
    if mine.cause not in (*VALVES, *STOP_REASONS, "finish"):
        return Miss("lesson.l6.run_agent.unknown_cause", {"got": mine.cause})
    if mine.cause == "no_progress" and mine.rounds == 0:  # valve 3 before any tool ran: no earlier turn yet
        return Miss("lesson.l6.run_agent.spun_at_once")
    if mine.cause != want.cause:
        if (
            mine.cause in STOP_REASONS
            and want.cause in VALVES
            and (mine.requests, mine.rounds)
            == (
                want.requests,
                want.rounds,
            )
        ):  # stopped in the right place, but it says the model's stop_reason instead of the valve
            return Miss("lesson.l6.run_agent.valve_not_named", {"got": mine.cause, "want": want.cause})
        return _wrong_end(mine, want, limit)
    if (mine.requests, mine.rounds) == (want.requests, want.rounds):
        return None
    return _wrong_counts(mine, want, limit)


def counter_reset(mine: Ending) -> bool:
    """Every lap yielded as turn 1 and the end told 0 or 1 (before or after that lap's turns += 1): turns = 0
    stands inside the loop, run on every lap."""
    return mine.rounds > 1 and set(mine.labels) == {1} and mine.told_turns in (0, 1)


def valve_name(cause: str) -> str:
    return t(f"lesson.l6.valve.{cause}")


def _wrong_end(mine: Ending, want: Ending, limit: dict) -> Miss:
    calls = " / ".join(c for turn in mine.calls[:3] for c in turn) or "—"
    if want.cause == "finish":
        if mine.cause in ("tool_use", "pause_turn"):  # it left while the model still wanted to go on
            return Miss("lesson.l6.run_agent.left_early", {"got": mine.cause, "requests": mine.requests})
        if mine.cause in STOP_REASONS:
            return Miss("lesson.l6.run_agent.finish_as_stop", {"got": mine.cause})
        if mine.cause == "no_progress":
            return Miss("lesson.l6.run_agent.normal_no_progress", {"calls": calls})
        return Miss("lesson.l6.run_agent.normal_stopped", {"valve": valve_name(mine.cause), "rounds": mine.rounds})
    if mine.cause == "finish" or mine.cause in STOP_REASONS:
        got = mine.cause if mine.cause != "finish" else repr(mine.text[:30])
        return Miss("lesson.l6.run_agent.ended_while_calling", {"want": valve_name(want.cause), "got": got})
    if mine.cause == "no_progress":  # never_ending and burning call something new every turn
        return Miss("lesson.l6.run_agent.no_progress_on_new_calls", {"calls": calls})
    if want.cause == "token_budget":
        return budget_cause(mine, limit, want)
    if want.cause == "no_progress":
        return Miss("lesson.l6.run_agent.missed_spinning", {"valve": valve_name(mine.cause), "calls": calls})
    if mine.cause == "token_budget":  # want max_turns
        used = sum(spent(mine))
        if used >= limit["budget"]:  # valve 2 was right to stop: valve 1 never did
            if counter_reset(mine):
                return Miss("lesson.l6.run_agent.turns_reset", {"rounds": mine.rounds})
            return Miss("lesson.l6.run_agent.valve1_silent", {"limit": limit["turns"], "rounds": mine.rounds})
        return Miss("lesson.l6.run_agent.budget_too_early", {"budget": limit["budget"], "used": used})
    return Miss("lesson.l6.run_agent.counts", _numbers(mine, want))


def _wrong_counts(mine: Ending, want: Ending, limit: dict) -> Miss:
    numbers = _numbers(mine, want)
    if want.cause == "max_turns":
        n = limit["turns"]
        if (mine.rounds, mine.requests) == (n, n):
            return Miss("lesson.l6.run_agent.after_tools", numbers)
        if (mine.rounds, mine.requests) == (n - 1, n):
            return Miss("lesson.l6.run_agent.after_increment", numbers)
        if (mine.rounds, mine.requests) == (n + 1, n + 2):
            return Miss("lesson.l6.run_agent.one_too_many", {"limit": n, **numbers})
        if (mine.rounds, mine.requests) == (n + 1, n + 1):  # > asked after the tools: a turn over, its results unsent
            return Miss("lesson.l6.run_agent.over_after_tools", {"limit": n, **numbers})
        if mine.rounds > n:
            return Miss("lesson.l6.run_agent.limit_ignored", {"limit": n, **numbers})
    if want.cause == "token_budget" and mine.requests > want.requests:
        return budget_cause(mine, limit, want)
    if want.cause == "token_budget" and (mine.requests, mine.rounds) == (want.requests, want.rounds + 1):
        # The right request count, one tool turn more: the response that crossed the budget had its
        # calls run before valve 2 was asked (after the tools, or after the yield).
        return Miss("lesson.l6.run_agent.budget_after_tools", numbers)
    if want.cause == "no_progress" and mine.rounds > want.rounds:
        return Miss("lesson.l6.run_agent.spin_ran_again", numbers)
    return Miss("lesson.l6.run_agent.counts", numbers)


def _numbers(mine: Ending, want: Ending) -> dict:
    return {
        "requests": mine.requests,
        "rounds": mine.rounds,
        "want_requests": want.requests,
        "want_rounds": want.rounds,
    }
