"""Exercise level 2, round nineteen: Ctrl-C caught around run_tool_uses, a stop_reason misspelt, a
recursion and a class that count a turn too many or too few, a history copied and the copy left unsent,
and MISSING written in shapes the options do not take; each wrong answer with the criteria and hint keys
that must catch it, and right answers in styles the others do not use (recursion, a class, Ctrl-C caught
and stopped).

Three passed: the loops that caught Ctrl-C around run_tool_uses (except KeyboardInterrupt with failed
results, a bare except: that runs the turn again, except BaseException in a for loop) ran on to
MAX_TURNS or the answer, since no check pressed it. One got a vaguer hint: turns > MAX_TURNS (one lap
past the limit) was told only the counts, not that > lets one more lap run.
"""

from __future__ import annotations

from answers_level2_loops import MAX_TURNS, create, final_text, run_tool_uses, stop_message
from answers_level2_reasons import GOOD_MISSING, _loop


def _failed(content, why):
    return [
        {"type": "tool_result", "tool_use_id": b.id, "content": why, "is_error": True}
        for b in content
        if b.type == "tool_use"
    ]


def interrupt_made_a_failure(client, user_input, tools, tool_impls):
    """Ctrl-C around the tools turned into failed results ("the model can try again")."""
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS:
            return stop_message()
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        try:
            results = run_tool_uses(response.content, tool_impls)
        except KeyboardInterrupt:
            results = _failed(response.content, "中断されました")
        messages.append({"role": "user", "content": results})
        response = create(client, messages, tools)
    return final_text(response)


def bare_except_runs_the_turn_again(client, user_input, tools, tool_impls):
    """A bare except: around the tools; the turn is run again (no results, the same response)."""
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS:
            return stop_message()
        turns += 1
        try:
            results = run_tool_uses(response.content, tool_impls)
        except:  # noqa: E722  # the mistake: Ctrl-C too
            continue  # try the same turn again
        messages += [{"role": "assistant", "content": response.content}, {"role": "user", "content": results}]
        response = create(client, messages, tools)
    return final_text(response)


def base_exception_logged(client, user_input, tools, tool_impls):
    """except BaseException around the tools, its text sent back as every call's result."""
    messages = [{"role": "user", "content": user_input}]
    for turns in range(MAX_TURNS + 1):
        response = create(client, messages, tools)
        if response.stop_reason != "tool_use":
            return final_text(response)
        if turns == MAX_TURNS:
            return stop_message()
        try:
            results = run_tool_uses(response.content, tool_impls)
        except BaseException as err:
            results = _failed(response.content, f"error: {err!r}")
        messages += [{"role": "assistant", "content": response.content}, {"role": "user", "content": results}]
    return stop_message()


def reason_misspelt(client, user_input, tools, tool_impls):
    """stop_reason compared with "tool_calls" (another SDK's word): the loop never runs a tool."""
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_calls":
        if turns >= MAX_TURNS:
            return stop_message()
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = create(client, messages, tools)
    return final_text(response)


def _recurse_one_early(client, messages, tools, tool_impls, turns):
    response = create(client, messages, tools)
    if response.stop_reason != "tool_use":
        return final_text(response)
    turns += 1
    if turns >= MAX_TURNS:  # asked after the count moved: a turn early
        return stop_message()
    messages.append({"role": "assistant", "content": response.content})
    messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
    return _recurse_one_early(client, messages, tools, tool_impls, turns)


def recursion_counts_first(client, user_input, tools, tool_impls):
    """A recursion, one call a turn; the count moved before the check."""
    return _recurse_one_early(client, [{"role": "user", "content": user_input}], tools, tool_impls, 0)


class _AgentOneTooMany:
    """The loop as a class; its check is turns > MAX_TURNS (one turn past the limit)."""

    def __init__(self):
        self.turns = 0

    def __call__(self, client, user_input, tools, tool_impls):
        self.turns = 0
        messages = [{"role": "user", "content": user_input}]
        response = create(client, messages, tools)
        while response.stop_reason == "tool_use":
            if self.turns > MAX_TURNS:
                return stop_message()
            self.turns += 1
            messages.append({"role": "assistant", "content": response.content})
            messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
            response = create(client, messages, tools)
        return final_text(response)


def history_copied_not_sent(client, user_input, tools, tool_impls):
    """The turns appended to a copy of the history ("keep the original clean"); the original is sent."""
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS:
            return stop_message()
        turns += 1
        history = list(messages)
        history.append({"role": "assistant", "content": response.content})
        history.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = create(client, messages, tools)
    return final_text(response)


# --- right answers in other styles ---------------------------------------------------------------
def _recurse(client, messages, tools, tool_impls, turns):
    response = create(client, messages, tools)
    if response.stop_reason != "tool_use":
        return final_text(response)
    if turns >= MAX_TURNS:  # 本体の先頭: この一周に入る前に、まだ回ってよいかを問う
        return f"最大ターン数 {MAX_TURNS} に達したため停止しました"
    messages = [
        *messages,
        {"role": "assistant", "content": response.content},
        {"role": "user", "content": run_tool_uses(response.content, tool_impls)},
    ]
    return _recurse(client, messages, tools, tool_impls, turns + 1)


def recursion_right(client, user_input, tools, tool_impls):
    """A recursion with a fresh history list each turn (copied, and the copy sent)."""
    return _recurse(client, [{"role": "user", "content": user_input}], tools, tool_impls, 0)


class _Agent:
    """The loop as a callable object; the count lives in the call, not on the object."""

    def __call__(self, client, user_input, tools, tool_impls):
        messages, turns = [{"role": "user", "content": user_input}], 0
        response = create(client, messages, tools)
        while response.stop_reason == "tool_use":
            if turns >= MAX_TURNS:  # read when it runs, not when the object was made
                return f"Stopped: the turn limit ({MAX_TURNS}) was reached before the model finished."
            turns += 1
            messages.append({"role": "assistant", "content": response.content})
            messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
            response = create(client, messages, tools)
        return final_text(response)


def interrupt_stops_the_run(client, user_input, tools, tool_impls):
    """Ctrl-C caught around the tools, and the run stopped with a message that says so."""
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS:
            return stop_message()
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        try:
            results = run_tool_uses(response.content, tool_impls)
        except KeyboardInterrupt:
            return f"Ctrl-C で中断したので、{turns} ターン目で停止しました"
        messages.append({"role": "user", "content": results})
        response = create(client, messages, tools)
    return final_text(response)


def limit_checked_after_the_tools(client, user_input, tools, tool_impls):
    """MAX_TURNS checked between running the tools and sending their results, with > : one more lap's tools
    run, and their results are never sent."""
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        results = run_tool_uses(response.content, tool_impls)
        if turns > MAX_TURNS:
            return stop_message()
        messages.append({"role": "user", "content": results})
        response = create(client, messages, tools)
    return final_text(response)


WRONG_ROUND_19 = {
    "Ctrl-C around the tools made failed results": (
        _loop(interrupt_made_a_failure),
        {3: "grade.l2.c3.interrupt_caught"},
    ),
    "a bare except: around the tools runs the turn again": (
        _loop(bare_except_runs_the_turn_again),
        {3: "grade.l2.c3.interrupt_caught"},
    ),
    "except BaseException around the tools, in a for loop": (
        _loop(base_exception_logged),
        {3: "grade.l2.c3.interrupt_caught"},
    ),
    "stop_reason compared with tool_calls": (_loop(reason_misspelt), {3: "grade.l2.c3.no_tools_ran"}),
    "a recursion that counts before its check": (_loop(recursion_counts_first), {3: "grade.l2.c3.one_early"}),
    "a class whose check is turns > MAX_TURNS": (_loop(_AgentOneTooMany()), {3: "grade.l2.c3.one_too_many"}),
    "MAX_TURNS checked with > after the tools ran": (_loop(limit_checked_after_the_tools), {3: "grade.l2.c3.counts"}),
    "the turns appended to a copy of the history": (
        _loop(history_copied_not_sent),
        {3: "grade.l2.c3.history_dropped"},
    ),
    "the runaways as a list under one key": (
        ({"stop_condition": ["endless_turns", "spinning"]}, recursion_right, MAX_TURNS),
        {2: "grade.l2.c2.mispaired"},
    ),
    "a 400 named as this loop's runaway": (
        (
            {"stop_condition": "endless_turns", "no_progress": {"spinning", "api_400"}},
            recursion_right,
            MAX_TURNS,
        ),
        {2: "grade.l2.c2.not_this_loop"},
    ),
    "the reassignment named as missing": (
        ({"stop_condition": "endless_turns", "reassign": "dead_loop", "no_progress": "spinning"}, _Agent(), MAX_TURNS),
        {1: "grade.l2.c1.not_missing"},
    ),
}
RIGHT_ROUND_19 = {
    "a recursion that sends a fresh copy of the history": (GOOD_MISSING, recursion_right, MAX_TURNS),
    "a callable object that reads MAX_TURNS when called": (GOOD_MISSING, _Agent(), MAX_TURNS),
    "Ctrl-C caught around the tools and the run stopped": (GOOD_MISSING, interrupt_stops_the_run, MAX_TURNS),
}
