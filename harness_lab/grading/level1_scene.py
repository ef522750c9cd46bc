"""What the level-1 exercise sets before the learner's code, and how the grader reads it back.

The product colleague's tier table, the inputs each tool is called with, the questions of ``ANSWERS``
with their options, and the words that make a deny result say a rule forbids the call. Plain data and
pure functions: the graders (``level1.py``) use them on both sides of the bridge. Criterion 3's
verdict on the results a turn sent back (``verdict3``: a deny alone, and a turn that mixes every tier)
is one of them, reached from plain facts on the grader's side.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable, Mapping
from enum import Enum
from typing import Any

import anthropic

from ..emulator import call, emulated_client, say
from ..messages import assistant, user
from ..model import DEFAULT_MODEL
from ..text import Phrase, t
from .report import print_lines
from .sandbox import describe_error, plain
from .scenarios import PROMPT, content_of, outputs, tool_defs, tool_use_ids
from .spies import Recorder, logged

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
# Tools the table never names, written into the learner's policy by the probe of criterion 1.
PROBE_TIERS = {"list_files": "allow", "create_issue": "ask", "drop_table": "deny"}
# Where the two probes move each tier: between them, every tier goes to each of the other two, so a
# tool name written into the code (an ask list kept beside the policy) shows whichever way it leans.
_ROTATIONS = ({"allow": "ask", "ask": "deny", "deny": "allow"}, {"allow": "deny", "ask": "allow", "deny": "ask"})
# The tools each tier is first observed on, and what each probe makes the policy say.
_OBSERVED = (*REQUIRED_TIERS, UNLISTED_TOOL)
_FORCED = tuple({**{name: turn[was] for name, was in REQUIRED_TIERS.items()}, **PROBE_TIERS} for turn in _ROTATIONS)

INPUTS = {
    "get_time": {},
    "read_file": {"path": "README.md"},
    "write_file": {"path": "notes.txt", "content": "今日のメモ"},
    "delete_file": {"path": "old_notes.txt"},
    "http_post": {"url": "https://example.com/api/report", "body": "{}"},
    "send_email": {"to": "team@example.com", "body": "進捗報告"},
    UNLISTED_TOOL: {"note": "試しに呼ぶ"},
    "list_files": {"path": "."},
    "create_issue": {"title": "メモの整理"},
    "drop_table": {"table": "users"},
}
# For each ask tool: the call the human approves and the one they refuse (overwriting config.txt).
ASK_PAIRS = {
    "write_file": (INPUTS["write_file"], {"path": "config.txt", "content": "上書き"}),
    "delete_file": (INPUTS["delete_file"], {"path": "config.txt"}),
    "http_post": (INPUTS["http_post"], {"url": "https://example.com/api/delete_all", "body": "{}"}),
}

# The structured answer: question -> {option key: right?}. Printed by level1_options().
ANSWER_OPTIONS = {
    "step": {"before_request": False, "after_response": False, "before_tool": True, "after_tool": False},
    "approval": {"ask_reuses": True, "own_prompt": False, "replaces": False, "after_approval": False},
    "deny": {"error_result": True, "drop": False, "stop_run": False, "refusal_text": False, "run_and_discard": False},
}

# A deny result must say that a rule forbids the tool. Searched in the NFKC-folded, lower-cased
# text: a word naming a rule (policy, 規則, 管理者, "deny 設定"...) counts on its own; a phrase that is
# a prohibition (禁止, 許可されていません, not permitted...) counts unless the text makes a person
# the one who refused ("the user did not give permission", 「ユーザーの許可がない」): that is what a
# person's "no" says, and on a deny nobody was asked. A bare "拒否" / "denied" is what a person's
# "no" says too; "使えません", "blocked", "エラー" or 「設定できません」 say nothing about why.
_RULE_WORDS = (
    "ポリシー",
    "方針",
    "規則",
    "規定",
    "ルール",
    "管理者",
    r"\bpolic(y|ies)\b",
    r"\brules?\b",
    r"\badmin(istrator)?s?\b",
    r"\b(allow|block|deny)[- ]?list",
    "(許可|拒否|禁止|ブロック)リスト",
    r"\bguardrails?\b",
    r"\btiers?\b",  # the exercise's own word for its policy
    "段階",
    r"(allow|ask|deny|拒否|禁止|ブロック)\s*の?設定",  # the setting named, not 「設定できません」
    "設定(により|によって|上|で(?!き))",
    r"\b(configured|set|marked|listed) (as|to|to be|under) (the )?(deny|denied|blocked|forbidden|disallowed)\b",
)
_PROHIBITIONS = (
    "権限",
    r"\bpermissions?\b",
    "禁",
    "不許可",
    "許可(されてい|されて|され|してい|し|が(あり)?)?(ない|ません|なし)",
    "認められて(い)?(ない|ません)",
    "許され(てい|て)?(ない|ません|ず)",
    r"\bforbid",
    r"\bprohibit",
    r"\bdisallow",
    r"\bbanned\b",
    r"\b(un|not )authori[sz]ed\b",
    r"(\bnot|n't|\bnever) (be )?(allowed|permitted)\b",
    r"\bmay not\b",
    r"\brestrict",
)
_SAYS_RULE = re.compile("|".join(_RULE_WORDS))
_PROHIBITS = re.compile("|".join(_PROHIBITIONS))
# A person as the one who refused: the subject of a refusal or of a permission not given, or the
# one whose permission is missing.
_PERSON = r"\b(users?|humans?|person|people|reviewers?|approvers?|operators?)\b('s|s')?"
_NOT_GIVEN = (
    r"(did not|didn't|does not|doesn't|has not|hasn't|have not|haven't|had not|hadn't|never|not)\s+(yet\s+)?"
    r"(give|gave|given|grant\w*|allow\w*|approve\w*|authori[sz]\w*|permit\w*|consent\w*|confirm\w*|accept\w*)"
)
_REFUSED = r"(declin|refus|reject|den(y|ies|ied)\b|forb[ai]d|prohibit|block|disallow|veto|said no|says no)"
_JA_PERSON = "(ユーザー|ユーザ|利用者|使用者|人間|承認者|確認者|担当者|レビュアー)"
_BLAMES_PERSON = re.compile(
    "|".join(
        (
            _PERSON + r"[^.;:!?\n]{0,30}?\b(" + _NOT_GIVEN + "|" + _REFUSED + ")",
            r"\b(" + _REFUSED + r"\w*|" + _NOT_GIVEN + r")\s+by\s+(the\s+)?" + _PERSON,
            r"\b(without|no|lack\w*|missing)\s+(the\s+)?"
            + _PERSON
            + r"\s*(permission|approval|consent|authori[sz]ation)",
            r"\b(permission|approval|consent|authori[sz]ation)\s+(from|of|by)\s+(the\s+)?" + _PERSON,
            _JA_PERSON
            + "(が|は|の|から|側で?|によって|により)[^。．!?、,\n]{0,20}?(拒|断|却下|禁|許|承認|同意|認め|了承|いいえ)",
            _JA_PERSON + "に(よって|より)?(拒|断|却下|禁|許)",
        )
    )
)


def _given(answers: Any, *questions: str) -> dict:
    """In the child: ANSWERS' ``questions`` as plain values, each None or (option key or None, as shown)."""
    given: dict = {}
    for question in questions:
        value = answers.get(question) if isinstance(answers, Mapping) else None
        if isinstance(value, Enum):
            value = value.value
        if value is None or (isinstance(value, str) and not value.strip()):
            given[question] = None
        else:
            key = plain(value).strip() if isinstance(value, str) else None
            given[question] = (key, plain(value, 40))
    return given


def _answer(given: dict, question: str) -> tuple | None:
    """The verdict on one ANSWERS question (``_given``): None (right) or (hint key, values)."""
    value = given.get(question)
    if value is None:
        return "grade.l1.answer_missing", {"question": question}
    options = ANSWER_OPTIONS[question]
    key, shown = value
    if key not in options:
        return "grade.l1.unknown", {"question": question, "value": shown}
    if options[key]:
        return None
    hint = {"step": "grade.l1.c2.step", "approval": "grade.l1.c2.approval", "deny": "grade.l1.c3.deny_answer"}
    return hint[question], {"option": key, "desc": Phrase(f"grade.l1.opt.{question}.{key}")}


def says_forbidden(text: str) -> bool:
    """Does a deny result's text tell the model that a rule (a policy) forbids the tool?"""
    low = _folded(text)
    if _SAYS_RULE.search(low):
        return True
    return _PROHIBITS.search(low) is not None and not _BLAMES_PERSON.search(low)


def blames_a_person(text: str) -> bool:
    """Does a deny result's text make a person (the user) the one who refused?"""
    return _BLAMES_PERSON.search(_folded(text)) is not None


def _folded(text: str) -> str:
    return unicodedata.normalize("NFKC", text).lower()


def _api_rejects(content: list, results: list) -> str:
    """Send the learner's results back as the next user message; the API's 400 text, or ""."""
    client = emulated_client([say("了解しました。"), say("了解しました。")])
    messages: list[Any] = [user(PROMPT), assistant(content), {"role": "user", "content": results}]
    try:
        client.messages.create(model=DEFAULT_MODEL, max_tokens=256, tools=tool_defs(), messages=messages)
    except anthropic.BadRequestError as exc:
        body = exc.body if isinstance(exc.body, dict) else {}
        error = body.get("error", {})
        return plain(error.get("message", exc.message) if isinstance(error, dict) else exc.message, 300)
    except (TypeError, ValueError) as exc:  # results the SDK cannot even serialise
        return plain(describe_error(exc), 300)
    return ""


def ask_tool(tiers: dict) -> str:
    """The tool criteria 2 and 3 ask about: the first of the table's ask tools that behaved as ask."""
    return next((name for name in ASK_PAIRS if tiers.get(name) == "ask"), "write_file")


def mixed_scene(ask: str) -> tuple[list, list[str]]:
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


def mixed_inputs(ask: str) -> list[dict]:
    """The inputs of ``mixed_scene``'s calls, in order."""
    approved, refused = ASK_PAIRS[ask]
    return [INPUTS["get_time"], approved, refused, INPUTS["send_email"], INPUTS["read_file"]]


def approves_first(ask: str) -> Callable[[str, str], bool]:
    wanted = logged(ASK_PAIRS[ask][0])
    return lambda name, given: given == wanted


# Two allowed calls, the first of whose tool raises: a failure is one more result, not the end of the turn.
FAILING_SCENE = content_of("読んでから時刻を見ます。", call("read_file", path="missing.md"), call("get_time"))


def miscalled_in(tiers: dict, approver: bool = True) -> tuple | None:
    """(hint key, values) for the first tool seen called in a form the notebook's own would refuse: a tool given
    its input by position, or (``approver``) the approver called otherwise than ``approve(name, input)``."""
    for name, form in tiers.items():
        if "(" in form and (approver or not form.startswith("approve(")):
            return ("grade.l1.approve_call" if form.startswith("approve(") else "grade.l1.impl_call"), {
                "tool": name,
                "call": form,
            }
    return None


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
    if any(f["other_api"] for f in mixed + alone):
        return "grade.l1.c3.other_api_result", {}  # named as that shape, not as the fields it lacks
    if any(f["type"] != "tool_result" and f["tool_use_id"] is None for f in mixed + alone):
        return "grade.l1.c3.type", {}  # a block of another kind among the results (a summary text): it answers no call
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
    if len(mixed) > 1 and all(f == mixed[0] for f in mixed):  # no two calls' results are alike (ids differ)
        return "grade.l1.c3.one_dict", {}  # one dict, refilled and appended for every call
    if got != ids:
        return ("grade.l1.c3.order" if sorted(got) == sorted(ids) else "grade.l1.c3.ids"), {}
    if alone[0]["tool_use_id"] != tool_use_ids(scenes["alone"])[0]:
        return "grade.l1.c3.ids", {}
    calls = mixed_inputs(ask)
    refused = calls[2]
    ran = {(e.name, e.input) for e in rec.ran()}
    denials = [(denied, alone[0])] + [(n, f) for n, f in zip(names, mixed) if tiers.get(n) == "deny"]
    if spelled := next((f["spelled"] for f in mixed + alone if f["spelled"]), None):
        return "grade.l1.c3.is_error_spelled", {"got": spelled}  # the flag the API does not know flags nothing
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
        if (name, logged(given_input)) in ran and (fact["is_error"] or outputs()[name] not in _read(fact["text"])):
            return "grade.l1.c3.output_missing", {"tool": name}
    if rejected and (word := next((f["flag_text"] for f in mixed + alone if f.get("flag_text")), "")):
        return "grade.l1.c3.is_error_text", {"got": repr(word)[:20], "error": rejected}  # the word, not the value
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
    return ("grade.l1.c3.interrupt_caught", {"tool": "read_file"}) if failing.get("interrupt_caught") else None


def _read(text: str) -> str:
    """The result's text as the model reads it: JSON (``json.dumps`` escapes Japanese) decoded too."""
    try:
        return text + json.dumps(json.loads(text), ensure_ascii=False)
    except (ValueError, RecursionError):
        return text


def fails_closed(ask: str, failing: Recorder, seen: dict, silent: Recorder) -> tuple | None:
    """An approver that raised is not a yes: the tool must not run, and the call must not look answered
    (the error goes up, or the call gets an is_error result as a refusal does). Nor is one that answered
    None (``silent``): a function refusing only an explicit ``False`` runs the call."""
    if failing.ran(ask):
        return "grade.l1.c2.fails_open", {"tool": ask}
    if failing.asked(ask) and not seen["raised"] and not any(fact["is_error"] for fact in seen["facts"]):
        return "grade.l1.c2.failure_unreported", {"tool": ask}
    if silent.ran(ask):
        return "grade.l1.c2.unknown_allowed", {"tool": ask}
    return None


# Hints a changed content list outranks: the API's 400 may be that very change, and ANSWERS come last.
_AFTER_A_CHANGED_CONTENT = ("grade.l1.c3.api_rejected", "grade.l1.c3.deny_answer")


def content_kept(verdict: tuple | None, changed: list | None) -> tuple | None:
    """Criterion 3's verdict once the assistant turn went out as well: ``changed`` is the scene whose
    content list ``run_tool_uses`` left changed (the loop sends that list back), or None."""
    if changed is None or (verdict is not None and verdict[0] not in _AFTER_A_CHANGED_CONTENT):
        return verdict
    tool = next(str(block.name) for block in changed if block.type == "tool_use")
    return "grade.l1.c3.content_changed", {"tool": tool}


def level1_options() -> None:
    """Print the choices for ``ANSWERS`` (question: key: description)."""
    lines = []
    for question, options in ANSWER_OPTIONS.items():
        lines.append(t("grade.l1.options." + question))
        lines += [f"  {key!r}: {t(f'grade.l1.opt.{question}.{key}')}" for key in options]
    print_lines(lines)
