"""Bad input to the public API fails where the mistake is made, says what to write, and loses nothing.

Each case is one a newcomer actually types: a valve class instead of a valve, a tool name as a
string, an empty prompt, ``resume()`` before ``start()``. The run must stay usable afterwards.
"""

from __future__ import annotations

import datetime
import io
from pathlib import Path

import pytest

import harness_lab as hl
from harness_lab.cli import main
from harness_lab.drain import drain
from harness_lab.emulator import call, emulated_client, emulator_of, say
from harness_lab.events import Decision, Finished
from harness_lab.loop import Run
from tests.history_check import history_problems


@pytest.fixture(autouse=True)
def english(monkeypatch):
    monkeypatch.setenv("HARNESS_LAB_LANG", "en")
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)


def client():
    return hl.connect([call("get_time"), say("done")], live=False)


def test_run_refuses_a_client_that_is_not_one_and_names_connect():
    for wrong in (None, "lesson6"):
        with pytest.raises(TypeError, match=r'hl\.connect\("lesson6"\)'):
            hl.Run(wrong)


@pytest.mark.parametrize(
    "valves, hint",
    [
        (hl.MaxTurns(3), r"valves=\[hl\.MaxTurns"),  # one valve, not a list
        ([hl.MaxTurns], r"valves=\[MaxTurns\(\.\.\.\)\]"),  # the class, not a valve
        ([3], r"is not a valve"),
    ],
)
def test_run_checks_valves_up_front(valves, hint):
    with pytest.raises(TypeError, match=hint):
        hl.Run(client(), tools=[hl.get_time], valves=valves)


@pytest.mark.parametrize("max_tokens", [0, "x", True])
def test_max_tokens_must_be_a_positive_whole_number(max_tokens):
    with pytest.raises(ValueError, match="TokenBudget"):
        hl.Run(client(), max_tokens=max_tokens)


@pytest.mark.parametrize(
    "option, valve",
    [("max_turns", r"valves=\[hl\.MaxTurns\(3\)\]"), ("token_budget", r"valves=\[hl\.TokenBudget\(3\)\]")],
)
def test_run_says_a_limit_is_a_valve_not_an_option(option, valve):
    with pytest.raises(TypeError, match=valve):
        hl.run(client(), "x", tools=[hl.get_time], **{option: 3})


def test_run_names_its_real_options_for_an_unknown_one():
    with pytest.raises(
        TypeError,
        match=r"colour is not an argument of run\(\) \(it takes model, max_tokens, system, tool_timeout, parallel_tools\)\.$",
    ):
        hl.run(client(), "x", colour="red")


@pytest.mark.parametrize("max_tokens, streamed", [(1024, None), (21_333, None), (21_334, True), (64_000, True)])
def test_a_max_tokens_the_sdk_will_not_send_plainly_is_streamed(max_tokens, streamed):
    # the real SDK raises ValueError for a non-streamed max_tokens above 21333; the run goes on, streamed
    emulated = client()
    outcome = hl.run(emulated, "x", tools=[hl.get_time], max_tokens=max_tokens)
    assert outcome.text == "done" and isinstance(outcome.stop, Finished)
    assert [r.get("stream") for r in emulator_of(emulated).requests] == [streamed, streamed]


@pytest.mark.parametrize(
    "prompt, error", [("", ValueError), ("  \n", ValueError), ([], ValueError), (None, TypeError), (42, TypeError)]
)
def test_a_bad_prompt_never_enters_the_history(prompt, error):
    run = hl.Run(client(), tools=[hl.get_time])
    with pytest.raises(error, match="non-empty string"):
        run.start(prompt)
    assert run.messages == []
    end = list(run.start("what time is it?"))[-1]  # the same run still works
    assert isinstance(end, Finished) and end.text == "done"


def test_resume_before_start_says_to_start_first():
    run = hl.Run(client(), tools=[hl.get_time])
    with pytest.raises(RuntimeError, match=r"run\.start\(prompt\)"):
        run.resume()
    assert run.messages == []


def test_start_while_running_is_refused_and_the_first_run_goes_on():
    run = hl.Run(client(), tools=[hl.get_time])
    gen = run.start("what time is it?")
    next(gen)
    with pytest.raises(RuntimeError, match=r"run\.resume\(\)"):
        run.start("something else")
    end = list(gen)[-1]
    assert isinstance(end, Finished)
    assert [m for m in run.messages if m["role"] == "user" and m["content"] == "something else"] == []


def test_start_after_finish_asks_a_follow_up_in_the_same_conversation():
    run = hl.Run(hl.connect([say("one"), say("two")], live=False))
    assert list(run.start("first"))[-1].text == "one"
    assert list(run.start("second"))[-1].text == "two"
    assert [m["role"] for m in run.messages] == ["user", "assistant", "user", "assistant"]
    assert history_problems(run.messages, []) == []


def test_resume_closes_an_older_generator_so_only_one_drives_the_run():
    run = hl.Run(client(), tools=[hl.get_time])
    old = run.start("what time is it?")
    next(old)
    new = run.resume()
    assert list(old) == []  # closed: stepping it does nothing
    assert isinstance(list(new)[-1], Finished)
    assert history_problems(run.messages, [hl.get_time.definition]) == []


@pytest.mark.parametrize("text", [None, 42, "", "   "])
def test_steer_refuses_what_would_poison_the_history(text):
    run = hl.Run(client(), tools=[hl.get_time])
    gen = run.start("what time is it?")
    with pytest.raises(ValueError, match="non-empty string"):
        run.steer(text)
    assert run.state.pending_user == []
    end = list(gen)[-1]
    assert isinstance(end, Finished), end
    assert history_problems(run.messages, [hl.get_time.definition]) == []


def test_steer_after_a_finish_waits_for_resume():
    run = hl.Run(hl.connect([say("one"), say("two")], live=False))
    list(run.start("first"))
    run.steer("in English")
    assert list(run.resume())[-1].text == "two"
    assert run.messages[-2]["content"] == [{"type": "text", "text": "in English"}]


def test_tools_must_be_a_list_of_functions():
    with pytest.raises(TypeError, match=r"tools=\[hl\.get_time\]"):
        hl.Run(client(), tools=hl.get_time)
    with pytest.raises(TypeError, match="not callable"):
        hl.Run(client(), tools=["read_file"])


def test_two_tools_with_one_name_are_refused_but_the_same_tool_twice_is_fine():
    other = hl.tool(lambda: "now", name="get_time")
    with pytest.raises(ValueError, match="get_time"):
        hl.Run(client(), tools=[hl.get_time, other])
    assert list(hl.Run(client(), tools=[hl.get_time, hl.get_time]).tools) == ["get_time"]


@pytest.mark.parametrize("name", ["<lambda>", "my tool", "x" * 65, ""])
def test_tool_names_the_api_refuses_fail_when_the_tool_is_made(name):
    with pytest.raises(ValueError, match=r'name="my_tool"'):
        hl.tool(lambda: None, name=name)  # "" falls back to the function's name, "<lambda>"


def test_a_lambda_with_a_name_is_a_tool():
    assert hl.tool(lambda: "ok", name="ok_tool").definition["name"] == "ok_tool"


def day_after(day: datetime.date) -> str:
    """The next day."""
    return (day + datetime.timedelta(days=1)).isoformat()


def size_of(path: Path) -> int:
    """A file's size."""
    return 0


@pytest.mark.parametrize("fn, shown", [(day_after, "date"), (size_of, "Path")])
def test_annotations_json_cannot_carry_are_refused_with_the_way_out(fn, shown):
    with pytest.raises(TypeError, match=rf"annotated {shown}.*input_schema"):
        hl.tool(fn)
    # The way out the message names works: an explicit schema.
    made = hl.tool(fn, input_schema={"type": "object", "properties": {}})
    assert made.definition["input_schema"] == {"type": "object", "properties": {}}


def test_an_unresolvable_annotation_is_named():
    def broken(x: NoSuchType) -> str:  # noqa: F821
        return ""

    with pytest.raises(TypeError, match="NoSuchType"):
        hl.tool(broken)


def test_any_and_unannotated_parameters_still_accept_anything():
    def free(a, b: object) -> str:
        return ""

    assert hl.tool(free).definition["input_schema"]["properties"] == {"a": {}, "b": {}}


def test_policy_and_approval_check_their_arguments():
    with pytest.raises(TypeError, match="dict of tool name"):
        hl.Policy(["write_file"])
    with pytest.raises(TypeError, match=r"hl\.Policy"):
        hl.Approval({"write_file": "deny"})
    with pytest.raises(TypeError, match="approver must be a function"):
        hl.Approval(approver="yes")
    with pytest.raises(TypeError, match="approve must be a function"):
        hl.run(client(), "hi", approve="yes")


@pytest.mark.parametrize("answer", [1, "ok", "許可", hl.allow, [], object()])
def test_an_odd_approval_answer_denies_and_says_why(answer):
    decision = Decision.coerce(answer)
    assert not decision.allowed
    assert "allow()" in decision.reason


@pytest.mark.parametrize("answer", [None, False, "no", "n", "deny"])
def test_a_plain_no_denies_without_a_lecture(answer):
    assert Decision.coerce(answer) == Decision(False)


def test_the_odd_answer_reason_reaches_the_model(tmp_path):
    writer = hl.tool(lambda path, content: "written", name="write_file", high_impact=True)
    outcome = hl.run(
        hl.connect("high_impact", live=False),
        "x",
        tools=[writer],
        valves=[hl.Approval()],
        approve=lambda request: hl.allow,
    )  # allow without the parentheses
    result = outcome.messages[2]["content"][0]
    assert result["is_error"] is True and "<function allow>" in result["content"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["run", "x", "--max-turns", "abc"], "must be a positive integer: abc"),
        (["run", "   "], "argument prompt: must not be empty"),
    ],
)
def test_cli_usage_errors_are_plain_sentences(args, message, capsys):
    with pytest.raises(SystemExit) as exit:
        main(args, out=io.StringIO())
    assert exit.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("bad", ["x\udcff", ["ok", "\ud800"], [{"type": "text", "text": "a\udfffb"}]])
def test_a_lone_surrogate_is_refused_at_start_and_nothing_is_stored(bad):
    run = Run(emulated_client([say("はい")]), [], [])
    with pytest.raises(ValueError, match="UTF-8"):
        run.start(bad)
    assert run.messages == []
    assert isinstance(drain(run.start("ふつうの質問")), Finished)  # the run is still usable


def test_a_lone_surrogate_is_refused_by_steer_and_resume_still_works():
    run = Run(emulated_client([call("get_time"), say("はい")]), [hl.tool(lambda: "now", name="get_time")], [])
    gen = run.start("時刻は？")
    with pytest.raises(ValueError, match="UTF-8"):
        run.steer("急いで\udcff")
    assert run.state.pending_user == []
    assert isinstance(drain(gen), Finished)


@pytest.mark.parametrize("factory", [hl.make_read_file, hl.make_write_file, hl.make_http_post])
def test_a_tool_maker_passed_uncalled_says_to_call_it(factory):
    name = factory.__name__
    with pytest.raises(TypeError, match=rf"{name} makes a tool.*tools=\[hl\.{name}\(\)\]"):
        hl.Run(client(), tools=[factory, hl.get_time])


@pytest.mark.parametrize("model", [123, b"claude-sonnet-5", ["claude-sonnet-5"]])
def test_a_model_that_is_not_a_name_fails_when_the_run_is_made(model):
    with pytest.raises(TypeError, match=r'model="claude-sonnet-5"'):
        hl.Run(client(), tools=[hl.get_time], model=model)


def test_a_limit_of_zero_turns_is_refused_saying_it_is_not_no_limit():
    # MaxTurns(0) used to run one request and stop with "the task may be too hard or the model stuck"
    with pytest.raises(ValueError, match=r"0 does not mean no limit.*leave MaxTurns out of valves"):
        hl.Run(client(), tools=[hl.get_time], valves=[hl.MaxTurns(0)])
