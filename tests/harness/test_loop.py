"""The loop against the emulated client: stop_reason handling, valves at their steps, stops and resume."""

from __future__ import annotations

import threading
import time

import pytest

from harness_lab.drain import drain, run
from harness_lab.emulator import Emulator, call, emulated_client, reply, say
from harness_lab.events import ApprovalRequest, Finished, Stopped, Turn, allow, deny
from harness_lab.loop import Run
from harness_lab.text import t
from harness_lab.tools import run_tool_uses, tool
from harness_lab.valves import Approval, MaxTurns, NoProgress, Policy, Rule, TokenBudget
from tests.ctrl_c import press_ctrl_c_while_the_main_thread_waits


class Spy:
    """Tools that record every call they actually receive."""

    def __init__(self):
        self.calls: list[tuple[str, dict]] = []
        spy = self

        @tool
        def read_file(path: str) -> str:
            """Read a file."""
            spy.calls.append(("read_file", {"path": path}))
            return f"contents of {path}"

        @tool
        def get_time() -> str:
            """Now."""
            spy.calls.append(("get_time", {}))
            return "2026-08-26T10:42:07+08:00"

        @tool(high_impact=True)
        def write_file(path: str, content: str) -> str:
            """Write."""
            spy.calls.append(("write_file", {"path": path}))
            return "written"

        @tool(high_impact=True)
        def delete_file(path: str) -> str:
            """Delete."""
            spy.calls.append(("delete_file", {"path": path}))
            return "deleted"

        @tool(high_impact=True)
        def http_post(url: str, body: str) -> str:
            """Post."""
            spy.calls.append(("http_post", {"url": url}))
            return "sent"

        self.tools = [read_file, get_time, write_file, delete_file, http_post]

    def names(self):
        return [name for name, _ in self.calls]


def setup(script, faults=None, **client_kwargs):
    emu = Emulator(script, faults=faults)
    return emu, emulated_client(emu, **client_kwargs), Spy()


def definitions(spy):
    return [t.definition for t in spy.tools]


PROMPT = "README.md の1行目を読んで、それから今何時か教えて"


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


@pytest.mark.parametrize("limit", [1, 2, 5])
def test_max_turns_allows_n_tool_rounds_and_n_plus_1_model_calls(limit, check_history):
    emu, client, spy = setup("never_ending")
    outcome = run(client, "go", tools=spy.tools, valves=[MaxTurns(limit)])
    assert isinstance(outcome.stop, Stopped) and outcome.stop.cause == "max_turns"
    assert len(spy.calls) == limit  # tool rounds
    assert len(emu.requests) == limit + 1  # model calls
    assert outcome.turns == limit
    check_history(outcome.messages, definitions(spy))


def test_max_turns_resume_after_raising_the_limit(check_history):
    emu, client, spy = setup("long_task")
    harness = Run(client, spy.tools, [MaxTurns(3)])
    end = drain(harness.start("read every chapter"))
    assert isinstance(end, Stopped) and len(spy.calls) == 3 and len(emu.requests) == 4
    check_history(harness.messages, definitions(spy))
    harness.valves[0].limit = 20
    end = drain(harness.resume())
    assert isinstance(end, Finished) and "12" in end.text
    assert [c[1]["path"] for c in spy.calls] == [f"chapters/{i:02d}.md" for i in range(1, 13)]
    assert len(emu.requests) == 13  # the held-back response was used, not asked again
    check_history(harness.messages, definitions(spy))


def test_no_progress_fires_on_a_repeat_before_the_repeat_runs(check_history):
    emu, client, spy = setup("spinning")
    outcome = run(client, "go", tools=spy.tools, valves=[MaxTurns(8), NoProgress()])
    assert outcome.stop.cause == "no_progress" and len(spy.calls) == 1 and len(emu.requests) == 2
    assert 'read_file({"path":"notes.txt"})' in outcome.stop.reason
    check_history(outcome.messages, definitions(spy))


def test_no_progress_then_steering_sets_the_repeat_aside_and_goes_on(check_history):
    script = [call("read_file", path="a.md"), call("read_file", path="a.md"), say("別の方法で終えました")]
    emu, client, spy = setup(script)
    harness = Run(client, spy.tools, [MaxTurns(8), NoProgress()])
    end = drain(harness.start("a.md を読んで"))
    assert isinstance(end, Stopped) and end.cause == "no_progress" and len(emu.requests) == 2
    assert isinstance(drain(harness.resume()), Stopped) and len(emu.requests) == 2  # no new instruction: same stop
    harness.steer("別のファイルを探して")
    gen = harness.resume()
    aside = next(gen)  # the repeat answered unrun is a turn of its own, so a panel or a trace shows what went out
    assert isinstance(aside, Turn) and aside.results[0]["content"] == t("result.skipped_steered")
    assert len(emu.requests) == 2 and harness.state.laps[-1].steering == ("別のファイルを探して",)
    end = drain(gen)
    assert isinstance(end, Finished) and end.text == "別の方法で終えました"
    assert spy.names() == ["read_file"]  # the repeat never ran
    sent = emu.requests[2]["messages"][-1]["content"]
    assert sent[0]["is_error"] and sent[0]["content"] == t("result.skipped_steered")
    assert sent[-1] == {"type": "text", "text": "別のファイルを探して"}
    check_history(harness.messages, definitions(spy))


def test_steering_after_a_later_interrupt_does_not_set_a_call_aside():
    script = [call("write_file", path="sandbox/a", content="x")] * 2 + [say("ok")]
    _emu, client, spy = setup(script)
    harness = Run(client, spy.tools, [NoProgress(), Approval(approver=lambda request: True)])
    assert drain(harness.start("書いて")).cause == "no_progress"
    gen = harness.resume(valves=[Approval()])  # without NoProgress: the held-back repeat is asked about
    asked = next(gen)
    assert isinstance(asked, ApprovalRequest)
    assert gen.throw(KeyboardInterrupt()).cause == "interrupted"
    harness.steer("続けて")
    again = next(harness.resume())
    assert isinstance(again, ApprovalRequest) and again.tool_use_id == asked.tool_use_id


def test_no_progress_does_not_fire_on_a_then_b():
    _emu, client, spy = setup("lesson6")
    assert isinstance(run(client, PROMPT, tools=spy.tools, valves=[NoProgress()]).stop, Finished)


def test_no_progress_window_catches_abab():
    _, client, spy = setup("abab")
    assert run(client, "go", tools=spy.tools, valves=[MaxTurns(6), NoProgress()]).stop.cause == "max_turns"
    _, client, spy = setup("abab")
    outcome = run(client, "go", tools=spy.tools, valves=[MaxTurns(6), NoProgress(window=3)])
    assert outcome.stop.cause == "no_progress" and len(spy.calls) == 2


def test_token_budget_stops_and_history_stays_valid(check_history):
    _emu, client, spy = setup("budget_burning")
    outcome = run(client, "analyse", tools=spy.tools, valves=[MaxTurns(50), TokenBudget(3_000)])
    assert outcome.stop.cause == "token_budget"
    assert outcome.usage.total >= 3_000
    check_history(outcome.messages, definitions(spy))


def test_token_budget_preflight_refuses_before_sending(check_history):
    # Measure a run first, then set the limit just above what two requests cost: the post-check lets a
    # request go out that crosses the line; the preflight counts its prompt and the most its reply may
    # cost (max_tokens), and refuses to send it.
    _, client, spy = setup("budget_burning")
    totals = []
    run(
        client,
        "analyse",
        tools=spy.tools,
        valves=[MaxTurns(4)],
        on_event=lambda e: totals.append(getattr(e, "total", None)),
    )
    limit = totals[1].total + 1
    emu, client, spy = setup("budget_burning")
    late = run(client, "analyse", tools=spy.tools, valves=[MaxTurns(50), TokenBudget(limit)])
    assert late.usage.total >= limit and len(spy.calls) == 2
    sent_late = len([r for r in emu.requests if "max_tokens" in r])
    emu, client, spy = setup("budget_burning")
    early = run(client, "analyse", tools=spy.tools, valves=[MaxTurns(50), TokenBudget(limit, preflight=True)])
    assert early.stop.cause == "token_budget" and early.usage.total < limit
    assert len([r for r in emu.requests if "max_tokens" in r]) < sent_late  # the crossing one was never sent
    assert str(limit) in early.stop.reason and "1024" in early.stop.reason and early.stop.reason != late.stop.reason
    check_history(early.messages, definitions(spy))


@pytest.mark.parametrize("limit", [1_500, 4_000, 9_000, 20_000, 33_333])
def test_a_preflight_budget_never_ends_over_its_limit(limit):
    # Estimating only the prompt let the reply's output carry the run past the line (notebook 03 ended
    # at 20,175 of 20,000); counting max_tokens as well makes "stays inside" hold for any limit.
    _, client, spy = setup("budget_burning")
    outcome = run(client, "analyse", tools=spy.tools, valves=[MaxTurns(50), TokenBudget(limit, preflight=True)])
    assert outcome.stop.cause == "token_budget" and outcome.usage.total <= limit


def test_ask_with_no_approver_denies_and_the_tool_is_never_entered(check_history):
    _emu, client, spy = setup("high_impact")
    harness = Run(client, spy.tools, [Approval()])
    events = list(harness.start("save the report"))  # a plain for-loop answers every ask with next()
    asks = [e for e in events if isinstance(e, ApprovalRequest)]
    assert [a.name for a in asks] == ["write_file"] and spy.calls == []
    result = events[1].results[0]
    assert result["is_error"] is True and "拒否" in result["content"]
    assert isinstance(events[-1], Finished) and "another route" in events[-1].text  # English task, English answer
    check_history(harness.messages, definitions(spy))


def test_generator_send_allows_and_deny_reason_reaches_the_model():
    _emu, client, spy = setup("delete_and_post")
    harness = Run(client, spy.tools, [Approval()])
    gen = harness.start("clean up and report")
    ask = next(gen)
    assert isinstance(ask, ApprovalRequest) and ask.name == "delete_file" and spy.calls == []
    turn = gen.send(allow())
    assert isinstance(turn, Turn) and spy.names() == ["delete_file"]
    ask = next(gen)
    assert ask.name == "http_post"
    turn = gen.send(deny("外部には送らないで"))
    assert spy.names() == ["delete_file"]
    assert "外部には送らないで" in turn.results[0]["content"] and turn.results[0]["is_error"]
    end = next(gen)
    assert "Deleted the old log" in end.text and "Did not send" in end.text


def test_run_approve_callback_and_a_crashing_approver_denies():
    _, client, spy = setup("delete_and_post")
    seen = []
    outcome = run(client, "x", tools=spy.tools, valves=[Approval()], approve=lambda r: seen.append(r.name) or True)
    assert seen == ["delete_file", "http_post"] and spy.names() == ["delete_file", "http_post"]

    def crash(request):
        raise RuntimeError("approver is down")

    _, client, spy = setup("delete_and_post")
    outcome = run(client, "x", tools=spy.tools, valves=[Approval()], approve=crash)
    assert spy.calls == [] and "Left the old log in place" in outcome.text
    _emu, client, spy = setup("delete_and_post")
    outcome = run(client, "x", tools=spy.tools, valves=[Approval(approver=crash)])
    assert spy.calls == []


def test_run_and_drain_without_an_approver_deny(check_history):
    _emu, client, spy = setup([reply(call("write_file", path="sandbox/a", content="x"), call("get_time")), say("ok")])
    outcome = run(client, "x", tools=spy.tools, valves=[Approval()])  # no approve=: nobody can say yes
    assert isinstance(outcome.stop, Finished) and spy.names() == ["get_time"]
    first = outcome.messages[2]["content"][0]
    assert first["is_error"] and first["content"] == t("result.denied")
    check_history(outcome.messages, definitions(spy))


def test_two_approval_valves_the_strictest_tier_wins():
    for order in (1, -1):
        _emu, client, spy = setup([reply(call("get_time"), call("read_file", path="a")), say("ok")])
        valves = [
            Approval(Policy({"get_time": "allow", "read_file": "deny"})),
            Approval(Policy({"get_time": "deny", "read_file": "allow"})),
        ][::order]
        run(client, "x", tools=spy.tools, valves=valves, approve=lambda request: True)
        assert spy.names() == []  # each call is denied by one of the two


def test_policy_deny_returns_forbidden_without_asking(check_history):
    _emu, client, spy = setup("high_impact")
    asked = []
    policy = Policy({"write_file": "deny"}, default="allow")
    outcome = run(client, "x", tools=spy.tools, valves=[Approval(policy)], approve=lambda r: asked.append(r) or True)
    assert asked == [] and spy.calls == []
    result = outcome.messages[2]["content"][0]
    assert result["is_error"] is True and "ポリシー" in result["content"] and "write_file" in result["content"]
    check_history(outcome.messages, definitions(spy))


def test_argument_rule_allows_sandbox_writes_without_asking():
    _emu, client, spy = setup("high_impact")
    rule = Rule("write_file", "allow", when=lambda i: i["path"].startswith("sandbox/"))
    outcome = run(client, "x", tools=spy.tools, valves=[Approval(Policy({}, rules=[rule]))])
    assert spy.names() == ["write_file"] and "Saved the report" in outcome.text


def test_decisions_apply_per_tool_use_id():
    script = [reply(call("write_file", path="a", content="1"), call("write_file", path="b", content="2")), say("done")]
    _emu, client, spy = setup(script)
    outcome = run(client, "x", tools=spy.tools, valves=[Approval()], approve=lambda r: r.input["path"] == "a")
    assert spy.calls == [("write_file", {"path": "a"})]
    results = outcome.messages[2]["content"]
    assert [r.get("is_error", False) for r in results] == [False, True]


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
    assert outcome.stop.text  # the partial text is kept on the event
    check_history(outcome.messages, definitions(spy))
    if valve == "refusal":
        assert "cyber harm" in outcome.stop.reason


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
