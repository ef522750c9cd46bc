"""What must hold after any run, whatever went wrong in it (shared by the reliability suite).

These checks use the emulator's own request validation (the same 400s the real API sends) plus a
stricter pairing check of our own, so a history that the API would merge or tolerate but that
breaks the harness's promise (one result per tool_use, first in the next message, in call order)
still fails here.
"""

from __future__ import annotations

from harness_lab.emulator import Emulator
from harness_lab.emulator.validate import validate
from harness_lab.events import Usage
from harness_lab.messages import field, tool_calls

MODEL = "claude-sonnet-5"


def _blocks(message: dict) -> list:
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
        for block in _blocks(message):
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
        leading = [field(b, "tool_use_id") for b in _blocks(following)[: len(ids)]]
        if leading != ids:
            problems.append(f"messages.{index + 1}: results {leading} do not answer {ids} first and in order")
    problems += [f"{key} answered {n} times" for key, n in seen.items() if n != 1]
    return problems


def assert_valid_history(messages: list, tools: list[dict]) -> None:
    problems = history_problems(messages, tools)
    assert not problems, problems


def results_by_id(messages: list) -> dict[str, dict]:
    """Every tool_result in the history, by the tool_use id it answers."""
    found = {}
    for message in messages:
        if message["role"] == "user":
            for block in _blocks(message):
                if field(block, "type") == "tool_result":
                    found[field(block, "tool_use_id")] = dict(block)
    return found


def billed_usage(script, requests: list[dict]) -> tuple[Usage, int]:
    """The usage a fresh emulator bills for the create requests it answered with 200, and their count.

    ``Emulator.respond`` is pure, so replaying the recorded bodies recomputes what the run was billed
    without trusting anything the run itself counted.
    """
    total, answered = Usage(), 0
    for body in requests:
        if "max_tokens" not in body:  # a count_tokens request (the preflight estimate): not billed
            continue
        status, _, answer = Emulator(script).respond(body)
        if status == 200:
            total, answered = total + Usage.of(answer["usage"]), answered + 1
    return total, answered
