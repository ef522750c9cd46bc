"""Time travel: ``run.fork(at=k, ...)`` branches a run at turn k, deterministically, without
running again any tool call the original already ran (lessons 3-5: what if that turn had gone otherwise?)."""

from __future__ import annotations

import copy
import hashlib
import json
import re

import httpx2
import pytest

from harness_lab.drain import drain
from harness_lab.emulator import Emulator, call, emulated_client, last_results, reply, say
from harness_lab.emulator.transport import handler_for
from harness_lab.events import Finished, Stopped, deny
from harness_lab.loop import Run
from harness_lab.messages import tool_calls
from harness_lab.text import t
from harness_lab.tools import make_http_post, tool
from harness_lab.trace import recording_client, replay_client
from harness_lab.valves import Approval, MaxTurns, NoProgress, Policy
from tests.history_check import history_problems


class Counting:
    """Tools that count how often they really ran."""

    def __init__(self):
        self.calls: list[tuple[str, dict]] = []

        @tool
        def status(job: str) -> str:
            """Report a job's status."""
            self.calls.append(("status", {"job": job}))
            return "running"

        @tool(high_impact=True)
        def post(url: str) -> str:
            """Send a report."""
            self.calls.append(("post", {"url": url}))
            return "sent"

        self.tools = [status, post]


def spinning(request: dict):
    """Polls the same job until a result says it is done; then answers."""
    results = last_results(request)
    if results and "done" in results[-1].text:
        return say("ジョブは終わりました。")
    return call("status", job="job-42")


def ids(run: Run) -> list[str]:
    return [c["id"] for lap in run.state.laps for c in tool_calls(lap.response.content)]


def test_a_fork_with_an_edited_result_ends_differently_and_runs_no_call_again():
    tools = Counting()
    original = Run(emulated_client(spinning), tools.tools, [MaxTurns(10), NoProgress()])
    end = drain(original.start("job-42 の様子を見て"))
    assert isinstance(end, Stopped) and end.cause == "no_progress" and end.turns == 1
    ran_before = list(tools.calls)

    fork = original.fork(at=1, results={ids(original)[0]: "done: 42 件を処理"})
    forked = drain(fork.resume())
    assert isinstance(forked, Finished) and forked.text == "ジョブは終わりました。"
    assert tools.calls == ran_before  # the fork read turn 1 from the record: nothing ran again
    assert history_problems(fork.messages, [t.definition for t in tools.tools]) == []
    # The original is untouched, and the two histories share their start.
    assert isinstance(original.end, Stopped) and original.messages[0] == fork.messages[0]
    assert fork.messages[2]["content"][0]["content"] == "done: 42 件を処理"
    assert "running" in original.messages[2]["content"][0]["content"]


def test_forks_are_deterministic_on_the_emulator():
    def once():
        tools = Counting()
        run = Run(emulated_client(spinning), tools.tools, [MaxTurns(10), NoProgress()])
        drain(run.start("job-42 の様子を見て"))
        fork = run.fork(at=1, results={ids(run)[0]: "done"})
        return drain(fork.resume()), fork.messages

    assert once() == once()


def test_rerun_runs_the_turns_calls_again_when_the_learner_asks():
    tools = Counting()
    run = Run(emulated_client([call("status", job="a"), say("おわり")]), tools.tools, [])
    drain(run.start("見て"))
    assert tools.calls == [("status", {"job": "a"})]
    drain(run.fork(at=1).resume())
    assert len(tools.calls) == 1  # replayed from the record
    drain(run.fork(at=1, rerun=True).resume())
    assert len(tools.calls) == 2


def denied_post():
    """A run whose one call, a POST, a person denied: (its tools, the run, the approval request, its end)."""
    tools = Counting()
    script = [reply("報告します", call("post", url="https://example.com/r")), say("送りました。")]
    run = Run(emulated_client(script), tools.tools, [Approval()])
    gen = run.start("報告を送って")
    request = next(gen)
    return tools, run, request, drain_from(gen, gen.send(deny("まだ早い")))


def test_a_flipped_denial_runs_the_call_that_never_ran():
    tools, run, request, end = denied_post()
    assert request.name == "post"
    assert tools.calls == [] and isinstance(end, Finished)
    denied = run.state.laps[0].results[0]
    assert denied["is_error"]

    fork = run.fork(at=1, decisions={request.tool_use_id: True})
    forked = drain(fork.resume())  # no approver needed: the decision was given
    assert tools.calls == [("post", {"url": "https://example.com/r"})]
    assert fork.messages[2]["content"][0] == {
        "type": "tool_result",
        "tool_use_id": request.tool_use_id,
        "content": "sent",
    }
    assert isinstance(forked, Finished)
    # A fork that keeps the original's answer denies without asking again.
    kept = run.fork(at=1)
    drain(kept.resume())
    assert kept.messages[2]["content"][0]["is_error"] and len(tools.calls) == 1


def test_a_kept_denial_with_an_edited_text_stays_a_refusal():
    tools, run, request, _ = denied_post()
    reworded = "今はだめです: 上長の承認が先です"
    fork = run.fork(at=1, results={request.tool_use_id: reworded})
    drain(fork.resume())
    assert tools.calls == []  # still denied: the tool never ran
    assert fork.messages[2]["content"][0] == {
        "type": "tool_result",
        "tool_use_id": request.tool_use_id,
        "content": reworded,
        "is_error": True,
    }


def test_an_earlier_refusal_edited_in_a_forks_history_keeps_its_error_mark():
    tools = Counting()
    script = [
        reply("報告します", call("post", url="https://example.com/r")),
        reply("状態を見ます", call("status", job="job-42")),
        say("終わりました。"),
    ]
    run = Run(emulated_client(script), tools.tools, [Approval(), MaxTurns(5)])
    gen = run.start("報告を送って")
    post = next(gen)
    drain_from(gen, gen.send(deny("まだ早い")))
    status = run.state.calls(2)[0]["id"]
    fork = run.fork(at=2, results={post.tool_use_id: "上長の承認が先です", status: "done"})
    assert result_of(fork, post.tool_use_id) == {
        "type": "tool_result",
        "tool_use_id": post.tool_use_id,
        "content": "上長の承認が先です",
        "is_error": True,
    }
    assert tools.calls == [("status", {"job": "job-42"})]  # the post never ran, here or in the fork


def drain_from(gen, event):
    while not isinstance(event, (Finished, Stopped)):
        event = gen.send(None)
    return event


def test_a_changed_valve_limit_applies_to_the_fork_alone():
    tools = Counting()
    endless = lambda request: call("status", job=f"job-{len(request['messages'])}")  # noqa: E731
    run = Run(emulated_client(endless), tools.tools, [MaxTurns(2)])
    end = drain(run.start("見て"))
    assert end.cause == "max_turns" and end.turns == 2
    fork = run.fork(at=2, valves=[MaxTurns(4)])
    forked = drain(fork.resume())
    assert forked.cause == "max_turns" and forked.turns == 4
    assert run.valves[0].limit == 2 and run.end is end
    # Default valves are copies: changing the fork's limit leaves the original's alone.
    copy = run.fork(at=1)
    copy.valves[0].limit = 9
    assert run.valves[0].limit == 2
    assert len(tools.calls) == 4  # turns 1-2 replayed; only the fork's turns 3 and 4 ran


def test_a_fork_replays_on_a_recorded_cassette(tmp_path):
    path = tmp_path / "run.json"
    emulated = httpx2.MockTransport(handler_for(Emulator(spinning)))
    recorder = recording_client(path, api_key="sk-ant-test", transport=emulated, base_url="https://emulator.invalid")
    tools = Counting()
    run = Run(recorder, tools.tools, [MaxTurns(3)])
    drain(run.start("job-42 の様子を見て"))
    replayed = Run(replay_client(path), tools.tools, [MaxTurns(3)])
    first = drain(replayed.start("job-42 の様子を見て"))
    # The same fork twice on the cassette: recorded requests answer exactly, and the end is the same.
    a = drain(replayed.fork(at=1, valves=[MaxTurns(2)]).resume())
    b = drain(replayed.fork(at=1, valves=[MaxTurns(2)]).resume())
    assert a == b and a.cause == "max_turns" and a.turns == 2 and first.turns == 3


def test_bad_fork_arguments_say_what_is_wrong():
    run = Run(emulated_client([call("status", job="a"), say("おわり")]), Counting().tools, [])
    drain(run.start("見て"))
    with pytest.raises(ValueError, match="at=2"):
        run.fork(at=2)
    with pytest.raises(ValueError, match=re.escape(t("usage.whole_number", what="at", minimum=1, got="0"))):
        run.fork(at=0)
    with pytest.raises(ValueError, match="toolu_nope"):
        run.fork(at=1, results={"toolu_nope": "x"})
    with pytest.raises(TypeError):
        run.fork(at=1, results={ids(run)[0]: 42})
    with pytest.raises(ValueError, match="UTF-8"):
        run.fork(at=1, results={ids(run)[0]: "x\udcff"})
    with pytest.raises(RuntimeError):  # a fork continues with resume(), not with a new prompt
        run.fork(at=1).start("別の話")


def test_a_fork_of_a_policy_run_keeps_its_policy_and_answers():
    tools = Counting()
    script = [call("status", job="a"), call("post", url="u"), say("済み")]
    run = Run(emulated_client(script), tools.tools, [Approval(Policy({"status": "allow", "post": "deny"}))])
    drain(run.start("やって"))
    assert tools.calls == [("status", {"job": "a"})]
    fork = run.fork(at=2)
    drain(fork.resume())
    assert fork.messages[-2]["content"][0]["is_error"]  # still forbidden by the copied policy
    assert len(tools.calls) == 1


def test_the_calls_of_a_turn_are_at_hand_for_a_fork():
    run = Run(emulated_client([call("status", job="a"), call("status", job="b"), say("おわり")]), Counting().tools, [])
    drain(run.start("見て"))
    first, second = run.state.calls(1), run.state.calls(2)
    assert [c["input"] for c in first + second] == [{"job": "a"}, {"job": "b"}]
    fork = run.fork(at=2, results={second[0]["id"]: "done"})
    drain(fork.resume())
    assert fork.messages[4]["content"][0]["content"] == "done"


# --- every generation answers from the original's record (issue 26, item 7) ----------------------


class Reporter:
    """Each turn posts a progress report and checks a job, until four turns are done.

    The report's URL carries a digest of the history the model saw, so two requests with the same
    history post the same URL (and get the same tool_use id), and a history that went another way
    posts a new one: a URL seen twice in the outbox is a POST sent twice.
    """

    def __init__(self):
        self.outbox: list[dict] = []
        self.checks: list[str] = []

        @tool
        def status(job: str) -> str:
            """Report a job's status."""
            self.checks.append(job)
            return "running"

        self.tools = [make_http_post(self.outbox), status]

    @staticmethod
    def policy(request: dict):
        turns = sum(m["role"] == "assistant" for m in request["messages"])
        if turns == 4:
            return say("報告は終わりです。")
        seen = hashlib.sha256(json.dumps(request["messages"], ensure_ascii=False).encode()).hexdigest()[:12]
        post = call("http_post", url=f"https://example.com/progress/{seen}", body=f"turn {turns + 1}")
        return reply("進み具合を送ります", post, call("status", job="job-42"))

    def urls(self) -> list[str]:
        return [sent["url"] for sent in self.outbox]


def status_id(run: Run, turn: int) -> str:
    return next(c["id"] for c in run.state.calls(turn) if c["name"] == "status")


def result_of(run: Run, tool_use_id: str) -> dict:
    return next(
        block
        for message in run.messages
        if message["role"] == "user" and isinstance(message["content"], list)
        for block in message["content"]
        if block.get("tool_use_id") == tool_use_id
    )


def test_forks_three_deep_with_edits_at_each_level_never_send_a_post_twice():
    world = Reporter()
    original = Run(emulated_client(Reporter.policy), world.tools, [MaxTurns(10)])
    assert isinstance(drain(original.start("進み具合を報告して")), Finished) and len(world.urls()) == 4
    history = copy.deepcopy(original.messages)
    first_post = result_of(original, original.state.calls(1)[0]["id"])

    child = original.fork(at=3, results={status_id(original, 3): "queued"})
    drain(child.resume())  # turn 3 replayed from the original's record; turn 4 is new
    grandchild = child.fork(at=1, results={status_id(child, 1): "queued at first"})
    drain(grandchild.resume())  # turn 1 (the child only replayed it) still comes from the original's record
    great = grandchild.fork(at=2, results={status_id(grandchild, 2): "half done"})
    drain(great.resume())  # turn 2 ran in the grandchild: replayed from its record

    urls = world.urls()
    assert len(urls) == len(set(urls)), "a POST was sent twice"
    assert len(urls) == 4 + 1 + 3 + 2  # each fork posted only for the turns it made anew
    for run, turn, text in ((child, 3, "queued"), (grandchild, 1, "queued at first"), (great, 2, "half done")):
        assert result_of(run, status_id(run, turn))["content"] == text
        assert history_problems(run.messages, [one.definition for one in world.tools]) == []
    for run in (child, grandchild, great):
        assert result_of(run, original.state.calls(1)[0]["id"]) == first_post  # the original's own answer
    assert original.messages == history


def test_a_fork_of_a_fork_at_the_same_turn_keeps_its_parents_edit():
    world = Reporter()
    original = Run(emulated_client(Reporter.policy), world.tools, [MaxTurns(10)])
    drain(original.start("進み具合を報告して"))
    child = original.fork(at=2, results={status_id(original, 2): "done"})
    drain(child.resume())
    again = child.fork(at=2)  # the child's turn 2, as the child answered it
    drain(again.resume())
    assert again.messages == child.messages
    assert len(world.urls()) == len(set(world.urls())) == 4 + 2


# --- a fork owns what it carries over (issue 29, item 7) -----------------------------------------


def test_changing_a_fork_in_place_leaves_the_original_and_its_record_alone():
    world = Reporter()
    original = Run(emulated_client(Reporter.policy), world.tools, [MaxTurns(10), Approval(Policy(default="allow"))])
    drain(original.start("進み具合を報告して"))
    history, laps = copy.deepcopy(original.messages), copy.deepcopy(original.state.laps)
    calls = [original.state.calls(k) for k in (1, 2, 3)]

    fork = original.fork(at=3)
    drain(fork.resume())
    for message in fork.messages:  # every block of the fork's history, rewritten in place
        for block in message["content"] if isinstance(message["content"], list) else ():
            if block["type"] == "tool_result":
                block["content"] = "書き換え"
            elif block["type"] == "tool_use":
                block["input"]["job"] = "job-0"
    for lap in fork.state.laps:
        for block in lap.results:
            block["content"] = "書き換え"
        for block in lap.response.content:
            if block.type == "tool_use":
                block.input["job"] = "job-0"
    fork.valves[1].policy.tiers["http_post"] = "deny"
    fork.state.decided["toolu_x"] = deny()

    assert original.messages == history and original.state.laps == laps
    assert [original.state.calls(k) for k in (1, 2, 3)] == calls
    assert original.valves[1].policy.tiers == {} and original.state.decided == {}
    again = original.fork(at=3)  # answered from the original's record, not from the fork's rewrites
    drain(again.resume())
    assert again.messages[:7] == history[:7] and "書き換え" not in json.dumps(again.messages, ensure_ascii=False)
    assert len(world.urls()) == len(set(world.urls()))


def test_a_fork_with_a_stricter_policy_forbids_what_a_person_allowed_in_the_original():
    tools = Counting()
    script = [reply("報告します", call("post", url="https://example.com/r")), say("送りました。")]
    run = Run(emulated_client(script), tools.tools, [Approval()])
    drain(run.start("報告を送って"), approve=lambda request: True)
    assert tools.calls == [("post", {"url": "https://example.com/r"})]
    strict = run.fork(at=1, valves=[Approval(Policy({"post": "deny"}))])
    drain(strict.resume())
    assert strict.messages[2]["content"][0]["is_error"] and "sent" not in strict.messages[2]["content"][0]["content"]
    kept = run.fork(at=1)  # same valves: the person's yes still stands, and the post is not sent again
    drain(kept.resume())
    assert kept.messages[2]["content"][0]["content"] == "sent" and len(tools.calls) == 1


def test_an_edit_of_an_earlier_turn_shows_in_the_forks_history_and_its_turn_records():
    world = Reporter()
    original = Run(emulated_client(Reporter.policy), world.tools, [MaxTurns(10)])
    drain(original.start("進み具合を報告して"))
    first = status_id(original, 1)
    fork = original.fork(at=3, results={first: "queued"})
    assert result_of(fork, first)["content"] == "queued"
    assert [r["content"] for r in fork.state.laps[0].results if r["tool_use_id"] == first] == ["queued"]
    assert result_of(original, first)["content"] == "running"
