"""Exercise level 1's right runners and the pieces its wrong answers are built from: the policy table, a result,
a refusal, a tool run, make_runner.
"""

from __future__ import annotations

import json
from collections import defaultdict
from enum import Enum

TABLE = {
    "get_time": "allow",
    "read_file": "allow",
    "write_file": "ask",
    "delete_file": "ask",
    "http_post": "ask",
    "send_email": "deny",
}


GOOD_ANSWERS = {"step": "before_tool", "approval": "ask_reuses", "deny": "error_result"}


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
        return result(block, str(tool_impls[block.name](**block.input)))
    except Exception as err:
        return result(block, f"ツールの実行に失敗しました: {err}", True)


def make_runner(tier_of, forbid=forbidden, refuse=refused, execute=run):
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
                results.append(refuse(block))
            else:
                results.append(execute(block, tool_impls))
        return results

    return run_tool_uses


# --- right: a dict of tool name -> tier, default ask -------------------------------------------
DICT_POLICY = dict(TABLE)


def _dict(run_tool_uses, answers=GOOD_ANSWERS, default="ask"):
    """A wrong ``run_tool_uses`` graded with the dict policy, its default tier and the quiz's right answers."""
    return (DICT_POLICY, default, run_tool_uses, answers)


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
        if tier == "ask" and approve(block.name, block.input) is not True:
            return {"type": "tool_result", "tool_use_id": block.id, "content": "declined", "is_error": True}
        try:
            output = tool_impls[block.name](**block.input)
        except OSError as err:  # the tools here fail only on files
            return {"type": "tool_result", "tool_use_id": block.id, "content": f"failed: {err}", "is_error": True}
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
        if tier == "ask" and not approve(call["name"], call["input"]):
            results.append(tool_result(call["id"], "the user said no", is_error=True))
            continue
        try:
            results.append(tool_result(call["id"], tool_impls[call["name"]](**call["input"])))
        except Exception as err:
            results.append(tool_result(call["id"], f"{call['name']} failed: {err}", is_error=True))
    return results


# --- right: tiers as tuples with upper-case names, read through a helper -------------------------
TUPLE_POLICY = {
    "ALLOW": ("get_time", "read_file"),
    "ASK": ("write_file", "delete_file", "http_post"),
    "DENY": ("send_email",),
}


def tuple_tier(name):
    for tier, names in TUPLE_POLICY.items():
        if name in names:
            return tier.lower()
    return "ask"


tuple_runner = make_runner(tuple_tier)


# --- right: tiers as an Enum; a defaultdict; the default kept inside the policy itself ----------
class Tier(Enum):
    ALLOW = "allow"
    ASK = "ask"
    DENY = "deny"


ENUM_POLICY = {name: Tier(tier) for name, tier in TABLE.items()}


enum_runner = make_runner(lambda name: ENUM_POLICY.get(name, Tier.ASK).value)


DEFAULTING_POLICY = defaultdict(lambda: "deny", TABLE)


defaulting_runner = make_runner(lambda name: DEFAULTING_POLICY[name])


STARRED_POLICY = {**TABLE, "*": "ask"}


starred_runner = make_runner(lambda name: STARRED_POLICY.get(name, STARRED_POLICY["*"]))


# --- wrong: they change the content list the loop sends back as the assistant turn ------------
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


def run_as_json(block, tool_impls):
    """The output wrapped in JSON, escaped as json.dumps does by default (the model reads it all the same)."""
    try:
        return result(block, json.dumps({"output": tool_impls[block.name](**block.input)}))
    except Exception as err:
        return result(block, json.dumps({"error": str(err)}), True)


def _treats_approval_error_as_no(content, tool_impls, approve):
    """Catches an error from approve and takes it for a no: fails closed, with the refusal's is_error result."""

    def asked(name, given):
        try:
            return approve(name, given)
        except Exception:
            return False

    return dict_runner(content, tool_impls, asked)


def _only_false_refuses(content, tool_impls, approve):
    """Refuses only on approve(...) is False: a None from approve (no answer) runs the call, failing open."""
    return dict_runner(content, tool_impls, lambda name, given: approve(name, given) is not False)
