"""Exercise level 2: loops whose history or whose kind of function is wrong, though the turns count right,
and right loops in styles the others do not use.

Each turn put at the top of messages (newest first), or only the last four messages kept: the API accepts
both (an assistant-first history is allowed), and the scripted models count turns alike, so only the
requests' order shows the task gone from the front. An ``async def`` or a generator ``run_agent`` runs
none of its body when called. OpenAI's habits (a system message, results as "tool" messages, a tool_calls
key, choices[0].finish_reason) are named as that SDK's shape, not as a tool_result's fields.
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


def recursive_history(client, user_input, tools, tool_impls, messages=None, turns=0):
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
    return recursive_history(client, user_input, tools, tool_impls, messages + turn, turns + 1)


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


def _tool_loop(turn_messages, answer=final_text):
    """The lesson's loop, with the messages each turn adds and what it returns at the end made by the caller."""

    def run_agent(client, user_input, tools, tool_impls):
        messages = [{"role": "user", "content": user_input}]
        turns = 0
        response = create(client, messages, tools)
        while response.stop_reason == "tool_use":
            if turns >= MAX_TURNS:
                return stop_message()
            turns += 1
            messages += turn_messages(response, run_tool_uses(response.content, tool_impls))
            response = create(client, messages, tools)
        return answer(response)

    return run_agent


# The results sent back as the assistant's words, or put in before the response that asked for them.
results_in_assistant = _tool_loop(
    lambda response, results: [
        {"role": "assistant", "content": response.content},
        {"role": "assistant", "content": results},
    ]
)
results_before_call = _tool_loop(
    lambda response, results: [{"role": "user", "content": results}, {"role": "assistant", "content": response.content}]
)


def _turn(response, results):  # one turn as the lesson adds it
    return [{"role": "assistant", "content": response.content}, {"role": "user", "content": results}]


returns_the_response = _tool_loop(_turn, answer=lambda response: response)  # the Message, not its text
last_block_as_text = _tool_loop(_turn, answer=lambda response: response.content[-1].text)


def counted_by_history_length(client, user_input, tools, tool_impls):
    messages = [{"role": "user", "content": user_input}]
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if len(messages) // 2 >= MAX_TURNS:  # the task, then an assistant and a user message per finished turn
            return stop_message()
        messages += [
            {"role": "assistant", "content": response.content},
            {"role": "user", "content": run_tool_uses(response.content, tool_impls)},
        ]
        response = create(client, messages, tools)
    return final_text(response)


def _capped_history(client, messages, tools, tool_impls, append=None, go=lambda r: r.stop_reason == "tool_use"):
    """The lesson's capped loop, with the history grown by ``append(messages, response, results)``."""
    turns = 0
    response = create(client, messages, tools)
    while go(response):
        if turns >= MAX_TURNS:
            return stop_message()
        turns += 1
        results = run_tool_uses(response.content, tool_impls)
        if append:
            append(messages, response, results)
        else:
            messages += [{"role": "assistant", "content": response.content}, {"role": "user", "content": results}]
        response = create(client, messages, tools)
    return final_text(response)


def system_message_first(client, user_input, tools, tool_impls):  # OpenAI's system message in messages
    messages = [{"role": "system", "content": "あなたは調べ物の助手です"}, {"role": "user", "content": user_input}]
    return _capped_history(client, messages, tools, tool_impls)


def system_reminder_on_an_older_model(client, user_input, tools, tool_impls):  # Sonnet 4.6 takes no system message
    messages = [{"role": "user", "content": user_input}, {"role": "system", "content": "日本語で短く答えてください"}]
    turns = 0
    response = client.messages.create(model="claude-sonnet-4-6", max_tokens=1024, tools=tools, messages=messages)
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS:
            return stop_message()
        turns += 1
        results = run_tool_uses(response.content, tool_impls)
        messages += [{"role": "assistant", "content": response.content}, {"role": "user", "content": results}]
        response = client.messages.create(model="claude-sonnet-4-6", max_tokens=1024, tools=tools, messages=messages)
    return final_text(response)


def results_as_tool_messages(client, user_input, tools, tool_impls):  # OpenAI's {"role": "tool"} per result
    def append(messages, response, results):
        messages.append({"role": "assistant", "content": response.content})
        messages += [{"role": "tool", "tool_call_id": r["tool_use_id"], "content": r["content"]} for r in results]

    return _capped_history(client, [{"role": "user", "content": user_input}], tools, tool_impls, append)


def tool_calls_beside_content(client, user_input, tools, tool_impls):  # OpenAI's tool_calls key on the message
    def append(messages, response, results):
        calls = [b.id for b in response.content if b.type == "tool_use"]
        messages += [{"role": "assistant", "content": response.content, "tool_calls": calls}]
        messages += [{"role": "user", "content": results}]

    return _capped_history(client, [{"role": "user", "content": user_input}], tools, tool_impls, append)


def openai_choices(client, user_input, tools, tool_impls):  # OpenAI's response: choices[0].finish_reason
    messages = [{"role": "user", "content": user_input}]
    return _capped_history(client, messages, tools, tool_impls, go=lambda r: r.choices[0].finish_reason == "tool_calls")


WRONG_HISTORY = {
    "a system message in the history": ((_MISSING_ALL, system_message_first, MAX_TURNS), {3: "grade.l2.c3.other_role"}),
    "a system message on a model that takes none": (
        (_MISSING_ALL, system_reminder_on_an_older_model, MAX_TURNS),
        {3: "grade.l2.c3.other_role"},
    ),
    "results as OpenAI's tool messages": (
        (_MISSING_ALL, results_as_tool_messages, MAX_TURNS),
        {3: "grade.l2.c3.other_role"},
    ),
    "OpenAI's tool_calls key on the assistant message": (
        (_MISSING_ALL, tool_calls_beside_content, MAX_TURNS),
        {3: "grade.l2.c3.message_extra_key"},
    ),
    "the response read as OpenAI's": ((_MISSING_ALL, openai_choices, MAX_TURNS), {3: "grade.l2.c3.other_sdk"}),
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
    "tool results in an assistant message": (
        (_MISSING_ALL, results_in_assistant, MAX_TURNS),
        {3: "grade.l2.c3.results_assistant"},
    ),
    "tool results before the response that called": (
        (_MISSING_ALL, results_before_call, MAX_TURNS),
        {3: "grade.l2.c3.results_before"},
    ),
    "the response returned, not its text": (
        (_MISSING_ALL, returns_the_response, MAX_TURNS),
        {3: "grade.l2.c3.normal_answer"},
    ),
    "the last block read as the answer's text": (
        (_MISSING_ALL, last_block_as_text, MAX_TURNS),
        {3: "grade.l2.c3.block_not_text"},
    ),
}
RIGHT_HISTORY = {
    "one turn per recursive call": (_MISSING_ALL, recursive_history, MAX_TURNS),
    "turns from itertools.count": (_MISSING_ALL, counted_by_itertools, MAX_TURNS),
    "a stop message in English": (_MISSING_ALL, stops_in_english, MAX_TURNS),
    "turns counted from the history's length": (_MISSING_ALL, counted_by_history_length, MAX_TURNS),
}
