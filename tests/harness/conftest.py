"""Shared checks for the harness tests: is a history valid to send again, and is every call answered?"""

from __future__ import annotations

import pytest

from harness_lab.emulator.validate import validate
from harness_lab.messages import field, tool_calls


def _ids_of_results(message: dict) -> list[str]:
    content = message["content"]
    if isinstance(content, str):
        return []
    return [field(b, "tool_use_id") for b in content if field(b, "type") == "tool_result"]


def history_problems(messages: list, tools: list[dict]) -> list[str]:
    """Everything wrong with ``messages``: the emulator's 400, and any tool_use not answered exactly once."""
    problems = []
    # A finished history ends with the model's answer; sending it again means asking a follow-up
    # (resent bare, it would be a prefill, which the API refuses when it ends with whitespace).
    follow_up = [{"role": "user", "content": "続けて"}] if messages and messages[-1]["role"] == "assistant" else []
    request = {"model": "claude-sonnet-5", "max_tokens": 64, "messages": messages + follow_up}
    if tools:
        request["tools"] = tools
    error, _ = validate(request)
    if error is not None:
        problems.append(f"emulator refuses it: {error}")
    answered: dict[str, int] = {}
    for index, message in enumerate(messages):
        for result_id in _ids_of_results(message):
            answered[result_id] = answered.get(result_id, 0) + 1
        if message["role"] != "assistant":
            continue
        ids = [c["id"] for c in tool_calls(message["content"])]
        if not ids:
            continue
        following = messages[index + 1] if index + 1 < len(messages) else None
        if following is None or following["role"] != "user":
            problems.append(f"messages.{index}: tool_use without a following user message")
            continue
        content = following["content"]
        leading = [field(b, "tool_use_id") for b in content[: len(ids)]]
        if leading != ids:
            problems.append(f"messages.{index + 1}: results {leading} do not answer {ids} first and in order")
    problems += [f"{i} answered {n} times" for i, n in answered.items() if n != 1]
    return problems


@pytest.fixture
def check_history():
    def check(messages: list, tools: list[dict] | None = None) -> None:
        problems = history_problems(list(messages), tools or [])
        assert not problems, problems

    return check
