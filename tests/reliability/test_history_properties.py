"""Generated runs: whatever the model, the tools, the human and the network do, the run stays sound.

Hypothesis writes a script for the emulated model (several calls per turn, every stop_reason,
unknown tools), a set of tools that succeed, raise, hang past their timeout or flood their output,
an approver (a person answering through the generator, or a callback that may raise), Ctrl-C at a
random event or while the tools run (a real SIGINT, sent by a tool), valve limits,
API faults at random requests, steering messages and resumes after a stop. After every turn and at
the end it checks:

- the history passes the emulator's validation and our stricter pairing (one result per tool_use,
  first in the next message, in call order), and each result is the one its own call produced;
- no call runs unless it was allowed: denied, forbidden, unknown and cut-off calls never enter a tool;
- the usage the run reports equals the sum of its turns and what the emulator billed, recomputed
  independently from the recorded requests;
- no steering text is lost or sent twice; a stopped run resumes to a valid history.

``derandomize=True`` keeps CI reproducible. The number of runs is tests/examples.py's (``ci`` or ``full``);
test_mutations_are_caught.py checks that the ``ci`` count still catches the known bugs.
"""

from __future__ import annotations

import gc
import threading
from collections import Counter

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from invariants import assert_valid_history, billed_usage, results_by_id

from harness_lab.emulator import Emulator, emulated_client
from harness_lab.events import ApprovalRequest, Decision, Finished, Stopped, Turn, Usage, allow, deny
from harness_lab.loop import Run
from harness_lab.messages import field, tool_calls
from harness_lab.text import t
from harness_lab.tools import MAX_RESULT_CHARS, ToolError, execution, tool
from harness_lab.valves import Approval, MaxTurns, NoProgress, Policy, TokenBudget
from tests.ctrl_c import press_ctrl_c_while_the_main_thread_waits
from tests.examples import examples
from tests.script_strategies import replies as replies_over

# Weighted by repetition: most calls succeed, the rest cover every way a call can go wrong.
NAMES = ["ok", "ok", "ok", "boom", "oops", "gate", "gate", "banned", "ghost", "slow", "huge", "halt", "deep"]
STOPS = [
    None,
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
POLICY = {
    "ok": "allow",
    "boom": "allow",
    "oops": "allow",
    "slow": "allow",
    "huge": "allow",
    "halt": "allow",
    "deep": "allow",
    "banned": "deny",
    "gate": "ask",
}
RUN_ANYWAY = ("ok", "boom", "oops", "slow", "huge", "halt", "deep")  # allowed by POLICY: they run when their turn does
STOP_VALVES = {
    "max_turns",
    "token_budget",
    "no_progress",
    "api_error",
    "max_tokens",
    "refusal",
    "model_context_window_exceeded",
    "interrupted",
}
SLOW_TIMEOUT = 0.02
HUGE = 25_000
ANSWERS = [True, False, None, allow(), deny("やめて"), "yes", "no", 1, "allow "]


replies = replies_over(NAMES, STOPS)
# The first reply always works with tools, so most runs get past turn one before anything breaks.
working = replies_over(NAMES, [None, None, "tool_use", "pause_turn"], texts=("", "考えます"), min_calls=1)
scripts = st.builds(lambda first, rest: [first, *rest], working, st.lists(replies, max_size=5))
faults = st.dictionaries(
    st.integers(1, 12), st.sampled_from(["429", "500", "529", "connection", "timeout"]), max_size=3
)


class Tools:
    """Spy tools: each writes down every input it was entered with."""

    def __init__(self) -> None:
        self.entered: Counter = Counter()
        self.release = threading.Event()  # lets abandoned "slow" and "halt" threads end once the run is over
        self.halted = threading.Lock()  # taken by the first "halt" call: Ctrl-C comes once per run

        def make(name, behave, **options):
            def body(n_: int = 0, doc: dict | None = None):
                self.entered[(name, n_)] += 1
                return behave(n_)

            return tool(body, name=name, description=f"{name} tool", **options)

        def boom(n):
            raise RuntimeError(f"boom {n}")

        def oops(n):
            raise ToolError(f"oops {n}")

        def slow(n):
            self.release.wait(5)
            return f"slow:{n}"

        def halt(n):  # Ctrl-C lands while this call (and any sibling) is still running
            if self.halted.acquire(blocking=False):
                # No collection until the run ends: hypothesis times the garbage collector with a
                # callback, and a KeyboardInterrupt raised inside a gc callback is dropped.
                gc.disable()
                press_ctrl_c_while_the_main_thread_waits()
                self.release.wait(5)
            return f"halt:{n}"

        self.list = [
            make("ok", lambda n: f"ok:{n}"),
            make("boom", boom),
            make("oops", oops),
            make("gate", lambda n: {"gate": n, "set": {n}}, high_impact=True),  # a set is not JSON
            make("banned", lambda n: f"banned:{n}"),
            make("slow", slow, timeout=SLOW_TIMEOUT),
            make("huge", lambda n: str(n) * HUGE),
            make("halt", halt),
            make("deep", lambda n: f"deep:{n}"),  # its input is deeper than pydantic serializes
        ]
        self.definitions = [one.definition for one in self.list]

    def finish(self) -> None:
        self.release.set()
        gc.enable()


class Observer:
    """Drives one run like a notebook would and keeps what the checks need."""

    def __init__(self, run: Run, tools: Tools, answers: list, steer: bool, interrupt: int | None = None) -> None:
        self.run, self.tools, self.answers, self.steer = run, tools, answers, steer
        self.interrupt = interrupt  # the event number at which Ctrl-C arrives (once)
        self.turns: list[Turn] = []
        self.decided: dict[str, bool] = {}  # tool_use id -> allowed, for every call a human decided
        self.steered: list[str] = []
        self.asks = 0

    def decide(self, request: ApprovalRequest, allowed: bool) -> None:
        assert request.tool_use_id not in self.decided, "asked twice about one tool_use id"
        self.decided[request.tool_use_id] = allowed

    def drive(self, gen):
        event = next(gen)
        seen = 0
        while isinstance(event, (Turn, ApprovalRequest)):
            seen += 1
            interrupting = seen == self.interrupt
            answer = None
            if isinstance(event, ApprovalRequest):
                assert event.name == "gate"
                if not interrupting:
                    answer = self.answers[self.asks % len(self.answers)]
                    self.asks += 1
                    self.decide(event, Decision.coerce(answer).allowed)
            else:
                self.turns.append(event)
                assert_valid_history(self.run.messages, self.tools.definitions)
                if self.steer and len(self.turns) % 2:
                    text = f"指示{len(self.steered)}"
                    self.steered.append(text)
                    self.run.steer(text)
            if interrupting:  # Ctrl-C instead of an answer or the next step
                self.interrupt = None
                event = gen.throw(KeyboardInterrupt())
                assert isinstance(event, Stopped) and event.cause == "interrupted"
                # Decisions of the interrupted turn were never acted on; that turn will ask again.
                kept = set(results_by_id(self.run.messages))
                self.decided = {k: v for k, v in self.decided.items() if k in kept}
                break
            event = gen.send(answer)
        assert isinstance(event, (Finished, Stopped))
        assert_valid_history(self.run.messages, self.tools.definitions)
        return event


def check_run(observer: Observer, end, script, emulator: Emulator) -> None:
    run, tools = observer.run, observer.tools
    state = run.state
    assert_valid_history(run.messages, tools.definitions)

    # The end event tells the same story as the state.
    assert end.turns == state.turns and end.usage == state.usage
    assert list(end.messages) == run.messages
    if isinstance(end, Finished):  # "tool_use" with no tool_use block has nothing left to do: finished
        assert end.stop_reason in ("end_turn", "stop_sequence") or (
            end.stop_reason == "tool_use" and not tool_calls(end.messages[-1]["content"])
        )
    else:
        assert end.cause in STOP_VALVES, end.cause

    # Usage: the sum of the turns, and what the emulator billed for the requests it answered.
    assert state.usage == sum(state.turn_usage, Usage())
    billed, answered = billed_usage(script, emulator.requests)
    assert (state.usage, state.model_calls, len(state.turn_usage)) == (billed, answered, answered)
    for turn in observer.turns:  # each Turn reports its own call and the running total at that point
        assert turn.usage == state.turn_usage[turn.request_number - 1]
        assert turn.total == sum(state.turn_usage[: turn.request_number], Usage())
        assert len(turn.results) == len(tool_calls(turn.response.content))

    # Each result is its own call's, and only allowed calls ran. A call that Ctrl-C cut off, or that
    # timed out, may or may not have been entered, but it was allowed, and no resume ran it again.
    results = results_by_id(run.messages)
    expected, maybe = Counter(), Counter()
    for turn in observer.turns:
        for made, result in zip(tool_calls(turn.response.content), turn.results):
            assert result["tool_use_id"] == made["id"]
            assert results[made["id"]] == result
            ran = made["name"] in RUN_ANYWAY or (made["name"] == "gate" and observer.decided[made["id"]])
            key = (made["name"], made["input"]["n_"])
            # Cut off by Ctrl-C, or timed out before a worker got to it (then it never starts).
            if ran and result["content"] in (t("result.interrupted"), t("result.timeout", seconds=SLOW_TIMEOUT)):
                assert result["is_error"]
                maybe[key] += 1
                continue
            if ran and result["content"] == t("result.not_started", error=f"RuntimeError: {NO_THREAD}"):
                assert result["is_error"]  # its worker thread could not start: it never ran
                continue
            check_result(made, result, observer.decided)
            if ran:
                expected[key] += 1
    # "banned" and denied "gate" calls never entered, cut-off calls neither
    assert expected <= tools.entered <= expected + maybe, (expected, maybe, tools.entered)
    asked = {
        made["id"] for turn in observer.turns for made in tool_calls(turn.response.content) if made["name"] == "gate"
    }
    assert set(observer.decided) == asked  # every gated call that ran its turn was decided exactly once

    # Steering: each text went out once, right after tool results, or is still waiting.
    for text in observer.steered:
        sent = [
            m
            for m in run.messages
            if m["role"] == "user"
            and not isinstance(m["content"], str)
            and any(field(b, "text") == text for b in m["content"])
        ]
        waiting = state.pending_user.count(text)
        assert len(sent) + waiting == 1, (text, len(sent), waiting)


def check_result(made: dict, result: dict, decided: dict) -> None:
    name, n, text, is_error = made["name"], made["input"]["n_"], result["content"], result.get("is_error", False)
    if name == "ok":
        assert (text, is_error) == (f"ok:{n}", False)
    elif name == "boom":
        assert is_error and f"RuntimeError: boom {n}" in text
    elif name == "oops":
        assert is_error and f"oops {n}" in text
    elif name == "slow":
        assert is_error and text == t("result.timeout", seconds=SLOW_TIMEOUT)
    elif name == "huge":
        assert not is_error and text.startswith(str(n) * 100)
        assert len(text) < MAX_RESULT_CHARS + 200 and text.endswith(
            t("result.truncated", limit=MAX_RESULT_CHARS, total=HUGE)
        )
    elif name == "halt":
        assert (text, is_error) == (f"halt:{n}", False)
    elif name == "deep":
        assert (text, is_error) == (f"deep:{n}", False)
    elif name == "banned":
        assert is_error and text == t("result.forbidden", name="banned")
    elif name == "ghost":
        assert is_error and "ghost" in text
    elif name == "gate":
        if decided[made["id"]]:
            assert not is_error and f'"gate": {n}' in text
        else:
            assert is_error


def build_run(script, tools, limit, no_progress, budget, fault_plan, retries, approver=None):
    emulator = Emulator(script, faults=fault_plan)
    client = emulated_client(emulator, max_retries=retries)
    valves = [MaxTurns(limit), Approval(Policy(POLICY, default="ask"), approver=approver)]
    if no_progress:
        valves.append(NoProgress(window=no_progress))
    if budget:
        valves.append(TokenBudget(budget[0], preflight=budget[1]))
    return Run(client, tools.list, valves, tool_timeout=5), emulator


def tally(observer: Observer, end) -> None:
    """What this generated run went through (``--hypothesis-show-statistics`` prints the shares)."""
    event(f"first end: {getattr(end, 'cause', None) or end.stop_reason}")
    calls = [made["name"] for turn in observer.turns for made in tool_calls(turn.response.content)]
    event(f"tool calls answered: {min(len(calls), 10)}{'+' if len(calls) >= 10 else ''}")
    for name in sorted(set(calls)):
        event(f"saw a {name} call")
    if observer.decided:
        event("a human decided a gated call")
    if observer.steered:
        event("steered")


def resume_and_check(observer: Observer, end, script, emulator: Emulator, limit: int):
    """Raise every limit, clear the faults and go on: the same run must stay sound."""
    run = observer.run
    tally(observer, end)
    if emulator.faults:
        event("API faults scheduled")
    if isinstance(end, Stopped) or run.state.pending_user:
        event("resumed")
        emulator.faults.clear()
        run.valves = [MaxTurns(limit + 4), run.valves[1]]
        end = observer.drive(run.resume())
        check_run(observer, end, script, emulator)
    return end


def run_settings(name: str) -> settings:
    return settings(
        max_examples=examples(name),
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


# Settings and strategies by name, so test_mutations_are_caught.py searches the very same runs.
ASKED_SETTINGS = run_settings("history_asked")  # a person at the Stepper, answering through the generator
ASKED_RUNS = {
    "script": scripts,
    "limit": st.integers(1, 5),
    "no_progress": st.sampled_from([None, 2, 3]),
    "budget": st.one_of(st.none(), st.tuples(st.integers(1000, 12000), st.booleans())),
    "answers": st.lists(st.sampled_from(ANSWERS), min_size=1, max_size=4),
    "fault_plan": st.one_of(st.none(), faults),
    "retries": st.integers(0, 2),
    "steer": st.booleans(),
    "interrupt": st.one_of(st.none(), st.none(), st.integers(1, 6)),
    "no_thread": st.one_of(st.none(), st.none(), st.integers(1, 4)),
}


@ASKED_SETTINGS
@given(**ASKED_RUNS)
def test_runs_answered_through_the_generator_stay_sound(
    script, limit, no_progress, budget, answers, fault_plan, retries, steer, interrupt, no_thread
):
    tools = Tools()
    run, emulator = build_run(script, tools, limit, no_progress, budget, fault_plan, retries)
    observer = Observer(run, tools, answers, steer, interrupt)
    with pytest.MonkeyPatch.context() as patch:
        if no_thread:  # the no_thread-th worker thread of the run cannot start (a fresh pool starts one a call)
            event("a worker thread could not start")
            patch.setattr(execution, "_POOL", execution._Pool(execution.MAX_THREADS))
            patch.setattr(threading.Thread, "start", failing_start(no_thread))
        try:
            end = observer.drive(run.start("やって"))
            check_run(observer, end, script, emulator)
            resume_and_check(observer, end, script, emulator, limit)
        finally:
            tools.finish()


NO_THREAD = "can't start new thread"


def failing_start(nth: int):
    real, count = threading.Thread.start, {"n": 0}

    def start(thread):
        if thread.name == "harness_lab-tool":
            count["n"] += 1
            if count["n"] == nth:
                raise RuntimeError(NO_THREAD)
        return real(thread)

    return start


class FlakyApprover:
    """An approver callback that answers from a list, and raises on ``"raise"``."""

    def __init__(self, observer_box: list, answers: list) -> None:
        self.box, self.answers, self.calls = observer_box, answers, 0

    def __call__(self, request: ApprovalRequest):
        answer = self.answers[self.calls % len(self.answers)]
        self.calls += 1
        observer = self.box[0]
        if answer == "raise":
            observer.decide(request, False)  # fail closed: a broken approver denies
            raise RuntimeError("approver broke")
        observer.decide(request, Decision.coerce(answer).allowed)
        return answer


CALLBACK_SETTINGS = run_settings("history_callback")  # an approver callback, with more API faults
CALLBACK_RUNS = {
    "script": scripts,
    "limit": st.integers(1, 6),
    "no_progress": st.sampled_from([None, 2]),
    "budget": st.one_of(st.none(), st.tuples(st.integers(1500, 15000), st.booleans())),
    "answers": st.lists(st.sampled_from([*ANSWERS, "raise"]), min_size=1, max_size=4),
    "fault_plan": faults,
    "retries": st.integers(0, 2),
}


@CALLBACK_SETTINGS
@given(**CALLBACK_RUNS)
def test_runs_with_an_approver_callback_and_api_faults_stay_sound(
    script, limit, no_progress, budget, answers, fault_plan, retries
):
    tools = Tools()
    box: list = []
    run, emulator = build_run(
        script, tools, limit, no_progress, budget, fault_plan, retries, approver=FlakyApprover(box, answers)
    )
    observer = Observer(run, tools, ["no"], steer=False)
    box.append(observer)
    try:
        end = observer.drive(run.start("やって"))
        assert observer.asks == 0  # the callback answered every ask; the generator never paused
        check_run(observer, end, script, emulator)
        resume_and_check(observer, end, script, emulator, limit)
    finally:
        tools.finish()
