"""Lesson 6's whole harness running its tools itself instead of through ``run_tool_uses``: each wrong
one with the point and hint that must catch it, and right ones in styles the others do not use.

Notebook 05's tools take named parameters (``get_time()``, ``read_file(path)``): called with
``block.input`` by position they raise a TypeError, so every result the model gets is that failure
and nothing runs. The check's spy tools must raise it too and say so, not pass the loop.
"""

from __future__ import annotations

from tests.lessons.answers6 import RUN, variant

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
]

RIGHT_RUN_AGENT_CALLS = [
    _calling("tool_impls[b.name](**b.input)"),
    _calling("tool_impls.get(b.name)(**dict(b.input))"),
]
