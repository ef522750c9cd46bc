"""Exercise level 1: habits a learner brings from elsewhere, each a wrong answer with the criteria and hint
keys that must catch it, and right answers in styles the others do not use.

A results list kept at module level (every call returns the calls before it too), tiers written in Japanese
words, ANSWERS given as the options' descriptions instead of their keys, one approval kept per tool name,
a tool's failure passed on as its repr, a person's "no" worded as the policy's ban (the deny's
message reused for a refusal), results in OpenAI's role "tool" shape, MCP's isError, and an async def runner.
"""

from __future__ import annotations

from answers_level1_runners import DICT_POLICY, GOOD_ANSWERS, forbidden, make_runner, refused, result, run

from harness_lab.grading.level1_scene import ANSWER_OPTIONS
from harness_lab.text import t


def _tier(name):
    return DICT_POLICY.get(name, "ask")


RESULTS = []  # the learner's list, made once when the cell ran


def _results_at_module_level(content, tool_impls, approve):
    for block in content:
        if block.type != "tool_use":
            continue
        tier = _tier(block.name)
        if tier == "deny":
            RESULTS.append(forbidden(block))
        elif tier == "ask" and not approve(block.name, block.input):
            RESULTS.append(refused(block))
        else:
            RESULTS.append(run(block, tool_impls))
    return RESULTS


JAPANESE_POLICY = {name: {"allow": "許可", "ask": "確認", "deny": "拒否"}[tier] for name, tier in DICT_POLICY.items()}
_FROM_JAPANESE = {"許可": "allow", "確認": "ask", "拒否": "deny"}
_japanese_runner = make_runner(lambda name: _FROM_JAPANESE[JAPANESE_POLICY.get(name, "確認")])


def _one_answer_per_tool(content, tool_impls, approve):
    results, answers = [], {}
    for block in content:
        if block.type != "tool_use":
            continue
        tier = _tier(block.name)
        if tier == "deny":
            results.append(forbidden(block))
            continue
        if tier == "ask":
            if block.name not in answers:  # asked once per tool, however many calls it gets
                answers[block.name] = approve(block.name, block.input)
            if not answers[block.name]:
                results.append(refused(block))
                continue
        results.append(run(block, tool_impls))
    return results


def _matched_tier(name):  # right: a function is one of the policy's shapes, and the probe rewrites it
    match name:
        case "get_time" | "read_file":
            return "allow"
        case "send_email":
            return "deny"
        case _:
            return "ask"


def _failure_as_repr(block, tool_impls):
    try:
        return result(block, str(tool_impls[block.name](**block.input)))
    except Exception as err:
        return result(block, repr(err))  # the error's text, but not flagged as one


def _answer_read_as_text(content, tool_impls, approve):  # right: str() of the answer, a spelt-out yes too
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        tier = _tier(block.name)
        if tier == "deny":
            results.append(forbidden(block))
        elif tier == "ask" and str(approve(block.name, block.input)).strip().lower() not in ("true", "yes", "はい"):
            results.append(refused(block))
        else:
            results.append(run(block, tool_impls))
    return results


def _descriptions():
    """ANSWERS as a learner who copied the right options' descriptions instead of their keys writes them."""
    return {
        q: t(f"grade.l1.opt.{q}.{key}")
        for q, options in ANSWER_OPTIONS.items()
        for key, right in options.items()
        if right
    }


def _openai_results(content, tool_impls, approve):  # OpenAI's shape: one {"role": "tool"} message per call
    results = make_runner(_tier)(content, tool_impls, approve)
    return [{"role": "tool", "tool_call_id": r["tool_use_id"], "content": r["content"]} for r in results]


def _camel_case(block, content, is_error=False):  # MCP's isError
    return {
        "type": "tool_result",
        "tool_use_id": block.id,
        "content": content,
        **({"isError": True} if is_error else {}),
    }


def _forbidden_camel(block):
    return _camel_case(block, f"ツール {block.name} はポリシーで禁止されているため、実行していません。", True)


def _refused_camel(block):
    return _camel_case(block, "ユーザーが拒否したため、実行していません。", True)


async def _async_runner(content, tool_impls, approve):  # written async, as other SDKs' tool runners are
    return make_runner(_tier)(content, tool_impls, approve)


WRONG_HABITS = {
    "run_tool_uses written with async def": (
        (DICT_POLICY, "ask", _async_runner, GOOD_ANSWERS),
        {1: "grade.l1.never_ran", 2: "grade.raised", 3: "grade.raised"},  # 2 and 3 meet what 1 names
    ),
    "results in OpenAI's role tool shape": (
        (DICT_POLICY, "ask", _openai_results, GOOD_ANSWERS),
        {3: "grade.l1.c3.other_api_result"},
    ),
    "is_error spelled isError": (
        (DICT_POLICY, "ask", make_runner(_tier, forbid=_forbidden_camel, refuse=_refused_camel), GOOD_ANSWERS),
        {3: "grade.l1.c3.is_error_spelled"},
    ),
    # one helper for both "no"s: the person's no told as a rule's, so the model takes an ask tool as banned
    "a refusal worded as a policy ban": (
        (DICT_POLICY, "ask", make_runner(_tier, refuse=forbidden), GOOD_ANSWERS),
        {3: "grade.l1.c3.refusal_says_policy"},
    ),
    "a results list kept at module level": (
        (DICT_POLICY, "ask", _results_at_module_level, GOOD_ANSWERS),
        {1: "grade.l1.results_kept", 3: "grade.l1.results_kept"},
    ),
    "tiers written in Japanese words": (
        (JAPANESE_POLICY, "確認", _japanese_runner, GOOD_ANSWERS),
        {1: "grade.l1.c1.no_default"},
    ),
    "answers given as the options' descriptions": (
        (DICT_POLICY, "ask", make_runner(_tier), _descriptions()),
        {2: "grade.l1.unknown", 3: "grade.l1.unknown"},
    ),
    "one approval kept per tool name": (
        (DICT_POLICY, "ask", _one_answer_per_tool, GOOD_ANSWERS),
        {2: "grade.l1.c2.per_call"},
    ),
    "a tool's failure passed on as its repr": (
        (DICT_POLICY, "ask", make_runner(_tier, execute=_failure_as_repr), GOOD_ANSWERS),
        {3: "grade.l1.c3.tool_error_not_error"},
    ),
}
RIGHT_HABITS = {
    "a function policy written as a match statement": (_matched_tier, "ask", make_runner(_matched_tier), GOOD_ANSWERS),
    "the answer read through str()": (DICT_POLICY, "ask", _answer_read_as_text, GOOD_ANSWERS),
}
