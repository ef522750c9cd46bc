"""Tool faults: a tool that raises, hangs, floods or returns something odd never takes the loop down.

Each case runs once through ``Tool.run`` (what the loop calls per call) and the important ones
through the whole loop, where the promise is: the turn ends, every call gets one result (an
``is_error`` one for the failure), the history stays valid and the run goes on to the model's answer.
"""

from __future__ import annotations

import datetime as dt
import decimal
import threading

import pytest
from invariants import assert_valid_history, results_by_id

from harness_lab.drain import drain
from harness_lab.emulator import call, emulated_client, reply, say
from harness_lab.events import Finished
from harness_lab.loop import Run
from harness_lab.text import t
from harness_lab.tools import MAX_RESULT_CHARS, ToolError, run_tool, tool

FAILED = t("result.failed", error="")
RELEASE = threading.Event()  # hung tools wait on this; set when the module is done


@pytest.fixture(scope="module", autouse=True)
def release_hung_tools():
    yield
    RELEASE.set()


class UnprintableError(Exception):
    def __str__(self) -> str:  # an exception whose message itself fails
        raise RuntimeError("no message for you")


class Unprintable:
    def __str__(self) -> str:
        raise RuntimeError("no text for you")

    __repr__ = __str__


class Custom(BaseException):
    pass


def raising(exc: BaseException):
    def fails() -> str:
        """Fail."""
        raise exc

    return tool(fails, name="fails")


EXCEPTIONS = [
    (ValueError("bad value"), "ValueError: bad value"),
    (KeyError("missing"), "KeyError: 'missing'"),
    (ToolError("ツール自身の説明"), "ツール自身の説明"),
    (RecursionError("too deep"), "RecursionError: too deep"),
    (MemoryError(), "MemoryError"),
    (SystemExit(3), "SystemExit: 3"),  # a tool calling sys.exit() must not end the kernel
    (KeyboardInterrupt(), "KeyboardInterrupt"),  # raised inside the tool's own thread
    (Custom("odd"), "Custom: odd"),
    (RuntimeError(""), "RuntimeError"),
]


@pytest.mark.parametrize("exc, shown", EXCEPTIONS, ids=[type(e).__name__ for e, _ in EXCEPTIONS])
def test_an_exception_becomes_an_error_result(exc, shown):
    text, is_error = run_tool(raising(exc), {}, timeout=5)
    assert is_error and text.startswith(FAILED) and shown in text


def test_an_exception_with_a_broken_message_becomes_an_error_result():
    text, is_error = run_tool(raising(UnprintableError()), {}, timeout=5)
    assert is_error and "UnprintableError" in text


def test_a_huge_exception_message_is_truncated_like_an_output():
    text, is_error = run_tool(raising(ValueError("e" * 1_000_000)), {}, timeout=5)
    assert is_error and len(text) < MAX_RESULT_CHARS + 500


def test_a_hung_tool_times_out_and_its_late_answer_is_ignored():
    late = []

    @tool(timeout=0.2)
    def hangs() -> str:
        """Hang."""
        RELEASE.wait(30)
        late.append("finished after all")
        return "too late"

    text, is_error = run_tool(hangs, {})
    assert late == []  # answered while it still hangs, not when it gave up
    assert (text, is_error) == (t("result.timeout", seconds=0.2), True)


def test_parallel_calls_wait_for_the_slowest_deadline_not_the_sum():
    """Three calls in one turn, two of them hung: all three run at once, and the quick one answers.

    The quick call answers only once both hung calls have started: run one after another, it would
    wait behind the first hung call and meet its own deadline instead.
    """
    started = {1: threading.Event(), 3: threading.Event()}

    @tool
    def hang(n: int) -> str:
        """Hang."""
        started[n].set()
        RELEASE.wait(30)
        return "never"

    @tool
    def quick(n: int) -> str:
        """Answer once both hung calls run."""
        return f"quick {n}" if all(one.wait(10) for one in started.values()) else "alone"

    script = [reply(call("hang", n=1), call("quick", n=2), call("hang", n=3)), say("続けます")]
    run = Run(emulated_client(script), [hang, quick], [], tool_timeout=0.3)
    end = drain(run.start("やって"))
    assert isinstance(end, Finished) and end.text == "続けます"
    results = list(run.messages[2]["content"])
    assert [(r["content"], r.get("is_error", False)) for r in results] == [
        (t("result.timeout", seconds=0.3), True),
        ("quick 2", False),
        (t("result.timeout", seconds=0.3), True),
    ]


HUGE_OUTPUTS = [
    ("a 10 MB string", lambda: "x" * 10_000_000),
    ("a million numbers", lambda: list(range(1_000_000))),
    ("a deep dict", lambda: {f"k{i}": "値" * 50 for i in range(5000)}),
]


@pytest.mark.parametrize("label, make", HUGE_OUTPUTS, ids=[x[0] for x in HUGE_OUTPUTS])
def test_a_huge_output_is_truncated_with_a_note(label, make):
    value = make()

    @tool
    def floods() -> object:
        """Flood."""
        return value

    text, is_error = run_tool(floods, {}, timeout=10)
    assert not is_error
    body, _, note = text.rpartition("\n")
    assert len(body) == MAX_RESULT_CHARS
    total = len(value) if isinstance(value, str) else None
    assert note.startswith(t("result.truncated", limit=MAX_RESULT_CHARS, total=total or 0)[:10])
    if total:
        assert note == t("result.truncated", limit=MAX_RESULT_CHARS, total=total)


class Point:
    def __str__(self) -> str:
        return "Point(1, 2)"


ODD_RETURNS = [
    ("set", lambda: {1}, None, "1"),
    ("bytes", lambda: b"\x00\xff", None, "xff"),
    ("object", lambda: Point(), None, "Point(1, 2)"),
    ("datetime", lambda: dt.datetime(2026, 8, 26, 10, 42), None, "2026-08-26"),
    ("decimal", lambda: decimal.Decimal("1.10"), None, "1.10"),
    ("nested", lambda: {"when": dt.date(2026, 1, 2), "tags": {"a"}}, None, "2026-01-02"),
    ("none", lambda: None, "null", None),
    ("nan", lambda: float("nan"), "NaN", None),
    ("tuple", lambda: ("a", 1), '["a", 1]', None),
    ("generator", lambda: (i for i in range(3)), None, "generator"),
]


@pytest.mark.parametrize("label, make, exact, part", ODD_RETURNS, ids=[x[0] for x in ODD_RETURNS])
def test_a_non_json_return_still_becomes_text(label, make, exact, part):
    @tool
    def odd() -> object:
        """Return something odd."""
        return make()

    text, is_error = run_tool(odd, {}, timeout=5)
    assert not is_error and isinstance(text, str)
    assert text == exact if exact is not None else part in text


@pytest.mark.parametrize(
    "make",
    [lambda: Unprintable(), lambda: [Unprintable()], lambda: (lambda a: (a.append(a), a)[1])([])],
    ids=["unprintable", "unprintable_inside", "circular"],
)
def test_a_return_that_cannot_be_turned_into_text_is_an_error_result(make):
    @tool
    def odd() -> object:
        """Return something that cannot be shown."""
        return make()

    text, is_error = run_tool(odd, {}, timeout=5)
    assert is_error and text.startswith(FAILED)


def loop_with(tool_obj, inputs: dict | None = None):
    script = [reply("使います", call(tool_obj.name, **(inputs or {}))), say("おしまい")]
    run = Run(emulated_client(script, max_retries=0), [tool_obj], [], tool_timeout=5)
    return run, drain(run.start("やって"))


@pytest.mark.parametrize("exc, shown", EXCEPTIONS[:7], ids=[type(e).__name__ for e, _ in EXCEPTIONS[:7]])
def test_the_loop_survives_a_failing_tool_and_reaches_the_answer(exc, shown):
    run, end = loop_with(raising(exc))
    assert isinstance(end, Finished) and end.text == "おしまい"
    assert_valid_history(run.messages, [raising(exc).definition])
    (result,) = results_by_id(run.messages).values()
    assert result["is_error"] and shown in result["content"]


def test_the_loop_survives_an_output_that_is_not_valid_unicode():
    @tool
    def surrogate() -> str:
        """Return a broken string."""
        return "abc\ud800def"

    _run, end = loop_with(surrogate)
    assert isinstance(end, Finished)


def test_a_tool_that_mutates_its_input_does_not_rewrite_history():
    @tool
    def mutates(items: list) -> str:
        """Append to the list it was given."""
        items.append("added by the tool")
        return "ok"

    run, end = loop_with(mutates, {"items": [1]})
    assert isinstance(end, Finished)
    assert [b["input"] for b in run.messages[1]["content"] if b["type"] == "tool_use"] == [{"items": [1]}]


def test_the_loop_survives_a_flood_and_keeps_the_history_small():
    @tool
    def floods() -> str:
        """Flood."""
        return "洪水" * 2_000_000

    run, end = loop_with(floods)
    assert isinstance(end, Finished)
    (result,) = results_by_id(run.messages).values()
    assert len(result["content"]) < MAX_RESULT_CHARS + 200
