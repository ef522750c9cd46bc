"""Approval fails closed: whatever goes wrong around a decision, the gated tool does not run.

Covered: approvers that raise (Exception, KeyboardInterrupt, SystemExit), odd answers, a plain
``next()``, a generator closed while waiting, a decision sent twice, a rule predicate that raises,
and the Stepper's buttons clicked twice or on a stale panel. A decision applies to the one
tool_use id it was asked about: never to a sibling call in the same turn, nor to the same call
repeated in a later turn.
"""

from __future__ import annotations

from collections import Counter

import pytest
from invariants import assert_valid_history, results_by_id

from harness_lab.drain import drain
from harness_lab.drain import run as run_to_end
from harness_lab.emulator import call, emulated_client, reply, say
from harness_lab.events import ApprovalRequest, Decision, Finished, Stopped, Turn, allow, deny
from harness_lab.loop import Run
from harness_lab.text import t
from harness_lab.tools import MAX_RESULT_CHARS, tool
from harness_lab.valves import Approval, MaxTurns, Policy, Rule

SCRIPT = [
    reply("書いて送ります", call("write", path="a.txt"), call("post", url="https://example.com")),
    call("write", path="a.txt"),  # the same call again, in a later turn
    say("終わりました"),
]


class Spies:
    def __init__(self) -> None:
        self.ran: Counter = Counter()

        @tool(high_impact=True)
        def write(path: str) -> str:
            """Write a file."""
            self.ran["write"] += 1
            return f"wrote {path}"

        @tool(high_impact=True)
        def post(url: str) -> str:
            """Send a request."""
            self.ran["post"] += 1
            return f"posted {url}"

        self.tools = [write, post]
        self.definitions = [write.definition, post.definition]


def harness(spies: Spies, approver=None, policy: Policy | None = None) -> Run:
    valves = [MaxTurns(5), Approval(policy or Policy(default="ask"), approver=approver)]
    return Run(emulated_client(SCRIPT), spies.tools, valves)


def errors(run: Run) -> list[bool]:
    return [r.get("is_error", False) for r in results_by_id(run.messages).values()]


@pytest.mark.parametrize(
    "exc", [RuntimeError("approver broke"), ValueError(""), TimeoutError("no answer"), LookupError("no such user")]
)
def test_an_approver_that_raises_denies(exc):
    spies = Spies()

    def approver(request):
        raise exc

    run = harness(spies, approver)
    end = drain(run.start("やって"))
    assert isinstance(end, Finished) and spies.ran == Counter()
    assert_valid_history(run.messages, spies.definitions)
    results = list(results_by_id(run.messages).values())
    assert len(results) == 3 and all(r["is_error"] for r in results)
    said = t("result.approver_failed", error="\x00").split("\x00")[0]
    assert all(said in r["content"] and type(exc).__name__ in r["content"] for r in results)


@pytest.mark.parametrize("exc", [RuntimeError("approve callback broke"), KeyError("x")])
def test_run_with_an_approve_callback_that_raises_denies(exc):
    spies = Spies()

    def approve(request):
        raise exc

    outcome = run_to_end(
        emulated_client(SCRIPT), "やって", spies.tools, [MaxTurns(5), Approval(Policy(default="ask"))], approve=approve
    )
    assert isinstance(outcome.stop, Finished) and spies.ran == Counter()
    assert_valid_history(outcome.messages, spies.definitions)


def test_an_approver_interrupted_by_ctrl_c_stops_cleanly_and_resumes():
    """Ctrl-C at the approval prompt: nothing ran, the history is valid, and the run asks again later."""
    spies = Spies()
    answers = iter([KeyboardInterrupt(), True, False, True])

    def approver(request):
        answer = next(answers)
        if isinstance(answer, BaseException):
            raise answer
        return answer

    run = harness(spies, approver)
    end = drain(run.start("やって"))
    assert isinstance(end, Stopped) and end.cause == "interrupted" and spies.ran == Counter()
    assert_valid_history(run.messages, spies.definitions)
    end = drain(run.resume())
    assert isinstance(end, Finished)
    assert spies.ran == Counter({"write": 2})  # turn 1: write allowed, post denied; turn 2: write allowed
    assert_valid_history(run.messages, spies.definitions)


def test_an_approver_that_exits_lets_nothing_run():
    spies = Spies()

    def approver(request):
        raise SystemExit(1)

    run = harness(spies, approver)
    try:
        drain(run.start("やって"))
    except SystemExit:
        pass  # propagating is fine; running the tool is not
    assert spies.ran == Counter()
    assert_valid_history(run.messages, spies.definitions)


ANSWERS = [
    (True, True),
    (allow(), True),
    ("allow", True),
    ("YES ", True),
    ("y", True),
    (Decision(True, "ok"), True),
    (False, False),
    (None, False),
    (deny("だめ"), False),
    (1, False),
    ("ok", False),
    ("true", False),
    ("no", False),
    ("", False),
    ([True], False),
    ({"allowed": True}, False),
    (object(), False),
    ("allow it? no", False),
]


@pytest.mark.parametrize("answer, allowed", ANSWERS, ids=[repr(a)[:20] for a, _ in ANSWERS])
def test_only_an_explicit_yes_allows(answer, allowed):
    """An answer counts as yes only when it plainly is one; anything ambiguous denies."""
    spies = Spies()
    run = harness(spies, approver=lambda request: answer)
    drain(run.start("やって"))
    expected = Counter({"write": 2, "post": 1}) if allowed else Counter()
    assert spies.ran == expected
    assert errors(run) == [not allowed] * 3


def test_a_plain_next_denies_and_so_does_closing_the_generator():
    spies = Spies()
    run = harness(spies)
    gen = run.start("やって")
    first = next(gen)
    assert isinstance(first, ApprovalRequest) and first.name == "write"
    second = next(gen)  # no answer given: deny
    assert isinstance(second, ApprovalRequest) and second.name == "post"
    gen.close()  # the notebook moved on while the second call waited
    assert spies.ran == Counter()
    assert_valid_history(run.messages, spies.definitions)
    # Later the run goes on: both calls of that turn are asked again; nothing was decided for them.
    gen = run.resume()
    again = next(gen)
    assert isinstance(again, ApprovalRequest) and again.tool_use_id == first.tool_use_id


def test_a_decision_covers_one_tool_use_id_only():
    """Allowing the first write neither allows its sibling call nor the same write one turn later."""
    spies = Spies()
    run = harness(spies)
    gen = run.start("やって")
    asked = []
    event = next(gen)
    while not isinstance(event, (Finished, Stopped)):
        answer = None
        if isinstance(event, ApprovalRequest):
            asked.append(event)
            answer = allow() if len(asked) == 1 else None
        event = gen.send(answer)
    assert [(a.name, a.input) for a in asked] == [
        ("write", {"path": "a.txt"}),
        ("post", {"url": "https://example.com"}),
        ("write", {"path": "a.txt"}),
    ]
    assert len({a.tool_use_id for a in asked}) == 3
    assert spies.ran == Counter({"write": 1})
    assert errors(run) == [False, True, True]


def test_a_decision_sent_twice_does_not_carry_over():
    """A second ``send(allow())`` that lands on a Turn is ignored, not kept for the next call."""
    spies = Spies()
    run = harness(spies, policy=Policy({"post": "allow"}, default="ask"))
    gen = run.start("やって")
    event = next(gen)
    assert isinstance(event, ApprovalRequest)
    event = gen.send(allow())
    assert isinstance(event, Turn)
    event = gen.send(allow())  # the double answer arrives while a turn is reported
    assert isinstance(event, ApprovalRequest) and event.name == "write"  # turn 2 asks afresh
    event = gen.send(None)
    while not isinstance(event, (Finished, Stopped)):
        event = gen.send(None)
    assert spies.ran == Counter({"write": 1, "post": 1})


def test_a_rule_that_raises_denies():
    spies = Spies()
    policy = Policy(
        {"post": "allow"},
        default="ask",
        rules=[Rule("write", "allow", when=lambda given: given["missing_key"].startswith("sandbox/"))],
    )
    run = harness(spies, approver=lambda request: True, policy=policy)
    drain(run.start("やって"))
    assert spies.ran == Counter({"post": 1})  # the broken rule made every write a deny, even with a yes-man
    assert results_by_id(run.messages)
    assert errors(run) == [True, False, True]


def test_a_mistyped_tier_fails_loudly_not_open():
    with pytest.raises(ValueError, match="'alow'"):
        Policy({"write": "alow"})
    with pytest.raises(ValueError, match="'Allow'"):
        Policy(default="Allow")
    with pytest.raises(ValueError, match="'yes'"):
        Rule("write", "yes")


# --- the Stepper's buttons --------------------------------------------------------------------


@pytest.fixture
def stepper():
    pytest.importorskip("ipywidgets")
    from harness_lab.ui import Stepper

    spies = Spies()
    run = harness(spies)
    return Stepper(run, "やって"), spies, run


def test_a_double_click_on_approve_answers_once(stepper):
    s, spies, _run = stepper
    s.step()
    first = s.pending
    button = s.approve_button
    button.click()
    button.click()  # the second click of a double click
    assert s.decisions == {first.tool_use_id: Decision(True)}
    assert s.pending is not None and s.pending.name == "post"  # the sibling still waits for its own answer
    s.deny_button.click()  # the turn's calls run once all are decided
    assert spies.ran == Counter({"write": 1})
    button.click()  # a late third click, now on a stale panel
    assert spies.ran == Counter({"write": 1})


def test_an_old_panel_never_answers_a_new_call(stepper):
    s, spies, _run = stepper
    s.step()
    old_approve = s.approve_button
    s.deny_button.click()
    assert s.pending is not None and s.pending.name == "post"
    old_approve.click()  # the write's panel, clicked after the post was asked
    assert s.pending is not None and s.pending.name == "post" and spies.ran == Counter()
    s.deny_button.click()
    s.deny_button.click()
    assert spies.ran == Counter()


def test_deny_then_approve_stays_denied(stepper):
    s, spies, _run = stepper
    s.step()
    deny_button, approve_button = s.deny_button, s.approve_button
    deny_button.click()
    approve_button.click()
    assert spies.ran == Counter()


def test_stepping_or_stopping_while_an_approval_waits_never_allows(stepper):
    s, spies, run = stepper
    s.step()
    waiting = s.pending
    assert s.step() is waiting  # a stray 「次のターン」 click
    s.run_all()  # and a stray 「最後まで」
    assert s.pending is waiting
    assert spies.ran == Counter()
    s.stop()
    assert spies.ran == Counter() and isinstance(s.outcome, Stopped)
    assert_valid_history(run.messages, spies.definitions)


# --- decisions and reasons that are not what they claim to be ----------------------------------


@pytest.mark.parametrize("allowed", ["deny", "no", 1, 0, None, [True]], ids=repr)
def test_a_decision_that_is_not_a_plain_bool_is_refused_and_denies(allowed):
    """``Decision("deny")`` would be truthy: it is refused when made, so the approver fails, and denies."""
    with pytest.raises(TypeError):
        Decision(allowed)
    spies = Spies()
    run = harness(spies, approver=lambda request: Decision(allowed))
    drain(run.start("やって"))
    assert spies.ran == Counter() and errors(run) == [True] * 3


def test_a_decision_tampered_after_it_was_made_still_denies():
    tampered = Decision(True)
    object.__setattr__(tampered, "allowed", "no")  # truthy, and not True
    assert Decision.coerce(tampered).allowed is False
    spies = Spies()
    run = harness(spies, approver=lambda request: tampered)
    drain(run.start("やって"))
    assert spies.ran == Counter()


class Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("this exception cannot be shown")


HOSTILE = {
    "a 1 MB denial reason": deny("x" * 1_000_000),
    "a lone surrogate in the reason": deny("だめ\ud800"),
    "an approver error that cannot be printed": Unprintable(),
    "a 1 MB approver error": ValueError("e" * 1_000_000),
    "a lone surrogate in the approver error": ValueError("bad\ud800"),
}


@pytest.mark.parametrize("path", ["approver", "run(approve=...)"])
@pytest.mark.parametrize("answer", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_denials_keep_the_run_healthy(answer, path):
    """Nothing runs, and the denial text cannot poison the history (too long, unencodable, unprintable)."""
    spies = Spies()

    def approver(request):
        if isinstance(answer, BaseException):
            raise answer
        return answer

    if path == "approver":
        run = harness(spies, approver)
        end, messages = drain(run.start("やって")), run.messages
    else:
        outcome = run_to_end(
            emulated_client(SCRIPT),
            "やって",
            spies.tools,
            [MaxTurns(5), Approval(Policy(default="ask"))],
            approve=approver,
        )
        end, messages = outcome.stop, outcome.messages
    assert isinstance(end, Finished) and spies.ran == Counter()
    assert_valid_history(messages, spies.definitions)
    for result in results_by_id(messages).values():
        assert result["is_error"] and len(result["content"]) < MAX_RESULT_CHARS + 500
        result["content"].encode("utf-8")  # the next request can be sent
