"""Exercise level 2: loops that read stop_reason with another API's words or count the wrong thing, each wrong
one with the criteria and hint keys that must catch it, and right answers in styles the others do not use.
"""

from __future__ import annotations

from answers_level2_loops import MAX_TURNS, create, final_text, run_tool_uses, stop_message
from answers_level2_reasons import _loop


def _lapping(goes_on, counted=lambda response: 1):
    """The lesson's fix, going on while ``goes_on(response)`` and counting ``counted(response)`` a lap."""

    def run_agent(client, user_input, tools, tool_impls):
        messages = [{"role": "user", "content": user_input}]
        turns = 0
        response = create(client, messages, tools)
        while goes_on(response):
            if turns >= MAX_TURNS:
                return stop_message()
            turns += counted(response)
            messages.append({"role": "assistant", "content": response.content})
            messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
            response = create(client, messages, tools)
        return final_text(response)

    return run_agent


def results_before_the_turn(client, user_input, tools, tool_impls):
    """The results appended first, then the assistant turn that called for them."""
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS:
            return stop_message()
        turns += 1
        results = run_tool_uses(response.content, tool_impls)
        messages.append({"role": "user", "content": results})
        messages.append({"role": "assistant", "content": response.content})
        response = create(client, messages, tools)
    return final_text(response)


def messages_as_turns(client, user_input, tools, tool_impls):
    """The turns read off the history: len(messages) against the limit."""
    messages = [{"role": "user", "content": user_input}]
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if len(messages) >= MAX_TURNS:
            return stop_message()
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tool_uses(response.content, tool_impls)})
        response = create(client, messages, tools)
    return final_text(response)


WRONG_WORDS = {
    # OpenAI's finish_reason word: the loop never runs a tool and hands back the model's in-between words.
    "goes on while stop_reason is tool_calls": (
        _loop(_lapping(lambda r: r.stop_reason == "tool_calls")),
        {3: "grade.l2.c3.no_tools_ran"},
    ),
    # "end-turn" is no stop_reason: the loop goes on after the model's answer too, and the API refuses that.
    "goes on until stop_reason is end-turn": (
        _loop(_lapping(lambda r: r.stop_reason != "end-turn")),
        {3: "grade.l2.c3.normal_raised"},
    ),
    # Every block counted, thinking and text too: three "turns" for one response.
    "counts every content block": (
        _loop(_lapping(lambda r: r.stop_reason == "tool_use", counted=lambda r: len(r.content))),
        {3: "grade.l2.c3.counts_content"},
    ),
    # The history's length taken for the turns: two messages a turn.
    "counts the messages": (_loop(messages_as_turns), {3: "grade.l2.c3.counts_messages"}),
    # Three a turn, "the call, its result and the model's reply": neither the blocks nor the messages.
    "counts three a turn": (
        _loop(_lapping(lambda r: r.stop_reason == "tool_use", counted=lambda r: 3)),
        {3: "grade.l2.c3.counts_more"},
    ),
    "tool results before the assistant turn": (_loop(results_before_the_turn), {3: "grade.l2.c3.results_before"}),
}

RIGHT_WORDS = {
    "goes on while stop_reason is in a set": _loop(_lapping(lambda r: r.stop_reason in {"tool_use"})),
}
