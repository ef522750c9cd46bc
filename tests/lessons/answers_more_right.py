"""Right answers to the lessons' pieces in other styles than the references'; answers_more.RIGHT_MORE lists
them, and every one must pass.
"""

from __future__ import annotations

import json
from pathlib import Path

from harness_lab.lessons.lesson2 import run_tools as good_run_tools
from harness_lab.lessons.lesson5 import HIGH_IMPACT
from harness_lab.lessons.lesson5 import run_tool_uses as good_run_tool_uses
from tests.lessons.answers_more_loop import (
    _create,
    _denied,
    _error,
    _result,
)

# --- right answers, written in other styles than the references' ---------------------------------


def tools_right_as_blocks(content, impls):  # text blocks as the content, a helper per call
    def answer(block):
        try:
            output = impls[block.name](**block.input)
        except Exception as err:
            return {"type": "tool_result", "tool_use_id": block.id, "is_error": True, "content": repr(err)}
        text = output if isinstance(output, str) else json.dumps(output, ensure_ascii=False, indent=1)
        return {"type": "tool_result", "tool_use_id": block.id, "content": [{"type": "text", "text": text}]}

    return [answer(b) for b in content if b.type == "tool_use"]


def agent_right_while_true(client, user_input, tools, impls):
    messages = [{"role": "user", "content": user_input}]
    while True:
        response = _create(client, tools, messages)
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            return "".join(b.text for b in response.content if b.type == "text")
        messages.append({"role": "user", "content": good_run_tools(response.content, impls)})


def step_right_match(response):
    match response.stop_reason:
        case "tool_use":
            return "run_tools"
        case "pause_turn":
            return "resend"
        case "end_turn" | "stop_sequence":
            return "finish"
        case _:
            return "stop"


def sig_right_tuples(content):  # a sorted list of (name, input as sorted JSON), as its repr
    return repr(sorted((b.name, json.dumps(b.input, sort_keys=True)) for b in content if b.type == "tool_use"))


def sig_right_compact(content):
    calls = [{"name": b.name, "input": b.input} for b in content if b.type == "tool_use"]
    calls.sort(key=lambda c: json.dumps(c, sort_keys=True))
    return json.dumps(calls, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def approve_right_flagged(content, impls, approve):
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        allowed = block.name not in HIGH_IMPACT or approve(block.name, block.input)
        if not allowed:
            results.append(_denied(block))
            continue
        try:
            results.append(_result(block, impls[block.name](**block.input)))
        except Exception as err:
            results.append(_error(block, err))
    return results


def approve_right_closed(content, impls, approve):  # an approval that cannot be had is a no
    def allowed(name, given):
        try:
            return approve(name, given)
        except Exception:
            return False

    return good_run_tool_uses(content, impls, allowed)


def read_right_commonpath(path, root="."):
    import os

    base = os.path.realpath(root)
    target = os.path.realpath(os.path.join(base, path))
    if os.path.commonpath([base, target]) != base:
        raise PermissionError(f"{path} はルートの外です")
    with open(target, encoding="utf-8") as f:
        return f.read(2000)


def read_right_relative_to(path, root="."):
    base = Path(root).resolve()
    target = (base / path).resolve()
    try:
        target.relative_to(base)
    except ValueError:
        raise PermissionError(path) from None
    return target.read_text(encoding="utf-8")[:2000]
