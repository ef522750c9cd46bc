"""Learner answers to exercise level 1, right and wrong, written as a learner would.

Each wrong answer is a correct answer with one mistake the exercise is about; ``WRONG`` maps its
name to the one criterion that must catch it and the catalog key of the hint that must name the
mistake. The right answers differ in style on purpose.
"""

from __future__ import annotations

import json

TABLE = {
    "get_time": "allow",
    "read_file": "allow",
    "write_file": "ask",
    "delete_file": "ask",
    "http_post": "ask",
    "send_email": "deny",
}


def result(block, content, is_error=False):
    out = {"type": "tool_result", "tool_use_id": block.id, "content": content}
    if is_error:
        out["is_error"] = True
    return out


def forbidden(block):
    return result(block, f"ツール {block.name} はポリシーで禁止されているため、実行していません。", True)


def refused(block):
    return result(block, "ユーザーが拒否したため、実行していません。", True)


def run(block, tool_impls):
    try:
        return result(block, str(tool_impls[block.name](block.input)))
    except Exception as err:
        return result(block, f"ツールの実行に失敗しました: {err}", True)


def make_runner(tier_of, forbid=forbidden):
    """The lesson's loop over tool_use blocks with the policy valve in front of the impl."""

    def run_tool_uses(content, tool_impls, approve):
        results = []
        for block in content:
            if block.type != "tool_use":
                continue
            tier = tier_of(block.name)
            if tier == "deny":
                results.append(forbid(block))
            elif tier == "ask" and not approve(block.name, block.input):
                results.append(refused(block))
            else:
                results.append(run(block, tool_impls))
        return results

    return run_tool_uses


# --- right: a dict of tool name -> tier, default ask -------------------------------------------
DICT_POLICY = dict(TABLE)
DICT_DEFAULT = "ask"
dict_runner = make_runner(lambda name: DICT_POLICY.get(name, DICT_DEFAULT))


# --- right: tier -> set of names, default deny, results built in a comprehension ---------------
SETS_POLICY = {
    "allow": {"get_time", "read_file"},
    "ask": {"write_file", "delete_file", "http_post"},
    "deny": {"send_email"},
}
SETS_DEFAULT = "deny"


def sets_tier(name):
    return next((tier for tier, names in SETS_POLICY.items() if name in names), SETS_DEFAULT)


def sets_runner(content, tool_impls, approve):
    def answer(block):
        tier = sets_tier(block.name)
        if tier == "deny":
            return {
                "type": "tool_result",
                "tool_use_id": block.id,
                "content": json.dumps({"error": "forbidden by policy", "tool": block.name}),
                "is_error": True,
            }
        if tier == "ask" and approve(block) is not True:
            return {"type": "tool_result", "tool_use_id": block.id, "content": "declined", "is_error": True}
        output = tool_impls[block.name](**block.input)
        return {"type": "tool_result", "tool_use_id": block.id, "content": [{"type": "text", "text": output}]}

    return [answer(b) for b in content if b.type == "tool_use"]


# --- right: a policy function using match, the harness_lab helpers, default allow (warned) -----
def function_policy(name):
    match name:
        case "get_time" | "read_file":
            return "allow"
        case "write_file" | "delete_file" | "http_post":
            return "ask"
        case "send_email":
            return "deny"
    return None


FUNCTION_DEFAULT = "allow"


def function_runner(content, tool_impls, approve):
    from harness_lab.messages import tool_calls, tool_result

    results = []
    for call in tool_calls(content):
        tier = function_policy(call["name"]) or FUNCTION_DEFAULT
        if tier == "deny":
            results.append(tool_result(call["id"], f"{call['name']} is forbidden by policy", is_error=True))
            continue
        if tier == "ask":
            if not approve(call["name"], call["input"]):
                results.append(tool_result(call["id"], "the user said no", is_error=True))
                continue
        results.append(tool_result(call["id"], tool_impls[call["name"]](call["input"])))
    return results


# --- wrong answers ----------------------------------------------------------------------------
def _after_run(content, tool_impls, approve):
    """The colleague's wiring: run every tool first, then apply the policy to the result."""
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        done = run(block, tool_impls)
        tier = DICT_POLICY.get(block.name, "ask")
        if tier == "deny":
            done = forbidden(block)
        elif tier == "ask" and not approve(block.name, block.input):
            done = refused(block)
        results.append(done)
    return results


def _deny_dropped(content, tool_impls, approve):
    """A denied call is skipped silently: no tool_result for it."""
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        tier = DICT_POLICY.get(block.name, "ask")
        if tier == "deny":
            continue
        if tier == "ask" and not approve(block.name, block.input):
            results.append(refused(block))
            continue
        results.append(run(block, tool_impls))
    return results


def _key_error(content, tool_impls, approve):
    """No default at all: an unlisted tool is a KeyError."""
    return make_runner(lambda name: DICT_POLICY[name])(content, tool_impls, approve)




def _once_per_response(content, tool_impls, approve):
    asked = {}
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        tier = DICT_POLICY.get(block.name, "ask")
        if tier == "deny":
            results.append(forbidden(block))
            continue
        if tier == "ask":
            if block.name not in asked:
                asked[block.name] = approve(block.name, block.input)
            if not asked[block.name]:
                results.append(refused(block))
                continue
        results.append(run(block, tool_impls))
    return results


def _deny_not_error(content, tool_impls, approve):
    return [
        {**r, "is_error": False} if r["content"].startswith("ツール ") else r
        for r in dict_runner(content, tool_impls, approve)
    ]


def _deny_silent_reason(content, tool_impls, approve):
    return [
        {**r, "content": "実行していません。"} if r["content"].startswith("ツール ") else r
        for r in dict_runner(content, tool_impls, approve)
    ]


def _reversed(content, tool_impls, approve):
    return list(reversed(dict_runner(content, tool_impls, approve)))


def _ignores_answer(content, tool_impls, approve):
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        tier = DICT_POLICY.get(block.name, "ask")
        if tier == "deny":
            results.append(forbidden(block))
            continue
        if tier == "ask":
            approve(block.name, block.input)  # asked, but the answer is dropped
        results.append(run(block, tool_impls))
    return results


def _stops_at_refusal(content, tool_impls, approve):
    results = []
    blocks = [b for b in content if b.type == "tool_use"]
    for i, block in enumerate(blocks):
        tier = DICT_POLICY.get(block.name, "ask")
        if tier == "deny":
            results.append(forbidden(block))
            continue
        if tier == "ask" and not approve(block.name, block.input):
            # gives up on the rest, but still answers every call
            results.extend(forbidden(b) if DICT_POLICY.get(b.name) == "deny" else refused(b) for b in blocks[i:])
            return results
        results.append(run(block, tool_impls))
    return results


def _id_under_the_wrong_key(content, tool_impls, approve):
    """Writes the tool_use's id as "id", the key of the block it answers, not "tool_use_id"."""
    return [
        {"id" if k == "tool_use_id" else k: v for k, v in r.items()}
        for r in dict_runner(content, tool_impls, approve)
    ]


# Each entry: (POLICY, DEFAULT_TIER, run_tool_uses), the criterion that must fail alone, its hint's key.
WRONG = {
    "policy checked after the tool ran": ((DICT_POLICY, "ask", _after_run), 2, "grade.l1.c2.deny_ran"),
    "denied call with no tool_result": ((DICT_POLICY, "ask", _deny_dropped), 3, "grade.l1.c3.deny_no_result"),
    "no default tier (KeyError)": ((DICT_POLICY, "ask", _key_error), 1, "grade.l1.c1.unlisted_error"),
    "no default tier (None, unlisted tool runs)": (
        (DICT_POLICY, None, make_runner(lambda name: DICT_POLICY.get(name))),
        1,
        "grade.l1.c1.no_default",
    ),
    "declared default not used": (
        (DICT_POLICY, "deny", make_runner(lambda name: DICT_POLICY.get(name, "allow"))),
        1,
        "grade.l1.c1.default_ignored",
    ),
    "approval asked only once per response": ((DICT_POLICY, "ask", _once_per_response), 2, "grade.l1.c2.per_call"),
    "deny result without is_error": ((DICT_POLICY, "ask", _deny_not_error), 3, "grade.l1.c3.deny_not_error"),
    "deny result that does not say why": ((DICT_POLICY, "ask", _deny_silent_reason), 3, "grade.l1.c3.deny_no_reason"),
    "results in reverse order": ((DICT_POLICY, "ask", _reversed), 3, "grade.l1.c3.order"),
    "approve's answer ignored": ((DICT_POLICY, "ask", _ignores_answer), 2, "grade.l1.c2.refusal_ignored"),
    "loop stops at the first refusal": ((DICT_POLICY, "ask", _stops_at_refusal), 2, "grade.l1.c2.allowed_skipped"),
    "tool_use_id written as id": ((DICT_POLICY, "ask", _id_under_the_wrong_key), 3, "grade.l1.c3.no_id"),
}


# --- right, though they change what they were handed, as real harness code may ----------------
def consumes_content(content, tool_impls, approve):
    """Takes the blocks off ``content`` one by one, leaving it empty."""
    results = []
    while content:
        block = content.pop(0)
        if block.type == "tool_use":
            results.extend(dict_runner([block], tool_impls, approve))
    return results


def tidies_paths(content, tool_impls, approve):
    """Normalises each path in ``block.input`` in place before asking and running ("./notes.txt")."""
    for block in content:
        if block.type == "tool_use" and "path" in block.input:
            block.input["path"] = "./" + block.input["path"]
    return dict_runner(content, tool_impls, approve)


def with_deny_message(text):
    """The dict answer, with ``text`` as the whole content of a deny result (formatted with the name)."""

    def deny(block):
        return result(block, text.format(name=block.name), True)

    return make_runner(lambda name: DICT_POLICY.get(name, DICT_DEFAULT), forbid=deny)


# Ways of saying "the policy forbids it" that criterion 3 accepts, and deny results that say nothing
# about why (they must fail it).
SAYS_FORBIDDEN = [
    "{name} は許可されていません。",
    "{name} の使用は禁じられています",
    "blocked: {name} is not permitted",
    "{name} isn't allowed here",
    "{name} は使用できません（管理者の設定）",
    "{name} は管理者の設定で無効化されています",
    "Permission denied: {name}",
    "ＰＯＬＩＣＹ: {name}",  # full-width letters, as an IME may type them
]
SAYS_NOTHING_WHY = [
    "エラー",
    "実行していません。",
    "{name} は拒否されました",  # what a person's "no" says too
    "Denied.",
    "{name} failed",
    "{name} は許可されました",  # says the opposite
    "{name} is allowed",
]

RIGHT = {
    "dict of tiers, default ask": (DICT_POLICY, DICT_DEFAULT, dict_runner),
    "sets per tier, default deny, approve(block)": (SETS_POLICY, SETS_DEFAULT, sets_runner),
    "function policy, default allow": (function_policy, FUNCTION_DEFAULT, function_runner),
    "consumes content with pop(0)": (DICT_POLICY, DICT_DEFAULT, consumes_content),
    "tidies block.input paths in place": (DICT_POLICY, DICT_DEFAULT, tidies_paths),
}
