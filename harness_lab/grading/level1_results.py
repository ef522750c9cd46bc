"""Level 1's criterion 3: the verdict on the results a turn sent back (a deny alone, and a turn
that mixes every tier), reached from plain facts on the grader's side of the bridge."""

from __future__ import annotations

import json

from .level1_scene import _answer, blames_a_person, mixed_inputs, mixed_scene, says_forbidden
from .scenarios import OUTPUTS, tool_use_ids
from .spies import Recorder, logged

__all__ = ["verdict3"]


def verdict3(
    denied: str, ask: str, tiers: dict, scenes: dict, facts: dict, rec: Recorder, rejected: str, given: dict
) -> tuple | None:
    """None when the results were right, else (hint key, values): counted, typed and paired first,
    then what a deny and a refusal said, then the outputs, then the API's own verdict, then ANSWERS."""
    alone, mixed = facts["alone"], facts["mixed"]
    content, names = scenes["mixed"], mixed_scene(ask)[1]
    ids = tool_use_ids(content)
    if len(alone) > 1:
        return "grade.l1.c3.too_many", {"uses": 1, "results": len(alone)}
    if len(alone) != 1:
        return "grade.l1.c3.deny_no_result", {"tool": denied, "count": len(alone)}
    if len(mixed) > len(ids):
        return "grade.l1.c3.too_many", {"uses": len(ids), "results": len(mixed)}
    if len(mixed) < len(ids):
        got_ids = {f["tool_use_id"] for f in mixed}
        ran = {(e.name, e.input) for e in rec.ran()}
        inputs = mixed_inputs(ask)
        if ids[2] not in got_ids:  # the call approve said no to: its result is the one left out
            return "grade.l1.c3.refused_no_result", {"tool": ask}
        for name, use_id, given_input in zip(names, ids, inputs):
            if use_id not in got_ids and names.count(name) > 1 and (name, logged(given_input)) in ran:
                return "grade.l1.c3.same_tool_once", {"tool": name}  # it ran, and its result went to its twin
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
    calls = mixed_inputs(ask)
    refused = calls[2]
    ran = {(e.name, e.input) for e in rec.ran()}
    denials = [(denied, alone[0])] + [(n, f) for n, f in zip(names, mixed) if tiers.get(n) == "deny"]
    for name, fact in denials:
        if not fact["is_error"]:
            return "grade.l1.c3.deny_not_error", {"tool": name}
        if not says_forbidden(fact["text"]):
            key = "grade.l1.c3.deny_blames_person" if blames_a_person(fact["text"]) else "grade.l1.c3.deny_no_reason"
            return key, {"tool": name}
    if (ask, logged(refused)) not in ran and not mixed[2]["is_error"]:
        return "grade.l1.c3.refused_not_error", {"tool": ask}
    for position, (name, given_input, fact) in enumerate(zip(names, calls, mixed)):
        if position == 2 or tiers.get(name) == "deny":
            continue  # the refused and the denied call: had they run, that is criterion 2's question
        if (name, logged(given_input)) in ran and (fact["is_error"] or OUTPUTS[name] not in _read(fact["text"])):
            return "grade.l1.c3.output_missing", {"tool": name}
    if rejected:
        return "grade.l1.c3.api_rejected", {"error": rejected}
    return _answer(given, "deny")


def _read(text: str) -> str:
    """The result's text as the model reads it: JSON (``json.dumps`` escapes Japanese) decoded too."""
    try:
        return text + json.dumps(json.loads(text), ensure_ascii=False)
    except (ValueError, RecursionError):
        return text
