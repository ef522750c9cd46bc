"""Exercise level 2: loops that run their tools themselves instead of through the setup cell's
``run_tool_uses``, each wrong answer with the criterion and hint that must catch it.

The notebook's tools take their input by keyword (``impl(**tool_input)``): called with ``block.input``
by position they raise a TypeError, so every result the model gets is that failure. The grader's
spy tools must do the same and say so, not count the call as a tool turn that ran.
"""

from __future__ import annotations

from answers_level2_loops import MAX_TURNS, create, final_text, stop_message
from answers_level2_reasons import _loop


def _runs_tools(call_tool, catch=True):
    """The lesson's capped loop with its own tool runner: ``call_tool(tool_impls, block)`` runs one call."""

    def run_agent(client, user_input, tools, tool_impls):
        messages = [{"role": "user", "content": user_input}]
        turns = 0
        response = create(client, messages, tools)
        while response.stop_reason == "tool_use":
            if turns >= MAX_TURNS:
                return stop_message()
            turns += 1
            results = []
            for block in response.content:
                if block.type != "tool_use":
                    continue
                try:
                    output, failed = call_tool(tool_impls, block), False
                except Exception as err:
                    if not catch:
                        raise
                    output, failed = f"失敗: {err}", True
                results.append({"type": "tool_result", "tool_use_id": block.id, "content": str(output)})
                if failed:
                    results[-1]["is_error"] = True
            messages += [{"role": "assistant", "content": response.content}, {"role": "user", "content": results}]
            response = create(client, messages, tools)
        return final_text(response)

    return run_agent


WRONG_TOOLS = {
    "tools given the input by position, the error caught": (
        _loop(_runs_tools(lambda impls, block: impls[block.name](block.input))),
        {3: "grade.l2.impl_call"},
    ),
    "tools given the input by position, the error let out": (
        _loop(_runs_tools(lambda impls, block: impls[block.name](block.input), catch=False)),
        {3: "grade.l2.impl_call"},
    ),
    "tools given the input's values by position": (
        _loop(_runs_tools(lambda impls, block: impls[block.name](*block.input.values()))),
        {3: "grade.l2.impl_call"},
    ),
    "tools given the whole block": (
        _loop(_runs_tools(lambda impls, block: impls[block.name](block))),
        {3: "grade.l2.impl_call"},
    ),
}

RIGHT_TOOLS = {
    "tools called by keyword in the loop itself": _loop(_runs_tools(lambda impls, b: impls[b.name](**b.input))),
    "tools looked up with get and called with a copy of the input": _loop(
        _runs_tools(lambda impls, block: impls.get(block.name)(**dict(block.input)))
    ),
}
