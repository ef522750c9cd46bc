"""Pieces from the browser walk and red team of the check cells: right answers that used to fail, and
wrong ones whose hint named another cause.

run_agent (lesson 2): a loop that sends a person's word ("続けて") in its own user message right after
the tool results was told its results were not in one user message; the API merges consecutive user
messages, so the turn it reads is the results first and the text after, which it accepts (lesson 5 sends
a person's instruction just so). Results split over several user messages stay wrong: the API docs say
it teaches the model to stop calling tools in parallel.
"""

from __future__ import annotations

from harness_lab.lessons.lesson2 import run_tools
from tests.lessons.answers6 import variant

MODEL = "claude-sonnet-5"


def agent_right_word_after_results(client, user_input, tools, impls):  # "続けて" after every result list
    messages = [{"role": "user", "content": user_input}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tools(response.content, impls)})
        messages.append({"role": "user", "content": "続けて"})
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    return "".join(b.text for b in response.content if b.type == "text")


def agent_word_then_each_result(client, user_input, tools, impls):  # results split, a word after them
    messages = [{"role": "user", "content": user_input}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response.content})
        messages += [{"role": "user", "content": [result]} for result in run_tools(response.content, impls)]
        messages.append({"role": "user", "content": "続けて"})
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    return "".join(b.text for b in response.content if b.type == "text")


WRONG_MERGED = [
    ("run_agent", agent_word_then_each_result, 3, "lesson.l2.run_agent.split_results"),
]
RIGHT_MERGED = [
    ("run_agent", agent_right_word_after_results),
]


# run_agent (lesson 6): the same person's word after each result list.
RIGHT_RUN_AGENT_MERGED = [  # valve 4 once read only the last message, the word, and found no denial result
    variant(
        (
            '            messages.append({"role": "user", "content": results})\n',
            '            messages.append({"role": "user", "content": results})\n'
            '            messages.append({"role": "user", "content": "続けて"})\n',
        )
    ),
]
