"""The one piece of work every contender does: a scripted run of N tool rounds, then an answer.

Each round the scripted model calls two trivial tools (``add`` and ``echo``) with arguments that
change every round, so the no-progress valve sees real progress and never fires. The policy reads
the tool results it got back and checks them: a contender that runs the tools wrongly (or not at
all) gets a different final answer, so a broken run cannot pass for a fast one.
"""

from __future__ import annotations

from typing import Any

from harness_lab.emulator import call, reply, say

PROMPT = "1 から順に数えて、各ステップで add と echo を呼んでください"
MAX_TOKENS = 1024
# Fixed rather than read from HARNESS_LAB_MODEL: every contender must send the same request.
MODEL = "claude-sonnet-5"


def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def echo(text: str) -> str:
    """Return the text unchanged."""
    return text


TOOL_FUNCTIONS = {"add": add, "echo": echo}

# The API's tool definitions for the contenders that take raw schemas (the bare loop).
TOOL_DEFINITIONS = [
    {
        "name": "add",
        "description": "Add two integers.",
        "input_schema": {
            "type": "object",
            "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
            "required": ["a", "b"],
        },
    },
    {
        "name": "echo",
        "description": "Return the text unchanged.",
        "input_schema": {
            "type": "object",
            "properties": {"text": {"type": "string"}},
            "required": ["text"],
        },
    },
]


def final_text(rounds: int) -> str:
    """The answer a correct run of ``rounds`` tool rounds ends with."""
    return f"{rounds} ラウンドの結果をすべて確認しました"


def _result_text(block: dict) -> str:
    # Contenders encode results differently (JSON text, bare text, text blocks); compare the value.
    content = block.get("content")
    if isinstance(content, list):
        content = "".join(b.get("text", "") for b in content if isinstance(b, dict))
    return str(content).strip().strip('"')


def _assistant_count(messages: list[dict]) -> int:
    # Count runs of assistant messages, so a client that splits one reply in two still counts once.
    count, previous = 0, None
    for message in messages:
        if message["role"] == "assistant" and previous != "assistant":
            count += 1
        previous = message["role"]
    return count


def _results_ok(message: dict, round_no: int) -> bool:
    content = message.get("content")
    if message.get("role") != "user" or not isinstance(content, list):
        return False
    got = [_result_text(b) for b in content if isinstance(b, dict) and b.get("type") == "tool_result"]
    return got == [str(round_no + 1), f"r{round_no}"]


def policy(rounds: int):
    """A policy function for ``harness_lab.emulator``: ``rounds`` rounds of two calls, then the answer."""

    def respond(request: dict) -> Any:
        messages = request["messages"]
        done = _assistant_count(messages)
        if done and not _results_ok(messages[-1], done - 1):
            return say(f"ラウンド {done - 1} のツール結果が正しくありません")
        if done < rounds:
            return reply(call("add", a=done, b=1), call("echo", text=f"r{done}"))
        return say(final_text(rounds))

    return respond
