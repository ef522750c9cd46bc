"""Exercise level 2, round twenty-two: stop_reason compared with another API's word ("tool_call") or with
"end", a loop that yields its answer, input() at the cap, a cap on the prompt's size (count_tokens) in place of
the turn cap, a typo in the stop message; each wrong answer with the criteria and hint keys that must catch it,
and right answers in styles the others do not use (a stream read to its final message, recursion, print noise).

Two got another cause's hint: input() at the cap and a NameError in the stop message were each told an exception
at the cap gives the caller no answer (return a sentence): now the keyboard's hint and the error itself.
"""

from __future__ import annotations

from answers_level2_loops import MAX_TURNS, MODEL, create, final_text, run_tool_uses, stop_message
from answers_level2_reasons import _loop


def tool_call_word(client, user_input, tools, tool_impls):
    """The loop goes on while stop_reason is "tool_call", another API's word: it never runs a tool."""
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_call":
        if turns >= MAX_TURNS:
            return stop_message()
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = create(client, messages, tools)
    return final_text(response)


def until_end(client, user_input, tools, tool_impls):
    """The loop goes on until stop_reason is "end", which never comes: it goes on past end_turn."""
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason != "end":
        if turns >= MAX_TURNS:
            return stop_message()
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = create(client, messages, tools)
    return final_text(response)


def yields_answer(client, user_input, tools, tool_impls):
    """The answer and the stop message yielded, not returned."""
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


def input_between(client, user_input, tools, tool_impls):
    """At the cap the person is asked at the keyboard whether to go on."""
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS and input("上限です。続けますか？ [y/N] ") != "y":
            return stop_message()
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = create(client, messages, tools)
    return final_text(response)


def count_tokens_cap(client, user_input, tools, tool_impls):
    """A cap on the prompt's size from count_tokens in place of the turn cap: a model that calls for ever is never stopped."""
    messages = [{"role": "user", "content": user_input}]
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        if client.messages.count_tokens(model=MODEL, tools=tools, messages=messages).input_tokens > 20_000:
            return stop_message()
        response = create(client, messages, tools)
    return final_text(response)


def typo_in_stop(client, user_input, tools, tool_impls):
    """MAX_TURNS misspelt in the stop message: the NameError is met only at the cap."""
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS:
            return f"最大ターン数 {MAX_TRUNS} に達したので停止します"  # noqa: F821
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = create(client, messages, tools)
    return final_text(response)


# --- right answers in other styles ---------------------------------------------------------------
def stream_right(client, user_input, tools, tool_impls):
    """Each request streamed, its final message used."""
    messages = [{"role": "user", "content": user_input}]

    def send():
        with client.messages.stream(model=MODEL, max_tokens=1024, tools=tools, messages=messages) as stream:
            return stream.get_final_message()

    turns, response = 0, send()
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS:
            return stop_message()
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = send()
    return final_text(response)


def history_passed_down_recursively(client, user_input, tools, tool_impls):
    """One turn per call of a helper, the history passed down."""

    def step(messages, turns):
        response = create(client, messages, tools)
        if response.stop_reason != "tool_use":
            return final_text(response)
        if turns >= MAX_TURNS:
            return stop_message()
        results = run_tool_uses(response.content, tool_impls)
        return step(
            [*messages, {"role": "assistant", "content": response.content}, {"role": "user", "content": results}],
            turns + 1,
        )

    return step([{"role": "user", "content": user_input}], 0)


def sdk_tool_runner(client, user_input, tools, tool_impls):
    """The SDK's tool runner in place of the loop, as its README shows it: its loop, not the learner's."""
    runner = client.beta.messages.tool_runner(
        model=MODEL,
        max_tokens=1024,
        tools=tools,
        messages=[{"role": "user", "content": user_input}],
        max_iterations=MAX_TURNS,
    )
    last = None
    for message in runner:
        last = message
    return final_text(last)


def print_noise_right(client, user_input, tools, tool_impls):
    """A line printed for every turn, at the cap and at the end."""
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        print(f"turn {turns}: {[b.name for b in response.content if b.type == 'tool_use']}")
        if turns >= MAX_TURNS:
            print("cap reached")
            return stop_message()
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = create(client, messages, tools)
    print("done")
    return final_text(response)


WRONG_ROUND_22 = {
    "stop_reason compared with tool_call": (_loop(tool_call_word), {3: "grade.l2.c3.no_tools_ran"}),
    "the loop waits for a stop_reason end": (_loop(until_end), {3: "grade.l2.c3.normal_raised"}),
    "the answer yielded, not returned": (_loop(yields_answer), {3: "grade.l2.c3.never_ran"}),
    "input() at the cap": (_loop(input_between), {3: "grade.keyboard"}),  # was raised_at_cap
    "a cap on the prompt's size in place of the turn cap": (_loop(count_tokens_cap), {3: "grade.l2.c3.runaway"}),
    "a NameError in the stop message": (_loop(typo_in_stop), {3: "grade.raised"}),  # was raised_at_cap
    "the SDK's tool runner in place of the loop": (_loop(sdk_tool_runner), {3: "grade.l2.c3.tool_runner"}),
}
RIGHT_ROUND_22 = {
    "a stream read to its final message": _loop(stream_right),
    "a recursive helper with the history passed down": _loop(history_passed_down_recursively),
    "print noise for every turn": _loop(print_noise_right),
}
