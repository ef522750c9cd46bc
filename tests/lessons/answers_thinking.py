"""Loops that lose the default model's thinking blocks on the way back (issue 22.5), and loops that keep
them in every way a learner might write it.

The default model (``claude-sonnet-5``) starts each reply with a signed thinking block; the assistant
turn a tool result answers must go back with it, unmodified. Each wrong loop below makes one of the
ways to lose it: keeping only text and tool_use, rebuilding the turn as dicts, rebuilding the thinking
block without its signature, rebuilding only the block types it knows (a redacted_thinking block is
lost), editing the thinking text and moving the block.
"""

from __future__ import annotations

import copy

from harness_lab.lessons.lesson2 import run_tools
from tests.lessons.answers6 import RIGHT_RUN_AGENT, variant
from tests.lessons.answers_capstone import RIGHT_MY_AGENT

MODEL = "claude-sonnet-5"


def _loop(keep, model: str = MODEL, follow_up: dict | None = None):
    """A lesson-2 ``run_agent`` whose assistant message is ``keep(response.content)``."""

    def run_agent(client, user_input, tools, impls):
        messages = [{"role": "user", "content": user_input}]
        response = client.messages.create(model=model, max_tokens=1024, tools=tools, messages=messages)
        while response.stop_reason == "tool_use":
            messages.append({"role": "assistant", "content": keep(response.content)})
            messages.append({"role": "user", "content": run_tools(response.content, impls)})
            response = client.messages.create(
                model=model, max_tokens=1024, tools=tools, messages=messages, **(follow_up or {})
            )
        return "".join(b.text for b in response.content if b.type == "text")

    return run_agent


def _as_dict(block) -> dict:
    if block.type == "text":
        return {"type": "text", "text": block.text}
    if block.type == "tool_use":
        return {"type": "tool_use", "id": block.id, "name": block.name, "input": block.input}
    if block.type == "thinking":
        return {"type": "thinking", "thinking": block.thinking, "signature": block.signature}
    return {"type": "redacted_thinking", "data": block.data}


agent_keeps_text_and_tool_use = _loop(lambda content: [b for b in content if b.type in ("text", "tool_use")])
agent_rebuilds_dicts = _loop(lambda content: [_as_dict(b) for b in content if b.type in ("text", "tool_use")])
agent_drops_the_signature = _loop(
    lambda content: [
        {"type": "thinking", "thinking": b.thinking} if b.type == "thinking" else _as_dict(b)
        for b in content
        if b.type != "redacted_thinking"
    ]
)
agent_rebuilds_known_types = _loop(
    lambda content: [_as_dict(b) for b in content if b.type in ("thinking", "text", "tool_use")]
)
# The API ignores text written into the default model's omitted (empty) thinking block [the thinking
# page]; the lesson's check still sees a turn that did not go back as it came.
agent_edits_the_thinking = _loop(
    lambda content: [dict(_as_dict(b), thinking="（省略）") if b.type == "thinking" else b for b in content]
)
agent_moves_thinking_last = _loop(lambda content: sorted(content, key=lambda b: "thinking" in b.type))
# HARNESS_LAB_MODEL may pick a model that does not think: the check still meets the default one.
agent_filters_on_another_model = _loop(
    lambda content: [b for b in content if b.type in ("text", "tool_use")], model="claude-haiku-4-5"
)

WRONG_RUN_AGENT_2 = [
    (agent_keeps_text_and_tool_use, "lesson.l2.keep_thinking"),
    (agent_rebuilds_dicts, "lesson.l2.keep_thinking"),
    (agent_drops_the_signature, "lesson.l2.thinking_changed"),
    (agent_rebuilds_known_types, "lesson.l2.keep_thinking"),
    (agent_edits_the_thinking, "lesson.l2.run_agent.not_whole"),
    (agent_moves_thinking_last, "lesson.l2.keep_thinking"),
    (agent_filters_on_another_model, "lesson.l2.keep_thinking"),
]

# Every way of keeping the turn whole passes: the SDK objects, their dicts, a copy.
RIGHT_RUN_AGENT_2 = [
    _loop(lambda content: content),
    _loop(list),
    _loop(copy.deepcopy),
    _loop(lambda content: [b.model_dump() for b in content]),
    _loop(lambda content: [b.model_dump(exclude_none=True) for b in content]),
    _loop(lambda content: [_as_dict(b) for b in content]),
    # The API does not refuse thinking turned off inside the loop: it is off for that request.
    _loop(lambda content: content, follow_up={"thinking": {"type": "disabled"}}),
]

KEEP = '        messages.append({"role": "assistant", "content": response.content})'
FILTERED = (
    '        kept = [b for b in response.content if b.type in ("text", "tool_use")]\n'
    '        messages.append({"role": "assistant", "content": kept})'
)
REBUILT = (
    "        kept = [{'type': 'text', 'text': b.text} if b.type == 'text' else "
    "{'type': 'tool_use', 'id': b.id, 'name': b.name, 'input': b.input} "
    "for b in response.content if b.type in ('text', 'tool_use')]\n"
    '        messages.append({"role": "assistant", "content": kept})'
)
# (source, point, key): the whole harness of lesson 6, and a capstone with a loop of its own.
WRONG_RUN_AGENT_6 = [
    (variant((KEEP, FILTERED)), 1, "lesson.l2.keep_thinking"),
    (variant((KEEP, REBUILT)), 1, "lesson.l2.keep_thinking"),
    (variant((KEEP, FILTERED)), 6, "lesson.l2.keep_thinking"),  # the approval probe sends a history too
]
OWN_LOOP = """

def loop(client, user_input, tools, impls, approve):
    messages = [{"role": "user", "content": user_input}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    turns = 0
    while response.stop_reason == "tool_use" and turns < 8:
        turns += 1
        messages.append({"role": "assistant", "content": [b for b in response.content if b.type != "thinking"]})
        results = run_tool_uses(response.content, impls, approve or (lambda name, given: False))
        messages.append({"role": "user", "content": results})
        yield lessons.turn(turns, response, results)
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    return lessons.finished(response, turns)
"""
WRONG_MY_AGENT_THINKING = [
    (
        variant(("    return run_agent(", "    return loop("), base=RIGHT_MY_AGENT) + OWN_LOOP,
        1,
        "lesson.l2.keep_thinking",
    ),
]
RIGHT = RIGHT_RUN_AGENT  # the lesson-6 loop these variants are cut from
