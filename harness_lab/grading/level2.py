"""Grader for exercise level 2: the gate missing from a bare loop (lesson 6, 練習).

The learner answers in data and in code. ``MISSING`` maps each control the bare loop lacks to the
runaway that lack produces (keys and values from ``level2_options()``), as the seed asks: which
controls are missing and which runaway *each* one causes. ``run_agent(client, user_input, tools,
tool_impls)`` gets a ``MAX_TURNS`` check.

1. The keys name the missing explicit stop condition and nothing the loop already does right.
2. Each missing control is paired with a runaway it really produces, and the pairs cover both a
   turns/budget runaway and no-progress spinning.
3. ``run_agent`` runs against emulated models, each in a time-limited child: one that never stops
   and calls one tool a turn, one that never stops and calls two or three tools a turn (a loop that
   counts tool_use blocks instead of turns stops early there), a normal task that ends after two
   tool turns, one that ends after exactly N (the cap must not cut it off), and one whose answer is
   cut off at max_tokens (no tool_use: the loop must end there too). Against the
   never-stopping model: exactly N tool turns and N + 1 requests, then a stop message that says the
   run stopped at the limit; then the same with MAX_TURNS changed where the loop reads it (its
   module's global, or a default argument that took N): a limit fixed when the cell ran earns a
   note, never a failure. Requests are counted by the emulator, tool turns by spy tools; a loop
   with no cap is cut off by the scripted model itself after a margin, or by the time limit. A
   history the API rejects ends with the API's own 400 text as the hint; one it accepts must still
   start with the task (turns put at the top, or the oldest cut, lose it for the model). Ctrl-C
   pressed while a tool runs must stop the loop (``level2_interrupt``).

Like level 1, every learner object (``MISSING``, ``MAX_TURNS``, what ``run_agent`` returns) is read
only inside a time-limited child: an endless ``MISSING`` generator or an int whose ``__eq__``
loops fails its criterion instead of hanging the kernel. The model and the tools answer from the
grader's side of ``bridge.observe``: requests and tool turns are counted there, where no learner
code runs, and so is the verdict.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Mapping
from itertools import islice
from typing import Any

from ..text import Phrase, t
from .bridge import observe
from .level2_counted import miscounted
from .level2_interrupt import interrupt_caught
from .level2_scene import cut_in_a_call, cut_off, finishing_after, never_ending, run_scene, said, two_tools
from .level_slips import slipped
from .report import Check, Report, failed_run, guarded, print_lines, show, stale_answers
from .sandbox import JobResult, plain

__all__ = [
    "GAP_OPTIONS",
    "PAIRS",
    "RUNAWAY_OPTIONS",
    "check_level2",
    "grade_level2",
    "grade_level2_from",
    "level2_options",
    "says_stopped",
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
    "unchecked_action": "approval",
    "early_stop": None,
    "api_400": None,
    "dead_loop": None,
}
# missing control -> the runaways its absence produces
PAIRS = {
    "stop_condition": {"endless_turns", "budget_burn"},
    "token_budget": {"budget_burn"},
    "no_progress": {"spinning"},
    "approval": {"unchecked_action"},
}

MAX_TURNS_RANGE = range(2, 51)
_MAX_ITEMS = 100  # options read from MISSING before it is called endless
_KEY_CHARS = 200  # of an option key read from MISSING (each is a few words): megabytes of one read as tampering

# A stop message says that the run stopped, and at a limit. Searched in the lower-cased text.
_LIMIT = re.compile(
    r"上限|最大|制限|限度|限界|ターン|回数|すぎ|過ぎ|\d+\s*(回|周)|max_turns|"  # 多すぎ: "too many"
    r"\b(limit|limits|max|maximum|turns?|cap|capped|iterations?|rounds?|steps?|budget|too many)\b|"
    # a count of laps says what ran out as well as "8 turns" does: "after 8 loops", "8 attempts"
    r"\b\d+\s*(loops?|laps?|attempts?|tries|passes|cycles|times)\b"
)
_STOPPED = re.compile(
    r"止ま|止め|停止|打ち切|中断|中止|終了|終え|終わ|切り上げ|やめ|達し|到達|超え|超過|上回|オーバー|届い|使い切|"
    r"完了(でき|し)(ませ|なかっ)|諦め|あきらめ|"
    # no answer came (as "no final answer" says): not "まだ答えが出ません", which is a run going on
    r"(?<!まだ)(回答|答え|返答|結論)[^。、.,]{0,6}?(でき|出|得られ|出せ|返せ|まとまら|まとめられ)(ませ|なかっ|ず)|"
    r"\b(stop|stopped|stopping|stops|halt|halted|abort|aborted|aborting|end|ended|ending|cut off|cut short|"
    r"exceed|exceeded|exceeding|exceeds|reached|hit|give up|gave up|giving up|quit|terminated|terminating|"
    r"exhausted|used all|used up|ran out|running out|out of|timed out|time out|timeout|finished early|"
    r"(did not|didn't|could not|couldn't|was not|wasn't|is not|isn't|not|never|unable to|failed to|fail to)"
    r"( be)? (finish|finished|complete|completed)|unfinished|incomplete|"
    r"no (final )?answer|without a final answer|without an answer)\b"
)


def level2_options() -> None:
    """Print the keys and the values ``MISSING`` is written with (key: description)."""
    lines = [t("grade.l2.options.gaps")]
    lines += [f"  {key!r}: {t('grade.l2.gap.' + key)}" for key in GAP_OPTIONS]
    lines.append(t("grade.l2.options.runaways"))
    lines += [f"  {key!r}: {t('grade.l2.runaway.' + key)}" for key in RUNAWAY_OPTIONS]
    print_lines(lines)


def grade_level2(MISSING: Any, run_agent: Callable, MAX_TURNS: Any, *, timeout: float = 5.0) -> Report:
    """Judge the three criteria; returns a ``Report`` (nothing printed)."""
    return grade_level2_from(lambda: (MISSING, run_agent, MAX_TURNS), timeout=timeout)


def grade_level2_from(learner: Callable[[], tuple], *, timeout: float = 5.0) -> Report:
    """Judge the learner's ``(MISSING, run_agent, MAX_TURNS)``, which ``learner()`` gives in each child."""
    answer = observe(lambda: _read_missing(learner()[0]), _no_messages, timeout)
    return Report(
        "level2",
        (
            guarded(1, t("grade.l2.c1.title"), lambda: _criterion1(answer)),
            guarded(2, t("grade.l2.c2.title"), lambda: _criterion2(answer)),
            guarded(3, t("grade.l2.c3.title"), lambda: _criterion3(learner, timeout)),
        ),
    )


def _no_messages(message: tuple) -> Any:
    raise ValueError("no spy here")


def check_level2(MISSING: Any, run_agent: Callable, MAX_TURNS: Any, *, timeout: float = 5.0) -> None:
    """The notebook's grade cell: print one line per criterion, then fail the cell if one failed."""
    stale_answers(MISSING=MISSING, run_agent=run_agent, MAX_TURNS=MAX_TURNS)
    show(lambda: grade_level2(MISSING, run_agent, MAX_TURNS, timeout=timeout))


def says_stopped(text: str) -> bool:
    """Does a returned message tell the user that the run stopped at a limit (no number needed)?"""
    low = text.lower()
    return _LIMIT.search(low) is not None and _STOPPED.search(low) is not None


# --- criteria 1 and 2: the answer, read in a child ------------------------------------------------
def _keys(value: Any) -> list[str]:
    """Option keys given as a str, a collection, or a dict of flags; read in the child."""
    if value is None:
        return []
    if isinstance(value, str):
        return [plain(value, _KEY_CHARS).strip()]
    if isinstance(value, Mapping):
        return [plain(k, _KEY_CHARS).strip() for k in _bounded(value) if value[k]]
    if isinstance(value, Iterable):
        return [plain(k, _KEY_CHARS).strip() for k in _bounded(value)]
    return [plain(value, _KEY_CHARS)]


def _bounded(items: Iterable) -> list:
    found = list(islice(iter(items), _MAX_ITEMS + 1))
    if len(found) > _MAX_ITEMS:
        raise OverflowError
    return found


def _read_missing(missing: Any) -> dict:
    """MISSING as plain data: {"mapping": bool, "pairs": [(control, [runaways])]} or {"endless": True}."""
    try:
        if isinstance(missing, Mapping):
            return {
                "mapping": True,
                "pairs": [(plain(k, _KEY_CHARS).strip(), _keys(missing[k])) for k in _bounded(missing)],
            }
        return {"mapping": False, "pairs": [(key, []) for key in _keys(missing)]}
    except OverflowError:
        return {"endless": True}


def _criterion1(answer: JobResult) -> Check:
    title = t("grade.l2.c1.title")
    if answer.status != "ok":
        return failed_run(1, title, answer)
    if answer.value.get("endless"):
        return Check.fail(1, title, "grade.l2.endless", limit=_MAX_ITEMS)
    keys = [key for key, _ in answer.value["pairs"]]
    unknown = sorted(set(keys) - GAP_OPTIONS.keys())
    if unknown:
        return Check.fail(1, title, "grade.l2.unknown", keys=", ".join(map(repr, unknown)))
    wrong = [k for k in GAP_OPTIONS if k in keys and not GAP_OPTIONS[k]]
    if wrong:
        return Check.fail(1, title, "grade.l2.c1.not_missing", option=wrong[0], desc=Phrase("grade.l2.gap." + wrong[0]))
    if REQUIRED_GAP not in keys:
        return Check.fail(1, title, "grade.l2.c1.no_stop_condition")
    return Check(1, title, True)


def _criterion2(answer: JobResult) -> Check:
    title = t("grade.l2.c2.title")
    if answer.status != "ok":
        return failed_run(2, title, answer)
    if answer.value.get("endless"):
        return Check.fail(2, title, "grade.l2.endless", limit=_MAX_ITEMS)
    if not answer.value["mapping"]:
        return Check.fail(2, title, "grade.l2.c2.not_mapping")
    # controls criterion 1 already refuses (not missing, or no such option) are left to it
    pairs = [(c, runaways) for c, runaways in answer.value["pairs"] if GAP_OPTIONS.get(c)]
    unread = sorted(repr(c) for c, _ in answer.value["pairs"] if c not in GAP_OPTIONS)
    if unread and not pairs:  # every pair under a key no option has: its runaways were never read, not missing
        return Check.fail(2, title, "grade.l2.unknown", keys=", ".join(unread))
    families = set()
    for control, runaways in pairs:
        if not runaways:
            return Check.fail(2, title, "grade.l2.c2.unpaired", control=control)
        unknown = sorted(set(runaways) - RUNAWAY_OPTIONS.keys())
        if unknown:
            return Check.fail(2, title, "grade.l2.unknown", keys=", ".join(map(repr, unknown)))
        for runaway in runaways:
            if RUNAWAY_OPTIONS[runaway] is None:
                return Check.fail(
                    2, title, "grade.l2.c2.not_this_loop", option=runaway, desc=Phrase("grade.l2.runaway." + runaway)
                )
            if runaway not in PAIRS[control]:
                return Check.fail(
                    2,
                    title,
                    "grade.l2.c2.mispaired",
                    control=control,
                    runaway=runaway,
                    gap=Phrase("grade.l2.gap." + control),
                    desc=Phrase("grade.l2.runaway." + runaway),
                )
            families.add(RUNAWAY_OPTIONS[runaway])
    if "turns" not in families:
        return Check.fail(2, title, "grade.l2.c2.no_turns")
    if "no_progress" not in families:
        return Check.fail(2, title, "grade.l2.c2.no_spinning")
    return Check(2, title, True)


# --- criterion 3: the loop, run against scripted models -----------------------------------------
def _read_max_turns(max_turns: Any) -> tuple[str, Any]:
    """In a child: MAX_TURNS as a plain int in range, or how it shows."""
    if type(max_turns) is int and max_turns in MAX_TURNS_RANGE:
        return "ok", max_turns
    return "bad", plain(max_turns, 60)


# The default model thinks: the last assistant turn must go back starting with its thinking block.
_API_SAYS = (
    ("Expected `thinking` or `redacted_thinking`", "grade.l2.c3.thinking_lost"),
    ("must define tools", "grade.l2.c3.tools_missing"),
    # another SDK's history: OpenAI's "system" message (first in messages, or later on a model that refuses
    # one), or its "tool" message for a result (the live texts, docs/api_facts.md rounds five and six)
    ("use the top-level 'system' parameter for the initial system prompt", "grade.l2.c3.other_role"),
    ('Unexpected role "', "grade.l2.c3.other_role"),
    ("role 'system' is not supported on this model", "grade.l2.c3.other_role"),  # a model without system messages
)
_MESSAGE_EXTRA_KEY = re.compile(r"^messages\.\d+\.(\w+): Extra inputs are not permitted")  # OpenAI's tool_calls
_OTHER_SDK = re.compile(r"'Message' object has no attribute '(choices|finish_reason|tool_calls)'")


def _broken(title: str, outcome: JobResult, runaway_key: str, raised_key: str) -> Check | None:
    """The hint for a scenario that did not end with a summary (or ended in an API 400), else None."""
    if isinstance(outcome.value, dict) and outcome.value.get("runner"):  # the SDK's loop sent it, not the learner's
        return Check.fail(3, title, "grade.l2.c3.tool_runner")
    if isinstance(outcome.value, dict) and (form := outcome.value.get("miscalled")):  # every tool failed by it
        return Check.fail(3, title, "grade.l2.impl_call", tool=form.partition("(")[0], call=form)
    if isinstance(outcome.value, dict) and (error := outcome.value.get("retried")):  # one 400, sent again and again
        return Check.fail(3, title, "grade.l2.c3.retried_400", error=error, times=outcome.value["times"])
    if outcome.status in ("aborted", "timeout"):
        return Check.fail(3, title, runaway_key)
    if outcome.status == "error" and re.search(
        r"(ToolUse|Thinking)Block' object has no attribute 'text'", outcome.error or ""
    ):
        return Check.fail(3, title, "grade.l2.c3.block_not_text", error=outcome.error)  # a block read as text
    if outcome.status == "error" and _OTHER_SDK.search(outcome.error or ""):
        return Check.fail(3, title, "grade.l2.c3.other_sdk", error=outcome.error)  # OpenAI's response read here
    if outcome.status == "error":
        return Check.fail(3, title, raised_key, error=outcome.error or "?")
    if outcome.status != "ok":
        return failed_run(3, title, outcome)
    error = outcome.value.get("api_error")
    if error is not None:
        if "`tool_use` ids must be unique" in error:  # the API's answer to lesson 4's dead loop
            return Check.fail(3, title, "grade.l2.c3.stale_response")
        if word := outcome.value.get("flag_text"):  # is_error as the word "true": the word, not the value
            return Check.fail(3, title, "grade.l2.c3.is_error_text", got=repr(word), error=error)
        for said, key in _API_SAYS:  # a 400 that names its cause outright: the hint names it too
            if said in error:
                return Check.fail(3, title, key, error=error)
        if extra := _MESSAGE_EXTRA_KEY.search(error):
            return Check.fail(3, title, "grade.l2.c3.message_extra_key", extra=extra.group(1), error=error)
        if outcome.value.get("reused"):  # earlier turns' results replaced by the latest: one list refilled
            return Check.fail(3, title, "grade.l2.c3.results_reused", error=error)
        if misplaced := outcome.value.get("misplaced"):  # the results' message in the wrong role, or too early
            return Check.fail(3, title, f"grade.l2.c3.results_{misplaced}", error=error)
        if raised_key != "grade.raised":  # a normal task: the loop went on where it should have ended
            return Check.fail(3, title, raised_key, error=f"BadRequestError: {error}")
        return Check.fail(3, title, "grade.l2.c3.api_rejected", error=error)
    return None


def _fixed_cap_note(learner: Callable[[], tuple], n: int, timeout: float) -> str:
    """The never-ending model again with MAX_TURNS changed where the loop reads it: a limit fixed when
    the cell ran (a number, or a copy of MAX_TURNS) stays at N. That is a note, never a failure: the
    loop is right for the MAX_TURNS it was given, and a copy taken on purpose cannot be told apart."""
    if not hasattr(os, "fork"):  # the child would be a thread of the learner's kernel: change nothing there
        return ""
    cap = 2 if n != 2 else 3
    outcome = run_scene(learner, n, never_ending(cap, lambda k: 1), timeout, cap=cap)
    if outcome.status != "ok" or "rounds" not in outcome.value or outcome.value["rounds"] != n:
        return ""
    return t("grade.l2.c3.fixed_cap", n=n, cap=cap)


def _criterion3(learner: Callable[[], tuple], timeout: float) -> Check:
    title = t("grade.l2.c3.title")
    read = observe(lambda: _read_max_turns(learner()[2]), _no_messages, timeout)
    if read.status != "ok":
        return failed_run(3, title, read)
    kind, n = read.value
    if kind == "bad":
        return Check.fail(3, title, "grade.l2.c3.bad_max_turns", value=n)
    one_a_turn = run_scene(learner, n, never_ending(n, lambda k: 1), timeout)
    if one_a_turn.status == "error" and (one_a_turn.value["rounds"], one_a_turn.value["calls"]) == (n, n + 1):
        return slipped(3, title, one_a_turn) or Check.fail(
            3, title, "grade.l2.c3.raised_at_cap", n=n, error=one_a_turn.error or "?"
        )
    if broken := _broken(title, one_a_turn, "grade.l2.c3.runaway", "grade.raised"):
        return broken
    seen = one_a_turn.value
    if seen["lazy"] and seen["calls"] == 0:  # an async def or a generator: calling it ran none of its body
        return Check.fail(3, title, "grade.l2.c3.never_ran", kind=seen["lazy"])
    if seen["displaced"]:  # the API takes it, and a scripted model counts turns the same: only the order shows
        return Check.fail(3, title, "grade.l2.c3.task_not_first", request=seen["displaced"])
    if (seen["rounds"], seen["calls"]) != (n, n + 1):
        key = miscounted(learner, n, seen, timeout)
        return Check.fail(3, title, key, n=n, rounds=seen["rounds"], calls=seen["calls"])
    if seen["returned"] is None:  # not a str at all: None, or a value of another type (shown as its repr)
        return Check.fail(3, title, "grade.l2.c3.stop_not_text", shown=seen["shown"])
    if not says_stopped(seen["returned"]):
        return Check.fail(3, title, "grade.l2.c3.no_stop_message", shown=seen["shown"])
    note = _fixed_cap_note(learner, n, timeout)

    # two or three calls a turn, every other turn with no text: a turn is a response, whatever it holds
    parallel = run_scene(learner, n, never_ending(n, lambda k: 2 + k % 2, silent=True), timeout)
    if broken := _broken(title, parallel, "grade.l2.c3.runaway", "grade.raised"):
        return broken
    seen = parallel.value
    if (seen["rounds"], seen["calls"]) != (n, n + 1):
        key = "grade.l2.c3.counts_blocks" if seen["rounds"] < n else "grade.l2.c3.counts_text"
        return Check.fail(3, title, key, n=n, rounds=seen["rounds"], calls=seen["calls"], runs=seen["runs"])

    for script, rounds in ((two_tools(n), 2), (finishing_after(n), n)):
        outcome = run_scene(learner, n, script, timeout)
        if broken := _broken(title, outcome, "grade.l2.c3.normal_runaway", "grade.l2.c3.normal_raised"):
            return broken
        seen = outcome.value
        if not seen["returned"] or said("answer") not in seen["returned"]:
            key = "grade.l2.c3.cut_at_cap" if rounds == n else "grade.l2.c3.normal_answer"
            key = "grade.l2.c3.history_dropped" if seen["dropped"] else key  # the model never saw its turns
            return Check.fail(3, title, key, n=n, shown=seen["shown"], request=seen["dropped"])
        if seen["calls"] != rounds + 1:
            return Check.fail(3, title, "grade.l2.c3.normal_calls", calls=seen["calls"], expected=rounds + 1)
    cut = run_scene(learner, n, cut_off(n), timeout)
    if cut.status == "ok" and ("api_error" in cut.value or cut.value["calls"] > 2):
        return Check.fail(3, title, "grade.l2.c3.went_on")
    if broken := _broken(title, cut, "grade.l2.c3.normal_runaway", "grade.l2.c3.normal_raised"):
        return broken
    cut = run_scene(learner, n, cut_in_a_call(n), timeout)
    if cut.status == "ok" and ("api_error" in cut.value or cut.value["calls"] > 2 or cut.value["runs"] > 1):
        return Check.fail(3, title, "grade.l2.c3.cut_call_ran")
    if broken := _broken(title, cut, "grade.l2.c3.normal_runaway", "grade.l2.c3.normal_raised"):
        return broken
    # The same task twice in one process: a count kept outside run_agent starts the second run at the cap.
    again = run_scene(learner, n, finishing_after(n), timeout, twice=True)
    if broken := _broken(title, again, "grade.l2.c3.normal_runaway", "grade.l2.c3.normal_raised"):
        return broken
    if not again.value["returned"] or said("answer") not in again.value["returned"]:
        return Check.fail(3, title, "grade.l2.c3.count_kept", n=n, shown=again.value["shown"])
    if again.value.get("asked", 0) > 1:
        return Check.fail(3, title, "grade.l2.c3.history_kept", times=again.value["asked"])
    if interrupt_caught(learner, timeout):  # a loop a person cannot stop: only MAX_TURNS ends it
        return Check.fail(3, title, "grade.l2.c3.interrupt_caught", tool="read_file")
    return Check(3, title, True, warning=note)
