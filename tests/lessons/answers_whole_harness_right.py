"""Round seventeen's right whole harnesses (lesson 6's ``run_agent``) in other styles than the reference's,
each of which must pass: Ctrl-C stopped or let out, the results in a user message each, threads that keep
the calls' order, a comprehension, while True, match, a dataclass for the run's state."""

from __future__ import annotations

from tests.lessons.answers6 import variant
from tests.lessons.answers_whole_harness import (
    FAILED,
    GATE,
    INLINE,
    LOOP_HEAD,
    RUN,
    RUN_IT,
    SENT,
    VALVE_1,
    WHILE_TRUE_LATE,
    inline,
)

# The turn's calls answered by worker threads, each refused call answered where it stands.
THREADED = """            from concurrent.futures import ThreadPoolExecutor

            def one(b):
                if b.name in HIGH_IMPACT and not (approve is not None and approve(b.name, b.input)):
                    return {"type": "tool_result", "tool_use_id": b.id, "content": "拒否されました", "is_error": True}
                try:
                    return {"type": "tool_result", "tool_use_id": b.id, "content": str(tool_impls[b.name](**b.input))}
                except Exception as err:
                    return {"type": "tool_result", "tool_use_id": b.id, "content": f"失敗: {err}", "is_error": True}

            calls = [b for b in response.content if b.type == "tool_use"]
            with ThreadPoolExecutor() as pool:
"""


RIGHT_RUN_AGENT_ROUND_17 = [
    INLINE,
    # Ctrl-C caught and the run stopped: no further request.
    variant(
        (
            RUN,
            "            try:\n    "
            + RUN
            + '            except KeyboardInterrupt:\n                return lessons.stopped("interrupted", "Ctrl-C で中断しました", turns, tokens_used)\n',
        )
    ),
    # Ctrl-C let out after the interrupted turn is put in the history, as the package's Run does.
    inline(
        (
            FAILED,
            """                except KeyboardInterrupt:
                    results.append({"type": "tool_result", "tool_use_id": block.id, "content": "中断", "is_error": True})
                    messages.append({"role": "assistant", "content": response.content})
                    messages.append({"role": "user", "content": results})
                    raise
"""
            + FAILED,
        )
    ),
    # Each result in a user message of its own: the API merges consecutive user messages into one turn.
    variant(
        (
            "        if results:\n" + SENT,
            '        for result in results:\n            messages.append({"role": "user", "content": [result]})\n',
        )
    ),
    # Threads whose map keeps the calls' order.
    inline((LOOP_HEAD + GATE + RUN_IT, THREADED + "                results = list(pool.map(one, calls))\n")),
    # The results by a comprehension over a helper that says no unless it hears a yes.
    inline(
        (
            LOOP_HEAD + GATE + RUN_IT,
            """            def answer(block):
                if block.name in HIGH_IMPACT and (approve is None or approve(block.name, block.input) is not True):
                    return {"type": "tool_result", "tool_use_id": block.id, "content": "人が拒否しました", "is_error": True}
                try:
                    return {"type": "tool_result", "tool_use_id": block.id, "content": str(tool_impls[block.name](**block.input))}
                except Exception as err:
                    return {"type": "tool_result", "tool_use_id": block.id, "content": repr(err), "is_error": True}

            results = [answer(b) for b in response.content if b.type == "tool_use"]
""",
        )
    ),
    # A while True that asks valve 1 at the top of the lap, before turns += 1.
    WHILE_TRUE_LATE.replace(
        "        if tokens_used >= TOKEN_BUDGET:", VALVE_1 + "        if tokens_used >= TOKEN_BUDGET:"
    ).replace(
        '        if turns > MAX_TURNS:\n            return lessons.stopped("max_turns", "上限", turns, tokens_used)\n',
        "",
    ),
    # match on next_step's word, one request per lap at the top.
    """
def run_agent(client, user_input, tools, tool_impls, approve=None):
    messages = [{"role": "user", "content": user_input}]
    turns = tokens_used = 0
    last_signature = None
    ask = approve or (lambda name, given: False)
    while True:
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
        u = response.usage
        tokens_used += u.input_tokens + u.output_tokens + (u.cache_creation_input_tokens or 0) + (u.cache_read_input_tokens or 0)
        match next_step(response):
            case "finish":
                return lessons.finished(response, turns, tokens_used)
            case "stop":
                return lessons.stopped(response.stop_reason, "止めました", turns, tokens_used)
            case step:
                if turns >= MAX_TURNS:
                    return lessons.stopped("max_turns", "上限", turns, tokens_used)
                if tokens_used >= TOKEN_BUDGET:
                    return lessons.stopped("token_budget", "予算", turns, tokens_used)
                turns += 1
                results = []
                if step == "run_tools":
                    if (signature := signature_of(response.content)) == last_signature:
                        return lessons.stopped("no_progress", "空回り", turns, tokens_used)
                    last_signature = signature
                    results = run_tool_uses(response.content, tool_impls, ask)
                messages.append({"role": "assistant", "content": response.content})
                if results:
                    messages.append({"role": "user", "content": results})
                yield lessons.turn(turns, response, results)
""",
    # The run's state in a dataclass whose methods count the tokens and ask valves 1 and 2.
    """
from dataclasses import dataclass, field


@dataclass
class RunState:
    messages: list = field(default_factory=list)
    turns: int = 0
    tokens_used: int = 0
    last_signature: str | None = None

    def count(self, usage):
        fields = ("input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
        self.tokens_used += sum(getattr(usage, f) or 0 for f in fields)

    def valve(self):
        if self.turns >= MAX_TURNS:
            return "max_turns"
        if self.tokens_used >= TOKEN_BUDGET:
            return "token_budget"
        return None


def run_agent(client, user_input, tools, tool_impls, approve=None):
    state = RunState(messages=[{"role": "user", "content": user_input}])

    def send():
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=state.messages)
        state.count(response.usage)
        return response

    response = send()
    step = next_step(response)
    while step in ("run_tools", "resend"):
        if cause := state.valve():
            return lessons.stopped(cause, f"{cause} で止めました", state.turns, state.tokens_used)
        state.turns += 1
        results = []
        if step == "run_tools":
            signature = signature_of(response.content)
            if signature == state.last_signature:
                return lessons.stopped("no_progress", "空回り", state.turns, state.tokens_used)
            state.last_signature = signature
            results = run_tool_uses(response.content, tool_impls, approve if approve else (lambda n, i: False))
        state.messages.append({"role": "assistant", "content": response.content})
        if results:
            state.messages.append({"role": "user", "content": results})
        yield lessons.turn(state.turns, response, results)
        response = send()
        step = next_step(response)
    if step == "finish":
        return lessons.finished(response, state.turns, state.tokens_used)
    return lessons.stopped(response.stop_reason, "止めました", state.turns, state.tokens_used)
""",
]
