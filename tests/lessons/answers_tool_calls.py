"""Loops running their tools (and, in lesson 6, asking approve) themselves instead of through
``run_tools`` / ``run_tool_uses``: each wrong one with the point and hint that must catch it, and right
ones in styles the others do not use.

Notebook 01's get_weather(city) given ``block.input`` by position fails on that dict: lesson 2's hint
must say how the tool was called, not that ``tools`` went where ``impls`` belongs.

Notebook 05's tools take named parameters (``get_time()``, ``read_file(path)``): called with
``block.input`` by position they raise a TypeError, so every result the model gets is that failure
and nothing runs. Its approver is ``approve(name, tool_input)``: the whole block, ``input=`` or a third
argument raise a TypeError too. The check's spies must raise it as well and say so, not pass the loop.
"""

from __future__ import annotations

from tests.lessons.answers6 import RUN, variant

MODEL = "claude-sonnet-5"


def _lesson2_loop(call_tool):
    """Lesson 2's run_agent with its tools run in the loop itself, each as ``call_tool(impls, block)``."""

    def run_agent(client, user_input, tools, impls):
        messages = [{"role": "user", "content": user_input}]
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
        while response.stop_reason == "tool_use":
            messages.append({"role": "assistant", "content": response.content})
            results = []
            for b in response.content:
                if b.type != "tool_use":
                    continue
                try:
                    results.append({"type": "tool_result", "tool_use_id": b.id, "content": str(call_tool(impls, b))})
                except Exception as e:
                    results.append(
                        {"type": "tool_result", "tool_use_id": b.id, "content": f"失敗: {e}", "is_error": True}
                    )
            messages.append({"role": "user", "content": results})
            response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
        return "".join(b.text for b in response.content if b.type == "text")

    return run_agent


def agent_tools_by_position(client, user_input, tools, impls):
    return _lesson2_loop(lambda impls, b: impls[b.name](b.input))(client, user_input, tools, impls)


def agent_tools_given_the_block(client, user_input, tools, impls):
    return _lesson2_loop(lambda impls, b: impls[b.name](b))(client, user_input, tools, impls)


def agent_tools_by_keyword(client, user_input, tools, impls):
    return _lesson2_loop(lambda impls, b: impls[b.name](**b.input))(client, user_input, tools, impls)


WRONG_TOOL_CALLS = [
    ("run_agent", agent_tools_by_position, 3, "lesson.l2.run_tools.call_failed"),
    ("run_agent", agent_tools_given_the_block, 3, "lesson.l2.run_tools.call_failed"),
]
RIGHT_TOOL_CALLS = [("run_agent", agent_tools_by_keyword)]

# The lesson's approval valve and a tool run, written into the loop; ``%s`` is how each tool is called.
INLINE = """            results = []
            for b in response.content:
                if b.type != "tool_use":
                    continue
                if b.name in HIGH_IMPACT and not (approve and approve(b.name, b.input)):
                    results.append({"type": "tool_result", "tool_use_id": b.id, "content": "拒否されました", "is_error": True})
                    continue
                try:
                    results.append({"type": "tool_result", "tool_use_id": b.id, "content": str(%s)})
                except Exception as e:
                    results.append({"type": "tool_result", "tool_use_id": b.id, "content": f"失敗: {e}", "is_error": True})
"""
# The same with no try: the tool's error goes out of the loop.
UNGUARDED = """            results = []
            for b in response.content:
                if b.type != "tool_use":
                    continue
                if b.name in HIGH_IMPACT and not (approve and approve(b.name, b.input)):
                    results.append({"type": "tool_result", "tool_use_id": b.id, "content": "拒否されました", "is_error": True})
                    continue
                results.append({"type": "tool_result", "tool_use_id": b.id, "content": str(%s)})
"""


def _calling(how: str, body: str = INLINE) -> str:
    return variant((RUN, body % how))


def _asking(how: str) -> str:
    return variant((RUN, INLINE.replace("approve(b.name, b.input)", how) % "tool_impls[b.name](**b.input)"))


CALLED = "lesson.l6.run_agent.impl_call"
WRONG_RUN_AGENT_CALLS = [
    (_calling("tool_impls[b.name](b.input)"), 1, CALLED),  # every result an is_error TypeError
    (_calling("tool_impls[b.name](b.input)"), 3, CALLED),  # valve 1 would count those turns all the same
    (_calling("tool_impls[b.name](b.input)"), 6, CALLED),  # the harmless get_time fails, not only the asked ones
    (_calling("tool_impls[b.name](b.input)"), 7, CALLED),
    (_calling("tool_impls[b.name](b.input)", UNGUARDED), 1, CALLED),  # the TypeError out of the loop
    (_calling("tool_impls[b.name](b.input)", UNGUARDED), 6, CALLED),
    (_calling("tool_impls[b.name](b)"), 1, CALLED),  # the whole block
    (_calling("tool_impls[b.name](*b.input.values())"), 1, CALLED),  # get_time() runs; read_file(path) does not
    # the approver called as the notebook's would refuse: the TypeError caught as a no, or let out
    (_asking("approve(b)"), 6, "lesson.l6.run_agent.approve_call"),
    (_asking("approve(b)"), 7, "lesson.l6.run_agent.approve_call"),
    (_asking("approve(name=b.name, input=b.input)"), 7, "lesson.l6.run_agent.approve_call"),
    (_asking("approve(b.name, b.input, b)"), 6, "lesson.l6.run_agent.approve_call"),
    (_asking("approve(b.input, b.name)"), 7, "lesson.l6.run_agent.approve_call"),  # binds, but asks about nothing
]

RIGHT_RUN_AGENT_CALLS = [
    _calling("tool_impls[b.name](**b.input)"),
    _asking("approve(name=b.name, tool_input=b.input)"),  # the notebook's own parameter names
    _asking("approve(b.name, tool_input=b.input)"),
    _calling("tool_impls.get(b.name)(**dict(b.input))"),
]
