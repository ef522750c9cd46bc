"""Learner answers to exercise level 2, right and wrong, written as a learner would.

``WRONG`` maps each mistake to the criteria that must catch it, each with the catalog key of the hint
that must name it (one mistake, one criterion); ``HOSTILE`` holds loops that hang, crash or eat
memory, graded with a short time limit. The right answers differ in style (a check before the
counter, a for loop, a while True) and must all pass.
"""

from __future__ import annotations

import functools

from answers_level2_history import RIGHT_HISTORY, WRONG_HISTORY
from answers_level2_limits import RIGHT_LIMITS, WRONG_LIMITS
from answers_level2_loops import (
    MAX_TURNS,
    create,
    final_text,
    for_loop,
    run_tool_uses,
    stop_message,
    top_of_body,
    while_true,
)
from answers_level2_reasons import RIGHT_REASONS, WRONG_REASONS
from answers_level2_round18 import RIGHT_ROUND_18, WRONG_ROUND_18
from answers_level2_round19 import RIGHT_ROUND_19, WRONG_ROUND_19
from answers_level2_round21 import RIGHT_ROUND_21, WRONG_ROUND_21
from answers_level2_round22 import RIGHT_ROUND_22, WRONG_ROUND_22
from answers_level2_slips import (
    Agent,
    _stopping_with,
    asks_once_more,
    breaks_at_cap,
    check_after_increment,
    check_after_the_call,
    check_after_tools,
    compares_with_one_less,
    config_dict,
    counter_ignores_stop_reason,
    counter_set_in_the_loop,
    counts_blocks,
    counts_half_the_messages,
    counts_requests,
    counts_turns_that_speak,
    endless_answer,
    exits_hard,
    first_call_only,
    forgets_to_reassign,
    forgets_to_return,
    hard_coded_limit,
    helper_default,
    hoards,
    limit_as_parameter,
    make_agent,
    names_its_results,
    no_cap,
    one_results_list,
    one_too_many,
    raises_at_cap,
    reads_a_copy,
    returns_nothing_at_cap,
    says_done_instead,
    spins_forever,
    until_end_turn,
    while_calls_in_content,
)
from answers_level2_tools import RIGHT_TOOLS, WRONG_TOOLS
from answers_level2_words import RIGHT_WORDS, WRONG_WORDS

GOOD_MISSING = {"stop_condition": "endless_turns", "token_budget": "budget_burn", "no_progress": "spinning"}

RIGHT = {
    "check at the top, one runaway per gap": (GOOD_MISSING, top_of_body, MAX_TURNS),
    "for loop, sets of runaways": (
        {"stop_condition": {"endless_turns", "budget_burn"}, "no_progress": ["spinning"]},
        for_loop,
        MAX_TURNS,
    ),
    "while True, every gap": (
        {
            "stop_condition": "endless_turns",
            "token_budget": "budget_burn",
            "no_progress": "spinning",
            "approval": "unchecked_action",
        },
        while_true,
        MAX_TURNS,
    ),
    "a stop message with no number": (GOOD_MISSING, _stopping_with("上限に達したので止めました"), MAX_TURNS),
    "an English stop message": (GOOD_MISSING, _stopping_with("Stopped: reached the turn limit."), MAX_TURNS),
    "a stop message that says the limit was exceeded": (
        GOOD_MISSING,
        _stopping_with(f"最大ターン数 {MAX_TURNS} を超過しました"),
        MAX_TURNS,
    ),
    "a stop message that says no answer came": (
        GOOD_MISSING,
        _stopping_with(f"ターン数が上限（{MAX_TURNS}）をオーバーしたため、回答できませんでした"),
        MAX_TURNS,
    ),
    "a stop message that aborts": (
        GOOD_MISSING,
        _stopping_with(f"Too many iterations ({MAX_TURNS}), aborting."),
        MAX_TURNS,
    ),
    "the limit as a parameter defaulting to MAX_TURNS": (GOOD_MISSING, limit_as_parameter, MAX_TURNS),
    "a partial with the limit as a keyword": (
        GOOD_MISSING,
        functools.partial(limit_as_parameter, max_turns=MAX_TURNS),
        MAX_TURNS,
    ),
    "a bound method": (GOOD_MISSING, Agent().run, MAX_TURNS),
    "a callable object": (GOOD_MISSING, Agent(), MAX_TURNS),
    "a closure over the limit": (GOOD_MISSING, make_agent(MAX_TURNS), MAX_TURNS),
    "half the history's length as the turns": (GOOD_MISSING, counts_half_the_messages, MAX_TURNS),
    **RIGHT_HISTORY,
    **RIGHT_REASONS,
    **RIGHT_WORDS,
    **RIGHT_TOOLS,
    **RIGHT_LIMITS,
    **RIGHT_ROUND_18,
    **RIGHT_ROUND_19,
    **RIGHT_ROUND_21,
    **RIGHT_ROUND_22,
}


TURNS_SO_FAR = {"turns": 0}  # kept between calls: the mistake under test


def counts_across_runs(client, user_input, tools, tool_impls):
    """The lesson's check, on a count kept outside the function: the next run starts where this one ended."""
    messages = [{"role": "user", "content": user_input}]
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if TURNS_SO_FAR["turns"] >= MAX_TURNS:
            return stop_message()
        TURNS_SO_FAR["turns"] += 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = create(client, messages, tools)
    return final_text(response)


HISTORY = []  # kept between calls: the mistake under test


def history_outside(client, user_input, tools, tool_impls):
    """The lesson's check, on a history kept outside the function: the next run sends this run's turns too."""
    HISTORY.append({"role": "user", "content": user_input})
    turns = 0
    response = create(client, HISTORY, tools)
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS:
            return stop_message()
        turns += 1
        HISTORY.append({"role": "assistant", "content": response.content})
        HISTORY.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = create(client, HISTORY, tools)
    HISTORY.append({"role": "assistant", "content": response.content})
    return final_text(response)


def _top(missing):
    return (missing, top_of_body, MAX_TURNS)


def _loop(run_agent):
    return (GOOD_MISSING, run_agent, MAX_TURNS)


# Loops whose limit was fixed when their cell ran: right for the MAX_TURNS they were given, so they
# pass, with a note that a later change of MAX_TURNS would not move their limit.
NOTED = {
    "the limit written as a number": _loop(hard_coded_limit),
    "a partial around a limit written as a number": _loop(functools.partial(hard_coded_limit)),
    "the limit read from a copy of MAX_TURNS": _loop(reads_a_copy),
    "the limit a default of a helper": _loop(helper_default),
    "the limit in a settings dict": _loop(config_dict),
}

# name -> ((MISSING, run_agent, MAX_TURNS), {criterion: hint key})
WRONG = {
    "misses the explicit stop condition": (
        _top({"token_budget": "budget_burn", "no_progress": "spinning"}),
        {1: "grade.l2.c1.no_stop_condition"},
    ),
    "names something the loop does right": (
        _top({**GOOD_MISSING, "reassign": "dead_loop"}),
        {1: "grade.l2.c1.not_missing"},
    ),
    "a control that is not an option": (_top({**GOOD_MISSING, "max_tokens": "endless_turns"}), {1: "grade.l2.unknown"}),
    "answer left empty": (_top({}), {1: "grade.l2.c1.no_stop_condition", 2: "grade.l2.c2.no_turns"}),
    "gaps as a set, with no runaways": (_top({"stop_condition", "no_progress"}), {2: "grade.l2.c2.not_mapping"}),
    "a gap paired with nothing": (_top({**GOOD_MISSING, "no_progress": None}), {2: "grade.l2.c2.unpaired"}),
    "the runaways swapped": (
        _top({"stop_condition": "spinning", "no_progress": "endless_turns"}),
        {2: "grade.l2.c2.mispaired"},
    ),
    "only one runaway family": (_top({"stop_condition": "endless_turns"}), {2: "grade.l2.c2.no_spinning"}),
    "no turns runaway": (
        _top({"stop_condition": "unchecked_action", "no_progress": "spinning"}),
        {2: "grade.l2.c2.mispaired"},
    ),
    "only spinning": (_top({"stop_condition": [], "no_progress": "spinning"}), {2: "grade.l2.c2.unpaired"}),
    "a runaway this loop does not have": (
        _top({**GOOD_MISSING, "stop_condition": ["endless_turns", "dead_loop"]}),
        {2: "grade.l2.c2.not_this_loop"},
    ),
    "a runaway that is not an option": (_top({**GOOD_MISSING, "no_progress": "infinite"}), {2: "grade.l2.unknown"}),
    "no cap at all": (_loop(no_cap), {3: "grade.l2.c3.runaway"}),
    "turn check after the tools": (_loop(check_after_tools), {3: "grade.l2.c3.results_unsent"}),
    "check after the increment": (_loop(check_after_increment), {3: "grade.l2.c3.one_early"}),
    "check after the next request": (_loop(check_after_the_call), {3: "grade.l2.c3.cut_at_cap"}),
    "counter loop ignoring stop_reason": (_loop(counter_ignores_stop_reason), {3: "grade.l2.c3.normal_raised"}),
    "no stop message at the cap": (_loop(returns_nothing_at_cap), {3: "grade.l2.c3.stop_not_text"}),
    "a bare number at the cap": (_loop(_stopping_with(str(MAX_TURNS))), {3: "grade.l2.c3.no_stop_message"}),
    "a stop that does not say why": (_loop(_stopping_with("停止")), {3: "grade.l2.c3.no_stop_message"}),
    "counts tool_use blocks, not turns": (_loop(counts_blocks), {3: "grade.l2.c3.counts_blocks"}),
    "counts only the turns with text": (_loop(counts_turns_that_speak), {3: "grade.l2.c3.counts_text"}),
    "counts turns outside run_agent": (_loop(counts_across_runs), {3: "grade.l2.c3.count_kept"}),
    "keeps the history outside run_agent": (_loop(history_outside), {3: "grade.l2.c3.history_kept"}),
    "an extra name field in tool_result": (_loop(names_its_results), {3: "grade.l2.c3.api_rejected"}),
    "runs only the first call of a turn": (_loop(first_call_only), {3: "grade.l2.c3.api_rejected"}),
    "forgets to reassign response": (_loop(forgets_to_reassign), {3: "grade.l2.c3.stale_response"}),
    "one turn too many": (_loop(one_too_many), {3: "grade.l2.c3.one_too_many"}),
    "its own word instead of the model's answer": (_loop(says_done_instead), {3: "grade.l2.c3.normal_answer"}),
    "one request more after the answer": (_loop(asks_once_more), {3: "grade.l2.c3.normal_calls"}),
    "goes on until end_turn": (_loop(until_end_turn), {3: "grade.l2.c3.went_on"}),
    "goes on while the content holds a tool_use": (_loop(while_calls_in_content), {3: "grade.l2.c3.cut_call_ran"}),
    "raises at the cap": (_loop(raises_at_cap), {3: "grade.l2.c3.raised_at_cap"}),
    "MAX_TURNS as a string": ((GOOD_MISSING, top_of_body, "8"), {3: "grade.l2.c3.bad_max_turns"}),
    "compares with MAX_TURNS - 1": (_loop(compares_with_one_less), {3: "grade.l2.c3.one_early"}),
    "counts model requests": (_loop(counts_requests), {3: "grade.l2.c3.one_early"}),
    "the counter set to 0 inside the loop": (_loop(counter_set_in_the_loop), {3: "grade.l2.c3.runaway"}),
    "break at the cap, the model's words returned": (_loop(breaks_at_cap), {3: "grade.l2.c3.no_stop_message"}),
    "one results list cleared and refilled": (_loop(one_results_list), {3: "grade.l2.c3.results_reused"}),
    "an endless generator for MISSING": (
        (endless_answer(), top_of_body, MAX_TURNS),
        {1: "grade.l2.endless", 2: "grade.l2.endless"},
    ),
    **WRONG_HISTORY,
    **WRONG_REASONS,
    **WRONG_WORDS,
    **WRONG_TOOLS,
    **WRONG_LIMITS,
    **WRONG_ROUND_18,
    **WRONG_ROUND_19,
    **WRONG_ROUND_21,
    **WRONG_ROUND_22,
}

# Stop messages criterion 3 accepts, and ones that do not say the run stopped at the limit.
SAYS_STOPPED = [
    "最大ターン数 4 に達したので、自分から停止します",
    "上限に達したので止めました",
    "ターン数の上限で打ち切りました",
    "制限回数を超えたため中断しました",
    "Stopped: reached the turn limit (4).",
    "Reached the maximum number of turns; stopping here.",
    "Halted after hitting MAX_TURNS.",
    "The loop hit its turn cap and gave up.",
    "The agent ran out of turns.",
    "Aborted after 8 iterations.",
    "Agent did not finish within 8 turns.",
    "8回で打ち切りました",
    "Too many turns (8) - ending the run.",
    "I give up after 8 turns",
    "Turn budget exhausted.",
    "Used all 8 turns without a final answer.",
    "Quit after 8 turns.",
    "The run was cut short at the turn cap.",
    "Ending the loop: turn limit",
    "No answer within the turn limit.",
    "ターン数の上限に届いたので終わります。",
    "上限ターン数を使い切りました",
    # the red team's right messages, once refused
    "最大ターン数 8 を超過しました",
    "ターン数が上限を超過",
    "8ターン以内に完了できませんでした",
    "Too many iterations (8), aborting.",
    "Task not completed within the turn limit of 8.",
    "Failed to finish within 8 turns.",
    "Sorry, I couldn't complete the task within 8 turns.",
    "Agent timed out after 8 turns.",
    "No final answer after 8 turns",
    "I was unable to finish in 8 turns.",
    "ターン数が上限（8）をオーバーしたため、回答できませんでした",
    "ターン上限のため回答できませんでした",
    "最大ターン数（8）まで実行しましたが、答えが出ませんでした",
    "8ターンで回答が得られませんでした",
    "ターン上限オーバーです",
    "上限の8ターンでは、回答を生成できませんでした",
    "Stopped after 8 loops.",
    "Giving up after 8 tries.",
    "Stopped after 8 attempts.",
    "Too many tool calls; stopping.",
    "8周で止めました",
    # "too many" in Japanese, as the English "Too many tool calls; stopping." above
    "ツール呼び出しが多すぎるため停止しました",
    "繰り返しが多過ぎるので中断します",
    "ループが長すぎるので打ち切りました",
]
SAYS_NOTHING_OF_A_STOP = [
    "4",
    "",
    "ターン 4",
    "停止",
    "まだ手がかりを探します。",
    "Stopped.",
    "limit: 4",
    "turn 4 of 4",
    "8回目です",
    "4 steps so far",
    "8ターン目は何もしませんでした",  # a turn, but nothing stopped
    "Not done yet (turn 8)",
    "Completed 8 turns.",
    "まだ答えが出ません（ターン 8）",  # a run going on, not one that stopped
    "手がかりが少なすぎます",  # "too few", and nothing stopped
    "ツールを呼びすぎています（8回目）",  # a run going on that knows it calls a lot
    "ターン 8: 回答を準備しています",
    "8回目の回答です",
    "The loop stopped.",  # stopped, and no limit named
    "Ran 8 loops so far",  # a count of laps, and nothing stopped
]

# Loops graded with a short time limit: each fails criterion 3 only, with this hint.
HOSTILE = {
    "busy loop": (_loop(spins_forever), {3: "grade.l2.c3.runaway"}),
    "exits the process": (_loop(exits_hard), {3: "grade.crashed"}),
    "memory without end": (_loop(hoards), {3: "grade.memory"}),
    "never leaves after the answer": (_loop(forgets_to_return), {3: "grade.l2.c3.normal_runaway"}),
}
