"""Exercise level 2, round seventeen: loops that stop at a limit of their own instead of MAX_TURNS, each wrong
one with the criteria and hint keys that must catch it, and right answers in styles the others do not use.

A loop that set MAX_TURNS again inside the function, or wrote the number in, stopped cleanly at that
limit and was told only the counts ("expected MAX_TURNS tool turns"); the hint now names the other limit.
"""

from __future__ import annotations

import itertools

from answers_level2_loops import MAX_TURNS, create, final_text, run_tool_uses, stop_message
from answers_level2_reasons import _loop


def _capped_at(limit):
    """The lesson's fix, with the limit it compares given here."""

    def run_agent(client, user_input, tools, tool_impls):
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

    return run_agent


def limit_set_again_inside(client, user_input, tools, tool_impls):
    """MAX_TURNS set again in the function "to be safe": the module's is never read."""
    MAX_TURNS = 9  # the learner's own copy
    return _capped_at(MAX_TURNS)(client, user_input, tools, tool_impls)


def walrus_in_the_condition(client, user_input, tools, tool_impls):
    """Right: the count taken in the while condition, the stop said after the loop."""
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use" and (turns := turns + 1) <= MAX_TURNS:
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = create(client, messages, tools)
    if response.stop_reason == "tool_use":
        return stop_message()
    return final_text(response)


def recursive(client, user_input, tools, tool_impls):
    """Right: one call of a helper per turn, the turns so far passed down."""

    def step(messages, turns):
        response = create(client, messages, tools)
        if response.stop_reason != "tool_use":
            return final_text(response)
        if turns >= MAX_TURNS:
            return stop_message()
        results = run_tool_uses(response.content, tool_impls)
        turn = [{"role": "assistant", "content": response.content}, {"role": "user", "content": results}]
        return step(messages + turn, turns + 1)

    return step([{"role": "user", "content": user_input}], 0)


def counted_with_itertools(client, user_input, tools, tool_impls):
    """Right: itertools.count numbers the laps, compared with == at the top."""
    messages = [{"role": "user", "content": user_input}]
    response = create(client, messages, tools)
    for turns in itertools.count():
        if response.stop_reason != "tool_use":
            return final_text(response)
        if turns == MAX_TURNS:
            return "Stopped: reached the turn limit."
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = create(client, messages, tools)
    return None


def requests_counted_from_one(client, user_input, tools, tool_impls):
    """Right: the requests counted from the first, compared with > (N + 1 requests is N turns)."""
    messages = [{"role": "user", "content": user_input}]
    requests = 1
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if requests > MAX_TURNS:
            return "上限に達したので止めました"
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = create(client, messages, tools)
        requests += 1
    return final_text(response)


def stop_with_the_words_so_far(client, user_input, tools, tool_impls):
    """Right: the stop message says the limit, then what the model had said so far."""
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS:
            return f"最大ターン数 {MAX_TURNS} に達したので止めました。途中まで: {final_text(response)}"
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = create(client, messages, tools)
    return final_text(response)


WRONG_LIMITS = {
    "MAX_TURNS set again inside run_agent": (_loop(limit_set_again_inside), {3: "grade.l2.c3.fixed_limit"}),
    "a number written in that is not MAX_TURNS": (_loop(_capped_at(MAX_TURNS * 2)), {3: "grade.l2.c3.fixed_limit"}),
}

RIGHT_LIMITS = {
    "the turn counted in the while condition": _loop(walrus_in_the_condition),
    "a recursive helper per turn": _loop(recursive),
    "itertools.count for the laps": _loop(counted_with_itertools),
    "requests counted from one, compared with >": _loop(requests_counted_from_one),
    "a stop message with the words so far": _loop(stop_with_the_words_so_far),
}
