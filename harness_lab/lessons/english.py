"""The references an English notebook hands out: the same code as the Japanese references, in English.

A learner who has not written a piece yet runs the reference (``lessons.use``), reads it
(``lessons.show``) and sees what it says when it stops. In an English kernel these twins stand in, so
neither their comments nor their stop messages are Japanese. Their code must stay token for token
the Japanese code, strings and comments aside (tests/lessons/test_english_references.py).
"""

from __future__ import annotations

from ..model import DEFAULT_MODEL
from .lesson3 import next_step
from .lesson4 import signature_of
from .lesson5 import run_tool_uses
from .protocol import finished, stopped, turn

__all__ = ["run_agent", "stop_message"]

MODEL = DEFAULT_MODEL
MAX_TURNS = 8  # valve 1: max turns (lesson 3, stop conditions)
TOKEN_BUDGET = 40_000  # valve 2: running token budget (lesson 4, budget burnout)


def run_agent(client, user_input, tools, tool_impls, approve=None):
    """Lesson 6's runAgent: the bare loop with four valves, yielding once per turn"""
    messages = [{"role": "user", "content": user_input}]
    turns, tokens_used, last_signature = 0, 0, None
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    tokens_used += (
        response.usage.input_tokens
        + (response.usage.cache_creation_input_tokens or 0)
        + (response.usage.cache_read_input_tokens or 0)
        + response.usage.output_tokens
    )  # valve 2: every token used, prompt caching's cache writes and reads too (None as 0)
    step = next_step(response)  # lesson 3: "run_tools" / "resend" / "finish" / "stop"
    while step in ("run_tools", "resend"):
        if turns >= MAX_TURNS:  # valve 1: at the top of the body, before turns += 1
            return stopped(
                "max_turns",
                f"Reached the maximum of {MAX_TURNS} turns, so the harness stopped itself",
                turns,
                tokens_used,
            )
        if tokens_used >= TOKEN_BUDGET:  # valve 2: stop once the running total reaches the ceiling
            return stopped(
                "token_budget",
                f"Reached the token budget of {TOKEN_BUDGET}, so the harness stopped itself",
                turns,
                tokens_used,
            )
        turns += 1
        results = []
        if step == "run_tools":
            signature = signature_of(response.content)  # valve 3: the same calls as the turn before means spinning
            if signature == last_signature:
                return stopped(
                    "no_progress", f"The same tool calls two turns in a row ({signature})", turns, tokens_used
                )
            last_signature = signature
            results = run_tool_uses(response.content, tool_impls, approve or (lambda name, given: False))  # valve 4
        messages.append({"role": "assistant", "content": response.content})  # as it is, pause_turn included
        if results:
            messages.append({"role": "user", "content": results})
        yield turn(turns, response, results)  # one turn done: the Stepper pauses here
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
        tokens_used += (
            response.usage.input_tokens
            + (response.usage.cache_creation_input_tokens or 0)
            + (response.usage.cache_read_input_tokens or 0)
            + response.usage.output_tokens
        )
        step = next_step(response)
    if step == "finish":
        return finished(response, turns, tokens_used)
    return stopped(response.stop_reason, f"The loop stopped on stop_reason {response.stop_reason}", turns, tokens_used)


def stop_message(response):
    """The stop message for the person when the response stops the loop; None when it does not"""
    text = "".join(b.text for b in response.content if b.type == "text")  # the answer written so far
    if response.stop_reason == "refusal":
        details = response.stop_details  # a category and an explanation; either may be missing
        category = (details.category if details else None) or "no category"
        explanation = (details.explanation if details else None) or "no explanation given"
        return f"The model declined this request ({category}): {explanation}"
    if response.stop_reason == "model_context_window_exceeded":
        return f"The context window filled up and the answer was cut off. The answer so far: {text}"
    if response.stop_reason == "max_tokens":
        return f"The answer hit max_tokens and was cut off. The answer so far: {text}"
    return None  # tool_use / pause_turn go on; end_turn and the like finish with the answer
