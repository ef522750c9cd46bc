"""Round twenty-one of a learner's answers to the pieces of notebooks 01 and 02 (``run_tools``, the bare
``run_agent``, ``next_step``): answers copied from an SDK example (the tool runner, a stream), that yield instead
of returning, change the content they were given, reuse one dict for every result, ask at the keyboard with
input(), or raise on a typo deep in a helper; each wrong one with the point that must catch it and its hint, and
right ones in other styles (a class, recursion, a stream read to its final message, print noise). The later
lessons' pieces are in ``answers_round_21_later_lessons``.

Seven got another cause's hint or passed: input() was told "It raised: OSError: [Errno 9] Bad file descriptor"
(now the keyboard's own hint); a typo in a helper inside the try was told to pass the input by name (the tool
had run); the calls taken out of the content were told "0 tool_use, 2 results"; a next_step that reads a text
block first as an answer passed (every probe response began with thinking); the SDK's tool runner was told to
pass impls to run_tools; a count_tokens call before each request was counted as a request to the model (a right
loop failed); the generators' hints named the type without saying yield was the cause.
"""

from __future__ import annotations

import json

MODEL = "claude-sonnet-5"


def _calls(content):
    return [b for b in content if b.type == "tool_use"]


def _text(output):
    return output if isinstance(output, str) else json.dumps(output, ensure_ascii=False)


def _result(block, text, error=False):
    result = {"type": "tool_result", "tool_use_id": block.id, "content": text}
    return {**result, "is_error": True} if error else result


def _answer(content):
    return "".join(b.text for b in content if b.type == "text")


# --- run_tools (lesson 2) --------------------------------------------------------------------------
def tools_yielded_one_by_one(content, impls):  # "a generator is lighter than a list"
    for block in _calls(content):
        try:
            yield _result(block, _text(impls[block.name](**block.input)))
        except Exception as err:
            yield _result(block, f"失敗: {err}", True)


def tools_one_dict_updated(content, impls):  # one dict made before the loop, updated for each call
    results, result = [], {"type": "tool_result"}
    for block in _calls(content):
        result["tool_use_id"] = block.id
        try:
            result["content"] = _text(impls[block.name](**block.input))
            result.pop("is_error", None)
        except Exception as err:
            result["content"], result["is_error"] = f"error: {err}", True
        results.append(result)
    return results


def _as_json(output):
    # 辞書は JSON に（ensure_ascii のつづりを間違えている）
    return output if isinstance(output, str) else json.dumps(output, ensure_ascii=Flase)  # noqa: F821


def tools_typo_caught_as_a_failure(content, impls):  # the helper's NameError caught by the try around it
    results = []
    for block in _calls(content):
        try:
            results.append(_result(block, _as_json(impls[block.name](**block.input))))
        except Exception as err:
            results.append(_result(block, f"ツールが失敗しました: {err}", True))
    return results


def tools_typo_outside_the_try(content, impls):  # the same helper, called after the try: the NameError escapes
    results = []
    for block in _calls(content):
        try:
            output = impls[block.name](**block.input)
        except Exception as err:
            results.append(_result(block, f"failed: {err}", True))
            continue
        results.append(_result(block, _as_json(output)))
    return results


def tools_calls_taken_out(content, impls):  # each call removed from the content once answered ("done with it")
    results = []
    for block in list(content):
        if block.type != "tool_use":
            continue
        content.remove(block)
        try:
            results.append(_result(block, _text(impls[block.name](**block.input))))
        except Exception as err:
            results.append(_result(block, f"failed: {err}", True))
    return results


def tools_confirmed_at_the_keyboard(content, impls):
    # 実行前に毎回キーボードで確認する
    results = []
    for block in _calls(content):
        if input(f"{block.name} を実行しますか？ [y/N] ") != "y":
            results.append(_result(block, "実行しませんでした", True))
            continue
        try:
            results.append(_result(block, _text(impls[block.name](**block.input))))
        except Exception as err:
            results.append(_result(block, f"失敗: {err}", True))
    return results


# --- run_agent, the bare loop (lesson 2) --------------------------------------------------------------
def _run(content, impls):
    results = []
    for block in _calls(content):
        try:
            results.append(_result(block, _text(impls[block.name](**block.input))))
        except Exception as err:
            results.append(_result(block, f"失敗: {err}", True))
    return results


def agent_sdk_tool_runner(client, user_input, tools, impls):  # copied from the SDK's README: its runner loops
    messages = [{"role": "user", "content": user_input}]
    runner = client.beta.messages.tool_runner(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    last = None
    for message in runner:
        last = message
    return _answer(last.content)


def agent_loops_on_tool_call(client, user_input, tools, impls):  # "tool_call", another API's word
    messages = [{"role": "user", "content": user_input}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    while response.stop_reason == "tool_call":
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": _run(response.content, impls)})
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    return _answer(response.content)


def agent_loops_until_end(client, user_input, tools, impls):  # waits for a stop_reason "end" that never comes
    messages = [{"role": "user", "content": user_input}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    while response.stop_reason != "end":
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": _run(response.content, impls)})
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    return _answer(response.content)


def agent_yields_the_answer(client, user_input, tools, impls):
    messages = [{"role": "user", "content": user_input}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": _run(response.content, impls)})
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    yield _answer(response.content)  # 答えを yield で渡す


def agent_asks_to_go_on(client, user_input, tools, impls):  # "ask me before each turn"
    messages = [{"role": "user", "content": user_input}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    while response.stop_reason == "tool_use":
        if input("Go on? (y/n) ").strip().lower() != "y":
            break
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": _run(response.content, impls)})
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    return _answer(response.content)


# --- next_step (lesson 3) --------------------------------------------------------------------------
def step_tool_call_word(response):  # "tool_call": the loop's own word, not the API's
    if response.stop_reason == "tool_call":
        return "run_tools"
    if response.stop_reason == "pause_turn":
        return "resend"
    if response.stop_reason in ("end_turn", "stop_sequence"):
        return "finish"
    return "stop"


def step_end_word(response):  # "end" for end_turn
    reason = response.stop_reason
    if reason == "tool_use":
        return "run_tools"
    if reason == "pause_turn":
        return "resend"
    if reason in ("end", "stop_sequence"):
        return "finish"
    return "stop"


def step_yielded(response):
    if response.stop_reason == "tool_use":
        yield "run_tools"
    elif response.stop_reason == "pause_turn":
        yield "resend"
    elif response.stop_reason in ("end_turn", "stop_sequence"):
        yield "finish"
    else:
        yield "stop"


def step_by_the_last_block(response):  # "the model ends with a call when it wants a tool"
    last = response.content[-1].type if response.content else "text"
    if last in ("tool_use", "server_tool_use"):
        return "run_tools"
    if response.stop_reason in ("end_turn", "stop_sequence"):
        return "finish"
    return "resend" if response.stop_reason == "pause_turn" else "stop"


def step_printed(response):  # the word printed for a look, never returned
    table = {"tool_use": "run_tools", "pause_turn": "resend", "end_turn": "finish", "stop_sequence": "finish"}
    print(table.get(response.stop_reason, "stop"))


def step_text_first_is_an_answer(response):
    # 先頭が text なら、モデルはもう答えている（思考ブロックのない応答では、呼び出しの前に text が来る）
    if response.content and response.content[0].type == "text":
        return "finish"
    table = {"tool_use": "run_tools", "pause_turn": "resend", "end_turn": "finish", "stop_sequence": "finish"}
    return table.get(response.stop_reason, "stop")


WRONG_ROUND_21 = [
    # (piece, the wrong function, the point that must catch it, its hint key)
    ("run_tools", tools_yielded_one_by_one, 1, "lesson.rule.generator"),
    ("run_tools", tools_one_dict_updated, 1, "lesson.l2.run_tools.one_dict"),
    ("run_tools", tools_typo_caught_as_a_failure, 2, "lesson.l2.run_tools.own_code_failed"),  # was call_failed
    ("run_tools", tools_typo_outside_the_try, 1, "lesson.raised"),
    ("run_tools", tools_calls_taken_out, 1, "lesson.l2.run_tools.changed_content"),  # was count
    ("run_tools", tools_confirmed_at_the_keyboard, 1, "lesson.rule.keyboard"),  # was lesson.raised
    ("run_agent", agent_sdk_tool_runner, 1, "lesson.tool_runner"),  # was tools_not_run, on point 3
    ("run_agent", agent_loops_on_tool_call, 2, "lesson.l2.run_agent.requests"),
    ("run_agent", agent_loops_until_end, 1, "lesson.l2.empty_message"),
    ("run_agent", agent_yields_the_answer, 1, "lesson.rule.generator"),
    ("run_agent", agent_asks_to_go_on, 2, "lesson.rule.keyboard"),
    ("next_step", step_tool_call_word, 1, "lesson.l3.next_step.tool_use"),
    ("next_step", step_end_word, 2, "lesson.l3.next_step.end_turn"),
    ("next_step", step_yielded, 1, "lesson.l3.next_step.generator"),  # was vocabulary
    ("next_step", step_by_the_last_block, 3, "lesson.l3.next_step.max_tokens"),  # a cut call run
    ("next_step", step_printed, 1, "lesson.l3.next_step.returned_nothing"),
    ("next_step", step_text_first_is_an_answer, 1, "lesson.l3.next_step.text_first"),  # passed
]


# --- right ones, in other styles ------------------------------------------------------------------------
def tools_right_with_print_noise(content, impls):  # prints every call and its output as it goes
    results = []
    for block in _calls(content):
        print(">>", block.name, block.input)
        try:
            output = impls[block.name](**block.input)
            print("<<", output)
            results.append(_result(block, _text(output)))
        except Exception as err:
            print("!!", err)
            results.append(_result(block, f"{type(err).__name__}: {err}", True))
    return results


def tools_right_flag_always_written(content, impls):  # is_error written out on every result, False or True
    results = []
    for block in _calls(content):
        try:
            text, failed = _text(impls[block.name](**block.input)), False
        except Exception as err:
            text, failed = f"error: {err}", True
        results.append({"type": "tool_result", "tool_use_id": block.id, "content": text, "is_error": failed})
    return results


def agent_right_stream_final_message(client, user_input, tools, impls):  # a stream read to its final message
    messages = [{"role": "user", "content": user_input}]

    def send():
        with client.messages.stream(model=MODEL, max_tokens=1024, tools=tools, messages=messages) as stream:
            return stream.get_final_message()

    response = send()
    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": _run(response.content, impls)})
        response = send()
    return _answer(response.content)


def agent_right_counts_the_prompt_first(client, user_input, tools, impls):  # count_tokens printed before each send
    messages = [{"role": "user", "content": user_input}]
    while True:
        size = client.messages.count_tokens(model=MODEL, tools=tools, messages=messages).input_tokens
        print(f"prompt: {size} tokens")
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
        if response.stop_reason != "tool_use":
            return _answer(response.content)
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": _run(response.content, impls)})


def agent_right_recursive(client, user_input, tools, impls):  # each turn a call of itself with a longer history
    def go(messages):
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
        if response.stop_reason != "tool_use":
            return _answer(response.content)
        turn = [
            {"role": "assistant", "content": response.content},
            {"role": "user", "content": _run(response.content, impls)},
        ]
        return go(messages + turn)

    return go([{"role": "user", "content": user_input}])


class _Steps:
    GO, AGAIN, DONE = frozenset({"tool_use"}), frozenset({"pause_turn"}), frozenset({"end_turn", "stop_sequence"})


def step_right_class_sets(response):  # the words as sets on a class, everything else a stop
    reason = response.stop_reason
    if reason in _Steps.GO:
        return "run_tools"
    if reason in _Steps.AGAIN:
        return "resend"
    return "finish" if reason in _Steps.DONE else "stop"


RIGHT_ROUND_21 = [
    ("run_tools", tools_right_with_print_noise),
    ("run_tools", tools_right_flag_always_written),
    ("run_agent", agent_right_stream_final_message),
    ("run_agent", agent_right_counts_the_prompt_first),  # failed: count_tokens was counted as a request
    ("run_agent", agent_right_recursive),
    ("next_step", step_right_class_sets),
]
