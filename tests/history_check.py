"""Is a history valid to send again, and is every tool_use answered exactly once?

Shared by the harness tests and the reliability suite. It uses the emulator's own request validation
(the same 400s the real API sends) plus a stricter pairing check of our own, so a history that the API
would merge or tolerate but that breaks the harness's promise (one result per tool_use, first in the
next message, in call order) still fails here.
"""

from __future__ import annotations

from harness_lab.emulator.validate import validate
from harness_lab.messages import field, tool_calls

MODEL = "claude-sonnet-5"


def blocks(message: dict) -> list:
    content = message.get("content")
    return [] if isinstance(content, str) else list(content)


def history_problems(messages: list, tools: list[dict]) -> list[str]:
    """Everything wrong with ``messages`` as a history to send again (empty list: it is fine)."""
    problems = []
    messages = list(messages)
    # A history that ends with the model's answer is resent with a follow-up question; sent bare it
    # would be a prefill, which is a different request.
    follow_up = [{"role": "user", "content": "続けて"}] if messages and messages[-1]["role"] == "assistant" else []
    request = {"model": MODEL, "max_tokens": 64, "messages": messages + follow_up}
    if tools:
        request["tools"] = tools
    error, _ = validate(request)
    if error is not None:
        problems.append(f"the API would refuse it: {error.message}")
    seen: dict[str, int] = {}
    for index, message in enumerate(messages):
        for block in blocks(message):
            if field(block, "type") == "tool_result":
                key = field(block, "tool_use_id")
                seen[key] = seen.get(key, 0) + 1
        if message["role"] != "assistant":
            continue
        ids = [c["id"] for c in tool_calls(message["content"])]
        if not ids:
            continue
        following = messages[index + 1] if index + 1 < len(messages) else None
        if following is None or following["role"] != "user":
            problems.append(f"messages.{index}: tool_use with no user message after it")
            continue
        leading = [field(b, "tool_use_id") for b in blocks(following)[: len(ids)]]
        if leading != ids:
            problems.append(f"messages.{index + 1}: results {leading} do not answer {ids} first and in order")
    problems += [f"{key} answered {n} times" for key, n in seen.items() if n != 1]
    return problems
