"""Learner answers to exercise level 1, right and wrong, written as a learner would.

Each wrong answer is a correct answer with one mistake the exercise is about; ``WRONG`` maps its
name to the criteria that must catch it, each with the catalog key of the hint that must name the
mistake (usually one criterion: one mistake fails one criterion). ``HOSTILE`` holds answers that
hang, crash or eat memory, graded with a short time limit. The right answers differ in style on
purpose.
"""

from __future__ import annotations

import os

from answers_level1_calls import RIGHT_CALLS, WRONG_CALLS
from answers_level1_content import RIGHT_CONTENT, WRONG_CONTENT
from answers_level1_habits import RIGHT_HABITS, WRONG_HABITS
from answers_level1_interrupts import RIGHT_INTERRUPTS, WRONG_INTERRUPTS
from answers_level1_policies import (
    BLOCK_POLICY,
    BLOCK_SETS,
    CAPITAL_POLICY,
    COPIED_POLICY,
    DENY_ONLY_POLICY,
    DENY_ONLY_SETS,
    FROZEN_POLICY,
    GLOB_POLICY,
    LEFT_OUT,
    LISTED_WRONG,
    PAIRS_POLICY,
    PREFIX_POLICY,
    _asks_twice,
    _hard_coded,
    _high_impact_tier,
    _refusals_last,
    _run_failure_unflagged,
    _run_failure_unsaid,
    _run_unguarded,
    _stops_at_a_failed_tool,
    block_sets_runner,
    copied_runner,
    frozen_runner,
    glob_runner,
    hard_coded_sets,
    left_out_runner,
    listed_wrong_runner,
    pairs_runner,
    prefix_runner,
    with_answers,
)
from answers_level1_round18 import RIGHT_ROUND_18, WRONG_ROUND_18
from answers_level1_round19 import RIGHT_ROUND_19, WRONG_ROUND_19
from answers_level1_round20 import WRONG_LOOPS_ROUND_20
from answers_level1_round21 import RIGHT_ROUND_21, WRONG_ROUND_21
from answers_level1_round22 import RIGHT_ROUND_22, WRONG_ROUND_22
from answers_level1_runners import (
    DEFAULTING_POLICY,
    DICT_DEFAULT,
    DICT_POLICY,
    ENUM_POLICY,
    FUNCTION_DEFAULT,
    GOOD_ANSWERS,
    SETS_DEFAULT,
    SETS_POLICY,
    STARRED_POLICY,
    TUPLE_POLICY,
    Tier,
    _dict,
    _only_false_refuses,
    _treats_approval_error_as_no,
    consumes_content,
    defaulting_runner,
    dict_runner,
    enum_runner,
    function_policy,
    function_runner,
    make_runner,
    result,
    run_as_json,
    sets_runner,
    starred_runner,
    tidies_paths,
    tuple_runner,
)
from answers_level1_slips import (
    PROMOTED_POLICY,
    _after_run,
    _allowed_dropped,
    _approval_error_dropped,
    _approve_args_swapped,
    _ask_after_run,
    _asks_without_input,
    _deny_dropped,
    _deny_not_error,
    _deny_says_the_user_refused,
    _deny_silent_reason,
    _deny_without_continue,
    _fails_open,
    _first_id_everywhere,
    _id_under_the_wrong_key,
    _ignores_answer,
    _keeps_yes,
    _key_error,
    _misreads_answer,
    _never_asks,
    _once_per_response,
    _output_dropped,
    _promotes_after_yes,
    _ran_then_dropped,
    _refusal_dropped,
    _refusal_without_continue,
    _refused_not_error,
    _results_by_name,
    _reversed,
    _runs_denied,
    _stops_at_refusal,
    _string_is_error,
    _string_is_error_everywhere,
    _tier_kept_from_the_block_before,
    _with_name_field,
    _wrong_type,
    _yields_results,
)

RIGHT = {
    "dict of tiers, default ask": (DICT_POLICY, DICT_DEFAULT, dict_runner, GOOD_ANSWERS),
    "outputs as escaped JSON": (
        DICT_POLICY,
        DICT_DEFAULT,
        make_runner(lambda name: DICT_POLICY.get(name, DICT_DEFAULT), execute=run_as_json),
        GOOD_ANSWERS,
    ),
    "sets per tier, default deny, only a True approves": (SETS_POLICY, SETS_DEFAULT, sets_runner, GOOD_ANSWERS),
    "function policy, default allow": (function_policy, FUNCTION_DEFAULT, function_runner, GOOD_ANSWERS),
    "tuples per tier in upper case": (TUPLE_POLICY, "ask", tuple_runner, GOOD_ANSWERS),
    "an Enum for the tiers": (ENUM_POLICY, Tier.ASK, enum_runner, GOOD_ANSWERS),
    "a defaultdict that falls to deny": (DEFAULTING_POLICY, "deny", defaulting_runner, GOOD_ANSWERS),
    "the default kept in the policy under '*'": (STARRED_POLICY, "ask", starred_runner, GOOD_ANSWERS),
    "an error from approve taken for a no": (DICT_POLICY, DICT_DEFAULT, _treats_approval_error_as_no, GOOD_ANSWERS),
    "the tier read in lower case, or the default": (
        DICT_POLICY,
        DICT_DEFAULT,
        make_runner(lambda name: (DICT_POLICY.get(name) or DICT_DEFAULT).lower()),
        GOOD_ANSWERS,
    ),
    **RIGHT_HABITS,
    **RIGHT_CONTENT,
    **RIGHT_CALLS,
    **RIGHT_INTERRUPTS,
    **RIGHT_ROUND_18,
    **RIGHT_ROUND_19,
    **RIGHT_ROUND_21,
    **RIGHT_ROUND_22,
}


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
    "only an explicit False refuses (approve is False)": (
        _dict(_only_false_refuses),
        {2: "grade.l1.c2.unknown_allowed"},  # a None from approve, a prompt closed unanswered, ran the call
    ),
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
    # the loop sends this same list back as the assistant turn: emptied, its tool_use blocks are gone (a 400)
    "consumes content with pop(0)": (_dict(consumes_content), {3: "grade.l1.c3.content_changed"}),
    "tidies block.input paths in place": (_dict(tidies_paths), {3: "grade.l1.c3.content_changed"}),
    "is_error as a string": (_dict(_string_is_error), {3: "grade.l1.c3.is_error_text"}),
    "is_error as a string on every result": (_dict(_string_is_error_everywhere), {3: "grade.l1.c3.is_error_text"}),
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
    **WRONG_HABITS,
    **WRONG_CONTENT,
    **WRONG_CALLS,
    **WRONG_INTERRUPTS,
    **WRONG_ROUND_18,
    **WRONG_ROUND_19,
    **WRONG_ROUND_21,
    **WRONG_ROUND_22,
}


# --- hostile: graded with a short time limit ----------------------------------------------------
def _exits_hard(content, tool_impls, approve):
    os._exit(7)


def _raises(content, tool_impls, approve):
    raise ValueError("まだ書いていません")


def _hoards(content, tool_impls, approve):
    kept = []
    while True:
        kept.append(bytearray(2 << 30))  # past the 1 GiB allowance at once


HOSTILE = {
    "exits the process": (_dict(_exits_hard), {1: "grade.crashed", 2: "grade.crashed", 3: "grade.crashed"}),
    "raises": (_dict(_raises), {1: "grade.l1.c1.unlisted_error", 2: "grade.raised", 3: "grade.raised"}),
    "memory without end": (_dict(_hoards), {1: "grade.memory", 2: "grade.memory", 3: "grade.memory"}),
    **WRONG_LOOPS_ROUND_20,
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
