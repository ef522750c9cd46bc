"""Learner answers to exercise level 2, right and wrong, written as a learner would.

``WRONG`` maps each mistake to the one criterion that must catch it and the catalog key of the hint
that must name it; the right answers differ in style (a check before the counter, a for loop, a
while True) and must all pass.
"""

from __future__ import annotations

MODEL = "claude-sonnet-5"
MAX_TURNS = 4


def run_tool_uses(content, tool_impls):
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        try:
            output = tool_impls[block.name](block.input)
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


# --- wrong answers ------------------------------------------------------------------------------
def no_cap(client, user_input, tools, tool_impls):
    """The colleague's bare loop, unchanged."""
    messages = [{"role": "user", "content": user_input}]
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = create(client, messages, tools)
    return final_text(response)


def check_after_tools(client, user_input, tools, tool_impls):
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        turns += 1
        if turns >= MAX_TURNS:
            return stop_message()
        response = create(client, messages, tools)
    return final_text(response)


def check_after_increment(client, user_input, tools, tool_impls):
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        turns += 1
        if turns >= MAX_TURNS:
            return stop_message()
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = create(client, messages, tools)
    return final_text(response)


def check_after_the_call(client, user_input, tools, tool_impls):
    """Counts right on a runaway, but cuts off a task that answers on the last allowed round."""
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = create(client, messages, tools)
        turns += 1
        if turns >= MAX_TURNS:
            return stop_message()
    return final_text(response)


def counter_ignores_stop_reason(client, user_input, tools, tool_impls):
    """A counter as the main stop: it never looks at stop_reason."""
    messages = [{"role": "user", "content": user_input}]
    response = create(client, messages, tools)
    for _ in range(MAX_TURNS):
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = create(client, messages, tools)
    return stop_message()


def returns_nothing_at_cap(client, user_input, tools, tool_impls):
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS:
            return None
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = create(client, messages, tools)
    return final_text(response)


def forgets_to_reassign(client, user_input, tools, tool_impls):
    """Lesson 4's dead loop: the next response goes to another name; the real API refuses lap 2."""
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS:
            return stop_message()
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        latest = create(client, messages, tools)  # noqa: F841
    return final_text(response)


def spins_forever(client, user_input, tools, tool_impls):
    while True:
        pass


GOOD_MISSING = {"stop_condition", "token_budget", "no_progress"}
GOOD_RUNAWAYS = ["endless_turns", "spinning"]

RIGHT = {
    "check at the top, sets": (GOOD_MISSING, GOOD_RUNAWAYS, top_of_body),
    "for loop, minimal answers as a list": (["stop_condition"], ("budget_burn", "spinning"), for_loop),
    "while True, answers as a dict of flags": (
        {"stop_condition": True, "approval": True, "reassign": False},
        {"endless_turns": True, "budget_burn": True, "spinning": True, "dead_loop": False},
        while_true,
    ),
}

# name -> ((MISSING, RUNAWAYS, run_agent), criterion that must fail alone, its hint's catalog key)
WRONG = {
    "misses the explicit stop condition": (
        ({"token_budget", "no_progress"}, GOOD_RUNAWAYS, top_of_body), 1, "grade.l2.c1.no_stop_condition"),
    "names something the loop does right": (
        ({"stop_condition", "reassign"}, GOOD_RUNAWAYS, top_of_body), 1, "grade.l2.c1.not_missing"),
    "answer left empty (MISSING)": ((set(), GOOD_RUNAWAYS, top_of_body), 1, "grade.l2.c1.no_stop_condition"),
    "only one runaway family": (
        (GOOD_MISSING, {"endless_turns", "budget_burn"}, top_of_body), 2, "grade.l2.c2.no_spinning"),
    "no spinning named": ((GOOD_MISSING, ["endless_turns"], top_of_body), 2, "grade.l2.c2.no_spinning"),
    "a runaway this loop does not have": (
        (GOOD_MISSING, ["endless_turns", "spinning", "dead_loop"], top_of_body), 2, "grade.l2.c2.not_this_loop"),
    "option key that does not exist": (
        (GOOD_MISSING, ["endless_turns", "spinning", "infinite"], top_of_body), 2, "grade.l2.unknown"),
    "no cap at all": ((GOOD_MISSING, GOOD_RUNAWAYS, no_cap), 3, "grade.l2.c3.runaway"),
    "turn check after the tools": (
        (GOOD_MISSING, GOOD_RUNAWAYS, check_after_tools), 3, "grade.l2.c3.results_unsent"),
    "check after the increment": ((GOOD_MISSING, GOOD_RUNAWAYS, check_after_increment), 3, "grade.l2.c3.one_early"),
    "check after the next model call": (
        (GOOD_MISSING, GOOD_RUNAWAYS, check_after_the_call), 3, "grade.l2.c3.cut_at_cap"),
    "counter loop ignoring stop_reason": (
        (GOOD_MISSING, GOOD_RUNAWAYS, counter_ignores_stop_reason), 3, "grade.l2.c3.normal_raised"),
    "no stop message at the cap": (
        (GOOD_MISSING, GOOD_RUNAWAYS, returns_nothing_at_cap), 3, "grade.l2.c3.no_stop_message"),
    "busy loop": ((GOOD_MISSING, GOOD_RUNAWAYS, spins_forever), 3, "grade.l2.c3.runaway"),
    "forgets to reassign response": (
        (GOOD_MISSING, GOOD_RUNAWAYS, forgets_to_reassign), 3, "grade.l2.c3.stale_response"),
}
