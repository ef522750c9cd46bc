"""Level 1's criterion 3: the verdict on the results a turn sent back (a deny alone, and a turn
that mixes every tier), reached from plain facts on the grader's side of the bridge."""

from __future__ import annotations

import json

from ..emulator import call
from .level1_scene import UNLISTED_TOOL, _answer, blames_a_person, mixed_inputs, mixed_scene, says_forbidden
from .scenarios import OUTPUTS, content_of, tool_use_ids
from .spies import Recorder, logged

__all__ = ["FAILING_SCENE", "deny_tool", "verdict3"]

# Two allowed calls, the first of whose tool raises: a failure is one more result, not the end of the turn.
FAILING_SCENE = content_of("読んでから時刻を見ます。", call("read_file", path="missing.md"), call("get_time"))


def deny_tool(tiers: dict) -> str | None:
    """The tool criterion 3 asks about a deny with: the table's send_email, or the unlisted one."""
    return next((name for name in ("send_email", UNLISTED_TOOL) if tiers.get(name) == "deny"), None)


def verdict3(
    denied: str,
    ask: str,
    tiers: dict,
    scenes: dict,
    facts: dict,
    rec: Recorder,
    rejected: str,
    given: dict,
    failing: dict | None = None,
) -> tuple | None:
    """None when the results were right, else (hint key, values): counted, typed and paired first,
    then what a deny and a refusal said, then the outputs, then the API's own verdict, then a tool
    that raised, then ANSWERS."""
    alone, mixed = facts["alone"], facts["mixed"]
    content, names = scenes["mixed"], mixed_scene(ask)[1]
    ids = tool_use_ids(content)
    kept = len(mixed) > len(ids) and any(f["tool_use_id"] not in ids for f in mixed)
    if kept or len({f["tool_use_id"] for f in alone}) > 1:
        return "grade.l1.results_kept", {"tool": names[0]}  # a results list that outlives the call
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
    if (ask, logged(refused)) not in ran and says_forbidden(mixed[2]["text"]) and not blames_a_person(mixed[2]["text"]):
        return "grade.l1.c3.refusal_says_policy", {"tool": ask}  # a person's no, told as a rule's
    for position, (name, given_input, fact) in enumerate(zip(names, calls, mixed)):
        if position == 2 or tiers.get(name) == "deny":
            continue  # the refused and the denied call: had they run, that is criterion 2's question
        if (name, logged(given_input)) in ran and (fact["is_error"] or OUTPUTS[name] not in _read(fact["text"])):
            return "grade.l1.c3.output_missing", {"tool": name}
    if rejected:
        return "grade.l1.c3.api_rejected", {"error": rejected}
    return _tool_failure(tiers, failing) or _answer(given, "deny")


def _tool_failure(tiers: dict, failing: dict | None) -> tuple | None:
    """A tool that raised (``FAILING_SCENE``'s read_file) still gets its result, an is_error one, and the
    next call still runs and is answered: else the harness's turn ends in the tool's exception."""
    if failing is None or tiers.get("read_file") != "allow" or tiers.get("get_time") != "allow":
        return None  # a tier seen wrong is criterion 1's to name
    if failing["raised"]:
        return "grade.l1.c3.tool_error_raised", {"tool": "read_file", "error": failing["raised"]}
    got = failing["facts"]
    if [f["tool_use_id"] for f in got] != tool_use_ids(FAILING_SCENE):
        return "grade.l1.c3.tool_error_count", {"tool": "read_file", "uses": 2, "results": len(got)}
    if not got[0]["is_error"]:
        return "grade.l1.c3.tool_error_not_error", {"tool": "read_file"}
    if not got[0]["text"].strip():  # sent on, the API's 400: content cannot be empty if `is_error` is true
        return "grade.l1.c3.tool_error_empty", {"tool": "read_file"}
    return None


def _read(text: str) -> str:
    """The result's text as the model reads it: JSON (``json.dumps`` escapes Japanese) decoded too."""
    try:
        return text + json.dumps(json.loads(text), ensure_ascii=False)
    except (ValueError, RecursionError):
        return text
