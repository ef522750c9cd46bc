"""Exercise level 2, round twenty-one: the cap read from an environment variable (a limit that stays put
when MAX_TURNS changes) or worked out from MAX_TURNS (one that moves with it), a history rebuilt each
turn from the question and the last turn alone, and a failure's is_error written as the text "true"; each
wrong answer with the criteria and hint keys that must catch it, and right answers in styles the others do
not use (a dispatch table on stop_reason, a history object).
"""

from __future__ import annotations

import os

from answers_level2_loops import MAX_TURNS, create, final_text, run_tool_uses, stop_message
from answers_level2_reasons import GOOD_MISSING, _loop


def limit_from_the_environment(client, user_input, tools, tool_impls):
    """The cap read from an environment variable "so it can be changed without editing the code"; unset, 8."""
    limit = int(os.environ.get("HARNESS_MAX_TURNS", "8"))
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if turns >= limit:
            return stop_message()
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = create(client, messages, tools)
    return final_text(response)


def limit_worked_out_from_max_turns(client, user_input, tools, tool_impls):
    """Twice MAX_TURNS, read when it runs ("room for a long task"): the limit moves with MAX_TURNS but is not it."""
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS * 2:
            return stop_message()
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = create(client, messages, tools)
    return final_text(response)


def history_of_the_last_turn(client, user_input, tools, tool_impls):
    """Each request carries the question and the last turn only ("the model needs no more than that")."""
    question = {"role": "user", "content": user_input}
    messages = [question]
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS:
            return stop_message()
        turns += 1
        results = run_tool_uses(response.content, tool_impls)
        messages = [question, {"role": "assistant", "content": response.content}, {"role": "user", "content": results}]
        response = create(client, messages, tools)
    return final_text(response)


def _flagged_as_text(content, tool_impls):
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        try:
            text, failed = str(tool_impls[block.name](**block.input)), "false"
        except Exception as err:
            text, failed = f"error: {err}", "true"
        results.append({"type": "tool_result", "tool_use_id": block.id, "content": text, "is_error": failed})
    return results


def is_error_as_text(client, user_input, tools, tool_impls):
    """Every result's is_error written as the text "true" or "false"."""
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS:
            return stop_message()
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": _flagged_as_text(response.content, tool_impls)})
        response = create(client, messages, tools)
    return final_text(response)


# --- right answers in other styles ---------------------------------------------------------------
def dispatch_on_the_reason(client, user_input, tools, tool_impls):
    """A table from stop_reason to what the loop does next; anything not in it ends the run."""
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    while True:
        response = create(client, messages, tools)
        action = {"tool_use": "tools"}.get(response.stop_reason, "answer")
        if action == "answer":
            return final_text(response)
        if turns >= MAX_TURNS:
            return f"Stopped after {turns} turns: the turn limit MAX_TURNS = {MAX_TURNS} was reached."
        turns += 1
        messages += [
            {"role": "assistant", "content": response.content},
            {"role": "user", "content": run_tool_uses(response.content, tool_impls)},
        ]


class _History:
    """The messages behind two methods; one object per run."""

    def __init__(self, question):
        self.messages = [{"role": "user", "content": question}]

    def add_turn(self, response, results):
        self.messages.append({"role": "assistant", "content": response.content})
        self.messages.append({"role": "user", "content": results})


def history_object(client, user_input, tools, tool_impls):
    """The history kept in an object made afresh for each run."""
    history, turns = _History(user_input), 0
    response = create(client, history.messages, tools)
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS:
            return f"上限の {MAX_TURNS} ターンに達したので停止しました"
        turns += 1
        history.add_turn(response, run_tool_uses(response.content, tool_impls))
        response = create(client, history.messages, tools)
    return final_text(response)


WRONG_ROUND_21 = {
    "the cap read from an environment variable": (_loop(limit_from_the_environment), {3: "grade.l2.c3.fixed_limit"}),
    "twice MAX_TURNS, read when it runs": (_loop(limit_worked_out_from_max_turns), {3: "grade.l2.c3.other_limit"}),
    "the history rebuilt from the question and the last turn": (
        _loop(history_of_the_last_turn),
        {3: "grade.l2.c3.history_dropped"},
    ),
    "is_error written as the text true or false": (_loop(is_error_as_text), {3: "grade.l2.c3.is_error_text"}),
}
RIGHT_ROUND_21 = {
    "a table from stop_reason to the next step": (GOOD_MISSING, dispatch_on_the_reason, MAX_TURNS),
    "the history in an object made for each run": (GOOD_MISSING, history_object, MAX_TURNS),
}
