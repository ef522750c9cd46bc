"""API faults at random requests: a run finishes, or stops with ``api_error`` and resumes to the same end.

The emulator fails chosen HTTP requests (429 / 500 / 529 with ``retry-after-ms: 1``, dropped
connections, timeouts); the SDK retries as it does against the real API. Whatever the schedule,
the run must never raise, must stop only with ``api_error`` and a valid history, and resuming
after each stop must reach exactly the history of a run that saw no fault: no tool runs twice, no
message is lost or doubled, and only the requests that got an answer are billed.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from invariants import assert_valid_history, billed_usage

from harness_lab.drain import drain
from harness_lab.emulator import Emulator, call, emulated_client, reply, say
from harness_lab.events import Finished, Stopped, Turn
from harness_lab.loop import Run
from harness_lab.text import lang, t
from harness_lab.tools import tool
from harness_lab.valves import MaxTurns, TokenBudget
from tests.examples import examples

KINDS = ["429", "500", "529", "connection", "timeout"]
SCRIPT = [
    reply("調べます", call("lookup", key="a"), call("lookup", key="b")),
    call("lookup", key="c"),
    reply(call("note", text="まとめ"), call("lookup", key="d")),
    say("a, b, c, d を調べてメモしました。"),
]


def make_tools(ran: Counter) -> list:
    @tool
    def lookup(key: str) -> str:
        """Look a key up."""
        ran[("lookup", key)] += 1
        return f"{key} の値"

    @tool
    def note(text: str) -> str:
        """Write a note."""
        ran[("note", text)] += 1
        return "メモしました"

    return [lookup, note]


def make_run(faults: dict | None, retries: int, preflight: bool, ran: Counter) -> tuple[Run, Emulator]:
    emulator = Emulator(SCRIPT, faults=faults)
    valves = [MaxTurns(10)] + ([TokenBudget(10**6, preflight=True)] if preflight else [])
    return Run(emulated_client(emulator, max_retries=retries), make_tools(ran), valves), emulator


def fault_free_run() -> tuple[Run, Counter]:
    ran: Counter = Counter()
    run, _emulator = make_run(None, 0, False, ran)
    end = drain(run.start("a から d まで調べてメモして"))
    assert isinstance(end, Finished)
    return run, ran


@pytest.fixture(scope="module")
def baseline():
    return fault_free_run()


# By name, so test_mutations_are_caught.py searches the very same schedules.
SCHEDULE_SETTINGS = settings(
    max_examples=examples("api_faults"),
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
SCHEDULES = {
    "faults": st.dictionaries(st.integers(1, 16), st.sampled_from(KINDS), min_size=1, max_size=8),
    "retries": st.integers(0, 2),
    "preflight": st.booleans(),
}


@SCHEDULE_SETTINGS
@given(**SCHEDULES)
def test_faults_stop_cleanly_and_resume_to_the_same_history(baseline, faults, retries, preflight):
    reference, reference_ran = baseline
    ran: Counter = Counter()
    run, emulator = make_run(faults, retries, preflight, ran)
    tools = [one.definition for one in run.tools.values()]
    gen = run.start("a から d まで調べてメモして")
    stops = 0
    while True:
        end = drain(gen)
        assert_valid_history(run.messages, tools)
        if isinstance(end, Finished):
            break
        assert isinstance(end, Stopped) and end.cause == "api_error", end
        assert end.reason.startswith(t("stop.api_error", error="")) and len(end.reason) < 2000
        stops += 1
        assert stops <= len(faults), "more api_error stops than faults scheduled"
        gen = run.resume()  # the faults stay scheduled: a later request may fail again
    assert run.messages == reference.messages  # nothing lost, nothing sent twice
    assert ran == reference_ran  # no tool ran twice because of a retry or a resume
    assert run.state.turns == reference.state.turns
    billed, answered = billed_usage(SCRIPT, emulator.requests)
    assert run.state.usage == billed == reference.state.usage
    assert run.state.model_calls == answered == reference.state.model_calls


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("turn", [1, 2, 3, 4])
def test_a_fault_that_outlasts_the_retries_is_an_api_error_stop_at_that_turn(kind, turn):
    """With 2 retries, three failures in a row at turn N stop the run there; resume finishes it."""
    ran: Counter = Counter()
    # Request numbers are 1-based and count retries: turn N's first attempt is request N.
    faults = {turn + i: kind for i in range(3)}
    run, _ = make_run(faults, 2, False, ran)
    events = []
    end = drain(run.start("a から d まで調べてメモして"), on_event=events.append)
    assert isinstance(end, Stopped) and end.cause == "api_error"
    assert sum(isinstance(e, Turn) for e in events) == turn - 1
    assert run.state.model_calls == turn - 1
    assert_valid_history(run.messages, [one.definition for one in run.tools.values()])
    assert isinstance(drain(run.resume()), Finished)


def test_the_stop_message_is_in_the_learners_language():
    ran: Counter = Counter()
    run, _ = make_run({1: "529"}, 0, False, ran)
    end = drain(run.start("a から d まで調べてメモして"))
    assert isinstance(end, Stopped) and end.cause == "api_error"
    assert "Overloaded" in end.reason or "529" in end.reason
    if lang() == "ja":
        assert any("\u3040" <= ch <= "\u30ff" for ch in end.reason)  # kana: the catalog's Japanese


def test_a_huge_error_page_makes_a_short_stop_message():
    """A proxy in front of the API may answer with megabytes of HTML; the stop a learner reads stays short."""
    import anthropic
    import httpx2

    page = "<html>" + "ゲートウェイ" * 400_000 + "</html>"
    client = anthropic.Anthropic(
        api_key="sk-test",
        base_url="https://api.example.invalid",
        max_retries=0,
        http_client=httpx2.Client(transport=httpx2.MockTransport(lambda request: httpx2.Response(502, text=page))),
    )
    end = drain(Run(client, make_tools(Counter())).start("調べて"))
    assert isinstance(end, Stopped) and end.cause == "api_error"
    assert "502" in end.reason and len(end.reason) < 1000
