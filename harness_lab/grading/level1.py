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
2. The check sits per tool_use, before the tool runs, and ``ask`` reuses ``approve``; ANSWERS'
   step and approval choices.
3. A deny still returns one ``is_error`` tool_result saying a rule forbids the tool; every tool_use
   gets one result, in order, that the API accepts; ANSWERS' deny choice.

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

import copy
import json
import os
from collections.abc import Callable
from typing import Any

import anthropic

from ..emulator import Emulator, call, say
from ..emulator.transport import handler_for
from ..messages import assistant, field, user
from ..model import DEFAULT_MODEL
from ..text import t
from .bridge import bridged_client, observe, serve_http
from .level1_scene import (
    _FORCED,
    _OBSERVED,
    ANSWER_OPTIONS,
    ASK_PAIRS,
    INPUTS,
    PROBE_TIERS,
    REQUIRED_TIERS,
    UNLISTED_TOOL,
    _answer,
    _api_rejects,
    _given,
    says_forbidden,
)
from .policy_probe import TIERS, items, listed, rewrite, shape_of, tier_name
from .report import MALFORMED, Check, Report, guarded, show
from .sandbox import JobResult, describe_error, plain
from .scenarios import OUTPUTS, PROMPT, TOOL_DEFS, content_of, tool_use_ids
from .spies import Recorder, Spies, logged, remote_approver, remote_tools

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


def level1_options() -> None:
    """Print the choices for ``ANSWERS`` (question: key: description)."""
    lines = []
    for question, options in ANSWER_OPTIONS.items():
        lines.append(t("grade.l1.options." + question))
        lines += [f"  {key!r}: {t(f'grade.l1.opt.{question}.{key}')}" for key in options]
    print("\n".join(lines))


def grade_level1(
    POLICY: Any, DEFAULT_TIER: Any, run_tool_uses: Callable, ANSWERS: Any = None, *, timeout: float = 5.0
) -> Report:
    """Judge the three criteria; returns a ``Report`` (nothing printed)."""
    return grade_level1_from(lambda: (POLICY, DEFAULT_TIER, run_tool_uses, ANSWERS), timeout=timeout)


def grade_level1_from(learner: Callable[[], tuple[Any, Any, Any, Any]], *, timeout: float = 5.0) -> Report:
    """Judge the learner's ``(POLICY, DEFAULT_TIER, run_tool_uses, ANSWERS)``, which ``learner()`` gives.

    ``learner`` is called only inside each time-limited child, so it may build the objects there
    (the grading command runs the notebook's answer cells in it).
    """
    spies = Spies(OUTPUTS)
    for name in _OBSERVED:
        spies.recorder("see:" + name, _yes)
    seen = observe(lambda: _observe(*learner()[:3]), spies.answer, timeout)
    tiers = dict(REQUIRED_TIERS, **{UNLISTED_TOOL: "ask"})  # what 2 and 3 assume if nothing was seen
    if seen.status == "ok":
        try:
            seen = JobResult("ok", value=dict(seen.value, tiers=_seen_tiers(spies, "see:", seen.value["calls"])))
        except MALFORMED:
            seen = JobResult("tampered")
        else:
            tiers.update({name: value for name, (kind, value) in seen.value["tiers"].items() if kind == "tier"})
    checks = (
        guarded(1, _title(1), lambda: _criterion1(learner, seen, timeout)),
        guarded(2, _title(2), lambda: _criterion2(learner, tiers, timeout)),
        guarded(3, _title(3), lambda: _criterion3(learner, tiers, timeout)),
    )
    return Report("level1", checks)


def check_level1(
    POLICY: Any, DEFAULT_TIER: Any, run_tool_uses: Callable, ANSWERS: Any = None, *, timeout: float = 5.0
) -> None:
    """The notebook's grade cell: print one line per criterion, then fail the cell if one failed."""
    show(grade_level1(POLICY, DEFAULT_TIER, run_tool_uses, ANSWERS, timeout=timeout))


# --- the grader's side: only plain values from the children --------------------------------------
def _title(number: int) -> str:
    return t(f"grade.l1.c{number}.title")


def _failed_run(number: int, outcome: JobResult) -> Check:
    if outcome.status == "tampered":
        return Check.fail(number, _title(number), "grade.tampered")
    if outcome.status == "error":
        return Check.fail(number, _title(number), "grade.raised", error=outcome.error)
    if outcome.status == "timeout":
        return Check.fail(number, _title(number), "grade.timeout")
    if outcome.status == "memory":
        return Check.fail(number, _title(number), "grade.memory", mb=outcome.value)
    return Check.fail(number, _title(number), "grade.crashed")


def _judged(number: int, verdict: tuple | None) -> Check:
    """A criterion's verdict: None (met) or (hint key, values)."""
    if verdict is None:
        return Check(number, _title(number), True)
    key, values = verdict
    return Check.fail(number, _title(number), key, **values)


def _criterion1(learner: Callable[[], tuple[Any, Any, Any, Any]], seen: JobResult, timeout: float) -> Check:
    title = _title(1)
    if seen.status != "ok":
        return _failed_run(1, seen)
    found = seen.value
    default, shape = found["default"], found["shape"]
    if default is None:
        return Check.fail(1, title, "grade.l1.c1.no_default", value=found["default_shown"])
    if shape == "empty":
        return Check.fail(1, title, "grade.l1.c1.empty_policy")
    if shape not in ("by_name", "by_tier", "function"):
        return Check.fail(1, title, "grade.l1.c1.shape", kind=found["shape_shown"])
    kind, value = found["tiers"][UNLISTED_TOOL]
    if kind == "error":
        return Check.fail(1, title, "grade.l1.c1.unlisted_error", tool=UNLISTED_TOOL, error=value)
    for name, expected in REQUIRED_TIERS.items():
        kind, value = found["tiers"][name]
        if kind == "error":
            return Check.fail(1, title, "grade.raised", error=value)
        if value == expected:
            continue
        listed = found["listed"][name]
        if listed is None and value == default:
            return Check.fail(1, title, "grade.l1.c1.fell_to_default", tool=name, default=default, expected=expected)
        if listed is not None and listed != expected:
            return Check.fail(1, title, "grade.l1.c1.listed_wrong", tool=name, listed=listed, expected=expected)
        return Check.fail(1, title, "grade.l1.c1.mismatch", tool=name, expected=expected, seen=value)
    if found["tiers"][UNLISTED_TOOL][1] != default:
        return Check.fail(
            1,
            title,
            "grade.l1.c1.default_ignored",
            tool=UNLISTED_TOOL,
            default=default,
            seen=found["tiers"][UNLISTED_TOOL][1],
        )
    spies = Spies(OUTPUTS)
    for name in _FORCED:
        spies.recorder("probe:" + name, _yes)
    probed = observe(lambda: _probe(*learner()[::2], shape), spies.answer, timeout)
    if probed.status != "ok":
        return _failed_run(1, probed)
    for name, (kind, value) in _seen_tiers(spies, "probe:", probed.value).items():
        if kind == "error":
            return Check.fail(1, title, "grade.raised", error=value)
        if value != _FORCED[name]:
            return Check.fail(1, title, "grade.l1.c1.not_data_driven", tool=name, tier=_FORCED[name], seen=value)
    warning = t("grade.l1.c1.allow_warning") if default == "allow" else ""
    return Check(1, title, True, warning=warning)


# --- the children's side: everything that touches learner objects -----------------------------
def _tier_seen(rec: Recorder, name: str, facts: list[dict]) -> str:
    """The tier a single call behaved as: asked → ask; ran and answered cleanly → allow; else deny.

    The scene holds one call, so any clean result answers it; whether the ids are right is
    criterion 3's question.
    """
    if rec.asked(name):
        return "ask"
    answered = [f for f in facts if not f["is_error"]]
    return "allow" if rec.ran(name) and answered else "deny"


def _seen_tiers(spies: Spies, prefix: str, calls: list) -> dict[str, tuple[str, str]]:
    """The grader's side: each call's tier from the log kept here, or the error it raised."""
    tiers = {}
    for name, (kind, value) in calls:
        name = plain(name)
        if kind == "error":
            tiers[name] = ("error", plain(value))
        else:
            tiers[name] = ("tier", _tier_seen(spies.recorders[prefix + name], name, value))
    return tiers


def _observe_one(run_tool_uses: Callable, name: str, tag: str) -> tuple[str, Any]:
    """In the child: one call of ``name``; ("facts", the results as plain facts) or ("error", line)."""
    try:
        return "facts", _results(run_tool_uses, content_of(call(name, **INPUTS[name])), tag)
    except MemoryError:
        raise  # the job's own handler names the memory cap
    except Exception as exc:
        return "error", describe_error(exc)


def _observe(policy: Any, default: Any, run_tool_uses: Callable) -> dict:
    shape, shape_shown = shape_of(policy)
    tier = tier_name(default)
    return {
        "default": tier,
        "default_shown": plain(default, 40) if tier is None else tier,
        "shape": shape,
        "shape_shown": shape_shown,
        "listed": {name: listed(policy, shape, name) for name in REQUIRED_TIERS},
        "calls": [(name, _observe_one(run_tool_uses, name, "see:" + name)) for name in _OBSERVED],
    }


def _probe(policy: Any, run_tool_uses: Callable, shape: str) -> list:
    """In the child: change the learner's policy (here only) and call each changed tool once."""
    restore = rewrite(policy, shape, run_tool_uses, _FORCED, in_place=hasattr(os, "fork"))
    calls = []
    try:
        for name in _FORCED:
            calls.append((name, _observe_one(run_tool_uses, name, "probe:" + name)))
            if calls[-1][1][0] == "error":
                break
    finally:
        restore()
    return calls


def _results(run_tool_uses: Callable, content: list, tag: str) -> list[dict]:
    """Call the learner's function on a fresh copy of ``content``; its results as plain facts."""
    return [_fact(r) for r in _returned(run_tool_uses, content, tag)]


def _returned(run_tool_uses: Callable, content: list, tag: str) -> list:
    returned = run_tool_uses(copy.deepcopy(content), remote_tools(tag, OUTPUTS), remote_approver(tag))
    return items(returned) if returned is not None else []


def _fact(result: Any) -> dict:
    content = field(result, "content")
    if isinstance(content, (list, tuple)):
        text = "".join(plain(field(b, "text", "") or "") for b in content)
    else:
        text = "" if content is None else plain(str(content))
    use_id = field(result, "tool_use_id")
    kind = field(result, "type")
    return {
        "type": plain(kind) if isinstance(kind, str) else None,
        "tool_use_id": plain(use_id) if isinstance(use_id, str) else None,
        "is_error": bool(field(result, "is_error", False)),
        "text": text,
    }


def _ask_tool(tiers: dict) -> str:
    """The tool criteria 2 and 3 ask about: the first of the table's ask tools that behaved as ask."""
    return next((name for name in ASK_PAIRS if tiers.get(name) == "ask"), "write_file")


def _mixed(ask: str) -> tuple[list, list[str]]:
    """One response calling allow, ask (approved, then refused), deny and allow tools; and the names."""
    approved, refused = ASK_PAIRS[ask]
    names = ["get_time", ask, ask, "send_email", "read_file"]
    content = content_of(
        "順番に片付けます。",
        call("get_time"),
        call(ask, **approved),
        call(ask, **refused),
        call("send_email", **INPUTS["send_email"]),
        call("read_file", **INPUTS["read_file"]),
    )
    return content, names


def _approves_first(ask: str) -> Callable[[str, str], bool]:
    wanted = logged(ASK_PAIRS[ask][0])
    return lambda name, given: given == wanted


def _yes(name: str, given: str) -> bool:
    return True


def _criterion2(learner: Callable[[], tuple[Any, Any, Any, Any]], tiers: dict, timeout: float) -> Check:
    ask = _ask_tool(tiers)
    if tiers.get(ask) != "ask":
        return Check.fail(2, _title(2), "grade.l1.c2.not_asked")
    deny = tiers.get("send_email") == "deny"
    spies = Spies(OUTPUTS)
    said_no, said_yes = spies.recorder("no"), spies.recorder("yes", _yes)
    alone, mixed = spies.recorder("alone", _yes), spies.recorder("mixed", _approves_first(ask))
    outcome = observe(lambda: _scenes2(*learner()[2:], ask, deny), spies.answer, timeout)
    if outcome.status != "ok":
        return _failed_run(2, outcome)
    return _judged(2, _verdict2(ask, deny, tiers, outcome.value, said_no, said_yes, alone, mixed))


def _scenes2(run_tool_uses: Callable, answers: Any, ask: str, deny: bool) -> dict:
    """In the child: the calls criterion 2 watches (the grader logs them), and ANSWERS read."""
    scene = content_of(call(ask, **ASK_PAIRS[ask][0]))
    _returned(run_tool_uses, scene, "no")
    _returned(run_tool_uses, scene, "yes")
    if deny:
        _returned(run_tool_uses, content_of(call("send_email", **INPUTS["send_email"])), "alone")
    _returned(run_tool_uses, _mixed(ask)[0], "mixed")
    return _given(answers, "step", "approval")


def _verdict2(
    ask: str,
    deny: bool,
    tiers: dict,
    given: dict,
    said_no: Recorder,
    said_yes: Recorder,
    alone: Recorder,
    mixed: Recorder,
) -> tuple | None:
    approved = ASK_PAIRS[ask][0]
    if deny and (alone.ran("send_email") or mixed.ran("send_email")):
        return "grade.l1.c2.deny_ran", {"tool": "send_email"}
    if not said_no.asked(ask):
        return "grade.l1.c2.not_asked", {}
    if said_no.ran(ask):
        key = (
            "grade.l1.c2.refusal_ignored"
            if said_no.asked_before_ran(ask, approved)
            else "grade.l1.c2.ran_before_asking"
        )
        return key, {"tool": ask}
    if said_yes.ran(ask) and not said_yes.asked_before_ran(ask, approved):
        return "grade.l1.c2.ran_before_asking", {"tool": ask}
    if len(said_yes.ran(ask)) != 1:
        return "grade.l1.c2.approved_not_run", {"tool": ask, "count": len(said_yes.ran(ask))}
    if len(mixed.asked(ask)) != 2 or [e.input for e in mixed.ran(ask)] != [logged(approved)]:
        return "grade.l1.c2.per_call", {"tool": ask}
    for name in ("get_time", "read_file"):
        if tiers.get(name) == "allow" and not mixed.ran(name):
            return "grade.l1.c2.allowed_skipped", {"tool": name}
    return _answer(given, "step") or _answer(given, "approval")


def _deny_tool(tiers: dict) -> str | None:
    return next((name for name in ("send_email", UNLISTED_TOOL) if tiers.get(name) == "deny"), None)


def _criterion3(learner: Callable[[], tuple[Any, Any, Any, Any]], tiers: dict, timeout: float) -> Check:
    denied = _deny_tool(tiers)
    if denied is None:
        return Check.fail(3, _title(3), "grade.l1.c3.no_deny", seen=tiers.get("send_email", "?"))
    ask = _ask_tool(tiers)
    scenes = {"alone": content_of(call(denied, **INPUTS[denied])), "mixed": _mixed(ask)[0]}
    spies = Spies(OUTPUTS)
    rec = spies.recorder("mixed", _approves_first(ask))
    spies.recorder("alone", _yes)
    sent = {tag: _SentResults(scene) for tag, scene in scenes.items()}
    for tag, box in sent.items():
        spies.model(tag, serve_http(box.handle))
    outcome = observe(lambda: _scenes3(*learner()[2:], ask, denied), spies.answer, timeout)
    if outcome.status != "ok":
        return _failed_run(3, outcome)
    calls, given = outcome.value
    # Facts the grader did not see sent are the child's word: taken only with the child's reason why
    # the SDK could not send them, which fails the criterion in the end (an API check never passed).
    if any(sent[tag].facts is None and not calls[tag]["unsent"] for tag in scenes):
        return Check.fail(3, _title(3), "grade.tampered")
    facts = {tag: sent[tag].facts if sent[tag].facts is not None else calls[tag]["facts"] for tag in scenes}
    rejected = sent["mixed"].rejected or next(
        (plain(calls[tag]["unsent"]) for tag in scenes if sent[tag].facts is None), ""
    )
    return _judged(3, _verdict3(denied, ask, tiers, scenes, facts, rec, rejected, given))


def _scenes3(run_tool_uses: Callable, answers: Any, ask: str, denied: str) -> tuple:
    """In the child: the denied call alone and the mixed response, each result list sent back to the
    model through the grader (who reads it as the SDK wrote it); ANSWERS read."""
    calls = {}
    for tag, content in (("alone", content_of(call(denied, **INPUTS[denied]))), ("mixed", _mixed(ask)[0])):
        returned = _returned(run_tool_uses, content, tag)
        unsent = ""
        messages: list[Any] = [user(PROMPT), assistant(content), {"role": "user", "content": returned}]
        try:
            bridged_client(tag, max_retries=0).messages.create(
                model=DEFAULT_MODEL, max_tokens=256, tools=TOOL_DEFS, messages=messages
            )
        except anthropic.APIStatusError:
            pass  # the grader saw the request and its answer
        except Exception as exc:  # results the SDK cannot even serialise
            unsent = plain(describe_error(exc), 300)
        calls[tag] = {"facts": [_fact(r) for r in returned], "unsent": unsent}
    return calls, _given(answers, "deny")


class _SentResults:
    """The grader's side of one result list sent back: its facts as sent, and the API's verdict on it."""

    def __init__(self, scene: list) -> None:
        self.scene, self.rejected = scene, ""
        self.facts: list | None = None
        self._reply = handler_for(Emulator([say("了解しました。")] * 4))

    def handle(self, request: Any) -> Any:
        try:
            results = json.loads(request.content)["messages"][-1]["content"]
        except (ValueError, KeyError, IndexError, TypeError):
            results = None
        if self.facts is None:  # the first request is the one the learner's results went out in
            self.facts = [_fact(r) for r in results] if isinstance(results, list) else []
            self.rejected = _api_rejects(self.scene, results)
        return self._reply(request)


def _verdict3(
    denied: str, ask: str, tiers: dict, scenes: dict, facts: dict, rec: Recorder, rejected: str, given: dict
) -> tuple | None:
    alone, mixed = facts["alone"], facts["mixed"]
    content, names = scenes["mixed"], _mixed(ask)[1]
    ids = tool_use_ids(content)
    if len(alone) != 1:
        return "grade.l1.c3.deny_no_result", {"tool": denied, "count": len(alone)}
    if len(mixed) != len(ids):
        return "grade.l1.c3.count", {"uses": len(ids), "results": len(mixed)}
    if any(f["type"] != "tool_result" for f in mixed + alone):
        return "grade.l1.c3.type", {}
    got = [f["tool_use_id"] for f in mixed]
    if None in got:
        return "grade.l1.c3.no_id", {"position": got.index(None) + 1}
    if alone[0]["tool_use_id"] is None:
        return "grade.l1.c3.no_id", {"position": 1}
    if got != ids:
        return ("grade.l1.c3.order" if sorted(got) == sorted(ids) else "grade.l1.c3.ids"), {}
    if alone[0]["tool_use_id"] != tool_use_ids(scenes["alone"])[0]:
        return "grade.l1.c3.ids", {}
    approved, refused = ASK_PAIRS[ask]
    calls = [INPUTS["get_time"], approved, refused, INPUTS["send_email"], INPUTS["read_file"]]
    ran = {(e.name, e.input) for e in rec.ran()}
    denials = [(denied, alone[0])] + [(n, f) for n, f in zip(names, mixed) if tiers.get(n) == "deny"]
    for name, fact in denials:
        if not fact["is_error"]:
            return "grade.l1.c3.deny_not_error", {"tool": name}
        if not says_forbidden(fact["text"]):
            return "grade.l1.c3.deny_no_reason", {"tool": name}
    if (ask, logged(refused)) not in ran and not mixed[2]["is_error"]:
        return "grade.l1.c3.refused_not_error", {"tool": ask}
    for position, (name, given_input, fact) in enumerate(zip(names, calls, mixed)):
        if position == 2 or tiers.get(name) == "deny":
            continue  # the refused and the denied call: had they run, that is criterion 2's question
        if (name, logged(given_input)) in ran and (fact["is_error"] or OUTPUTS[name] not in fact["text"]):
            return "grade.l1.c3.output_missing", {"tool": name}
    if rejected:
        return "grade.l1.c3.api_rejected", {"error": rejected}
    return _answer(given, "deny")
