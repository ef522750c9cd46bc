"""Exercise level 2's wrong loops: a check in the wrong place, a limit copied or hard-coded, a counter that
counts something else, an answer lost at the cap.
"""

from __future__ import annotations

import os

from answers_level2_loops import (
    MAX_TURNS,
    create,
    final_text,
    run_tool_uses,
    stop_message,
    top_of_body,
)


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


def counts_blocks(client, user_input, tools, tool_impls):
    """Counts tool_use blocks instead of turns: right while the model calls one tool a turn."""
    messages = [{"role": "user", "content": user_input}]
    calls = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if calls >= MAX_TURNS:
            return stop_message()
        calls += sum(1 for b in response.content if b.type == "tool_use")
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = create(client, messages, tools)
    return final_text(response)


def counts_turns_that_speak(client, user_input, tools, tool_impls):
    """Counts a turn only when the response has text to show: right while the model says something each turn."""
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS:
            return stop_message()
        if any(b.type == "text" and b.text for b in response.content):
            turns += 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = create(client, messages, tools)
    return final_text(response)


def _capped(
    at_cap=stop_message, limit=lambda: MAX_TURNS, goes_on=lambda r: r.stop_reason == "tool_use", answer=final_text
):
    """The lesson's fix, with one of its parts swapped: what it returns (or raises) at the cap, where
    its limit comes from, what keeps the loop going, and what it makes of the model's answer."""

    def run_agent(client, user_input, tools, tool_impls):
        messages = [{"role": "user", "content": user_input}]
        turns = 0
        response = create(client, messages, tools)
        while goes_on(response):
            if turns >= limit():
                return at_cap()
            turns += 1
            messages.append({"role": "assistant", "content": response.content})
            messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
            response = create(client, messages, tools)
        return answer(response)

    return run_agent


def _stopping_with(message):
    """The lesson's fix, returning ``message`` at the cap."""
    return _capped(at_cap=lambda: message)


def _raise(error):
    raise error


def names_its_results(client, user_input, tools, tool_impls):
    """Adds the tool's name to each tool_result: the API knows no such field there."""
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS:
            return stop_message()
        turns += 1
        names = {b.id: b.name for b in response.content if b.type == "tool_use"}
        results = [{**r, "name": names[r["tool_use_id"]]} for r in run_tool_uses(response.content, tool_impls)]
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": results})
        response = create(client, messages, tools)
    return final_text(response)


def first_call_only(client, user_input, tools, tool_impls):
    """Runs only the first tool_use of a turn: fine until the model calls two tools at once."""
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS:
            return stop_message()
        turns += 1
        first = next(b for b in response.content if b.type == "tool_use")
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses([first], tool_impls)})
        response = create(client, messages, tools)
    return final_text(response)


def hoards(client, user_input, tools, tool_impls):
    kept = []
    while True:
        kept.append(bytearray(2 << 30))  # past the 1 GiB allowance at once


def exits_hard(client, user_input, tools, tool_impls):
    os._exit(3)


def forgets_to_return(client, user_input, tools, tool_impls):
    """Checks the cap on tool_use, but never leaves the loop when the model wraps up."""
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    while True:
        response = create(client, messages, tools)
        if response.stop_reason == "tool_use":
            if turns >= MAX_TURNS:
                return stop_message()
            turns += 1
            messages.append({"role": "assistant", "content": response.content})
            messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})


def says_done_instead(client, user_input, tools, tool_impls):
    """Stops right, but answers a normal task with its own word instead of the model's."""
    answer = top_of_body(client, user_input, tools, tool_impls)
    return answer if "停止" in answer else "完了しました"


def asks_once_more(client, user_input, tools, tool_impls):
    """After the model's answer, sends one more request 'to be sure'."""
    messages = [{"role": "user", "content": user_input}]
    answer = top_of_body(client, user_input, tools, tool_impls)
    if "停止" not in answer:
        create(client, messages, tools)
    return answer


def one_too_many(client, user_input, tools, tool_impls):
    """Compares with > at the top: one turn more than MAX_TURNS."""
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if turns > MAX_TURNS:
            return stop_message()
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = create(client, messages, tools)
    return final_text(response)


hard_coded_limit = _capped(limit=lambda: 4)  # the number MAX_TURNS happens to be today


raises_at_cap = _capped(at_cap=lambda: _raise(RuntimeError(stop_message())))  # the caller gets no answer


loses_a_character = _capped(answer=lambda r: final_text(r)[:-1])  # the model's answer, its last character lost


until_end_turn = _capped(goes_on=lambda r: r.stop_reason != "end_turn")  # goes on after max_tokens


while_calls_in_content = _capped(goes_on=lambda r: any(b.type == "tool_use" for b in r.content))  # runs a cut call


def limit_as_parameter(client, user_input, tools, tool_impls, max_turns=MAX_TURNS, *, note=None):
    """The limit taken as a parameter whose default is MAX_TURNS (bound when the def runs)."""
    messages = [{"role": "user", "content": user_input}]
    response = create(client, messages, tools)
    for _ in range(max_turns):
        if response.stop_reason != "tool_use":
            return final_text(response)
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = create(client, messages, tools)
    return final_text(response) if response.stop_reason != "tool_use" else stop_message()


class Agent:
    """The lesson's loop as a method, the limit a default argument."""

    def run(self, client, user_input, tools, tool_impls, max_turns=MAX_TURNS):
        return limit_as_parameter(client, user_input, tools, tool_impls, max_turns)

    __call__ = run


def make_agent(limit):
    """The limit held in a closure."""

    def run_agent(client, user_input, tools, tool_impls):
        return limit_as_parameter(client, user_input, tools, tool_impls, limit)

    return run_agent


LIMIT = MAX_TURNS  # a copy taken when the cell ran: the mistake under test


def reads_a_copy(client, user_input, tools, tool_impls):
    return limit_as_parameter(client, user_input, tools, tool_impls, LIMIT)


def helper_default(client, user_input, tools, tool_impls):
    """The limit a default argument of the helper it calls: fixed when that def ran."""
    return limit_as_parameter(client, user_input, tools, tool_impls)


CONFIG = {"max_turns": MAX_TURNS}  # a copy of MAX_TURNS in a settings dict


def config_dict(client, user_input, tools, tool_impls):
    return limit_as_parameter(client, user_input, tools, tool_impls, CONFIG["max_turns"])


def compares_with_one_less(client, user_input, tools, tool_impls):
    """The lesson's fix with the check made "safe": MAX_TURNS - 1, one turn early."""
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS - 1:
            return stop_message()
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = create(client, messages, tools)
    return final_text(response)


def counts_requests(client, user_input, tools, tool_impls):
    """Counts model requests, the first one too: N requests, so one tool turn short."""
    messages = [{"role": "user", "content": user_input}]
    requests = 1
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if requests >= MAX_TURNS:
            return stop_message()
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = create(client, messages, tools)
        requests += 1
    return final_text(response)


def counter_set_in_the_loop(client, user_input, tools, tool_impls):
    """turns = 0 written inside the while: set back every lap, it never reaches the limit."""
    messages = [{"role": "user", "content": user_input}]
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        turns = 0
        if turns >= MAX_TURNS:
            return stop_message()
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = create(client, messages, tools)
    return final_text(response)


def breaks_at_cap(client, user_input, tools, tool_impls):
    """break at the cap, then the usual return: the model's in-between words come back as the answer."""
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS:
            break
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = create(client, messages, tools)
    return final_text(response)


def one_results_list(client, user_input, tools, tool_impls):
    """One results list, cleared and refilled each turn: every turn in the history holds the last results."""
    messages = [{"role": "user", "content": user_input}]
    turns, results = 0, []
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS:
            return stop_message()
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        results.clear()
        results.extend(run_tool_uses(response.content, tool_impls))
        messages.append({"role": "user", "content": results})
        response = create(client, messages, tools)
    return final_text(response)


def counts_half_the_messages(client, user_input, tools, tool_impls):
    """Right: the history holds 1 + 2 x turns messages, so half its length (rounded down) is the turns."""
    messages = [{"role": "user", "content": user_input}]
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if len(messages) // 2 >= MAX_TURNS:
            return stop_message()
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = create(client, messages, tools)
    return final_text(response)


def endless_answer():
    while True:
        yield "stop_condition"
