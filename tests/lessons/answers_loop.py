"""Wrong answers to lessons 2 and 3's pieces (run_tools, run_agent, next_step), one mistake each; answers.WRONG
lists them with the point and the hint each must get.
"""

from __future__ import annotations

import json

from harness_lab.lessons.lesson2 import run_tools as good_run_tools

MODEL = "claude-sonnet-5"


# --- run_tools ------------------------------------------------------------------------------


def tools_answering_text_too(content, impls):
    return [{"type": "tool_result", "tool_use_id": getattr(b, "id", "x"), "content": "?"} for b in content]


def tools_reversed(content, impls):
    return list(reversed(good_run_tools(content, impls)))


def tools_dict_content(content, impls):
    return [
        {"type": "tool_result", "tool_use_id": b.id, "content": impls[b.name](**b.input)}
        for b in content
        if b.type == "tool_use"
    ]


def tools_ascii_json(content, impls):
    return [
        {"type": "tool_result", "tool_use_id": b.id, "content": json.dumps(impls[b.name](**b.input))}
        for b in content
        if b.type == "tool_use"
    ]


def tools_no_try(content, impls):
    return [
        {
            "type": "tool_result",
            "tool_use_id": b.id,
            "content": json.dumps(impls[b.name](**b.input), ensure_ascii=False),
        }
        for b in content
        if b.type == "tool_use"
    ]


def tools_error_without_flag(content, impls):
    results = []
    for b in content:
        if b.type != "tool_use":
            continue
        try:
            out = json.dumps(impls[b.name](**b.input), ensure_ascii=False)
        except Exception as err:
            out = f"失敗: {err}"
        results.append({"type": "tool_result", "tool_use_id": b.id, "content": out})
    return results


def tools_lookup_outside_try(content, impls):
    results = []
    for b in content:
        if b.type != "tool_use":
            continue
        tool = impls[b.name]  # a name the model made up raises here, outside the try
        try:
            out, failed = json.dumps(tool(**b.input), ensure_ascii=False), False
        except Exception as err:
            out, failed = f"失敗: {err}", True
        results.append({"type": "tool_result", "tool_use_id": b.id, "content": out, "is_error": failed})
    return results


def tools_dumps_dicts_only(content, impls):  # a list output goes into content as Python's str()
    results = []
    for b in content:
        if b.type != "tool_use":
            continue
        out = impls[b.name](**b.input)
        text = json.dumps(out, ensure_ascii=False) if isinstance(out, dict) else str(out)
        results.append({"type": "tool_result", "tool_use_id": b.id, "content": text})
    return results


def tools_catches_a_guessed_few(content, impls):  # the errors it thought of, not every exception
    results = []
    for b in content:
        if b.type != "tool_use":
            continue
        try:
            out, failed = json.dumps(impls[b.name](**b.input), ensure_ascii=False), False
        except (KeyError, ValueError) as err:
            out, failed = str(err), True
        results.append({"type": "tool_result", "tool_use_id": b.id, "content": out, "is_error": failed})
    return results


def tools_skips_the_kinds_it_knows(content, impls):  # text and thinking skipped, every other block taken for a call
    results = []
    for b in content:
        if b.type in ("text", "thinking"):
            continue
        try:
            out = json.dumps(impls[b.name](**b.input), ensure_ascii=False)
            results.append({"type": "tool_result", "tool_use_id": b.id, "content": out})
        except Exception as err:
            results.append({"type": "tool_result", "tool_use_id": b.id, "content": str(err), "is_error": True})
    return results


def tools_text_blocks_too(content, impls):  # issue 28: every block run, text ones included
    results = []
    for block in content:
        try:
            output = impls[block.name](**block.input)
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": json.dumps(output)})
        except KeyError as err:
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": str(err), "is_error": True})
    return results


def tools_stop_at_first_failure(content, impls):  # issue 30: a length check used to pre-empt its hint
    results = []
    for b in content:
        if b.type != "tool_use":
            continue
        try:
            out = json.dumps(impls[b.name](**b.input), ensure_ascii=False)
        except Exception as err:
            results.append({"type": "tool_result", "tool_use_id": b.id, "content": f"失敗: {err}", "is_error": True})
            break
        results.append({"type": "tool_result", "tool_use_id": b.id, "content": out})
    return results


def tools_return_the_message(content, impls):  # issue 30: the message, not the list
    return {"role": "user", "content": good_run_tools(content, impls)}


def tools_subscript_blocks(content, impls):
    return [
        {"type": "tool_result", "tool_use_id": b["id"], "content": json.dumps(impls[b["name"]](**b["input"]))}
        for b in content
        if b.type == "tool_use"
    ]


def tools_extra_field(content, impls):
    return [dict(r, name="get_weather") for r in good_run_tools(content, impls)]


# --- run_agent (lesson 2) -------------------------------------------------------------------


def agent_text_only_history(client, user_input, tools, impls):
    messages = [{"role": "user", "content": user_input}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    while response.stop_reason == "tool_use":
        text = "".join(b.text for b in response.content if b.type == "text") or "…"
        messages.append({"role": "assistant", "content": text})
        messages.append({"role": "user", "content": good_run_tools(response.content, impls)})
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    return "".join(b.text for b in response.content if b.type == "text")


def agent_no_tools_on_follow_up(client, user_input, tools, impls):
    messages = [{"role": "user", "content": user_input}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": good_run_tools(response.content, impls)})
        response = client.messages.create(model=MODEL, max_tokens=1024, messages=messages)
    return "".join(b.text for b in response.content if b.type == "text")


def agent_no_reassignment(client, user_input, tools, impls):
    messages = [{"role": "user", "content": user_input}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": good_run_tools(response.content, impls)})
        client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    return "".join(b.text for b in response.content if b.type == "text")


def agent_one_message_per_result(client, user_input, tools, impls):
    messages = [{"role": "user", "content": user_input}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response.content})
        for result in good_run_tools(response.content, impls):
            messages.append({"role": "user", "content": [result]})
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    return "".join(b.text for b in response.content if b.type == "text")


def agent_until_end_turn(client, user_input, tools, impls):
    messages = [{"role": "user", "content": user_input}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    while response.stop_reason != "end_turn":
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": good_run_tools(response.content, impls)})
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    return "".join(b.text for b in response.content if b.type == "text")


def agent_while_calls_in_content(client, user_input, tools, impls):  # "any tool_use left? then go on"
    messages = [{"role": "user", "content": user_input}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    while any(b.type == "tool_use" for b in response.content):
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": good_run_tools(response.content, impls)})
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    return "".join(b.text for b in response.content if b.type == "text")


def agent_joins_lines(client, user_input, tools, impls):  # one line per text block
    messages = [{"role": "user", "content": user_input}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": good_run_tools(response.content, impls)})
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    return "\n".join(b.text for b in response.content if b.type == "text")


def agent_first_text_only(client, user_input, tools, impls):
    messages = [{"role": "user", "content": user_input}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    return response.content[0].text if response.content and response.content[0].type == "text" else ""


# --- next_step ------------------------------------------------------------------------------


def step_by_text(response):  # the article's anti-pattern: "a text block exists" means finished
    if any(b.type == "text" and b.text for b in response.content):
        return "finish"
    return "run_tools" if response.stop_reason == "tool_use" else "stop"


STEPS = {
    "tool_use": "run_tools",
    "pause_turn": "resend",
    "end_turn": "finish",
    "stop_sequence": "finish",
    "max_tokens": "stop",
    "refusal": "stop",
    "model_context_window_exceeded": "stop",
}


def step_unknown_goes_on(response):
    return STEPS.get(response.stop_reason, "run_tools")


def step_table_without_default(response):  # a plain lookup: a stop_reason from next year is a KeyError
    return STEPS[response.stop_reason]


def step_prose(response):
    return "ツールを実行する"


def step_stop_sequence_stops(response):  # issue 30: passed the point that names stop_sequence
    return {"tool_use": "run_tools", "pause_turn": "resend", "end_turn": "finish"}.get(response.stop_reason, "stop")


def step_max_tokens_runs(response):
    return (
        "run_tools"
        if response.stop_reason in ("tool_use", "max_tokens")
        else (
            "resend"
            if response.stop_reason == "pause_turn"
            else "finish"
            if response.stop_reason in ("end_turn", "stop_sequence")
            else "stop"
        )
    )
