"""Exercise level 2: loops whose history or whose kind of function is wrong, though the turns count right,
and right loops in styles the others do not use.

Each turn put at the top of messages (newest first), or only the last four messages kept: the API accepts
both (an assistant-first history is allowed), and the scripted models count turns alike, so only the
requests' order shows the task gone from the front. An ``async def`` or a generator ``run_agent`` runs
none of its body when called.
"""

from __future__ import annotations

import itertools

from answers_level2_loops import MAX_TURNS, create, final_text, run_tool_uses, stop_message

_MISSING_ALL = {"stop_condition": "endless_turns", "token_budget": "budget_burn", "no_progress": "spinning"}


def newest_first(client, user_input, tools, tool_impls):
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS:
            return stop_message()
        turns += 1
        messages.insert(0, {"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        messages.insert(0, {"role": "assistant", "content": response.content})
        response = create(client, messages, tools)
    return final_text(response)


def last_four_messages(client, user_input, tools, tool_impls):
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS:
            return stop_message()
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        messages = messages[-4:]  # to save tokens: the task is cut after the second turn
        response = create(client, messages, tools)
    return final_text(response)


async def async_loop(client, user_input, tools, tool_impls):
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS:
            return stop_message()
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = create(client, messages, tools)
    return final_text(response)


def yields_its_answer(client, user_input, tools, tool_impls):
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS:
            yield stop_message()
            return
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = create(client, messages, tools)
    yield final_text(response)


def recursive(client, user_input, tools, tool_impls, messages=None, turns=0):
    """Right: one turn per call, the history passed on as a new list."""
    messages = messages or [{"role": "user", "content": user_input}]
    response = create(client, messages, tools)
    if response.stop_reason != "tool_use":
        return final_text(response)
    if turns >= MAX_TURNS:
        return f"最大ターン数 {MAX_TURNS} に達したので停止しました"
    turn = [
        {"role": "assistant", "content": response.content},
        {"role": "user", "content": run_tool_uses(response.content, tool_impls)},
    ]
    return recursive(client, user_input, tools, tool_impls, messages + turn, turns + 1)


def counted_by_itertools(client, user_input, tools, tool_impls):
    """Right: the turns numbered by itertools.count, the limit compared with ==."""
    messages = [{"role": "user", "content": user_input}]
    response = create(client, messages, tools)
    for turns in itertools.count():
        if response.stop_reason != "tool_use":
            return final_text(response)
        if turns == MAX_TURNS:
            return "ターン数の上限に達したため停止しました。"
        messages.extend(
            [
                {"role": "assistant", "content": response.content},
                {"role": "user", "content": run_tool_uses(response.content, tool_impls)},
            ]
        )
        response = create(client, messages, tools)
    return ""  # never reached: count() has no end


def stops_in_english(client, user_input, tools, tool_impls):
    """Right: the stop message in English in a Japanese notebook."""
    messages = [{"role": "user", "content": user_input}]
    for turns in range(MAX_TURNS + 1):
        response = create(client, messages, tools)
        if response.stop_reason != "tool_use":
            return final_text(response)
        if turns == MAX_TURNS:
            break
        messages += [{"role": "assistant", "content": response.content}]
        messages += [{"role": "user", "content": run_tool_uses(response.content, tool_impls)}]
    return f"Stopped at the limit of {MAX_TURNS} turns."


WRONG_HISTORY = {
    "each turn put at the top of the history": (
        (_MISSING_ALL, newest_first, MAX_TURNS),
        {3: "grade.l2.c3.task_not_first"},
    ),
    "only the last four messages kept": (
        (_MISSING_ALL, last_four_messages, MAX_TURNS),
        {3: "grade.l2.c3.task_not_first"},
    ),
    "run_agent written with async def": ((_MISSING_ALL, async_loop, MAX_TURNS), {3: "grade.l2.c3.never_ran"}),
    "run_agent yields its answer": ((_MISSING_ALL, yields_its_answer, MAX_TURNS), {3: "grade.l2.c3.never_ran"}),
}
RIGHT_HISTORY = {
    "one turn per recursive call": (_MISSING_ALL, recursive, MAX_TURNS),
    "turns from itertools.count": (_MISSING_ALL, counted_by_itertools, MAX_TURNS),
    "a stop message in English": (_MISSING_ALL, stops_in_english, MAX_TURNS),
}
