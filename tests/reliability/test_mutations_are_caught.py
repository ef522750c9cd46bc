"""Can the generated runs fail? Each test breaks the package one known way and searches for a failing run.

The search is the property test itself: its own strategies, its own settings (so this profile's count,
tests/examples.py, and the same derandomized runs CI makes), with shrinking left out, since finding a
failure is all that is asked here. If a mutation is not caught within the ``ci`` count, that count is
too low: raise it in tests/examples.py, do not drop the mutation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anthropic
import pytest
import test_api_fault_runs as fault_runs
import test_history_properties as history
from hypothesis import Phase, given, settings

from harness_lab import loop
from harness_lab.state import RunState
from harness_lab.valves.approval import Policy


def search(test: Any, strategies: dict, base: settings, **fixed: Any) -> None:
    """Run ``test``'s body over its own generated examples; raises what the first failing example raised."""
    # The inner function is passed unchanged: derandomize seeds from it, so these are the runs CI makes.
    without_shrinking = settings(base, phases=[Phase.generate])
    without_shrinking(given(**strategies)(test.hypothesis.inner_test))(**fixed)


def assert_caught(expected: str, *target: Any, **fixed: Any) -> None:
    """The search fails, and at the check meant for this bug (``expected``: part of that assert or its message)."""
    with pytest.raises(AssertionError) as caught:
        search(*target, **fixed)
    check = f"{caught.traceback[-1].statement} {caught.value}"
    assert expected in check, f"caught by another check than {expected!r}: {check[:500]}"


ASKED = (history.test_runs_answered_through_the_generator_stay_sound, history.ASKED_RUNS, history.ASKED_SETTINGS)
CALLBACK = (
    history.test_runs_with_an_approver_callback_and_api_faults_stay_sound,
    history.CALLBACK_RUNS,
    history.CALLBACK_SETTINGS,
)


# -- the four mutations of the loop that docs/reliability.md names -----------------------------------


def every_tier_allows(patch: pytest.MonkeyPatch) -> None:
    patch.setattr(Policy, "tier", lambda self, name, tool_input=None, high_impact=False: "allow")


def steering_dropped(patch: pytest.MonkeyPatch) -> None:
    commit = RunState.commit

    def forgetful(self: RunState, results: list) -> None:
        self.pending_user = []  # the instructions never reach the message that carries the results
        commit(self, results)

    patch.setattr(RunState, "commit", forgetful)


def second_call_counted_twice(patch: pytest.MonkeyPatch) -> None:
    receive = RunState.receive

    def double(self: RunState, response: Any) -> None:
        receive(self, response)
        if self.model_calls == 2:
            self.usage += self.turn_usage[-1]

    patch.setattr(RunState, "receive", double)


def results_reversed(patch: pytest.MonkeyPatch) -> None:
    run_tool_uses = loop.run_tool_uses

    def reversed_order(*args: Any, **kwargs: Any):
        results = yield from run_tool_uses(*args, **kwargs)
        return results[::-1]

    patch.setattr(loop, "run_tool_uses", reversed_order)


# name: (the mutation, the check that must catch it)
Mutations = dict[str, tuple[Callable[[pytest.MonkeyPatch], None], str]]
LOOP_MUTATIONS: Mutations = {
    "every tier forced to allow": (every_tier_allows, 'name="banned"'),  # a forbidden call ran
    "steering texts dropped": (steering_dropped, "len(sent) + waiting == 1"),  # one went missing
    "one model call's usage counted twice": (second_call_counted_twice, "sum(state.turn_usage"),
    "a turn's results in reverse order": (results_reversed, "do not answer"),  # the pairing check
}


@pytest.mark.parametrize("name", LOOP_MUTATIONS)
def test_runs_answered_through_the_generator_catch(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    mutate, expected = LOOP_MUTATIONS[name]
    mutate(monkeypatch)
    assert_caught(expected, *ASKED)


@pytest.mark.parametrize("name", [n for n in LOOP_MUTATIONS if n != "steering texts dropped"])  # no steering there
def test_runs_with_an_approver_callback_catch(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    mutate, expected = LOOP_MUTATIONS[name]
    mutate(monkeypatch)
    assert_caught(expected, *CALLBACK)


# -- what API faults can break: a failed request billed, a stop that loses a message -----------------------------


def failed_request_counted(patch: pytest.MonkeyPatch) -> None:
    query = loop.Run.query

    def counting(self: loop.Run) -> Any:
        try:
            return query(self)
        except anthropic.APIError:
            self.state.model_calls += 1  # counted as a call although no answer came back
            raise

    patch.setattr(loop.Run, "query", counting)


def stop_loses_the_last_message(patch: pytest.MonkeyPatch) -> None:
    stopped = RunState.stopped

    def losing(self: RunState, cause: str, reason: str, drop: bool = False):
        if cause == "api_error" and len(self.messages) > 1:
            self.messages.pop()
        return stopped(self, cause, reason, drop)

    patch.setattr(RunState, "stopped", losing)


FAULT_MUTATIONS: Mutations = {
    "a failed request counted as a model call": (failed_request_counted, "run.state.model_calls == answered"),
    "an api_error stop loses the last message": (stop_loses_the_last_message, "without `tool_result`"),
}


@pytest.mark.parametrize("name", FAULT_MUTATIONS)
def test_fault_schedules_catch(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    baseline = fault_runs.fault_free_run()  # before the mutation: the history a sound run reaches
    mutate, expected = FAULT_MUTATIONS[name]
    mutate(monkeypatch)
    target = fault_runs.test_faults_stop_cleanly_and_resume_to_the_same_history
    assert_caught(expected, target, fault_runs.SCHEDULES, fault_runs.SCHEDULE_SETTINGS, baseline=baseline)
