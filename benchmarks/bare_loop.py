"""The physical limit: the article's bare ``while`` loop on ``client.messages.create``.

It keeps ``response.content`` (SDK objects) in history exactly as the article does and has no
valves at all, so anything harness_lab costs beyond it is the price of the valves and events.
With ``plain_history`` the same loop keeps each block as a plain dict, as harness_lab's history
does: the SDK serialises dicts more cheaply than its own objects, so that variant shows how much of
harness_lab's margin over the article's loop is only the history's format.
"""

from __future__ import annotations

import json

from harness_lab.emulator import emulated_client

from . import workload
from .contender import Outcome, Prepared, scripted_emulator


def run_tools(response, functions) -> list[dict]:
    tool_results = []
    for block in response.content:
        if block.type != "tool_use":
            continue
        try:
            output = functions[block.name](**block.input)
            tool_results.append(
                {
                    "type": "tool_result",
                    "tool_use_id": block.id,
                    "content": json.dumps(output, ensure_ascii=False),
                    "is_error": False,
                }
            )
        except Exception as e:  # the article reports any tool failure back to the model
            tool_results.append(
                {
                    "type": "tool_result",
                    "tool_use_id": block.id,
                    "content": f"エラー: {e}",
                    "is_error": True,
                }
            )
    return tool_results


def run_conversation(
    client, user_message: str, tools: list, functions, plain_history: bool = False, thinking: dict | None = None
) -> tuple[str, int]:
    """The article's loop; returns the answer text and the number of tool rounds it ran."""
    messages = [{"role": "user", "content": user_message}]
    rounds = 0
    extra = {"thinking": thinking} if thinking else {}
    while True:
        response = client.messages.create(
            model=workload.MODEL,
            max_tokens=workload.MAX_TOKENS,
            messages=messages,
            tools=tools,
            **extra,
        )
        content = response.content
        if plain_history:  # converted the way harness_lab converts, so only the format differs
            content = [block.model_dump(mode="json", exclude_unset=True) for block in content]
        messages.append({"role": "assistant", "content": content})
        if response.stop_reason != "tool_use":
            break
        messages.append({"role": "user", "content": run_tools(response, functions)})
        rounds += 1
    return "\n".join(block.text for block in response.content if block.type == "text"), rounds


def prepare(rounds: int, plain_history: bool = False, thinking: dict | None = None) -> Prepared:
    emulator = scripted_emulator(rounds)
    client = emulated_client(emulator)

    def go() -> Outcome:
        text, done = run_conversation(
            client, workload.PROMPT, workload.TOOL_DEFINITIONS, workload.TOOL_FUNCTIONS, plain_history, thinking
        )
        return Outcome(text, done, len(emulator.requests))

    return go
