"""Level 2's spy tools return their text in the grading language: a loop that hands back a tool's output
instead of the model's answer is told so with that output quoted, and an English learner read it in
Japanese ("returned: # エージェントハーネスの基礎"). (test_spy_tools_speak_the_edition.py holds the outputs to
the Japanese ones' token counts.)
"""

from __future__ import annotations

import re

import answers_level2 as answers
from answers_level2_loops import MAX_TURNS, create, run_tool_uses, stop_message

from harness_lab.grading import grade_level2
from harness_lab.grading.scenarios import outputs
from harness_lab.text import speaking

JAPANESE = re.compile(r"[\u3000-\u30ff\u4e00-\u9fff\uff01-\uff9f]")


def returns_the_last_result(client, user_input, tools, tool_impls):
    """Ends with what the last tool returned, not with the model's answer."""
    messages = [{"role": "user", "content": user_input}]
    turns, last = 0, ""
    response = create(client, messages, tools)
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS:
            return stop_message()
        turns += 1
        results = run_tool_uses(response.content, tool_impls)
        last = results[-1]["content"]
        messages += [{"role": "assistant", "content": response.content}, {"role": "user", "content": results}]
        response = create(client, messages, tools)
    return str(last)


def test_a_hint_quoting_a_tools_output_quotes_it_in_the_graders_language():
    missing = answers.RIGHT["check at the top, one runaway per gap"][0]
    with speaking("en"):
        text = grade_level2(missing, returns_the_last_result, MAX_TURNS).text()
        quoted = outputs()["read_file"]
    assert quoted.split("\n")[0] in text, text
    assert not (found := JAPANESE.search(text)), text[max(found.start() - 200, 0) : found.end() + 80]
