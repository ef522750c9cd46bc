"""Exercise level 2's right loops and the pieces its wrong ones are built from."""

from __future__ import annotations

MODEL = "claude-sonnet-5"


MAX_TURNS = 4


def run_tool_uses(content, tool_impls):
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        try:
            output = tool_impls[block.name](**block.input)
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": str(output)})
        except Exception as err:
            results.append(
                {"type": "tool_result", "tool_use_id": block.id, "content": f"失敗: {err}", "is_error": True}
            )
    return results


def final_text(response):
    return next((b.text for b in response.content if b.type == "text"), "")


def stop_message():
    return f"最大ターン数 {MAX_TURNS} に達したので、自分から停止します"


def create(client, messages, tools):
    return client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)


# --- right answers ------------------------------------------------------------------------------
def top_of_body(client, user_input, tools, tool_impls):
    """The lesson's fix: the check at the top of the body, before turns += 1."""
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


def for_loop(client, user_input, tools, tool_impls):
    """A bounded for loop that still lets stop_reason end the run."""
    messages = [{"role": "user", "content": user_input}]
    response = create(client, messages, tools)
    for _ in range(MAX_TURNS):
        if response.stop_reason != "tool_use":
            return final_text(response)
        messages += [
            {"role": "assistant", "content": response.content},
            {"role": "user", "content": run_tool_uses(response.content, tool_impls)},
        ]
        response = create(client, messages, tools)
    if response.stop_reason != "tool_use":
        return final_text(response)
    return f"Stopped: reached the turn limit ({MAX_TURNS})."


def while_true(client, user_input, tools, tool_impls):
    """while True with the model call inside; the counter goes up, then is compared with >."""
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    while True:
        response = create(client, messages, tools)
        if response.stop_reason != "tool_use":
            return final_text(response)
        turns += 1
        if turns > MAX_TURNS:
            return "上限に達したので止めました"
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
