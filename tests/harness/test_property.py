"""Property: whatever the model does, the history stays valid and every tool_use gets one result.

Hypothesis writes random scripts — several calls per turn, failing tools, unknown and forbidden
tools, approvals granted and refused, every stop_reason, API failures — and random valve limits.
After every turn and after the end, the history must pass the emulator's validation when sent
again; a stopped run must also resume to a valid history.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness_lab.emulator import Emulator, emulated_client
from harness_lab.events import ApprovalRequest, Stopped, Turn
from harness_lab.loop import Run
from harness_lab.tools import tool
from harness_lab.valves import Approval, MaxTurns, NoProgress, Policy, TokenBudget
from tests.examples import examples
from tests.history_check import history_problems
from tests.script_strategies import replies as replies_over

NAMES = ["ok", "boom", "gate", "banned", "ghost"]  # ghost is not wired: an unknown tool
STOPS = [
    None,
    None,
    None,
    "tool_use",
    "end_turn",
    "stop_sequence",
    "max_tokens",
    "pause_turn",
    "refusal",
    "model_context_window_exceeded",
]

replies = replies_over(NAMES, STOPS)


class Tools:
    def __init__(self):
        self.entered = {"ok": 0, "boom": 0, "gate": 0, "banned": 0}

        def make(name, fails=False):
            def body(n_: int = 0) -> str:
                self.entered[name] += 1
                if fails:
                    raise RuntimeError(f"{name} failed")
                return f"{name}:{n_}"

            return tool(body, name=name, description=name, high_impact=name == "gate")

        self.list = [make("ok"), make("boom", fails=True), make("gate"), make("banned")]
        self.definitions = [t.definition for t in self.list]


def drive(gen, decisions, steer, harness, tools, check):
    """Step the generator like a notebook would, checking the history after every turn."""
    allowed = 0
    event = next(gen)
    step = 0
    while isinstance(event, (Turn, ApprovalRequest)):
        step += 1
        answer = None
        if isinstance(event, ApprovalRequest):
            answer = decisions[step % len(decisions)]
            allowed += answer is True
        else:
            check(harness.messages)
            if steer and step % 2:
                harness.steer(f"指示{step}")
        event = gen.send(answer)
    check(harness.messages)
    return event, allowed


@settings(max_examples=examples("harness_property"), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    script=st.lists(replies, min_size=1, max_size=6),
    limit=st.integers(1, 5),
    no_progress=st.sampled_from([None, 2, 3]),
    budget=st.one_of(st.none(), st.tuples(st.integers(300, 4000), st.booleans())),
    decisions=st.lists(st.sampled_from([True, False, None]), min_size=1, max_size=4),
    fault=st.one_of(st.none(), st.integers(1, 6)),
    steer=st.booleans(),
)
def test_history_is_always_valid_and_every_call_answered_once(
    script, limit, no_progress, budget, decisions, fault, steer
):
    tools = Tools()
    emulator = Emulator(script, faults={fault: "500"} if fault else None)
    client = emulated_client(emulator, max_retries=0)
    valves = [MaxTurns(limit), Approval(Policy({"ok": "allow", "boom": "allow", "banned": "deny"}, default="ask"))]
    if no_progress:
        valves.append(NoProgress(window=no_progress))
    if budget:
        valves.append(TokenBudget(budget[0], preflight=budget[1]))
    harness = Run(client, tools.list, valves, tool_timeout=5)

    def check(messages):
        problems = history_problems(list(messages), tools.definitions)
        assert not problems, problems

    end, allowed = drive(harness.start("やって"), decisions, steer, harness, tools, check)
    assert tools.entered["banned"] == 0
    assert tools.entered["gate"] == allowed  # a refused call's function is never entered

    if isinstance(end, Stopped):  # raise every limit and go on: the same history must stay valid
        emulator.faults.clear()
        harness.valves = [MaxTurns(limit + 4), valves[1]]
        end, more = drive(harness.resume(), decisions, False, harness, tools, check)
        assert tools.entered["gate"] == allowed + more
