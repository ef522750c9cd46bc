"""What must hold after any run, whatever went wrong in it (shared by the reliability suite).

The history check itself lives in ``tests/history_check.py`` (the harness tests use it too); this
module adds what only the reliability suite needs: results by id and the usage the emulator billed.
"""

from __future__ import annotations

from harness_lab.emulator import Emulator
from harness_lab.events import Usage
from harness_lab.messages import field
from tests.history_check import MODEL, blocks, history_problems  # noqa: F401  (re-exported for the suite)


def assert_valid_history(messages: list, tools: list[dict]) -> None:
    problems = history_problems(messages, tools)
    assert not problems, problems


def results_by_id(messages: list) -> dict[str, dict]:
    """Every tool_result in the history, by the tool_use id it answers."""
    found = {}
    for message in messages:
        if message["role"] == "user":
            for block in blocks(message):
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
