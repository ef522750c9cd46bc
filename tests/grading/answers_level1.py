"""Learner answers to exercise level 1, right and wrong, written as a learner would.

Each wrong answer is a correct answer with one mistake the exercise is about; ``WRONG`` maps its
name to the criteria that must catch it, each with the catalog key of the hint that must name the
mistake (usually one criterion: one mistake fails one criterion). ``HOSTILE`` holds answers that
hang, crash or eat memory, graded with a short time limit. The right answers differ in style on
purpose.
"""

from __future__ import annotations

import fnmatch
import json
import os
import types
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
        return result(block, str(tool_impls[block.name](block.input)))
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
            results.append(tool_result(call["id"], tool_impls[call["name"]](call["input"])))
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


def run_as_json(block, tool_impls):
    """The output wrapped in JSON, escaped as json.dumps does by default (the model reads it all the same)."""
    try:
        return result(block, json.dumps({"output": tool_impls[block.name](block.input)}))
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
    """Refuses only on approve(...) is False: the exercise's approve returns True or False, and an error
    from it still goes up with the tool unrun."""
    return dict_runner(content, tool_impls, lambda name, given: approve(name, given) is not False)


RIGHT = {
    "dict of tiers, default ask": (DICT_POLICY, DICT_DEFAULT, dict_runner, GOOD_ANSWERS),
    "outputs as escaped JSON": (
        DICT_POLICY,
        DICT_DEFAULT,
        make_runner(lambda name: DICT_POLICY.get(name, DICT_DEFAULT), execute=run_as_json),
        GOOD_ANSWERS,
    ),
    "sets per tier, default deny, approve(block)": (SETS_POLICY, SETS_DEFAULT, sets_runner, GOOD_ANSWERS),
    "function policy, default allow": (function_policy, FUNCTION_DEFAULT, function_runner, GOOD_ANSWERS),
    "tuples per tier in upper case": (TUPLE_POLICY, "ask", tuple_runner, GOOD_ANSWERS),
    "an Enum for the tiers": (ENUM_POLICY, Tier.ASK, enum_runner, GOOD_ANSWERS),
    "a defaultdict that falls to deny": (DEFAULTING_POLICY, "deny", defaulting_runner, GOOD_ANSWERS),
    "the default kept in the policy under '*'": (STARRED_POLICY, "ask", starred_runner, GOOD_ANSWERS),
    "consumes content with pop(0)": (DICT_POLICY, DICT_DEFAULT, consumes_content, GOOD_ANSWERS),
    "tidies block.input paths in place": (DICT_POLICY, DICT_DEFAULT, tidies_paths, GOOD_ANSWERS),
    "an error from approve taken for a no": (DICT_POLICY, DICT_DEFAULT, _treats_approval_error_as_no, GOOD_ANSWERS),
    "only False refuses (approve is True or False)": (DICT_POLICY, DICT_DEFAULT, _only_false_refuses, GOOD_ANSWERS),
    "the tier read in lower case, or the default": (
        DICT_POLICY,
        DICT_DEFAULT,
        make_runner(lambda name: (DICT_POLICY.get(name) or DICT_DEFAULT).lower()),
        GOOD_ANSWERS,
    ),
}


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


def _ask_after_run(content, tool_impls, approve):
    """Deny is right, but an ask tool runs first and the human is asked afterwards."""
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        tier = DICT_POLICY.get(block.name, "ask")
        if tier == "deny":
            results.append(forbidden(block))
            continue
        done = run(block, tool_impls)
        if tier == "ask" and not approve(block.name, block.input):
            done = refused(block)
        results.append(done)
    return results


def _allowed_dropped(content, tool_impls, approve):
    """A tool with no arguments gets no result (its output was printed, not appended)."""
    silent = {b.id for b in content if b.type == "tool_use" and not b.input}
    return [r for r in dict_runner(content, tool_impls, approve) if r["tool_use_id"] not in silent]


def _ran_then_dropped(content, tool_impls, approve):
    """An ask tool runs first; when the human then says no, its result is thrown away (a browser walk's)."""
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        if DICT_POLICY.get(block.name, "ask") == "deny":
            results.append(forbidden(block))
            continue
        done = run(block, tool_impls)
        if DICT_POLICY.get(block.name, "ask") != "ask" or approve(block.name, block.input):
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


def _refusal_dropped(content, tool_impls, approve):
    """A call the human refused is skipped silently: one result short."""
    return [r for r in dict_runner(content, tool_impls, approve) if not r["content"].startswith("ユーザー")]


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


def _asks_without_input(content, tool_impls, approve):
    """Asks approve by the tool's name alone: the human cannot see what they would allow."""
    return make_runner(lambda name: DICT_POLICY.get(name, "ask"))(
        content, tool_impls, lambda name, given: approve(name, {})
    )


PROMOTED_POLICY = dict(TABLE)


def _promotes_after_yes(content, tool_impls, approve):
    """A yes rewrites the shared policy: the tool is allow from then on, and never asked again."""

    def ask_once(name, given):
        if approve(name, given):
            PROMOTED_POLICY[name] = "allow"
            return True
        return False

    return make_runner(lambda name: PROMOTED_POLICY.get(name, "ask"))(content, tool_impls, ask_once)


_APPROVED = set()


def _keeps_yes(content, tool_impls, approve):
    """A yes is remembered by tool name, beside the policy: that tool is not asked about again."""

    def ask_once(name, given):
        if name in _APPROVED or approve(name, given):
            _APPROVED.add(name)
            return True
        return False

    return make_runner(lambda name: DICT_POLICY.get(name, "ask"))(content, tool_impls, ask_once)


def _yields_results(content, tool_impls, approve):
    """A generator of the results: nothing runs until it is read, and it can be read once."""
    yield from dict_runner(content, tool_impls, approve)


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


def _refused_not_error(content, tool_impls, approve):
    return [
        {k: v for k, v in r.items() if k != "is_error"} if r["content"].startswith("ユーザー") else r
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


def _misreads_answer(content, tool_impls, approve):
    """Takes approve's True for a no: an approved call never runs."""
    return make_runner(lambda name: DICT_POLICY.get(name, "ask"), refuse=refused)(
        content, tool_impls, lambda name, given: approve(name, given) == "yes"
    )


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


def _deny_without_continue(content, tool_impls, approve):
    """Appends the deny result, but the continue is forgotten: the run line is reached too."""
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        tier = DICT_POLICY.get(block.name, "ask")
        if tier == "deny":
            results.append(forbidden(block))
        if tier == "ask" and not approve(block.name, block.input):
            results.append(refused(block))
            continue
        results.append(run(block, tool_impls))
    return results


def _refusal_without_continue(content, tool_impls, approve):
    """Appends the refusal's result, but the continue is forgotten: the refused call runs too."""
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        tier = DICT_POLICY.get(block.name, "ask")
        if tier == "deny":
            results.append(forbidden(block))
            continue
        if tier == "ask" and not approve(block.name, block.input):
            results.append(refused(block))
        results.append(run(block, tool_impls))
    return results


def _tier_kept_from_the_block_before(content, tool_impls, approve):
    """The default set once, before the loop: an unlisted tool keeps the tier of the call before it."""
    results = []
    tier = DICT_DEFAULT
    for block in content:
        if block.type != "tool_use":
            continue
        if block.name in DICT_POLICY:
            tier = DICT_POLICY[block.name]
        if tier == "deny":
            results.append(forbidden(block))
        elif tier == "ask" and not approve(block.name, block.input):
            results.append(refused(block))
        else:
            results.append(run(block, tool_impls))
    return results


def _results_by_name(content, tool_impls, approve):
    """Keeps the results in a dict keyed by tool name: a tool called twice keeps one result."""
    results = {}
    for block in content:
        if block.type != "tool_use":
            continue
        tier = DICT_POLICY.get(block.name, "ask")
        if tier == "deny":
            results[block.name] = forbidden(block)
        elif tier == "ask" and not approve(block.name, block.input):
            results[block.name] = refused(block)
        else:
            results[block.name] = run(block, tool_impls)
    return list(results.values())


def _approve_args_swapped(content, tool_impls, approve):
    """Asks approve(input, name): the question names no tool."""
    return make_runner(lambda name: DICT_POLICY.get(name, "ask"))(
        content, tool_impls, lambda name, given: approve(given, name)
    )


def _id_under_the_wrong_key(content, tool_impls, approve):
    """Writes the tool_use's id as "id", the key of the block it answers, not "tool_use_id"."""
    return [
        {"id" if k == "tool_use_id" else k: v for k, v in r.items()} for r in dict_runner(content, tool_impls, approve)
    ]


def _first_id_everywhere(content, tool_impls, approve):
    results = dict_runner(content, tool_impls, approve)
    return [{**r, "tool_use_id": results[0]["tool_use_id"]} for r in results]


def _wrong_type(content, tool_impls, approve):
    return [{**r, "type": "tool_response"} for r in dict_runner(content, tool_impls, approve)]


def _output_dropped(content, tool_impls, approve):
    """Runs the tool but tells the model only that it is done."""
    return make_runner(
        lambda name: DICT_POLICY.get(name, "ask"),
        execute=lambda block, impls: (impls[block.name](block.input), result(block, "完了"))[1],
    )(content, tool_impls, approve)


def _with_name_field(content, tool_impls, approve):
    """Adds the tool's name to every result: the API knows no such field in a tool_result."""
    names = {b.id: b.name for b in content if b.type == "tool_use"}
    return [{**r, "name": names[r["tool_use_id"]]} for r in dict_runner(content, tool_impls, approve)]


def _string_is_error(content, tool_impls, approve):
    """Writes is_error as the string "true": the API wants a boolean."""
    return [{**r, "is_error": "true"} if r.get("is_error") else r for r in dict_runner(content, tool_impls, approve)]


def _string_is_error_everywhere(content, tool_impls, approve):
    """Writes is_error on every result, as the string "true" or "false"."""
    return [
        {**r, "is_error": "true" if r.get("is_error") else "false"} for r in dict_runner(content, tool_impls, approve)
    ]


def _never_asks(content, tool_impls, approve):
    """Reads the policy, but an ask tool runs without approve (a typo: "Ask")."""
    return make_runner(
        lambda name: DICT_POLICY.get(name, "ask"),
    )(content, tool_impls, lambda name, given: True)


def _runs_denied(content, tool_impls, approve):
    """Treats deny like allow: nothing is ever refused by the policy."""
    return make_runner(lambda name: {"deny": "allow"}.get(DICT_POLICY.get(name, "ask"), DICT_POLICY.get(name, "ask")))(
        content, tool_impls, approve
    )


def _fails_open(content, tool_impls, approve):
    """Takes an error from approve for a yes: when asking breaks, the tool runs unasked."""

    def asked(name, given):
        try:
            return approve(name, given)
        except Exception:
            return True  # the approval prompt broke: don't block the work

    return dict_runner(content, tool_impls, asked)


def _approval_error_dropped(content, tool_impls, approve):
    """Catches an error from approve and skips the call: nothing ran, and nothing says so."""
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        try:
            results.extend(dict_runner([block], tool_impls, approve))
        except Exception:
            continue
    return results


def _deny_says_the_user_refused(content, tool_impls, approve):
    """The deny result reads as a person's no, though nobody was asked."""
    return [
        {**r, "content": "The user did not give permission to run this tool, so it was not run."}
        if r["content"].startswith("ツール ")
        else r
        for r in dict_runner(content, tool_impls, approve)
    ]


# Tiers by name prefix: "write_" covers write_file (and any write_* tool to come).
PREFIX_POLICY = {"get_": "allow", "read_": "allow", "write_": "ask", "delete_": "ask", "http_": "ask", "send_": "deny"}
prefix_runner = make_runner(
    lambda name: next((tier for prefix, tier in PREFIX_POLICY.items() if name.startswith(prefix)), "ask")
)
GLOB_POLICY = {"allow": ["get_*", "read_*"], "ask": ["write_*", "delete_*", "http_*"], "deny": ["send_*"]}
glob_runner = make_runner(
    lambda name: next(
        (tier for tier, patterns in GLOB_POLICY.items() if any(fnmatch.fnmatch(name, p) for p in patterns)), "ask"
    )
)


# The held-out class: the data cannot say ask or allow, the code knows the names.
DENY_ONLY_POLICY = {"send_email": "deny"}


def _hard_coded(content, tool_impls, approve):
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        if DENY_ONLY_POLICY.get(block.name) == "deny":
            results.append(forbidden(block))
        elif block.name in ("get_time", "read_file"):
            results.append(run(block, tool_impls))
        elif not approve(block.name, block.input):
            results.append(refused(block))
        else:
            results.append(run(block, tool_impls))
    return results


DENY_ONLY_SETS = {"deny": {"send_email"}}
hard_coded_sets = make_runner(
    lambda name: "deny" if name in DENY_ONLY_SETS["deny"] else "allow" if name in ("get_time", "read_file") else "ask"
)

# A copy made once, when the cell runs: changing POLICY later changes nothing.
COPIED_POLICY = {
    "allow": ["get_time", "read_file"],
    "ask": ["write_file", "delete_file", "http_post"],
    "deny": ["send_email"],
}
_TIER_OF = {name: tier for tier, names in COPIED_POLICY.items() for name in names}
copied_runner = make_runner(lambda name: _TIER_OF.get(name, "ask"))

LEFT_OUT = {k: v for k, v in TABLE.items() if k != "read_file"}
left_out_runner = make_runner(lambda name: LEFT_OUT.get(name, "deny"))
LISTED_WRONG = {**TABLE, "write_file": "allow"}
listed_wrong_runner = make_runner(lambda name: LISTED_WRONG.get(name, "ask"))

PAIRS_POLICY = [
    ("get_time", "allow"),
    ("read_file", "allow"),
    ("write_file", "ask"),
    ("delete_file", "ask"),
    ("http_post", "ask"),
    ("send_email", "deny"),
]
pairs_runner = make_runner(lambda name: dict(PAIRS_POLICY).get(name, "ask"))
FROZEN_POLICY = types.MappingProxyType(dict(TABLE))
frozen_runner = make_runner(lambda name: FROZEN_POLICY.get(name, "ask"))


def with_answers(**changed):
    return {**GOOD_ANSWERS, **changed}


# --- wrong: a tier spelled other than allow / ask / deny, which the runner compares exactly -------
BLOCK_POLICY = dict(TABLE, send_email="block")
CAPITAL_POLICY = dict(TABLE, send_email="DENY")
BLOCK_SETS = {"allow": {"get_time", "read_file"}, "ask": {"write_file", "delete_file", "http_post"}}
BLOCK_SETS["block"] = {"send_email"}


def _block_sets_tier(name):
    return next((tier for tier, names in BLOCK_SETS.items() if name in names), "deny")


block_sets_runner = make_runner(_block_sets_tier)


def _run_unguarded(block, tool_impls):
    """The tool run with no try: its exception ends the whole turn."""
    return result(block, str(tool_impls[block.name](**block.input)))


def _run_failure_unflagged(block, tool_impls):
    """A failure caught, and returned as if it were the tool's output."""
    try:
        return result(block, str(tool_impls[block.name](**block.input)))
    except Exception as err:
        return result(block, f"ツールの実行に失敗しました: {err}")


def _run_failure_unsaid(block, tool_impls):
    """A failure flagged, but with nothing in it: the model is told only that something failed."""
    try:
        return result(block, str(tool_impls[block.name](**block.input)))
    except Exception:
        return result(block, "", True)


def _stops_at_a_failed_tool(content, tool_impls, approve):
    """A failed tool answered, and the calls after it left unrun and unanswered."""
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        done = dict_runner([block], tool_impls, approve)
        results += done
        if done and done[0].get("is_error") and DICT_POLICY.get(block.name, "ask") == "allow":
            break
    return results


def _dict(run_tool_uses, answers=GOOD_ANSWERS, default="ask"):
    return (DICT_POLICY, default, run_tool_uses, answers)


def _high_impact_tier(name):
    """The starter's HIGH_IMPACT set kept beside the policy: those names are asked unless denied."""
    tier = DICT_POLICY.get(name, DICT_DEFAULT)
    return "ask" if name in {"write_file", "http_post", "delete_file"} and tier != "deny" else tier


def _asks_twice(content, tool_impls, approve):
    """Asks once to decide, and again "to be sure" before running: two questions for one call."""
    return dict_runner(content, tool_impls, lambda name, given: approve(name, given) and approve(name, given))


def _refusals_last(content, tool_impls, approve):
    """The calls that ran first, then every denied and refused call's result: not in call order."""
    results = dict_runner(content, tool_impls, approve)
    return [r for r in results if not r.get("is_error")] + [r for r in results if r.get("is_error")]


# name -> ((POLICY, DEFAULT_TIER, run_tool_uses, ANSWERS), {criterion: hint key})
WRONG = {
    "policy checked after the tool ran": (_dict(_after_run), {2: "grade.l1.c2.deny_ran"}),
    "ask tool run before asking": (_dict(_ask_after_run), {2: "grade.l1.c2.ran_before_asking"}),
    "denied call with no tool_result": (_dict(_deny_dropped), {3: "grade.l1.c3.deny_no_result"}),
    "refused call with no tool_result": (_dict(_refusal_dropped), {3: "grade.l1.c3.refused_no_result"}),
    "an allowed call's result left out": (
        _dict(_allowed_dropped),
        {1: "grade.l1.c1.mismatch", 3: "grade.l1.c3.count"},  # no result reads as a call not run
    ),
    "ask tool run before asking, its refused result dropped": (
        _dict(_ran_then_dropped),
        {2: "grade.l1.c2.ran_before_asking", 3: "grade.l1.c3.refused_no_result"},
    ),
    "deny result without its continue": (
        _dict(_deny_without_continue),
        {1: "grade.l1.fell_through", 2: "grade.l1.c2.deny_ran", 3: "grade.l1.c3.too_many"},
    ),
    "refusal result without its continue": (
        _dict(_refusal_without_continue),
        {2: "grade.l1.fell_through", 3: "grade.l1.c3.too_many"},
    ),
    "results kept by tool name": (_dict(_results_by_name), {3: "grade.l1.c3.same_tool_once"}),
    "approve(input, name)": (_dict(_approve_args_swapped), {1: "grade.l1.approve_args", 2: "grade.l1.approve_args"}),
    "no default tier (KeyError)": (_dict(_key_error), {1: "grade.l1.c1.unlisted_error"}),
    "no default tier (None, unlisted tool runs)": (
        (DICT_POLICY, None, make_runner(lambda name: DICT_POLICY.get(name)), GOOD_ANSWERS),
        {1: "grade.l1.c1.no_default"},
    ),
    "the default set once before the loop": (
        _dict(_tier_kept_from_the_block_before),
        {1: "grade.l1.c1.default_carried"},
    ),
    "declared default not used": (
        (DICT_POLICY, "deny", make_runner(lambda name: DICT_POLICY.get(name, "allow")), GOOD_ANSWERS),
        {1: "grade.l1.c1.default_ignored"},
    ),
    "empty policy, tiers in the code": (({}, "ask", dict_runner, GOOD_ANSWERS), {1: "grade.l1.c1.empty_policy"}),
    "policy data without ask or allow (name -> tier)": (
        (DENY_ONLY_POLICY, "ask", _hard_coded, GOOD_ANSWERS),
        {1: "grade.l1.c1.not_data_driven"},
    ),
    "policy data without ask or allow (tier -> names)": (
        (DENY_ONLY_SETS, "ask", hard_coded_sets, GOOD_ANSWERS),
        {1: "grade.l1.c1.not_data_driven"},
    ),
    "the starter's HIGH_IMPACT kept beside the policy": (
        _dict(make_runner(_high_impact_tier)),
        {1: "grade.l1.c1.not_data_driven"},
    ),
    "a copy of the policy made once": (
        (COPIED_POLICY, "ask", copied_runner, GOOD_ANSWERS),
        {1: "grade.l1.c1.not_data_driven"},
    ),
    "tiers looked up by name prefix": (
        (PREFIX_POLICY, "ask", prefix_runner, GOOD_ANSWERS),
        {1: "grade.l1.c1.not_exact_name"},
    ),
    "tiers looked up by wildcard": ((GLOB_POLICY, "ask", glob_runner, GOOD_ANSWERS), {1: "grade.l1.c1.not_exact_name"}),
    "a table tool left out of the policy": (
        (LEFT_OUT, "deny", left_out_runner, GOOD_ANSWERS),
        {1: "grade.l1.c1.fell_to_default"},
    ),
    "a table tool given the wrong tier": (
        (LISTED_WRONG, "ask", listed_wrong_runner, GOOD_ANSWERS),
        {1: "grade.l1.c1.listed_wrong"},
    ),
    "a tier that is none of the three (block)": (
        (BLOCK_POLICY, "deny", make_runner(lambda name: BLOCK_POLICY.get(name, "deny")), GOOD_ANSWERS),
        {1: "grade.l1.c1.unknown_tier"},
    ),
    "a tier in capitals the runner compares in lower case": (
        (CAPITAL_POLICY, "deny", make_runner(lambda name: CAPITAL_POLICY.get(name, "deny")), GOOD_ANSWERS),
        {1: "grade.l1.c1.unknown_tier"},
    ),
    "a tier key that is none of the three (tier -> names)": (
        (BLOCK_SETS, "deny", block_sets_runner, GOOD_ANSWERS),
        {1: "grade.l1.c1.unknown_tier"},
    ),
    "a default tier with a capital (Deny)": (
        (DICT_POLICY, "Deny", make_runner(lambda name: DICT_POLICY.get(name, "Deny")), GOOD_ANSWERS),
        {1: "grade.l1.c1.default_unknown"},
    ),
    "a default tier in capitals (DENY)": (
        (DICT_POLICY, "DENY", make_runner(lambda name: DICT_POLICY.get(name, "DENY")), GOOD_ANSWERS),
        {1: "grade.l1.c1.default_unknown"},
    ),
    "policy as a list of pairs": ((PAIRS_POLICY, "ask", pairs_runner, GOOD_ANSWERS), {1: "grade.l1.c1.shape"}),
    "policy as a read-only mapping": ((FROZEN_POLICY, "ask", frozen_runner, GOOD_ANSWERS), {1: "grade.l1.c1.shape"}),
    "ask never reaches approve": (_dict(_never_asks), {1: "grade.l1.c1.mismatch", 2: "grade.l1.c2.not_asked"}),
    "deny runs like allow": (_dict(_runs_denied), {1: "grade.l1.c1.mismatch", 3: "grade.l1.c3.no_deny"}),
    "an error from approve taken for a yes": (_dict(_fails_open), {2: "grade.l1.c2.fails_open"}),
    "an error from approve swallowed, the call dropped": (
        _dict(_approval_error_dropped),
        {2: "grade.l1.c2.failure_unreported"},
    ),
    "approval asked only once per response": (_dict(_once_per_response), {2: "grade.l1.c2.per_call"}),
    "approve asked without the call's input": (_dict(_asks_without_input), {2: "grade.l1.c2.approve_input"}),
    "a yes written into the policy": (
        (PROMOTED_POLICY, "ask", _promotes_after_yes, GOOD_ANSWERS),
        {2: "grade.l1.c2.policy_rewritten"},
    ),
    "a yes remembered beside the policy": (_dict(_keeps_yes), {2: "grade.l1.c2.yes_kept"}),
    "approve's answer ignored": (_dict(_ignores_answer), {2: "grade.l1.c2.refusal_ignored"}),
    "approve's True read as a no": (_dict(_misreads_answer), {2: "grade.l1.c2.approved_not_run"}),
    "loop stops at the first refusal": (_dict(_stops_at_refusal), {2: "grade.l1.c2.allowed_skipped"}),
    "deny result without is_error": (_dict(_deny_not_error), {3: "grade.l1.c3.deny_not_error"}),
    "deny result that says the user refused": (
        _dict(_deny_says_the_user_refused),
        {3: "grade.l1.c3.deny_blames_person"},
    ),
    "deny result that does not say why": (_dict(_deny_silent_reason), {3: "grade.l1.c3.deny_no_reason"}),
    "refused result without is_error": (_dict(_refused_not_error), {3: "grade.l1.c3.refused_not_error"}),
    "results in reverse order": (_dict(_reversed), {3: "grade.l1.c3.order"}),
    "denied and refused results put last": (_dict(_refusals_last), {3: "grade.l1.c3.order"}),
    "approve asked twice for one call": (_dict(_asks_twice), {2: "grade.l1.c2.asked_twice"}),
    "a tool's exception let out of run_tool_uses": (
        _dict(make_runner(lambda name: DICT_POLICY.get(name, "ask"), execute=_run_unguarded)),
        {3: "grade.l1.c3.tool_error_raised"},
    ),
    "a tool's failure returned without is_error": (
        _dict(make_runner(lambda name: DICT_POLICY.get(name, "ask"), execute=_run_failure_unflagged)),
        {3: "grade.l1.c3.tool_error_not_error"},
    ),
    "a tool's failure returned as an empty error": (
        _dict(make_runner(lambda name: DICT_POLICY.get(name, "ask"), execute=_run_failure_unsaid)),
        {3: "grade.l1.c3.tool_error_empty"},
    ),
    "the calls after a failed tool left out": (_dict(_stops_at_a_failed_tool), {3: "grade.l1.c3.tool_error_count"}),
    "one id for every result": (_dict(_first_id_everywhere), {3: "grade.l1.c3.ids"}),
    "results of the wrong type": (_dict(_wrong_type), {3: "grade.l1.c3.type"}),
    "results yielded, not returned as a list": (_dict(_yields_results), {3: "grade.l1.c3.not_list"}),
    "tool output not passed on": (_dict(_output_dropped), {3: "grade.l1.c3.output_missing"}),
    "tool_use_id written as id": (_dict(_id_under_the_wrong_key), {3: "grade.l1.c3.no_id"}),
    "an extra name field in tool_result": (_dict(_with_name_field), {3: "grade.l1.c3.api_rejected"}),
    "is_error as a string": (_dict(_string_is_error), {3: "grade.l1.c3.api_rejected"}),
    "is_error as a string on every result": (_dict(_string_is_error_everywhere), {3: "grade.l1.c3.api_rejected"}),
    "answers left empty": (
        _dict(dict_runner, answers={"step": None, "approval": None, "deny": None}),
        {2: "grade.l1.answer_missing", 3: "grade.l1.answer_missing"},
    ),
    "answers not given at all": (
        (DICT_POLICY, "ask", dict_runner, None),
        {2: "grade.l1.answer_missing", 3: "grade.l1.answer_missing"},
    ),
    "policy placed after the tool (answer)": (
        _dict(dict_runner, answers=with_answers(step="after_tool")),
        {2: "grade.l1.c2.step"},
    ),
    "policy with its own prompt (answer)": (
        _dict(dict_runner, answers=with_answers(approval="own_prompt")),
        {2: "grade.l1.c2.approval"},
    ),
    "deny drops the call (answer)": (
        _dict(dict_runner, answers=with_answers(deny="drop")),
        {3: "grade.l1.c3.deny_answer"},
    ),
    "an option that does not exist": (
        _dict(dict_runner, answers=with_answers(step="before-tool")),
        {2: "grade.l1.unknown"},
    ),
}


# --- hostile: graded with a short time limit ----------------------------------------------------
def _loops(content, tool_impls, approve):
    while True:
        pass


def _exits_hard(content, tool_impls, approve):
    os._exit(7)


def _raises(content, tool_impls, approve):
    raise ValueError("まだ書いていません")


def _hoards(content, tool_impls, approve):
    kept = []
    while True:
        kept.append(bytearray(2 << 30))  # past the 1 GiB allowance at once


HOSTILE = {
    "endless loop": (_dict(_loops), {1: "grade.timeout", 2: "grade.timeout", 3: "grade.timeout"}),
    "exits the process": (_dict(_exits_hard), {1: "grade.crashed", 2: "grade.crashed", 3: "grade.crashed"}),
    "raises": (_dict(_raises), {1: "grade.l1.c1.unlisted_error", 2: "grade.raised", 3: "grade.raised"}),
    "memory without end": (_dict(_hoards), {1: "grade.memory", 2: "grade.memory", 3: "grade.memory"}),
}


def with_deny_message(text):
    """The dict answer, with ``text`` as the whole content of a deny result (formatted with the name)."""

    def deny(block):
        return result(block, text.format(name=block.name), True)

    return make_runner(lambda name: DICT_POLICY.get(name, DICT_DEFAULT), forbid=deny)


# Ways of saying "a rule forbids it" that criterion 3 accepts, and deny results that do not say a
# rule forbids the tool (they must fail it).
SAYS_FORBIDDEN = [
    "ツール {name} はポリシーで禁止されているため、実行していません。",
    "{name} は許可されていません。",
    "{name} の使用は禁じられています",
    "{name} の呼び出しはルールで禁止されています",
    "ポリシーにより {name} は使えません",
    "{name} は使用できません（管理者の設定）",
    "{name} は管理者の設定で無効化されています",
    "{name} を使う権限がありません",
    "blocked: {name} is not permitted",
    "{name} isn't allowed here",
    "{name} is forbidden by policy",
    "Permission denied: {name}",
    "{name} is not on the allowlist",
    "Denied by the tool policy.",
    "ＰＯＬＩＣＹ: {name}",  # full-width letters, as an IME may type them
    "ﾎﾟﾘｼｰ違反です",  # half-width katakana
    "{name} is in the deny tier, so it was not run.",
    "Tool {name} is denied by the tier table.",
    "{name} may not be used.",
    "Use of {name} is restricted.",
    "{name} は deny 設定のため実行しません",
    "{name} は deny の段階なので実行しません",
    "{name} は設定により無効です",
    "You are not permitted to use {name}.",
    "{name} is forbidden by policy; the user was not asked.",  # names the user, but not as the one who refused
    "ポリシーで禁止されているため、ユーザーには確認していません。",
    "{name} は許可されていません。ユーザーには確認していません。",
    "User lacks permission to use {name}.",
    "{name} の実行は許されていません",
    "{name} は許可リストにありません",
    "{name} is configured as deny, so it was not run.",
]
SAYS_NOTHING_WHY = [
    "エラー",
    "実行していません。",
    "{name} は使えません",
    "{name} は使用できません",
    "{name} は拒否されました",  # what a person's "no" says too
    "Denied.",
    "{name} was denied",
    "blocked",
    "{name} is disabled",
    "{name} is unavailable right now",
    "{name} failed",
    "{name} は許可されました",  # says the opposite
    "{name} is allowed",
    "{name} は設定できませんでした",  # 設定 alone names no rule
    "{name} を設定しました",
    "{name} is not configured",  # not set up: says nothing of a rule
]
# Deny results that make a person the one who refused: nobody was asked on a deny (they must fail
# criterion 3 with the hint that says so, even when they use a word like permission or 許可).
SAYS_A_PERSON_REFUSED = [
    "ユーザーが拒否したため、実行していません。",
    "The user did not give permission to run this tool, so it was not run.",
    "ユーザーがこのツールの実行を許可しませんでした。",
    "The user has not authorized {name}.",
    "ユーザーの許可がないため、{name} は実行していません。",
    "{name} was not approved by the user.",
    "Not permitted without the user's approval.",
    "The human declined: {name} is not allowed.",
    "ユーザーに拒否されたため禁止です",
    "ユーザーが {name} の使用を禁止しました",
    "ユーザーに許されていないため、{name} は実行していません",
]
