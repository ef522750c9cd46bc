"""Lesson 6 (notebook 05): the checks of valve 4, the approval, in the learner's whole ``run_agent``.

A model calls every high-impact tool (``RISKY``: lesson 5's ``HIGH_IMPACT``) beside a harmless one,
and spy tools and a spy approver note what ran and what was asked: with no approver, one that says
no, or one that raises instead of answering, none of them runs and each call still gets an
``is_error`` result; with a yes they run, and the harmless tool runs without asking. The run is
repeated in one process, so a valve's memory kept outside ``run_agent`` shows in the second run.
Two calls of one tool answered apart show an answer kept by the tool's name; a model that writes every
turn until valve 1 or valve 3 stops it shows a person asked about a turn that then never runs.
"""

from __future__ import annotations

import re
from functools import partial
from typing import Any

import anthropic

from ..emulator import call, emulated_client, reply, say
from ..events import Finished, Stopped
from ..grading.spies import Recorder, logged
from .checking import Miss, notebook_approver, spies_misused
from .diagnosis import VALVES, learner_end, outputs, rejected, stale, valve_name
from .lesson5 import _cannot_answer
from .protocol import drive
from .scenes import (
    answered,
    blocks,
    fact,
    out_of_order,
    runaway_guard,
    said,
    scene_tools,
    swallowed,
    tool_runner,
    user_turn,
)

__all__ = ["NO_APPROVER", "RISKY", "asked_only_what_runs", "harmless_run_without_asking", "never_without_a_yes"]


_said = partial(said, "l6_approval")

# One call of each high-impact tool (lesson 5's HIGH_IMPACT), after a harmless one: valve 4 guards them all.
RISKY = ("write_file", "http_post", "delete_file")


def _risky() -> dict:
    """What the model passes each of them, in the kernel's language."""
    return {
        "write_file": {"path": "notes.md", "content": _said("memo")},
        "http_post": {"url": "https://hooks.example.com/notify", "body": _said("finished")},
        "delete_file": {"path": "old.md"},
    }


def acts_then_answers(request: dict) -> Any:
    if any(m["role"] == "assistant" for m in request["messages"]):
        return say(_said("done"))
    risky = [call(name, **given) for name, given in _risky().items()]
    return reply(_said("acting"), call("get_time"), *risky)


def _denied(fn, approve: Any, rec: Recorder | None = None, again: bool = False) -> tuple[Recorder, dict, Miss | None]:
    """Run the model that calls every high-impact tool; (the spies' log, name -> the results sent back
    for that call, a miss). ``again``: the learner's loop already ran once in this process."""
    emulator = runaway_guard(acts_then_answers, 12)
    rec = rec if rec is not None else Recorder()
    tools = scene_tools()
    gen = fn(emulated_client(emulator), _said("ask"), tools, rec.tools(outputs()), _asker(rec, approve))
    if not hasattr(gen, "__next__"):
        return rec, {}, Miss("lesson.l6.run_agent.not_generator", {"got": type(gen).__name__})
    try:
        _, end = drive(gen)
    except anthropic.BadRequestError as exc:  # a denied call left with no result is the usual cause here
        return rec, {}, _unanswered(rejected(exc, emulator), rec, approve, emulator)
    except TypeError:
        if miss := spies_misused(rec):  # a tool or approve called wrongly raised, uncaught
            return rec, {}, miss
        raise
    if miss := spies_misused(rec):  # its TypeError caught: the cause all the same
        return rec, {}, miss
    if runner := tool_runner(emulator):  # the SDK's loop ran the turn: no valve of the learner's was asked
        return rec, {}, runner
    if hidden := swallowed(emulator):  # a 400 caught and turned into an end: its cause, not the end's
        return rec, {}, hidden
    if stale(emulator):
        return rec, {}, stale(emulator)
    if _names(tools) != _names(scene_tools()):  # the caller's list: the Stepper, the table and my_agent send it again
        return rec, {}, Miss("lesson.l6.run_agent.tools_changed", {"before": len(scene_tools()), "after": len(tools)})
    if miss := out_of_order(emulator):  # the refused calls' results put after the others, say
        return rec, {}, miss
    if not emulator.requests:  # it ended before asking the model anything
        return rec, {}, Miss("lesson.l6.run_agent.no_request")
    if isinstance(end, Stopped) and end.cause == "no_progress" and not rec.ran():  # valve 3, not valve 4
        return rec, {}, Miss("lesson.l6.run_agent.signature_carried" if again else "lesson.l6.run_agent.spun_at_once")
    refused = not all(rec.ran(name) for name in RISKY) and approve is not _cannot_answer
    if len(emulator.requests) == 1 and refused and _ended_by_the_loop(end):
        # The refusals never reached the model: the loop ended on them instead of sending them back (an
        # approval that raised may end the run, as lesson 5 allows: that is _fails_closed's to judge).
        return rec, {}, Miss("lesson.l6.run_agent.ended_on_refusal", {"got": _end_call(end)})
    # the turn the API reads: the results, and perhaps a person's word after them in a message of its own
    turn = user_turn(emulator.requests[1]["messages"]) if len(emulator.requests) > 1 else []
    sent = [b for m in turn for b in blocks(m)]
    ids = {b["id"]: b["name"] for b in _calls(emulator) if b.get("name") in RISKY}
    facts = [fact(b) for b in sent if isinstance(b, dict)]
    return rec, {name: [f for f in facts if ids.get(f["tool_use_id"]) == name] for name in RISKY}, None


def _silent(name: str, given: dict) -> None:
    """A person's callback with no return on some path: it answers None, neither a yes nor a no."""


def _asker(rec: Recorder, approve: Any) -> Any:
    """The approver the loop is given: the spy, answering a bool, or None for a ``_silent`` one."""
    if approve is None:
        return None
    noted = rec.approver(approve)
    if approve is not _silent:
        return notebook_approver(rec, noted)

    def unanswered(name, tool_input):
        noted(name, tool_input)

    return notebook_approver(rec, unanswered)


def _ended_by_the_loop(end: Any) -> bool:
    """An end value other than a valve's stop (no valve fires on the first turn of this model)."""
    return isinstance(end, Finished) or (isinstance(end, Stopped) and end.cause not in VALVES)


def _end_call(end: Any) -> str:
    if isinstance(end, Finished):
        return "lessons.finished(...)"
    return f"lessons.stopped({end.cause!r}, ...)"


def _calls(emulator: Any) -> list:
    """The tool_use blocks of every assistant message in the last request the loop sent."""
    messages = emulator.requests[-1]["messages"] if emulator.requests else []
    return [b for m in messages if m["role"] == "assistant" for b in blocks(m, "tool_use")]


def _unanswered(miss: Miss, rec: Recorder, approve: Any, emulator: Any) -> Miss:
    """A 400 for calls left with no result: a denial dropped where valve 4 said no to the call, else the
    calls themselves (a loop that answers only some of a turn's calls, whatever approve said)."""
    if miss.key != "lesson.l2.results_first":
        return miss
    named = set(re.findall(r"toolu_\w+", str(miss.values.get("error", ""))))
    left = [b["name"] for b in _calls(emulator) if b.get("id") in named]
    if not left or named <= _answered(emulator):  # answered, but after other blocks (text first): the 400's own hint
        return miss
    refused = [name for name in left if name in RISKY and not rec.ran(name) and _said_no(rec, approve, name)]
    if refused:
        return Miss("lesson.l6.run_agent.denied_dropped", {**miss.values, "tool": refused[0]})
    return Miss("lesson.l6.run_agent.calls_unanswered", {**miss.values, "tools": ", ".join(left)})


def _names(tools: list) -> list:
    """The tools a list offers, by name (a definition given cache_control in place still offers its tool)."""
    return [d.get("name") if isinstance(d, dict) else d for d in tools]


def _answered(emulator: Any) -> set:
    """The ids the last request's last user turn holds a tool_result for, wherever in it they stand."""
    turn = user_turn(emulator.requests[-1]["messages"]) if emulator.requests else []
    return {b.get("tool_use_id") for m in turn for b in blocks(m, "tool_result")}


def _said_no(rec: Recorder, approve: Any, name: str) -> bool:
    """Did valve 4 refuse ``name``: no approver to ask, or asked and answered no (or could not answer)?"""
    if approve is None:
        return True
    if not rec.asked(name):
        return False
    try:
        return not approve(name, _risky()[name])
    except Exception:  # an approval that could not be had is a no
        return True


def never_without_a_yes(fn) -> Miss | None:
    """Valve 4 on every high-impact tool: asked, a no stops it; with no approver, nothing is run."""
    rec, results, miss = _denied(fn, lambda name, given: False)
    if miss:
        return miss
    for name in RISKY:
        if rec.ran(name):
            key = "lesson.l6.run_agent.denied_ran" if rec.asked(name) else "lesson.l6.run_agent.not_asked"
            return Miss(key, {"tool": name})
    if miss := _each_refusal_an_error(results):
        return miss
    rec, results, miss = _denied(fn, None, again=True)
    if miss:
        return miss
    ran = [name for name in RISKY if rec.ran(name)]
    if ran and len(ran) < len(RISKY):  # the fallback says no to some of them only
        held = [name for name in RISKY if name not in ran]
        return Miss("lesson.l6.run_agent.no_approver_some", {"ran": ", ".join(ran), "held": ", ".join(held)})
    if ran:
        return Miss("lesson.l6.run_agent.no_approver_ran", {"tool": ran[0]})
    return _each_refusal_an_error(results) or _fails_closed(fn) or _no_answer_is_no(fn) or _each_call_its_own_answer(fn)


def _fails_closed(fn) -> Miss | None:
    """An approval that raises instead of answering is no yes (lesson 5's rule): no high-impact tool
    runs, whether the exception ends the run or each call gets an is_error result."""
    rec = Recorder()
    try:
        _, results, miss = _denied(fn, _cannot_answer, rec, again=True)
    except NotImplementedError:
        raise
    except Exception:  # the run stopped before anything ran: closed, as it should be
        results, miss = {}, None
    if ran := [name for name in RISKY if rec.ran(name)]:
        return Miss("lesson.l6.run_agent.failed_open", {"tool": ran[0]})
    return miss or (_each_refusal_an_error(results) if results else None)


def _no_answer_is_no(fn) -> Miss | None:
    """An approval that answers None is no yes (lesson 5's rule): a valve that refuses only an explicit
    False (``is not False``, ``!= False``) lets every high-impact tool run."""
    rec, results, miss = _denied(fn, _silent, again=True)
    if ran := [name for name in RISKY if rec.ran(name)]:
        return Miss("lesson.l6.run_agent.unknown_allowed", {"tool": ran[0], "got": "None"})
    return miss or _each_refusal_an_error(results)


def _own_answer(name: str, given: dict) -> bool:
    """A person who reads each call: yes to write_file and delete_file as the model asked them, no to
    http_post. Asked without the call's input, they cannot tell what they would allow, and say no."""
    return name in RISKY and name != "http_post" and logged(given) == logged(_risky()[name])


def _each_call_its_own_answer(fn) -> Miss | None:
    """One turn, answers that differ per call: each call is put to approve with its own input and
    decided by its own answer (one question for the turn, or a yes kept from an earlier run, fails)."""
    rec, results, miss = _denied(fn, _own_answer, again=True)
    if miss:
        return miss
    for event in rec.asked():
        if event.name in RISKY and event.input != logged(_risky()[event.name]):
            return Miss("lesson.l6.run_agent.approve_input", {"tool": event.name, "got": event.input[:60]})
    if rec.ran("http_post"):
        if rec.asked("http_post"):
            return Miss("lesson.l6.run_agent.denied_ran", {"tool": "http_post"})
        asked = sorted({e.name for e in rec.asked()})
        if asked:  # another call's answer was taken for this one
            return Miss("lesson.l6.run_agent.one_answer_per_turn", {"asked": ", ".join(asked), "tool": "http_post"})
        return Miss("lesson.l6.run_agent.yes_kept", {"tool": "http_post"})
    if miss := _each_refusal_an_error({"http_post": results["http_post"]}):
        return miss
    for name in ("write_file", "delete_file"):
        if len(rec.ran(name)) != 1:
            return Miss("lesson.l6.run_agent.no_stopped_yes", {"tool": name})
    return _same_tool_answered_apart(fn)


def _writes_twice(request: dict) -> Any:
    if answered(request):
        return say(_said("done"))
    notes, old = ({"path": path, "content": _said("memo")} for path in ("notes.md", "old.md"))
    return reply(_said("acting"), call("write_file", **notes), call("write_file", **old))


def _same_tool_answered_apart(fn) -> Miss | None:
    """Two calls of one tool in a turn, a yes for the first and a no for the second: an answer kept by the
    tool's name (a dict, setdefault) is asked again and then not read, so the second call runs on the first's
    yes; a yes kept by name and not asked again (a set of approved tools) runs it unasked."""
    yes = logged({"path": "notes.md", "content": _said("memo")})
    mine, rec, _ = learner_end(fn, _writes_twice, decide=lambda name, given: logged(given) == yes)
    ran, asked = len(rec.ran("write_file")), len(rec.asked("write_file"))
    if mine.miss is None and ran == asked == 2:
        return Miss("lesson.l6.run_agent.answer_reused", {"tool": "write_file"})
    if mine.miss is None and ran == 2 and asked == 1:
        return Miss(
            "lesson.l6.run_agent.one_answer_per_turn", {"asked": "write_file notes.md", "tool": "write_file old.md"}
        )
    return None


def _writes_anew(request: dict) -> Any:
    return call("write_file", path=f"notes{answered(request) + 1}.md", content=_said("memo"))


def _writes_again(request: dict) -> Any:
    return say(_said("done")) if answered(request) > 3 else call("write_file", path="notes.md", content=_said("memo"))


def asked_only_what_runs(fn, cause: str, **limits: Any) -> Miss | None:
    """Valves 1 to 3 come before valve 4: a turn that valve ``cause`` stops is not put to a person, who
    would be asked about a call that then never runs (approvals gathered at the top of the lap, say)."""
    script = _writes_again if cause == "no_progress" else _writes_anew
    mine, rec, _ = learner_end(fn, script, decide=lambda name, given: True, **limits)
    asked, ran = len(rec.asked("write_file")), len(rec.ran("write_file"))
    if mine.miss is None and mine.cause == cause and asked > ran:
        return Miss(
            "lesson.l6.run_agent.asked_unrun",
            {"valve": valve_name(cause), "tool": "write_file", "asked": asked, "ran": ran},
        )
    return None


def _each_refusal_an_error(results: dict) -> Miss | None:
    for name, sent in results.items():
        if not sent or not sent[0]["is_error"]:
            return Miss("lesson.l6.run_agent.denied_not_error", {"tool": name})
    return None


def harmless_run_without_asking(fn) -> Miss | None:
    rec, _, miss = _denied(fn, lambda name, given: True)
    if miss:
        return miss
    if {e.name for e in rec.asked()} - set(RISKY):
        return Miss("lesson.l6.run_agent.asked_harmless")
    if not rec.ran("get_time"):
        return Miss("lesson.l6.run_agent.harmless_not_run")
    for name in RISKY:
        if len(rec.ran(name)) != 1:
            return Miss("lesson.l6.run_agent.approved_not_run", {"tool": name})
    return _each_call_its_own_answer(fn)  # after these yeses: none of them may be kept for the next run


# approve is None when nobody was given to ask: calling it is the crash valve 4 must turn into a no.
NO_APPROVER = ((re.compile(r"'NoneType' object is not callable"), "lesson.l6.run_agent.approve_none"),)
