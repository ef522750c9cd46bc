"""The loop against the emulated client: stop_reason handling, tool rounds, stops and resume."""

from __future__ import annotations

import threading
import time

import pytest

from harness_lab.drain import drain, run
from harness_lab.emulator import call, reply, say
from harness_lab.events import Finished, Stopped, Turn
from harness_lab.loop import Run
from harness_lab.text import t
from harness_lab.tools import run_tool_uses, tool
from harness_lab.valves import Approval, MaxTurns, NoProgress, TokenBudget
from tests.ctrl_c import press_ctrl_c_while_the_main_thread_waits
from tests.harness.conftest import PROMPT, definitions, setup


def test_lesson6_runs_two_tool_rounds_and_three_requests(check_history):
    emu, client, spy = setup("lesson6")
    outcome = run(client, PROMPT, tools=spy.tools, valves=[MaxTurns(8), TokenBudget(40_000), NoProgress(), Approval()])
    assert isinstance(outcome.stop, Finished) and outcome.stop.stop_reason == "end_turn"
    assert spy.names() == ["read_file", "get_time"] and outcome.turns == 2 and len(emu.requests) == 3
    assert "contents of README.md" in outcome.text and "10:42" in outcome.text
    assert all(r["tools"] for r in emu.requests)  # tools on every request, the follow-ups included
    assert outcome.usage.total > 0
    check_history(outcome.messages, definitions(spy))


def test_one_next_is_one_turn():
    emu, client, spy = setup("lesson6")
    harness = Run(client, spy.tools)
    gen = harness.start(PROMPT)
    first = next(gen)
    assert isinstance(first, Turn) and first.request_number == 1 and len(emu.requests) == 1
    assert [r["tool_use_id"] for r in first.results] == [c.id for c in first.response.content if c.type == "tool_use"]
    assert spy.names() == ["read_file"]
    second = next(gen)
    assert isinstance(second, Turn) and second.request_number == 2 and spy.names() == ["read_file", "get_time"]
    end = next(gen)
    assert isinstance(end, Finished)
    with pytest.raises(StopIteration) as done:
        next(gen)
    assert done.value.value == end


def test_parallel_calls_results_in_call_order_first_and_tools_run_concurrently(check_history):
    gate = threading.Barrier(3, timeout=5)

    @tool
    def meet(label: str) -> str:
        """Wait for the others: only works when all three run at once."""
        gate.wait()
        return label

    script = [reply("三つ同時に", call("meet", label="x"), call("meet", label="y"), call("meet", label="z")), say("ok")]
    _emu, client, _ = setup(script)
    outcome = run(client, "x", tools=[meet])
    results = outcome.messages[2]["content"]
    assert [r["content"] for r in results] == ["x", "y", "z"]
    ids = [b["id"] for b in outcome.messages[1]["content"] if b["type"] == "tool_use"]
    assert [r["tool_use_id"] for r in results] == ids
    check_history(outcome.messages, [meet.definition])


def test_per_tool_timeout_and_errors_become_results(check_history):
    release, finished = threading.Event(), threading.Event()

    @tool
    def hang() -> str:
        """Hang."""
        release.wait(30)
        finished.set()
        return "late"

    @tool
    def boom() -> str:
        """Fail."""
        raise ValueError("bad")

    script = [reply(call("hang"), call("boom")), say("ok")]
    _emu, client, _ = setup(script)
    outcome = run(client, "x", tools=[hang, boom], tool_timeout=0.3)
    hung_when_answered = not finished.is_set()  # the run went on at the timeout, not when the tool gave up
    release.set()
    assert hung_when_answered
    results = outcome.messages[2]["content"]
    assert all(r["is_error"] for r in results)
    assert "0.3" in results[0]["content"] and "bad" in results[1]["content"]
    check_history(outcome.messages, [hang.definition, boom.definition])
    # A name the run holds no tool for (the model sees only the tools sent, but a live one may slip):
    # an is_error result naming it, not a crash.
    uses = run_tool_uses([{"type": "tool_use", "id": "toolu_01X", "name": "nonexistent", "input": {}}], {"boom": boom})
    with pytest.raises(StopIteration) as ended:
        next(uses)
    [missing] = ended.value.value
    assert missing["is_error"] and "nonexistent" in missing["content"]


@pytest.mark.parametrize(
    "scenario, valve",
    [
        ("max_tokens", "max_tokens"),
        ("refusal", "refusal"),
        ("model_context_window_exceeded", "model_context_window_exceeded"),
    ],
)
def test_truncated_or_refused_responses_stop_without_running_anything(scenario, valve, check_history):
    _emu, client, spy = setup(scenario)
    outcome = run(client, "x", tools=spy.tools, valves=[Approval(approver=lambda r: True)])
    assert isinstance(outcome.stop, Stopped) and outcome.stop.cause == valve
    assert spy.calls == []
    check_history(outcome.messages, definitions(spy))
    if valve == "refusal":  # declined before any output, as the API does: no text, the reason from stop_details
        assert outcome.stop.text == "" and "cyber harm" in outcome.stop.reason
    else:
        assert outcome.stop.text  # the partial text is kept on the event


def test_pause_turn_is_sent_back_unchanged_with_the_same_tools(check_history):
    # A scripted pause (the pause_turn scenario pauses only where the request defines a server tool).
    emu, client, spy = setup([reply("Still researching the material.", stop_reason="pause_turn"), say("Done.")])
    outcome = run(client, "research", tools=spy.tools)
    assert isinstance(outcome.stop, Finished) and len(emu.requests) == 2
    second = emu.requests[1]
    assert second["messages"][-1]["role"] == "assistant"
    sent_back = second["messages"][-1]["content"]
    assert sent_back == outcome.messages[1]["content"]  # unchanged: the thinking block first, then the text
    assert [b.get("text") for b in sent_back if b["type"] == "text"] == ["Still researching the material."]
    assert second["tools"] == emu.requests[0]["tools"]
    check_history(outcome.messages, definitions(spy))


def test_empty_end_turn_finishes_with_empty_text(check_history):
    _emu, client, spy = setup("empty_end_turn")
    outcome = run(client, "x", tools=spy.tools)
    assert isinstance(outcome.stop, Finished) and outcome.text == ""
    check_history(outcome.messages, definitions(spy))


def test_api_error_after_retries_stops_with_valid_history_and_resumes(check_history):
    # Requests 2-4 fail: the first try and the SDK's two retries of the second model call.
    _emu, client, spy = setup("lesson6", faults={2: "529", 3: "529", 4: "529"})
    harness = Run(client, spy.tools)
    end = drain(harness.start(PROMPT))
    assert isinstance(end, Stopped) and end.cause == "api_error" and spy.names() == ["read_file"]
    check_history(harness.messages, definitions(spy))
    end = drain(harness.resume())
    assert isinstance(end, Finished) and spy.names() == ["read_file", "get_time"]


def test_keyboard_interrupt_between_turns_stops_cleanly_and_resumes(check_history):
    _emu, client, spy = setup("lesson6")
    harness = Run(client, spy.tools)
    gen = harness.start(PROMPT)
    next(gen)
    end = gen.throw(KeyboardInterrupt())
    assert isinstance(end, Stopped) and end.cause == "interrupted"
    check_history(harness.messages, definitions(spy))
    assert isinstance(drain(harness.resume()), Finished)


def test_ctrl_c_while_tools_run_keeps_what_ran_and_resume_never_repeats_it(check_history):
    emu, client, _ = setup([reply(call("post", url="https://a.example"), call("slow")), say("おわり")])
    posted, slow_calls = [], []

    @tool
    def post(url: str) -> str:
        """An effect that must happen once: it finishes before the interrupt."""
        posted.append(url)
        return "posted"

    @tool
    def slow() -> str:
        """Still running when Ctrl-C arrives."""
        slow_calls.append(1)
        while not posted:  # let the other call finish first, so the outcome is not a race
            time.sleep(0.01)
        # a real SIGINT, as a terminal's Ctrl-C or Jupyter's interrupt button sends: it also wakes
        # the main thread where it waits for this tool (interrupt_main only sets a flag)
        press_ctrl_c_while_the_main_thread_waits()
        time.sleep(0.5)
        return "too late"

    harness = Run(client, [post, slow])
    events = list(harness.start("投稿して"))
    turn, end = events[-2], events[-1]
    assert isinstance(end, Stopped) and end.cause == "interrupted"
    assert isinstance(turn, Turn) and [bool(r.get("is_error")) for r in turn.results] == [False, True]
    assert turn.results[0]["content"] == "posted" and turn.results[1]["content"] == t("result.interrupted")
    check_history(harness.messages, [post.definition, slow.definition])
    assert harness.messages[-1]["content"] == list(turn.results)
    end = drain(harness.resume())  # asks the model again; neither call runs a second time
    assert isinstance(end, Finished) and end.text == "おわり"
    assert posted == ["https://a.example"] and slow_calls == [1] and len(emu.requests) == 2


def test_steering_goes_out_after_the_next_tool_results():
    emu, client, spy = setup("lesson6")
    harness = Run(client, spy.tools)
    gen = harness.start(PROMPT)
    next(gen)
    harness.steer("日本語で短く答えて")
    next(gen)
    assert len(emu.requests) == 2  # the second call went out before the instruction could
    next(gen)
    content = emu.requests[2]["messages"][-1]["content"]
    assert content[0]["type"] == "tool_result" and content[-1] == {"type": "text", "text": "日本語で短く答えて"}
    assert all(m["content"][-1].get("text") != "日本語で短く答えて" for m in emu.requests[1]["messages"][1:])


def test_an_unknown_model_is_an_api_error_stop():
    _emu, client, spy = setup("lesson6", max_retries=0)
    outcome = run(client, PROMPT, tools=spy.tools, model="claude-nonexistent-9")
    assert outcome.stop.cause == "api_error" and "claude-nonexistent-9" in outcome.stop.reason


def test_resume_after_finish_needs_a_new_instruction(check_history):
    script = [call("get_time"), say("一回目の答え"), say("二回目の答え")]
    emu, client, spy = setup(script)
    harness = Run(client, spy.tools)
    first = drain(harness.start("時刻は？"))
    assert first.text == "一回目の答え" and len(emu.requests) == 2
    assert drain(harness.resume()) == first and len(emu.requests) == 2  # nothing new to say: nothing sent
    harness.steer("もう一度")
    second = drain(harness.resume())
    assert second.text == "二回目の答え" and emu.requests[-1]["messages"][-1]["content"][0]["text"] == "もう一度"
    check_history(harness.messages, definitions(spy))
