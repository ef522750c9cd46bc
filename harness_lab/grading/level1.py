"""Grader for exercise level 1: a per-tool tiered policy, allow / ask / deny (lesson 6, 練習).

The learner writes ``POLICY``, ``DEFAULT_TIER`` and ``run_tool_uses(content, tool_impls, approve)``.
Nothing here reads their source or the shape of ``POLICY``: each criterion feeds real tool_use
blocks to ``run_tool_uses`` with spy tools and a spy approver, and judges what ran, what was asked
and what came back. So a dict of tiers, sets of names or a function all pass if they behave.

Each criterion runs in its own time-limited child (``sandbox.run_limited``), so one that loops
forever or raises fails alone. Criterion 1 looks only at *which tier* each tool behaved as; the
placement of the check (2) and the results returned (3) are judged separately, so one mistake
fails one criterion.

Every call of ``run_tool_uses`` gets its own deep copy of the model's response, and the grader's
own checks read untouched copies: learner code may consume ``content`` or edit ``block.input`` in
place, as real harness code may, without misleading the next call or the grader.
"""

from __future__ import annotations

import copy
import re
import unicodedata
from collections import Counter
from enum import Enum
from typing import Any, Callable

import anthropic

from ..emulator import call, emulated_client, say
from ..model import DEFAULT_MODEL
from ..messages import assistant, field, user
from ..text import t
from .report import Check, Report
from .sandbox import JobResult, describe_error, run_limited
from .scenarios import OUTPUTS, PROMPT, TOOL_DEFS, content_of, tool_use_ids
from .spies import Recorder, logged

__all__ = ["REQUIRED_TIERS", "TIERS", "UNLISTED_TOOL", "check_level1", "grade_level1"]

TIERS = ("allow", "ask", "deny")

# The product colleague's table, as the exercise states it.
REQUIRED_TIERS = {
    "get_time": "allow",
    "read_file": "allow",
    "write_file": "ask",
    "delete_file": "ask",
    "http_post": "ask",
    "send_email": "deny",
}
# A tool nobody has put in the policy yet: it must fall to DEFAULT_TIER.
UNLISTED_TOOL = "brand_new_tool"

INPUTS = {
    "get_time": {},
    "read_file": {"path": "README.md"},
    "write_file": {"path": "notes.txt", "content": "今日のメモ"},
    "delete_file": {"path": "old_notes.txt"},
    "http_post": {"url": "https://example.com/api/report", "body": "{}"},
    "send_email": {"to": "team@example.com", "body": "進捗報告"},
    UNLISTED_TOOL: {"note": "試しに呼ぶ"},
}
# The human approves writing notes.txt and refuses overwriting config.txt.
REFUSED_WRITE = {"path": "config.txt", "content": "上書き"}

# Phrases that tell the model a rule refused the call (not a person, not a failure), searched for in
# the NFKC-folded, lower-cased result. A bare "拒否" / "denied" is not enough: a person's "no" says
# that too, and "エラー" or "実行していません" says nothing about why.
POLICY_PHRASES = re.compile("|".join((
    "ポリシー", "方針", "規則", "ルール", "権限",
    "禁",  # 禁止, 禁じられています, 厳禁
    "不許可", "許可(されてい|されて|され|してい|し|が(あり)?)?(ない|ません|なし)",
    "認められて(い)?(ない|ません)", "(使用|利用)(でき(ない|ません)|不可)", "使え(ない|ません)", "無効化",
    "policy", "forbid", "prohibit", "deny", "blocked", "blocklist", "banned", "disabled", "disallow",
    "(not|n't|never) (be )?(allowed|permitted)", "(not |un)authori[sz]ed", "permission",
)))


def _approve_notes_only(name: str, given: dict) -> bool:
    return given.get("path") == INPUTS["write_file"]["path"]


def grade_level1(POLICY: Any, DEFAULT_TIER: Any, run_tool_uses: Callable, *, timeout: float = 5.0) -> Report:
    """Judge the three criteria; returns a ``Report`` (nothing printed)."""
    scenes = _Scenes()
    checks = (
        _criterion1(POLICY, DEFAULT_TIER, run_tool_uses, scenes, timeout),
        _criterion2(run_tool_uses, scenes, timeout),
        _criterion3(run_tool_uses, scenes, timeout),
    )
    return Report("level1", checks)


def check_level1(POLICY: Any, DEFAULT_TIER: Any, run_tool_uses: Callable, *, timeout: float = 5.0) -> None:
    """The notebook's grade cell: print one line per criterion and a summary line."""
    print(grade_level1(POLICY, DEFAULT_TIER, run_tool_uses, timeout=timeout).text())


class _Scenes:
    """The model responses the criteria use, built once per grading through the real client."""

    def __init__(self) -> None:
        self.single = {name: content_of(call(name, **given)) for name, given in INPUTS.items()}
        self.write = self.single["write_file"]
        self.deny = self.single["send_email"]
        self.mixed = content_of(
            "順番に片付けます。",
            call("get_time"),
            call("write_file", **INPUTS["write_file"]),
            call("write_file", **REFUSED_WRITE),
            call("send_email", **INPUTS["send_email"]),
            call("read_file", **INPUTS["read_file"]),
        )


def _tier_name(value: Any) -> str | None:
    if isinstance(value, Enum):
        value = value.value
    if isinstance(value, str) and value.strip().lower() in TIERS:
        return value.strip().lower()
    return None


def _is_empty(policy: Any) -> bool:
    if policy is None:
        return True
    if callable(policy):
        return False
    try:
        return len(policy) == 0
    except TypeError:
        return False


def _results(run_tool_uses: Callable, content: list, rec: Recorder, decide: Callable) -> list[dict]:
    """Call the learner's function on a fresh copy of ``content``; its results as plain facts."""
    return [_fact(r) for r in _returned(run_tool_uses, content, rec, decide)]


def _returned(run_tool_uses: Callable, content: list, rec: Recorder, decide: Callable) -> list:
    returned = run_tool_uses(copy.deepcopy(content), rec.tools(OUTPUTS), rec.approver(decide))
    return list(returned or [])


def _fact(result: Any) -> dict:
    content = field(result, "content")
    if isinstance(content, (list, tuple)):
        text = "".join(str(field(b, "text", "") or "") for b in content)
    else:
        text = "" if content is None else str(content)
    use_id = field(result, "tool_use_id")
    return {
        "type": field(result, "type"),
        "tool_use_id": use_id if isinstance(use_id, str) else None,
        "is_error": bool(field(result, "is_error", False)),
        "text": text,
    }


def _tier_seen(rec: Recorder, name: str, facts: list[dict]) -> str:
    """The tier a single call behaved as: asked → ask; ran and answered cleanly → allow; else deny.

    The scene holds one call, so any clean result answers it; whether the ids are right is
    criterion 3's question.
    """
    if rec.asked(name):
        return "ask"
    answered = [f for f in facts if not f["is_error"]]
    return "allow" if rec.ran(name) and answered else "deny"


def _says_policy(text: str) -> bool:
    return POLICY_PHRASES.search(unicodedata.normalize("NFKC", text).lower()) is not None


def _failed_run(number: int, title: str, outcome: JobResult) -> Check:
    if outcome.status == "error":
        return Check.fail(number, title, "grade.raised", error=outcome.error)
    if outcome.status == "timeout":
        return Check.fail(number, title, "grade.timeout")
    return Check.fail(number, title, "grade.crashed")


def _criterion1(policy: Any, default: Any, run_tool_uses: Callable, scenes: _Scenes, timeout: float) -> Check:
    title = t("grade.l1.c1.title")
    tier = _tier_name(default)
    if tier is None:
        return Check.fail(1, title, "grade.l1.c1.no_default", value=_short(default))
    if _is_empty(policy):
        return Check.fail(1, title, "grade.l1.c1.empty_policy")

    def job() -> dict:
        seen = {}
        for name, content in scenes.single.items():
            rec = Recorder()
            try:
                facts = _results(run_tool_uses, content, rec, lambda n, i: True)
            except Exception as exc:
                seen[name] = ("error", describe_error(exc))
                continue
            seen[name] = ("tier", _tier_seen(rec, name, facts))
        return seen

    outcome = run_limited(job, timeout)
    if outcome.status != "ok":
        return _failed_run(1, title, outcome)
    seen = outcome.value
    unlisted = seen[UNLISTED_TOOL]
    if unlisted[0] == "error":
        return Check.fail(1, title, "grade.l1.c1.unlisted_error", tool=UNLISTED_TOOL, error=unlisted[1])
    for name, expected in REQUIRED_TIERS.items():
        kind, value = seen[name]
        if kind == "error":
            return Check.fail(1, title, "grade.raised", error=value)
        if value != expected:
            return Check.fail(1, title, "grade.l1.c1.mismatch", tool=name, expected=expected, seen=value)
    if unlisted[1] != tier:
        return Check.fail(1, title, "grade.l1.c1.default_ignored", tool=UNLISTED_TOOL, default=tier, seen=unlisted[1])
    warning = t("grade.l1.c1.allow_warning") if tier == "allow" else ""
    return Check(1, title, True, warning=warning)


def _criterion2(run_tool_uses: Callable, scenes: _Scenes, timeout: float) -> Check:
    title = t("grade.l1.c2.title")

    def job() -> dict:
        facts = {}
        refused, approved, denied, mixed = Recorder(), Recorder(), Recorder(), Recorder()
        _results(run_tool_uses, scenes.write, refused, lambda n, i: False)
        facts["refused_ran"] = bool(refused.ran("write_file"))
        facts["refused_asked"] = bool(refused.asked("write_file"))
        facts["refused_asked_first"] = refused.asked_before_ran("write_file", INPUTS["write_file"])
        _results(run_tool_uses, scenes.write, approved, lambda n, i: True)
        facts["approved_ran"] = len(approved.ran("write_file"))
        facts["approved_asked_first"] = approved.asked_before_ran("write_file", INPUTS["write_file"])
        _results(run_tool_uses, scenes.deny, denied, lambda n, i: True)
        facts["deny_ran"] = bool(denied.ran("send_email"))
        _results(run_tool_uses, scenes.mixed, mixed, _approve_notes_only)
        facts["mixed_writes"] = sorted(e.input for e in mixed.ran("write_file"))
        facts["mixed_asks"] = len(mixed.asked("write_file"))
        facts["mixed_deny_ran"] = bool(mixed.ran("send_email"))
        facts["mixed_allowed"] = sorted({e.name for e in mixed.ran()} & {"get_time", "read_file"})
        return facts

    outcome = run_limited(job, timeout)
    if outcome.status != "ok":
        return _failed_run(2, title, outcome)
    f = outcome.value
    if f["deny_ran"] or f["mixed_deny_ran"]:
        return Check.fail(2, title, "grade.l1.c2.deny_ran")
    if not f["refused_asked"]:
        return Check.fail(2, title, "grade.l1.c2.not_asked")
    if f["refused_ran"] and f["refused_asked_first"]:
        return Check.fail(2, title, "grade.l1.c2.refusal_ignored")
    if f["refused_ran"] or (f["approved_ran"] and not f["approved_asked_first"]):
        return Check.fail(2, title, "grade.l1.c2.ran_before_asking")
    if f["approved_ran"] != 1:
        return Check.fail(2, title, "grade.l1.c2.approved_not_run", count=f["approved_ran"])
    if f["mixed_asks"] != 2 or f["mixed_writes"] != [logged(INPUTS["write_file"])]:
        return Check.fail(2, title, "grade.l1.c2.per_call")
    if f["mixed_allowed"] != ["get_time", "read_file"]:
        return Check.fail(2, title, "grade.l1.c2.allowed_skipped")
    return Check(2, title, True)


def _criterion3(run_tool_uses: Callable, scenes: _Scenes, timeout: float) -> Check:
    title = t("grade.l1.c3.title")
    mixed_ids = tool_use_ids(scenes.mixed)

    def job() -> dict:
        alone = _results(run_tool_uses, scenes.deny, Recorder(), lambda n, i: True)
        rec = Recorder()
        returned = _returned(run_tool_uses, scenes.mixed, rec, _approve_notes_only)
        return {
            "alone": alone,
            "mixed": [_fact(r) for r in returned],
            "ran": sorted({(e.name, e.input) for e in rec.ran()}),
            "api": _api_accepts(scenes.mixed, returned),
        }

    outcome = run_limited(job, timeout)
    if outcome.status != "ok":
        return _failed_run(3, title, outcome)
    alone, mixed = outcome.value["alone"], outcome.value["mixed"]
    if len(alone) != 1:
        return Check.fail(3, title, "grade.l1.c3.deny_no_result", count=len(alone))
    if len(mixed) != len(mixed_ids):
        return Check.fail(3, title, "grade.l1.c3.count", uses=len(mixed_ids), results=len(mixed))
    if any(f["type"] != "tool_result" for f in mixed + alone):
        return Check.fail(3, title, "grade.l1.c3.type")
    got_ids = [f["tool_use_id"] for f in mixed]
    if None in got_ids:
        return Check.fail(3, title, "grade.l1.c3.no_id", position=got_ids.index(None) + 1)
    if alone[0]["tool_use_id"] is None:
        return Check.fail(3, title, "grade.l1.c3.no_id", position=1)
    if got_ids != mixed_ids:
        key = "grade.l1.c3.order" if Counter(got_ids) == Counter(mixed_ids) else "grade.l1.c3.ids"
        return Check.fail(3, title, key)
    if alone[0]["tool_use_id"] != tool_use_ids(scenes.deny)[0]:
        return Check.fail(3, title, "grade.l1.c3.ids")
    by_name = dict(zip(["get_time", "write_ok", "write_refused", "send_email", "read_file"], mixed))
    for deny_fact in (alone[0], by_name["send_email"]):
        if not deny_fact["is_error"]:
            return Check.fail(3, title, "grade.l1.c3.deny_not_error")
        if not _says_policy(deny_fact["text"]):
            return Check.fail(3, title, "grade.l1.c3.deny_no_reason")
    ran = outcome.value["ran"]
    refused_ran = ("write_file", logged(REFUSED_WRITE)) in ran
    if not refused_ran and not by_name["write_refused"]["is_error"]:
        return Check.fail(3, title, "grade.l1.c3.refused_not_error")
    for key, tool, given in (
        ("get_time", "get_time", INPUTS["get_time"]),
        ("write_ok", "write_file", INPUTS["write_file"]),
        ("read_file", "read_file", INPUTS["read_file"]),
    ):
        fact = by_name[key]
        if (tool, logged(given)) not in ran:
            continue  # whether it should have run is criterion 2's question
        if fact["is_error"] or OUTPUTS[tool] not in fact["text"]:
            return Check.fail(3, title, "grade.l1.c3.output_missing", tool=tool)
    if outcome.value["api"]:
        return Check.fail(3, title, "grade.l1.c3.api_rejected", error=outcome.value["api"])
    return Check(3, title, True)


def _api_accepts(content: list, results: list) -> str:
    """Send the learner's results back as the next user message; the emulator's 400 text, or ""."""
    client = emulated_client([say("了解しました。"), say("了解しました。")])
    messages = [user(PROMPT), assistant(content), {"role": "user", "content": results}]
    try:
        client.messages.create(model=DEFAULT_MODEL, max_tokens=256, tools=TOOL_DEFS, messages=messages)
    except anthropic.BadRequestError as exc:
        body = exc.body if isinstance(exc.body, dict) else {}
        return str(body.get("error", {}).get("message", exc.message))
    return ""


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
