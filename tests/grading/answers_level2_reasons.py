"""Exercise level 2: loops that read the stop reason, the history or the counter in ways of their own, each
wrong one with the criteria and hint keys that must catch it, and right answers in styles the others do not
use.
"""

from __future__ import annotations

from answers_level2_loops import MAX_TURNS, create, final_text, run_tool_uses, stop_message

GOOD_MISSING = {"stop_condition": "endless_turns", "token_budget": "budget_burn", "no_progress": "spinning"}


def _loop(run_agent):
    return (GOOD_MISSING, run_agent, MAX_TURNS)


def resends_a_cut_answer(client, user_input, tools, tool_impls):
    """max_tokens read as "not finished yet": the cut answer is sent back for the model to go on."""
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason in ("tool_use", "max_tokens"):
        if turns >= MAX_TURNS:
            return stop_message()
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason == "tool_use":
            messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        else:
            messages.append({"role": "user", "content": "続けて"})
        response = create(client, messages, tools)
    return final_text(response)


def thinking_dropped(client, user_input, tools, tool_impls):
    """Keeps only the text and tool_use blocks in the history ("thinking is for the model, not the log")."""
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS:
            return stop_message()
        turns += 1
        kept = [b for b in response.content if b.type in ("text", "tool_use")]
        messages.append({"role": "assistant", "content": kept})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = create(client, messages, tools)
    return final_text(response)


def counter_reset_on_new_calls(client, user_input, tools, tool_impls):
    """The counter set back to 0 whenever the calls differ from the last turn's ("it is making progress")."""
    messages = [{"role": "user", "content": user_input}]
    turns, last = 0, None
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        calls = [(b.name, str(b.input)) for b in response.content if b.type == "tool_use"]
        if calls != last:
            turns = 0
        last = calls
        if turns >= MAX_TURNS:
            return stop_message()
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = create(client, messages, tools)
    return final_text(response)


def cap_counts_tool_results(client, user_input, tools, tool_impls):
    """The limit compared with how many tool_results went back so far, not with turns."""
    messages = [{"role": "user", "content": user_input}]
    sent = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if sent >= MAX_TURNS:
            return stop_message()
        results = run_tool_uses(response.content, tool_impls)
        sent += len(results)
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": results})
        response = create(client, messages, tools)
    return final_text(response)


def checks_before_each_request(client, user_input, tools, tool_impls):
    """The cap checked before every model request, the first one included ("never call more than N times")."""
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    while True:
        if turns >= MAX_TURNS:
            return stop_message()
        response = create(client, messages, tools)
        if response.stop_reason != "tool_use":
            return final_text(response)
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})


# --- right --------------------------------------------------------------------------------------
def one_message_per_result(client, user_input, tools, tool_impls):
    """Each tool_result in a user message of its own, one after the other."""
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS:
            return stop_message()
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        for result in run_tool_uses(response.content, tool_impls):
            messages.append({"role": "user", "content": [result]})
        response = create(client, messages, tools)
    return final_text(response)


def counts_assistant_messages(client, user_input, tools, tool_impls):
    """The turns read off the history: one assistant message per finished turn."""
    messages = [{"role": "user", "content": user_input}]
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if sum(1 for m in messages if m["role"] == "assistant") >= MAX_TURNS:
            return f"[停止] ターン上限 {MAX_TURNS} に達したため停止しました"
        messages += [
            {"role": "assistant", "content": response.content},
            {"role": "user", "content": run_tool_uses(response.content, tool_impls)},
        ]
        response = create(client, messages, tools)
    return final_text(response)


def recursive_turns(client, user_input, tools, tool_impls):
    """A recursive helper instead of a loop: the check comes first in each call, before the count moves."""

    def go(messages, response, turns):
        if response.stop_reason != "tool_use":
            return final_text(response)
        if turns >= MAX_TURNS:
            return stop_message()
        messages = messages + [
            {"role": "assistant", "content": response.content},
            {"role": "user", "content": run_tool_uses(response.content, tool_impls)},
        ]
        return go(messages, create(client, messages, tools), turns + 1)

    first = [{"role": "user", "content": user_input}]
    return go(first, create(client, first, tools), 0)


def countdown(client, user_input, tools, tool_impls):
    """A budget of turns counted down from MAX_TURNS, checked for zero at the top."""
    messages = [{"role": "user", "content": user_input}]
    left = MAX_TURNS
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if left == 0:
            return "Stopped at the turn limit: the model kept calling tools."
        left -= 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = create(client, messages, tools)
    return final_text(response)


def text_moved_first(client, user_input, tools, tool_impls):
    """What the model said put before the rest of the turn ("the words first, then the calls"): the thinking
    block no longer opens the assistant message."""
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS:
            return stop_message()
        turns += 1
        said = [b for b in response.content if b.type == "text"]
        messages.append({"role": "assistant", "content": said + [b for b in response.content if b.type != "text"]})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = create(client, messages, tools)
    return final_text(response)


def tools_offered_once(client, user_input, tools, tool_impls):
    """tools given to the first request only ("the model knows them by now")."""
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS:
            return stop_message()
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = client.messages.create(model="claude-sonnet-5", max_tokens=1024, messages=messages)
    return final_text(response)


def history_by_default(client, user_input, tools, tool_impls, messages=[]):  # noqa: B006  # the slip itself
    """The history a default argument: made once, when the def ran, and shared by every run after."""
    messages.append({"role": "user", "content": user_input})
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS:
            return stop_message()
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = create(client, messages, tools)
    messages.append({"role": "assistant", "content": response.content})
    return final_text(response)


def counted_from_one(client, user_input, tools, tool_impls):
    """Right: the turn about to run numbered from 1, refused once it is past MAX_TURNS; the turn added in one step."""
    messages = [{"role": "user", "content": user_input}]
    turn = 1
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if turn > MAX_TURNS:
            return f"Stopped: turn {turn} would pass the limit of {MAX_TURNS} turns."
        messages += [
            {"role": "assistant", "content": response.content},
            {"role": "user", "content": run_tool_uses(response.content, tool_impls)},
        ]
        turn += 1
        response = create(client, messages, tools)
    return final_text(response)


WRONG_REASONS = {
    "a cut answer sent back to go on": (_loop(resends_a_cut_answer), {3: "grade.l2.c3.went_on"}),
    "thinking blocks dropped from history": (_loop(thinking_dropped), {3: "grade.l2.c3.thinking_lost"}),
    "the text moved before the thinking block": (_loop(text_moved_first), {3: "grade.l2.c3.thinking_lost"}),
    "tools given to the first request only": (_loop(tools_offered_once), {3: "grade.l2.c3.tools_missing"}),
    "the history a default argument": (_loop(history_by_default), {3: "grade.l2.c3.history_kept"}),
    "the counter reset when the calls change": (_loop(counter_reset_on_new_calls), {3: "grade.l2.c3.runaway"}),
    "the cap compared with tool_results sent": (_loop(cap_counts_tool_results), {3: "grade.l2.c3.counts_blocks"}),
    "the cap checked before every request": (_loop(checks_before_each_request), {3: "grade.l2.c3.results_unsent"}),
    "MISSING keyed by the options' Japanese words": (
        ({"停止条件": "endless_turns", "トークン予算": "budget_burn", "無進捗検知": "spinning"}, countdown, MAX_TURNS),
        {1: "grade.l2.unknown", 2: "grade.l2.unknown"},
    ),
}

RIGHT_REASONS = {
    "the turns read off the history": _loop(counts_assistant_messages),
    "a recursive helper": _loop(recursive_turns),
    "a countdown, English stop message": _loop(countdown),
    # the API merges consecutive user messages into one turn: the results still answer their calls together
    "one user message per tool_result": _loop(one_message_per_result),
    "the turn about to run numbered from 1": _loop(counted_from_one),
}
