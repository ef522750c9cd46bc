"""Grader for exercise level 2: the gate missing from a bare loop (lesson 6, 練習).

The learner answers in data, choosing keys from two printed option lists: ``MISSING`` (which controls
the bare loop lacks) and ``RUNAWAYS`` (which runaway behaviours follow), and fixes
``run_agent(client, user_input, tools, tool_impls)`` with a ``MAX_TURNS`` check.

Criteria 1 and 2 read the chosen keys (distractors describe things the loop already does right).
Criterion 3 runs ``run_agent`` against emulated models, each in a time-limited child: one that never
stops (exactly N tool rounds and N + 1 model calls, then a stop message), a normal task that ends
after two tool rounds, and a task that ends after exactly N rounds (the cap must not cut it off).
Model calls are counted by the emulator, tool rounds by spy tools; a loop with no cap is cut off by
the scripted model itself after a margin, or by the time limit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Callable

from ..emulator import Emulator, assistant_turns, call, emulated_client, reply, say
from ..text import t
from .report import Check, Report
from .sandbox import abort, run_limited
from .scenarios import OUTPUTS, TOOL_DEFS
from .spies import Recorder

__all__ = [
    "GAP_OPTIONS",
    "RUNAWAY_OPTIONS",
    "check_level2",
    "grade_level2",
    "level2_options",
]

# key -> true of the bare loop?
GAP_OPTIONS = {
    "stop_condition": True,
    "token_budget": True,
    "no_progress": True,
    "approval": True,
    "keep_history": False,
    "tools_followup": False,
    "reassign": False,
    "one_user_message": False,
}
REQUIRED_GAP = "stop_condition"

# key -> which runaway family it belongs to (None: this loop does not do that)
RUNAWAY_OPTIONS = {
    "endless_turns": "turns",
    "budget_burn": "turns",
    "spinning": "no_progress",
    "early_stop": None,
    "api_400": None,
    "dead_loop": None,
}

MAX_TURNS_RANGE = range(2, 21)
# How far past N a capless loop may go before the scripted model ends the child.
RUNAWAY_MARGIN = 25
ANSWER = "README.md の1行目は「# エージェントハーネスの基礎」で、いまは 2026年8月26日の 10:42 です。"
LIMIT_WORDS = ("ターン", "turn", "上限", "limit")
_TOOL_NAMES = ("search", "get_time", "read_file")


def level2_options() -> None:
    """Print the two option lists the learner chooses from (key: description)."""
    lines = [t("grade.l2.options.gaps")]
    lines += [f"  {key!r}: {t('grade.l2.gap.' + key)}" for key in GAP_OPTIONS]
    lines.append(t("grade.l2.options.runaways"))
    lines += [f"  {key!r}: {t('grade.l2.runaway.' + key)}" for key in RUNAWAY_OPTIONS]
    print("\n".join(lines))


def grade_level2(
    MISSING: Any, RUNAWAYS: Any, run_agent: Callable, MAX_TURNS: Any, *, timeout: float = 5.0
) -> Report:
    """Judge the three criteria; returns a ``Report`` (nothing printed)."""
    return Report(
        "level2",
        (_criterion1(MISSING), _criterion2(RUNAWAYS), _criterion3(run_agent, MAX_TURNS, timeout)),
    )


def check_level2(MISSING: Any, RUNAWAYS: Any, run_agent: Callable, MAX_TURNS: Any, *, timeout: float = 5.0) -> None:
    """The notebook's grade cell: print one line per criterion and a summary line."""
    print(grade_level2(MISSING, RUNAWAYS, run_agent, MAX_TURNS, timeout=timeout).text())


def _keys(answer: Any) -> set[str]:
    """The chosen option keys, whether given as a str, a set/list/tuple, or a dict of flags."""
    if answer is None:
        return set()
    if isinstance(answer, str):
        return {answer.strip()}
    if isinstance(answer, Mapping):
        return {str(k).strip() for k, chosen in answer.items() if chosen}
    if isinstance(answer, Iterable):
        return {str(k).strip() for k in answer}
    return {str(answer)}


def _criterion1(missing: Any) -> Check:
    title = t("grade.l2.c1.title")
    keys = _keys(missing)
    unknown = sorted(keys - GAP_OPTIONS.keys())
    if unknown:
        return Check.fail(1, title, "grade.l2.unknown", keys=", ".join(map(repr, unknown)))
    wrong = [k for k in GAP_OPTIONS if k in keys and not GAP_OPTIONS[k]]
    if wrong:
        return Check.fail(1, title, "grade.l2.c1.not_missing", option=wrong[0], desc=t("grade.l2.gap." + wrong[0]))
    if REQUIRED_GAP not in keys:
        return Check.fail(1, title, "grade.l2.c1.no_stop_condition")
    return Check(1, title, True)


def _criterion2(runaways: Any) -> Check:
    title = t("grade.l2.c2.title")
    keys = _keys(runaways)
    unknown = sorted(keys - RUNAWAY_OPTIONS.keys())
    if unknown:
        return Check.fail(2, title, "grade.l2.unknown", keys=", ".join(map(repr, unknown)))
    wrong = [k for k in RUNAWAY_OPTIONS if k in keys and RUNAWAY_OPTIONS[k] is None]
    if wrong:
        return Check.fail(2, title, "grade.l2.c2.not_this_loop", option=wrong[0], desc=t("grade.l2.runaway." + wrong[0]))
    families = {RUNAWAY_OPTIONS[k] for k in keys}
    if "turns" not in families:
        return Check.fail(2, title, "grade.l2.c2.no_turns")
    if "no_progress" not in families:
        return Check.fail(2, title, "grade.l2.c2.no_spinning")
    return Check(2, title, True)


def _never_ending(n: int) -> Callable[[dict], Any]:
    """A model that asks for one more search every turn, with new arguments (so it is not spinning)."""

    def policy(request: dict) -> Any:
        done = assistant_turns(request)
        if done > n + RUNAWAY_MARGIN:
            abort({"runaway": True, "calls": done + 1})
        return reply("まだ手がかりを探します。", call("search", query=f"手がかり {done + 1}"))

    return policy


def _finishing_after(rounds: int, n: int) -> Callable[[dict], Any]:
    """A model that searches ``rounds`` times and then answers (the normal case, bounded by a guard)."""

    def policy(request: dict) -> Any:
        done = assistant_turns(request)
        if done > n + RUNAWAY_MARGIN:
            abort({"runaway": True, "calls": done + 1})
        if done < rounds:
            return call("search", query=f"手がかり {done + 1}")
        return say(ANSWER)

    return policy


def _two_tools() -> list:
    return [call("get_time"), call("read_file", path="README.md"), say(ANSWER)]


def _run(run_agent: Callable, script: Any, timeout: float) -> Any:
    """Run the learner's loop once against ``script``; returns the sandbox outcome."""
    emulator = Emulator(script)
    client = emulated_client(emulator)
    tools = [d for d in TOOL_DEFS if d["name"] in _TOOL_NAMES]

    def job() -> dict:
        rec = Recorder()
        returned = run_agent(client, "README.md の1行目を読んで、それから今何時か教えて", tools,
                             rec.tools({name: OUTPUTS[name] for name in _TOOL_NAMES}))
        return {
            "returned": returned if isinstance(returned, str) else None,
            "shown": _short(returned),
            "calls": len(emulator.requests),
            "rounds": len(rec.ran()),
        }

    return run_limited(job, timeout)


def _criterion3(run_agent: Callable, max_turns: Any, timeout: float) -> Check:
    title = t("grade.l2.c3.title")
    n = max_turns
    if isinstance(n, bool) or not isinstance(n, int) or n not in MAX_TURNS_RANGE:
        return Check.fail(3, title, "grade.l2.c3.bad_max_turns", value=_short(n))

    outcome = _run(run_agent, _never_ending(n), timeout)
    if outcome.status in ("aborted", "timeout"):
        return Check.fail(3, title, "grade.l2.c3.runaway")
    if outcome.status != "ok":
        if "`tool_use` ids must be unique" in outcome.error:  # the API's answer to lesson 4's dead loop
            return Check.fail(3, title, "grade.l2.c3.stale_response")
        if not outcome.error:
            return Check.fail(3, title, "grade.crashed")
        return Check.fail(3, title, "grade.raised", error=outcome.error)
    seen = outcome.value
    if (seen["rounds"], seen["calls"]) != (n, n + 1):
        if seen["rounds"] == n - 1 and seen["calls"] == n:
            key = "grade.l2.c3.one_early"
        elif seen["rounds"] == n and seen["calls"] == n:
            key = "grade.l2.c3.results_unsent"
        else:
            key = "grade.l2.c3.counts"
        return Check.fail(3, title, key, n=n, rounds=seen["rounds"], calls=seen["calls"])
    said = seen["returned"]
    if not said or not said.strip() or not any(w.lower() in said.lower() for w in (str(n), *LIMIT_WORDS)):
        return Check.fail(3, title, "grade.l2.c3.no_stop_message", shown=seen["shown"])

    for script, rounds in ((_two_tools(), 2), (_finishing_after(n, n), n)):
        outcome = _run(run_agent, script, timeout)
        if outcome.status in ("aborted", "timeout"):
            return Check.fail(3, title, "grade.l2.c3.normal_runaway")
        if outcome.status != "ok":
            return Check.fail(3, title, "grade.l2.c3.normal_raised", error=outcome.error or "?")
        seen = outcome.value
        if not seen["returned"] or ANSWER not in seen["returned"]:
            key = "grade.l2.c3.cut_at_cap" if rounds == n else "grade.l2.c3.normal_answer"
            return Check.fail(3, title, key, n=n, shown=seen["shown"])
        if seen["calls"] != rounds + 1:
            return Check.fail(3, title, "grade.l2.c3.normal_calls", calls=seen["calls"], expected=rounds + 1)
    return Check(3, title, True)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
