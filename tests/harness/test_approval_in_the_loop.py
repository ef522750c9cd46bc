"""Approval inside the loop: an ask without an approver denies, answers reach the model, the strictest tier wins,
decisions go per tool_use id.
"""

from __future__ import annotations

from harness_lab.drain import run
from harness_lab.emulator import call, reply, say
from harness_lab.events import ApprovalRequest, Finished, Turn, allow, deny
from harness_lab.loop import Run
from harness_lab.text import t
from harness_lab.valves import Approval, Policy, Rule
from tests.harness.conftest import definitions, setup


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
