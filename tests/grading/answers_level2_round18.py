"""Exercise level 2, round eighteen: a counter made again in the loop's body, a history made again in it,
an API error retried without end, only the first result sent, and gaps paired with the budget's runaway
the wrong way; each wrong answer with the criteria and hint keys that must catch it, and right answers in
styles the others do not use (match, a countdown in the condition).

None passed; two got another cause's hint. A loop that sent a refused request again and again was cut
off by the time limit and told that no check stopped it at MAX_TURNS; a loop that built its history
again on every lap was told only that the answer did not come back.
"""

from __future__ import annotations

from answers_level2_loops import MAX_TURNS, create, final_text, run_tool_uses, stop_message
from answers_level2_reasons import GOOD_MISSING, _loop


def turns_reset_in_the_body(client, user_input, tools, tool_impls):
    """The counter set to 0 at the top of each lap ("a fresh count for this turn")."""
    messages = [{"role": "user", "content": user_input}]
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        turns = 0
        if turns >= MAX_TURNS:
            return stop_message()
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = create(client, messages, tools)
    return final_text(response)


def history_made_in_the_body(client, user_input, tools, tool_impls):
    """The history built again on each lap: each request holds the task and the last turn only."""
    turns = 0
    messages = [{"role": "user", "content": user_input}]
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS:
            return stop_message()
        turns += 1
        messages = [{"role": "user", "content": user_input}]
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = create(client, messages, tools)
    return final_text(response)


def _create_until_it_works(client, messages, tools):
    while True:  # "the API is flaky": every error is tried again, at once and without end
        try:
            return create(client, messages, tools)
        except Exception:
            continue


def retries_every_error(client, user_input, tools, tool_impls):
    """Only the first result sent back, and the API's 400 for it retried at once, without end."""
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = _create_until_it_works(client, messages, tools)
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS:
            return stop_message()
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)[:1]})
        response = _create_until_it_works(client, messages, tools)
    return final_text(response)


def first_result_only(client, user_input, tools, tool_impls):
    """Only the first tool_use's result goes back ("one call per turn is the usual case")."""
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS:
            return stop_message()
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)[:1]})
        response = create(client, messages, tools)
    return final_text(response)


# --- right answers in other styles ---------------------------------------------------------------
def match_on_the_reason(client, user_input, tools, tool_impls):
    """A match on stop_reason; the limit asked as turns > MAX_TURNS - 1 (the same as >=)."""
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    while True:
        response = create(client, messages, tools)
        match response.stop_reason:
            case "tool_use":
                if turns > MAX_TURNS - 1:
                    return f"Stopped at the turn limit of {MAX_TURNS}."
                turns += 1
                messages.append({"role": "assistant", "content": response.content})
                messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
            case _:
                return final_text(response)


def countdown_in_the_condition(client, user_input, tools, tool_impls):
    """The turns left counted down; the walrus keeps the response in the while's condition."""
    messages = [{"role": "user", "content": user_input}]
    left = MAX_TURNS
    while (response := create(client, messages, tools)).stop_reason == "tool_use":
        if not left:  # 上限に達した: もう1周は許されない
            return f"ターン数の上限 {MAX_TURNS} に達したため停止しました"
        left -= 1
        messages += [
            {"role": "assistant", "content": response.content},
            {"role": "user", "content": run_tool_uses(response.content, tool_impls)},
        ]
    return final_text(response)


WRONG_ROUND_18 = {
    "the turn counter made in the loop's body": (_loop(turns_reset_in_the_body), {3: "grade.l2.c3.runaway"}),
    "the history made again in the loop's body": (_loop(history_made_in_the_body), {3: "grade.l2.c3.history_dropped"}),
    "the 400 for a missing result retried without end": (_loop(retries_every_error), {3: "grade.l2.c3.retried_400"}),
    "only the first tool_use's result sent": (_loop(first_result_only), {3: "grade.l2.c3.api_rejected"}),
    "the budget's gap paired with spinning": (
        (
            {"stop_condition": "endless_turns", "token_budget": "spinning", "no_progress": "spinning"},
            match_on_the_reason,
            MAX_TURNS,
        ),
        {2: "grade.l2.c2.mispaired"},
    ),
    "the budget's runaway put on approval": (
        (
            {"stop_condition": "endless_turns", "approval": "budget_burn", "no_progress": "spinning"},
            match_on_the_reason,
            MAX_TURNS,
        ),
        {2: "grade.l2.c2.mispaired"},
    ),
    "the budget named as the only gap": (
        ({"token_budget": "budget_burn", "no_progress": "spinning"}, match_on_the_reason, MAX_TURNS),
        {1: "grade.l2.c1.no_stop_condition"},
    ),
}
RIGHT_ROUND_18 = {
    "a match on the stop reason, > MAX_TURNS - 1": (GOOD_MISSING, match_on_the_reason, MAX_TURNS),
    "a countdown with the response in the condition": (GOOD_MISSING, countdown_in_the_condition, MAX_TURNS),
}
