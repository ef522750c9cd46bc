"""Grader for exercise level 1: a per-tool tiered policy, allow / ask / deny (lesson 6, 練習).

The learner writes ``POLICY``, ``DEFAULT_TIER``, ``run_tool_uses(content, tool_impls, approve)`` and
``ANSWERS`` (three choices from ``level1_options()``: the loop step the policy valve belongs to, how
it relates to the approval valve, what a deny returns). Nothing here reads their source: each
criterion feeds real tool_use blocks to ``run_tool_uses`` with spy tools and a spy approver, and
judges what ran, what was asked and what came back.

1. The tiers come from the policy data. First the tier each tool behaves as is observed, one call at
   a time; then, in a separate child, the learner's own ``POLICY`` object is changed (every table
   tool moved to another tier, three tools the table never names added) and the behaviour must
   follow. So a policy whose
   data cannot say ``ask`` or ``allow`` while hard-coded names make the table come out right fails.
   The shapes the probe can change: a dict of tool name → tier, a dict of tier → names (set, list
   or tuple), or a function from name to tier.
2. The check sits per tool_use, before the tool runs, and ``ask`` reuses ``approve``, failing closed:
   when the approver raises, the tool must not run, and the error goes up or the call gets an
   ``is_error`` result; when it answers None (no yes), the tool must not run either; ANSWERS' step and
   approval choices.
3. A deny still returns one ``is_error`` tool_result saying a rule forbids the tool (and a person's
   refusal does not say so); every tool_use gets one result, in order, that the API accepts, a tool
   that raised too (but Ctrl-C, a KeyboardInterrupt, is let out, not made a result); the content list
   it was handed goes back unchanged; ANSWERS' deny choice.

Criteria 2 and 3 judge each tool against the tier it was *observed* to behave as, so a tool that
fell to the wrong tier fails criterion 1 only, with a hint naming the tier it fell into.

Every learner object is touched only inside a time-limited child (``bridge.observe``): even
``len(POLICY)`` or ``DEFAULT_TIER == "ask"`` may be learner code that loops. The spy tools and the
approver answer from the grader's side of the bridge, where the log is kept; the results a call
returns reach the grader as the SDK sends them (criterion 3) or as plain facts, and every verdict is
reached on the grader's side, where no learner code has run. Each call of ``run_tool_uses`` gets
its own copy of the model's response, so learner code may consume it or edit ``block.input`` in
place without misleading the next call.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import anthropic

from ..emulator import Emulator, call, say
from ..emulator.transport import handler_for
from ..messages import assistant, user
from ..model import DEFAULT_MODEL
from ..text import t
from .bridge import bridged_client, observe, serve_http
from .level1_approval import verdict2
from .level1_observe import (
    asked_without_an_answer,
    fact_of,
    observe_calls,
    probe_calls,
    results_kept,
    returned_as,
    returned_by,
    returned_when_a_tool_fails,
    returned_when_asking_fails,
    seen_after,
    seen_tiers,
    structure_of,
    tier_listed,
)
from .level1_scene import (
    _FORCED,
    _OBSERVED,
    ANSWER_OPTIONS,
    ASK_PAIRS,
    FAILING_SCENE,
    INPUTS,
    PROBE_TIERS,
    REQUIRED_TIERS,
    UNLISTED_TOOL,
    _api_rejects,
    _given,
    approves_first,
    ask_tool,
    content_kept,
    deny_tool,
    level1_options,
    miscalled_in,
    mixed_scene,
    says_forbidden,
    verdict3,
)
from .level_slips import slip_check, slipped
from .policy_probe import TIERS
from .report import MALFORMED, Check, Report, failed_run, guarded, show, stale_answers
from .sandbox import JobResult, describe_error, plain
from .scenarios import PROMPT, content_of, outputs, tool_defs
from .spies import Spies

__all__ = [
    "ANSWER_OPTIONS",
    "PROBE_TIERS",
    "REQUIRED_TIERS",
    "TIERS",
    "UNLISTED_TOOL",
    "check_level1",
    "grade_level1",
    "grade_level1_from",
    "level1_options",
    "says_forbidden",
]


def grade_level1(
    POLICY: Any, DEFAULT_TIER: Any, run_tool_uses: Callable, ANSWERS: Any = None, *, timeout: float = 5.0
) -> Report:
    """Judge the three criteria; returns a ``Report`` (nothing printed)."""
    return grade_level1_from(lambda: (POLICY, DEFAULT_TIER, run_tool_uses, ANSWERS), timeout=timeout)


def grade_level1_from(learner: Callable[[], tuple[Any, Any, Any, Any]], *, timeout: float = 5.0) -> Report:
    """Judge the learner's ``(POLICY, DEFAULT_TIER, run_tool_uses, ANSWERS)``, which ``learner()`` gives only
    inside each time-limited child, so it may build them there (the grading command runs the answer cells in it)."""
    spies = Spies(outputs())
    for name in _OBSERVED:
        spies.recorder("see:" + name, _yes)
    spies.recorder("see:after")  # a no: a yes kept by the learner's code would blur the single calls after it
    seen = observe(lambda: observe_calls(*learner()[:3]), spies.answer, timeout)
    tiers = dict(REQUIRED_TIERS, **{UNLISTED_TOOL: "ask"})  # what 2 and 3 assume if nothing was seen
    raised: dict[str, str] = {}  # deny tools that alone raised in the single calls: 2 and 3 name that raise too
    if seen.status == "ok":
        try:
            tiers_seen = seen_tiers(spies, "see:", seen.value["calls"])
            kept = results_kept(seen.value["calls"])
            seen = JobResult("ok", value=dict(seen.value, tiers=tiers_seen, after_seen=seen_after(spies), kept=kept))
        except MALFORMED:
            seen = JobResult("tampered")
        else:
            # a deny that fell through to the run still refused first: criteria 2 and 3 see what it did then
            behaved = {name: value for name, (kind, value) in tiers_seen.items() if kind == "tier"}
            tiers.update({name: "deny" if value == "fell_through" else value for name, value in behaved.items()})
            if all(kind == "tier" for name, (kind, _) in tiers_seen.items() if REQUIRED_TIERS.get(name) != "deny"):
                raised = {name: value for name, (kind, value) in tiers_seen.items() if kind == "error"}
    checks = (
        guarded(1, _title(1), lambda: _criterion1(learner, seen, timeout)),
        guarded(2, _title(2), lambda: _criterion2(learner, tiers, raised, timeout)),
        guarded(3, _title(3), lambda: _criterion3(learner, tiers, raised, timeout)),
    )
    return Report("level1", checks)


def check_level1(
    POLICY: Any, DEFAULT_TIER: Any, run_tool_uses: Callable, ANSWERS: Any = None, *, timeout: float = 5.0
) -> None:
    """The notebook's grade cell: print one line per criterion, then fail the cell if one failed."""
    stale_answers(POLICY=POLICY, DEFAULT_TIER=DEFAULT_TIER, run_tool_uses=run_tool_uses, ANSWERS=ANSWERS)
    show(lambda: grade_level1(POLICY, DEFAULT_TIER, run_tool_uses, ANSWERS, timeout=timeout))


# --- the grader's side: only plain values from the children --------------------------------------
def _title(number: int) -> str:
    return t(f"grade.l1.c{number}.title")


def _judged(number: int, verdict: tuple | None) -> Check:
    """A criterion's verdict: None (met) or (hint key, values)."""
    if verdict is None:
        return Check(number, _title(number), True)
    key, values = verdict
    return Check.fail(number, _title(number), key, **values)


def _failed(number: int, outcome: JobResult, raised: dict[str, str]) -> Check:
    """A criterion's child that sent no summary; the error a deny tool raised in the single calls too is
    named as that deny's (one cause, told alike on every criterion it fails), unless a slip raised it."""
    for tool, error in raised.items():
        if outcome.status == "error" and plain(outcome.error) == error and not slipped(number, "", outcome):
            return Check.fail(number, _title(number), "grade.l1.deny_raised", error=error, tool=tool)
    return slipped(number, _title(number), outcome) or failed_run(number, _title(number), outcome)


def _structure_fault(found: dict) -> Check | None:
    """What POLICY and DEFAULT_TIER get wrong by themselves, before any call of run_tool_uses is judged."""
    title, default, shape, odd = _title(1), found["default"], found["shape"], found["odd"]
    if default is None:
        return Check.fail(1, title, "grade.l1.c1.no_default", value=found["default_shown"])
    if shape == "empty":
        return Check.fail(1, title, "grade.l1.c1.empty_policy")
    if shape not in ("by_name", "by_tier", "function"):
        if odd:  # a tier the three do not include made the dict look like no shape at all
            tool, value = next(iter(odd.items()))
            return Check.fail(1, title, "grade.l1.c1.unknown_tier", tool=tool, value=value)
        return Check.fail(1, title, "grade.l1.c1.shape", kind=found["shape_shown"])
    return None


def _tiers_unseen(learner: Callable[[], tuple[Any, Any, Any, Any]], seen: JobResult, timeout: float) -> Check:
    """Criterion 1 when run_tool_uses never returned: what POLICY and DEFAULT_TIER get wrong by themselves,
    read in a child of their own, else that the tier each tool gets could not be seen within the limit."""
    structure = observe(lambda: structure_of(*learner()[:2]), _no_answer, timeout)
    if structure.status != "ok":  # POLICY or DEFAULT_TIER itself did not finish either
        return failed_run(1, _title(1), seen)
    fault = _structure_fault(structure.value)
    return fault or Check.fail(1, _title(1), "grade.l1.c1.tiers_unseen", seconds=f"{timeout:g}")


def _no_answer(message: tuple) -> None:
    return None  # structure_of asks nothing: no spy runs in its child


def _criterion1(learner: Callable[[], tuple[Any, Any, Any, Any]], seen: JobResult, timeout: float) -> Check:
    title = _title(1)
    if seen.status == "timeout":  # criterion 1 judges POLICY and DEFAULT_TIER, read apart from run_tool_uses
        return _tiers_unseen(learner, seen, timeout)
    if seen.status != "ok":
        return failed_run(1, title, seen)
    found = seen.value
    default, shape, odd = found["default"], found["shape"], found["odd"]
    if fault := _structure_fault(found):
        return fault
    if found["kept"]:
        return Check.fail(1, title, "grade.l1.results_kept", tool=found["kept"])
    kind, value = found["tiers"][UNLISTED_TOOL]
    if kind == "error":  # an async def fails here first: none of its body ran, whatever the tool's tier
        key = "grade.l1.never_ran" if found.get("lazy") else "grade.l1.c1.unlisted_error"
        return slip_check(1, title, value) or Check.fail(
            1, title, key, tool=UNLISTED_TOOL, error=value, kind=found.get("lazy")
        )
    for name, expected in REQUIRED_TIERS.items():
        kind, value = found["tiers"][name]
        if kind == "error":  # a deny raised (PermissionError, as lesson 6's read_file does) loses the turn's results
            key = "grade.l1.deny_raised" if expected == "deny" else "grade.raised"
            return slip_check(1, title, value) or Check.fail(1, title, key, error=value, tool=name)
        if value == expected:
            continue
        if value in ("approve_args", "fell_through"):
            return Check.fail(1, title, "grade.l1." + value, tool=name)
        if miscall := miscalled_in({name: value}):  # the form of a call the notebook's tool or approver refuses
            return _judged(1, miscall)
        listed = found["listed"][name]
        if listed is None and value == default:
            return Check.fail(1, title, "grade.l1.c1.fell_to_default", tool=name, default=default, expected=expected)
        if listed is not None and listed != expected:
            return Check.fail(1, title, "grade.l1.c1.listed_wrong", tool=name, listed=listed, expected=expected)
        if name in odd:  # the right tier in other letters, which run_tool_uses did not read as it
            return Check.fail(1, title, "grade.l1.c1.unknown_tier", tool=name, value=odd[name])
        return Check.fail(1, title, "grade.l1.c1.mismatch", tool=name, expected=expected, seen=value)
    seen_default = found["tiers"][UNLISTED_TOOL][1]
    if seen_default != default and found["rewritten"]:  # a person's answer to it was written into POLICY
        return Check.fail(1, title, "grade.l1.c1.policy_rewritten", tool=UNLISTED_TOOL, tier=found["rewritten"])
    if seen_default != default:  # with a default spelled unlike the three tiers, that spelling is the cause
        key = "grade.l1.c1.default_unknown" if found["default_odd"] else "grade.l1.c1.default_ignored"
        values = {"tool": UNLISTED_TOOL, "default": default, "value": found["default_odd"], "seen": seen_default}
        return Check.fail(1, title, key, **values)
    if found["after"] and found["after_seen"] != default:  # the tier of the block before it, kept
        values = {"tool": UNLISTED_TOOL, "before": found["after"], "default": default, "seen": found["after_seen"]}
        return Check.fail(1, title, "grade.l1.c1.default_carried", **values)

    def probe(forced: dict, prefix: str) -> Callable[[], list]:
        return lambda: probe_calls(*learner()[::2], shape, forced, prefix)

    for number, forced in enumerate(_FORCED):
        prefix, spies = f"probe{number}:", Spies(outputs())
        for name in forced:
            spies.recorder(prefix + name, _yes)
        probed = observe(probe(forced, prefix), spies.answer, timeout)
        if probed.status != "ok":
            return failed_run(1, title, probed)
        for name, (kind, value) in seen_tiers(spies, prefix, probed.value).items():
            if kind == "error":
                return Check.fail(1, title, "grade.raised", error=value)
            if value != forced[name]:
                entry = found["covering"].get(name) if found["listed"].get(name) is None else None
                key = "grade.l1.c1.not_exact_name" if entry else "grade.l1.c1.not_data_driven"
                return Check.fail(1, title, key, tool=name, tier=forced[name], seen=value, entry=entry)
    warning = t("grade.l1.c1.allow_warning") if default == "allow" else ""
    return Check(1, title, True, warning=warning)


def _yes(name: str, given: str) -> bool:
    return True


def _criterion2(
    learner: Callable[[], tuple[Any, Any, Any, Any]], tiers: dict, raised: dict[str, str], timeout: float
) -> Check:
    if "approve_args" in tiers.values():
        return Check.fail(2, _title(2), "grade.l1.approve_args", tool=ask_tool(tiers))
    if miscall := miscalled_in(tiers):
        return _judged(2, miscall)
    ask = ask_tool(tiers)
    if tiers.get(ask) != "ask":
        return Check.fail(2, _title(2), "grade.l1.c2.not_asked")
    deny = tiers.get("send_email") == "deny"
    spies = Spies(outputs())
    for tag in ("no", "failing", "silent"):  # in the child, the last two raise or answer None once a question is logged
        spies.recorder(tag)
    for tag, decide in {"yes": _yes, "alone": _yes, "mixed": approves_first(ask)}.items():
        spies.recorder(tag, decide)
    outcome = observe(lambda: _scenes2(learner(), ask, deny), spies.answer, timeout)
    if outcome.status != "ok":
        return _failed(2, outcome, raised)
    given, when_failing, rewritten, said_no_facts = outcome.value
    return _judged(
        2, verdict2(ask, deny, tiers, given, spies.recorders, when_failing, rewritten is True, said_no_facts)
    )


def _scenes2(learned: tuple, ask: str, deny: bool) -> tuple:
    """In the child, criterion 2's calls (the grader logs them): ANSWERS, the no's results, a rewritten tier,
    and the call whose approver raises (whether the function let the error out, else its results)."""
    policy, _, run_tool_uses, answers = learned
    scene = content_of(call(ask, **ASK_PAIRS[ask][0]))
    before = tier_listed(policy, ask)  # before the no: a tier rewritten after a no shows too
    said_no = [fact_of(r) for r in returned_by(run_tool_uses, scene, "no")]
    returned_by(run_tool_uses, scene, "yes")
    rewritten = before is not None and tier_listed(policy, ask) != before
    if deny:
        returned_by(run_tool_uses, content_of(call("send_email", **INPUTS["send_email"])), "alone")
    returned_by(run_tool_uses, mixed_scene(ask)[0], "mixed")
    asked_without_an_answer(run_tool_uses, scene, "silent")
    given = _given(answers, "step", "approval")
    return given, returned_when_asking_fails(run_tool_uses, scene, "failing"), rewritten, said_no


def _criterion3(
    learner: Callable[[], tuple[Any, Any, Any, Any]], tiers: dict, raised: dict[str, str], timeout: float
) -> Check:
    if miscall := miscalled_in(tiers, approver=False):  # every tool's result would be that TypeError
        return _judged(3, miscall)
    denied = deny_tool(tiers)
    if denied is None:
        return Check.fail(3, _title(3), "grade.l1.c3.no_deny", seen=tiers.get("send_email", "?"))
    ask = ask_tool(tiers)
    scenes = {"alone": content_of(call(denied, **INPUTS[denied])), "mixed": mixed_scene(ask)[0]}
    spies = Spies(outputs())
    rec = spies.recorder("mixed", approves_first(ask))
    spies.recorder("alone", _yes)
    spies.recorder("failing", _yes)
    sent = {tag: _SentResults(scene) for tag, scene in scenes.items()}
    for tag, box in sent.items():
        spies.model(tag, serve_http(box.handle))
    outcome = observe(lambda: _scenes3(*learner()[2:], ask, denied), spies.answer, timeout)
    if outcome.status != "ok":
        return _failed(3, outcome, raised)
    calls, given, failing = outcome.value
    if kind := next((plain(calls[tag]["kind"]) for tag in scenes if calls[tag]["kind"]), ""):
        return Check.fail(3, _title(3), "grade.l1.c3.not_list", got=kind)
    # Facts the grader did not see sent are the child's word: taken only with the child's reason why
    # the SDK could not send them, which fails the criterion in the end (an API check never passed).
    if any(sent[tag].facts is None and not calls[tag]["unsent"] for tag in scenes):
        return Check.fail(3, _title(3), "grade.tampered")
    facts = {tag: sent[tag].facts if sent[tag].facts is not None else calls[tag]["facts"] for tag in scenes}
    rejected = sent["mixed"].rejected or next(
        (plain(calls[tag]["unsent"]) for tag in scenes if sent[tag].facts is None), ""
    )
    verdict = verdict3(denied, ask, tiers, scenes, facts, rec, rejected, given, failing)
    changed = [scenes[tag] for tag in scenes if sent[tag].content_changed]
    return _judged(3, content_kept(verdict, changed[0] if changed else None))


def _scenes3(run_tool_uses: Callable, answers: Any, ask: str, denied: str) -> tuple:
    """In the child: the denied call alone and the mixed response, each result list sent back to the
    model through the grader (who reads it as the SDK wrote it); ANSWERS read."""
    calls = {}
    for tag, content in (("alone", content_of(call(denied, **INPUTS[denied]))), ("mixed", mixed_scene(ask)[0])):
        # the very list handed to run_tool_uses goes back as the assistant turn, as a loop's history does
        returned, kind = returned_as(run_tool_uses, content, tag, fresh=False)
        unsent = ""
        messages: list[Any] = [user(PROMPT), assistant(content), {"role": "user", "content": returned}]
        try:
            bridged_client(tag, max_retries=0).messages.create(
                model=DEFAULT_MODEL, max_tokens=256, tools=tool_defs(), messages=messages
            )
        except anthropic.APIStatusError:
            pass  # the grader saw the request and its answer
        except Exception as exc:  # results the SDK cannot even serialise
            unsent = plain(describe_error(exc), 300)
        calls[tag] = {"facts": [fact_of(r) for r in returned], "unsent": unsent, "kind": kind}
    failing = returned_when_a_tool_fails(run_tool_uses, FAILING_SCENE, "failing", "read_file")
    return calls, _given(answers, "deny"), failing


class _SentResults:
    """The grader's side of one result list sent back: its facts as sent, and the API's verdict on it."""

    def __init__(self, scene: list) -> None:
        self.scene, self.rejected, self.content_changed = scene, "", False
        self.facts: list | None = None
        self._reply = handler_for(Emulator([say("了解しました。")] * 4))

    def handle(self, request: Any) -> Any:
        try:
            messages = json.loads(request.content)["messages"]
            results, turn = messages[-1]["content"], messages[-2]["content"]
        except (ValueError, KeyError, IndexError, TypeError):
            results, turn = None, None
        if self.facts is None:  # the first request is the one the learner's results went out in
            self.facts = [fact_of(r) for r in results] if isinstance(results, list) else []
            self.rejected = _api_rejects(self.scene, results)
            # the assistant turn went out as run_tool_uses left the list it was handed
            self.content_changed = turn != json.loads(json.dumps(assistant(self.scene)["content"]))
        return self._reply(request)
