"""More wrong answers to the loop's pieces (run_tools, run_agent, next_step, signature_of), in other styles than
answers_loop's; answers_more.WRONG_MORE lists them.
"""

from __future__ import annotations

import json

import harness_lab as hl
from harness_lab.lessons.lesson2 import run_tools as good_run_tools
from harness_lab.lessons.lesson4 import signature_of as good_signature

MODEL = "claude-sonnet-5"


def _result(block, output) -> dict:
    text = output if isinstance(output, str) else json.dumps(output, ensure_ascii=False)
    return {"type": "tool_result", "tool_use_id": block.id, "content": text}


def _error(block, err) -> dict:
    return {"type": "tool_result", "tool_use_id": block.id, "content": f"失敗: {err}", "is_error": True}


# --- run_tools ------------------------------------------------------------------------------


def tools_print_not_return(content, impls):
    print(good_run_tools(content, impls))


def tools_return_in_loop(content, impls):  # the return indented into the for
    results = []
    for block in content:
        if block.type == "tool_use":
            results.append(_result(block, impls[block.name](**block.input)))
            return results
    return results


def tools_with_a_note(content, impls):  # a text block put in with the results
    return [{"type": "text", "text": "結果です"}, *good_run_tools(content, impls)]


def tools_kept_results(content, impls, results=[]):  # noqa: B006 (the mistake under test)
    for block in content:
        if block.type == "tool_use":
            results.append(_result(block, impls[block.name](**block.input)))
    return results


def tools_positional_input(content, impls):  # impls[name](block.input): every call fails, the try hides why
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        try:
            results.append(_result(block, impls[block.name](block.input)))
        except Exception as err:
            results.append(_error(block, err))
    return results


def tools_strings_in_a_list(content, impls):  # "content": [text]: the API takes a list's items as blocks
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        try:
            text = json.dumps(impls[block.name](**block.input), ensure_ascii=False)
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": [text]})
        except Exception as err:
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": [str(err)], "is_error": True})
    return results


def tools_prune_content(content, impls):  # drops the non-tool blocks from the list it was given
    content[:] = [b for b in content if b.type == "tool_use"]
    return good_run_tools(content, impls)


def tools_str_dict(content, impls):
    return [
        {"type": "tool_result", "tool_use_id": b.id, "content": str(impls[b.name](**b.input))}
        for b in content
        if b.type == "tool_use"
    ]


def tools_given_the_response(content, impls):  # treats content as the response
    return good_run_tools(content.content, impls)


def tools_id_from_name(content, impls):  # the tool's name where the call's id belongs
    return [dict(r, tool_use_id=b.name) for r, b in zip(good_run_tools(content, impls), tool_uses(content))]


def tool_uses(content) -> list:
    return [b for b in content if b.type == "tool_use"]


def tools_one_parameter(content):
    return []


# --- run_agent (lesson 2) -----------------------------------------------------------------------


def _create(client, tools, messages):
    return client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)


def _final(client, user_input, tools, impls):
    """The lesson's loop, right up to its last response (the wrong answers below differ after it)."""
    messages = [{"role": "user", "content": user_input}]
    response = _create(client, tools, messages)
    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": good_run_tools(response.content, impls)})
        response = _create(client, tools, messages)
    return response


def agent_prints(client, user_input, tools, impls):
    print(hl.text_of(_final(client, user_input, tools, impls).content))


def agent_returns_response(client, user_input, tools, impls):
    return _final(client, user_input, tools, impls)


def agent_kept_history(client, user_input, tools, impls, messages=[]):  # noqa: B006 (the mistake under test)
    messages.append({"role": "user", "content": user_input})
    response = _create(client, tools, messages)
    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": good_run_tools(response.content, impls)})
        response = _create(client, tools, messages)
    messages.append({"role": "assistant", "content": response.content})
    return hl.text_of(response.content)


def agent_drops_thinking(client, user_input, tools, impls):  # "only what the model said and called"
    messages = [{"role": "user", "content": user_input}]
    response = _create(client, tools, messages)
    while response.stop_reason == "tool_use":
        kept = [b for b in response.content if b.type != "thinking"]
        messages.append({"role": "assistant", "content": kept})
        messages.append({"role": "user", "content": good_run_tools(response.content, impls)})
        response = _create(client, tools, messages)
    return hl.text_of(response.content)


def agent_tools_for_impls(client, user_input, tools, impls):  # the definitions where the functions belong
    return hl.text_of(_final(client, user_input, tools, tools).content)


def agent_first_text_only(client, user_input, tools, impls):  # the answer read from one block
    return next(b.text for b in _final(client, user_input, tools, impls).content if b.type == "text")


def agent_drops_the_text(client, user_input, tools, impls):  # "the calls are what matters"
    messages = [{"role": "user", "content": user_input}]
    response = _create(client, tools, messages)
    while response.stop_reason == "tool_use":
        kept = [b for b in response.content if b.type != "text"]  # the API takes it; the model loses its words
        messages.append({"role": "assistant", "content": kept})
        messages.append({"role": "user", "content": good_run_tools(response.content, impls)})
        response = _create(client, tools, messages)
    return hl.text_of(response.content)


def agent_newest_first(client, user_input, tools, impls):  # each turn put at the top, as a feed shows it
    messages = [{"role": "user", "content": user_input}]
    response = _create(client, tools, messages)
    while response.stop_reason == "tool_use":
        messages.insert(0, {"role": "user", "content": good_run_tools(response.content, impls)})
        messages.insert(0, {"role": "assistant", "content": response.content})
        response = _create(client, tools, messages)
    return hl.text_of(response.content)


def agent_never_resends(client, user_input, tools, impls):  # runs the tools, never asks the model again
    messages = [{"role": "user", "content": user_input}]
    response = _create(client, tools, messages)
    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": good_run_tools(response.content, impls)})
    return hl.text_of(response.content)


def agent_results_first(client, user_input, tools, impls):  # user (results) before assistant (calls)
    messages = [{"role": "user", "content": user_input}]
    response = _create(client, tools, messages)
    while response.stop_reason == "tool_use":
        messages.append({"role": "user", "content": good_run_tools(response.content, impls)})
        messages.append({"role": "assistant", "content": response.content})
        response = _create(client, tools, messages)
    return hl.text_of(response.content)


def agent_fixed_turns(client, user_input, tools, impls):  # goes on whatever the stop_reason says
    messages = [{"role": "user", "content": user_input}]
    response = _create(client, tools, messages)
    for _ in range(3):
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": good_run_tools(response.content, impls)})
        response = _create(client, tools, messages)
    return hl.text_of(response.content)


def agent_appends_response(client, user_input, tools, impls):  # the Message, not its content
    messages = [{"role": "user", "content": user_input}]
    response = _create(client, tools, messages)
    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response})
        messages.append({"role": "user", "content": good_run_tools(response.content, impls)})
        response = _create(client, tools, messages)
    return hl.text_of(response.content)


def agent_first_block_text(client, user_input, tools, impls):  # the first block taken for the text
    messages = [{"role": "user", "content": user_input}]
    response = _create(client, tools, messages)
    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": good_run_tools(response.content, impls)})
        response = _create(client, tools, messages)
    return response.content[0].text


def agent_subscripts_response(client, user_input, tools, impls):
    messages = [{"role": "user", "content": user_input}]
    response = _create(client, tools, messages)
    while response["stop_reason"] == "tool_use":
        messages.append({"role": "assistant", "content": response.content})
        response = _create(client, tools, messages)
    return hl.text_of(response.content)


def agent_tools_on_the_response(client, user_input, tools, impls):  # run_tools(response, ...)
    messages = [{"role": "user", "content": user_input}]
    response = _create(client, tools, messages)
    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": good_run_tools(response, impls)})
        response = _create(client, tools, messages)
    return hl.text_of(response.content)


# --- next_step ------------------------------------------------------------------------------


def step_prints(response):
    print({"tool_use": "run_tools", "pause_turn": "resend", "end_turn": "finish"}.get(response.stop_reason, "stop"))


def step_without_the_last_return(response):  # the closing return "stop" never written: the rest fall off the end
    if response.stop_reason == "tool_use":
        return "run_tools"
    if response.stop_reason == "pause_turn":
        return "resend"
    if response.stop_reason in ("end_turn", "stop_sequence"):
        return "finish"


def stop_reasons_misspelt(response):  # names from memory: none is a stop_reason the API sends
    text = "".join(b.text for b in response.content if b.type == "text")
    if response.stop_reason == "refused":
        details = response.stop_details
        return f"断られました（{details.category}）: {details.explanation}"
    if response.stop_reason in ("context_window_exceeded", "max_token"):
        return f"{response.stop_reason} で止まりました: {text}"
    return None


def step_max_tokens_finishes(response):  # "it ended, so it is finished"
    if response.stop_reason == "tool_use":
        return "run_tools"
    if response.stop_reason == "pause_turn":
        return "resend"
    if response.stop_reason in ("end_turn", "stop_sequence", "max_tokens"):
        return "finish"
    return "stop"


# --- signature_of ---------------------------------------------------------------------------


def sig_str_dict(content):  # str(dict) keeps the key order the model wrote
    return " | ".join(sorted(f"{b.name}({b.input})" for b in content if b.type == "tool_use"))


def sig_with_text(content):  # the whole turn, what it said included
    calls = sorted(f"{b.name}{json.dumps(b.input, sort_keys=True)}" for b in content if b.type == "tool_use")
    return hl.text_of(content) + " | " + " | ".join(calls)


def sig_with_thinking(content):  # what the model thought before the calls, kept in
    kept = [b.thinking for b in content if b.type == "thinking"]
    return " | ".join(kept) + " | " + good_signature(content)


def sig_sorts_in_place(content):  # sorts the history's own list
    content.sort(key=lambda b: b.type)
    return good_signature(content)


def sig_input_only(content):  # which tool was called left out
    return " | ".join(sorted(json.dumps(b.input, sort_keys=True) for b in content if b.type == "tool_use"))


# --- run_tool_uses --------------------------------------------------------------------------


def _denied(block) -> dict:
    return {"type": "tool_result", "tool_use_id": block.id, "content": "拒否されました", "is_error": True}
