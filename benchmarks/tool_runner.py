"""The SDK's own loop: ``client.beta.messages.tool_runner`` with ``@beta_tool`` functions.

``thread=False`` makes it resend the whole history each turn, as the course's loop does, so the
comparison is like with like. The default (a server-held beta thread) needs the server to keep the
conversation; ``threaded_unsupported()`` says why the emulator cannot, or None when it can.
"""

from __future__ import annotations

import json

from anthropic import beta_tool

from harness_lab.emulator import emulated_client

from . import workload
from .contender import Outcome, Prepared, scripted_emulator


# The runner sends a tool's return value as the tool_result content, which must be text or blocks:
# encode like the article does (json.dumps), so every contender does the same work per call.
@beta_tool
def add(a: int, b: int) -> str:
    """Add two integers."""
    return json.dumps(workload.add(a, b), ensure_ascii=False)


@beta_tool
def echo(text: str) -> str:
    """Return the text unchanged."""
    return json.dumps(workload.echo(text), ensure_ascii=False)


def prepare(rounds: int, threaded: bool = False) -> Prepared:
    """``threaded=False`` resends the history (like the course's loop); True uses the beta thread."""
    emulator = scripted_emulator(rounds)
    client = emulated_client(emulator)
    thread = {} if threaded else {"thread": False}

    def go() -> Outcome:
        runner = client.beta.messages.tool_runner(
            model=workload.MODEL,
            max_tokens=workload.MAX_TOKENS,
            messages=[{"role": "user", "content": workload.PROMPT}],
            tools=[add, echo],
            max_iterations=rounds + 1,
            **thread,
        )
        done, last = 0, None
        for message in runner:
            last = message
            done += message.stop_reason == "tool_use"
        text = "".join(b.text for b in last.content if b.type == "text")
        return Outcome(text, done, len(emulator.requests))

    return go


def threaded_unsupported() -> str | None:
    """Why the threaded (default) runner cannot run on the emulator, or None when it can."""
    import anthropic

    emulator = scripted_emulator(1)
    client = emulated_client(emulator, max_retries=0)
    try:
        runner = client.beta.messages.tool_runner(
            model=workload.MODEL,
            max_tokens=workload.MAX_TOKENS,
            messages=[{"role": "user", "content": workload.PROMPT}],
            tools=[add, echo],
            max_iterations=2,
        )
        last = None
        for last in runner:  # noqa: B007 (the last item is the outcome)
            pass
    except anthropic.APIStatusError as exc:
        detail = exc.body.get("error", {}).get("message") if isinstance(exc.body, dict) else exc.message
        return f"the emulator answers a threaded request with {exc.status_code} `{detail}`"
    if last is None or "".join(b.text for b in last.content if b.type == "text") != workload.final_text(1):
        return "the emulator does not keep threads: the threaded run did not finish the script"
    return None
