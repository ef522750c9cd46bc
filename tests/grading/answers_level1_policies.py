"""Exercise level 1's wrong answers in the policy and the tool runs: tiers by prefix or glob, hard-coded or
copied tables, a tier name the grader does not know, a failed tool run unflagged.
"""

from __future__ import annotations

import fnmatch
import types

from answers_level1_runners import (
    DICT_DEFAULT,
    DICT_POLICY,
    GOOD_ANSWERS,
    TABLE,
    dict_runner,
    forbidden,
    make_runner,
    refused,
    result,
    run,
)

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
