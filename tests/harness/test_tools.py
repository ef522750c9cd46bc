"""@tool, schema building, input checks and Tool.run's failure handling (lessons 2 and 6)."""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Literal

import pytest

from harness_lab.text import t
from harness_lab.tools import MAX_RESULT_CHARS, Tool, ToolError, as_tools, execution, run_calls, run_tool, tool


@tool
def get_weather(city: str, days: int = 1, unit: Literal["c", "f"] = "c", note: str | None = None) -> dict:
    """Current weather for a city.

    Longer explanation that is not part of the description.

    Args:
        city: the city's name in Japanese
        days (int): how many days ahead
    """
    return {"city": city, "days": days, "天気": "晴れ"}


def test_definition_comes_from_signature_and_docstring():
    d = get_weather.definition
    assert d["name"] == "get_weather"
    assert d["description"] == "Current weather for a city."
    props = d["input_schema"]["properties"]
    assert props["city"] == {"type": "string", "description": "the city's name in Japanese"}
    assert props["days"] == {"type": "integer", "description": "how many days ahead"}
    assert props["unit"] == {"enum": ["c", "f"]}
    assert props["note"] == {"type": "string"}
    assert d["input_schema"]["required"] == ["city"]


def test_list_float_bool_and_overrides():
    @tool(name="tag_items", description="Tag things.")
    def tag(items: list[str], weight: float, flag: bool = False, extra: dict | None = None) -> str:
        return "ok"

    schema = tag.definition["input_schema"]
    assert tag.definition["name"] == "tag_items" and tag.definition["description"] == "Tag things."
    assert schema["properties"]["items"] == {"type": "array", "items": {"type": "string"}}
    assert schema["properties"]["weight"] == {"type": "number"}
    assert schema["properties"]["flag"] == {"type": "boolean"}
    assert schema["properties"]["extra"] == {"type": "object"}
    assert schema["required"] == ["items", "weight"]


def test_still_a_function():
    assert get_weather(city="大阪")["city"] == "大阪"


def test_run_returns_json_text_with_japanese_kept():
    text, is_error = run_tool(get_weather, {"city": "大阪"})
    assert not is_error
    assert "晴れ" in text and json.loads(text)["天気"] == "晴れ"


def test_missing_argument_is_an_error_result_naming_it_and_the_function_is_not_entered():
    entered = []

    @tool
    def read(path: str) -> str:
        """Read."""
        entered.append(path)
        return "x"

    text, is_error = run_tool(read, {})
    assert is_error and "'path'" in text and entered == []
    text, is_error = run_tool(read, {"path": 3})
    assert is_error and "path" in text and "string" in text and entered == []
    text, is_error = run_tool(read, ["not", "an", "object"])
    assert is_error and entered == []


def test_enum_violation_is_caught():
    text, is_error = run_tool(get_weather, {"city": "東京", "unit": "kelvin"})
    assert is_error and "kelvin" in text


def test_exceptions_become_error_results():
    @tool
    def boom() -> str:
        """Fail."""
        raise RuntimeError("disk on fire")

    text, is_error = run_tool(boom, {})
    assert is_error and "RuntimeError" in text and "disk on fire" in text


def test_tool_error_message_is_shown_as_is():
    @tool
    def picky() -> str:
        """Fail politely."""
        raise ToolError("そのファイルはありません")

    text, is_error = run_tool(picky, {})
    assert is_error and text.endswith("そのファイルはありません") and "ToolError" not in text


def test_a_timeout_is_answered_while_the_tool_still_hangs():
    release, finished = threading.Event(), threading.Event()

    @tool
    def hang() -> str:
        """Hang."""
        release.wait(30)
        finished.set()
        return "late"

    text, is_error = run_tool(hang, {}, timeout=0.2)
    hung_when_answered = not finished.is_set()  # answered, not waited out: the tool has not returned
    release.set()
    assert (text, is_error) == (t("result.timeout", seconds=0.2), True)
    assert hung_when_answered


def test_a_timeout_shorter_than_the_wait_tick_is_answered_at_its_deadline(monkeypatch):
    """The caller wakes every WAKE_EVERY seconds to see a Ctrl-C; a shorter timeout must not last until that tick.

    With the tick made an hour long, a harness that only looks at deadlines on its tick would keep
    waiting until the tool gave up its 10 s hang and answered "late"; one that wakes at the deadline
    answers with the timeout while the tool still hangs.
    """
    monkeypatch.setattr(execution, "WAKE_EVERY", 3600.0)
    release, finished = threading.Event(), threading.Event()

    @tool(timeout=0.03)
    def hang() -> str:
        """Hang."""
        release.wait(10)
        finished.set()
        return "late"

    text, is_error = run_tool(hang, {})
    hung_when_answered = not finished.is_set()
    release.set()
    assert (text, is_error) == (t("result.timeout", seconds=0.03), True)
    assert hung_when_answered


@pytest.mark.parametrize(
    "schema, named",
    [
        ({"type": "object", "properties": {"x": {"type": "strin"}}}, "'strin' is not valid"),
        ({"type": "object", "properties": {"x": {"type": "string", "pattern": "("}}}, "'(' is not a 'regex'"),
        ({"type": "object", "required": "x"}, "'x' is not of type 'array'"),
    ],
)
def test_a_broken_input_schema_is_named_at_once_and_the_tool_never_runs(schema, named):
    entered = []
    broken = tool(lambda x=None: entered.append(x), name="broken", input_schema=schema, timeout=5)
    text, is_error = run_tool(broken, {"x": 1})
    # answered, not waited out: past its 5 s timeout the answer would be the timeout's message
    assert is_error and text.startswith(t("result.bad_schema", name="broken", error="")) and named in text
    assert "\n" not in text and entered == []


def test_calls_run_concurrently_and_keep_order():
    """Three calls meet at a barrier, which only opens if all three run at once; they end last to first."""
    meet = threading.Barrier(3, timeout=10)  # one after another, the first waits here alone and fails
    ended = {label: threading.Event() for label in "abc"}
    after = {"a": "b", "b": "c"}

    @tool
    def meets(label: str) -> str:
        """Meet the others, then answer."""
        meet.wait()
        if label in after and not ended[after[label]].wait(10):
            return f"{label}: {after[label]} never ended"
        ended[label].set()
        return label

    answers = run_calls([(meets, {"label": label}) for label in "abc"], timeout=30)
    assert answers == [("a", False), ("b", False), ("c", False)]


def test_huge_output_is_truncated_with_a_note():
    @tool
    def flood() -> str:
        """Too much."""
        return "あ" * (MAX_RESULT_CHARS * 3)

    text, is_error = run_tool(flood, {})
    assert not is_error
    assert len(text) < MAX_RESULT_CHARS + 200 and str(MAX_RESULT_CHARS * 3) in text


def test_an_async_tool_is_awaited_like_the_lessons_tools():
    @tool
    async def fetch(city: str) -> dict:
        """Ask a slow service."""
        await asyncio.sleep(0.01)
        return {"city": city, "temp": 21}

    assert fetch.definition["input_schema"]["required"] == ["city"]
    assert run_tool(fetch, {"city": "大阪"}) == ('{"city": "大阪", "temp": 21}', False)


def test_an_async_tool_that_raises_or_hangs_is_an_error_result():
    @tool
    async def broken() -> str:
        """Fails."""
        raise ValueError("service down")

    @tool
    async def stuck() -> str:
        """Never answers."""
        await asyncio.sleep(5)

    assert run_calls([(broken, {}), (stuck, {})], timeout=0.2) == [
        (t("result.failed", error="ValueError: service down"), True),
        (t("result.timeout", seconds=0.2), True),
    ]


def test_a_generator_function_is_refused_when_the_tool_is_made():
    def numbers() -> str:
        """Counts."""
        yield "1"

    with pytest.raises(TypeError, match="numbers"):
        tool(numbers)


def test_as_tools_accepts_a_dict_of_plain_functions_and_a_list():
    def shout(word: str) -> str:
        """Upper-case a word."""
        return word.upper()

    from_dict = as_tools({"yell": shout})
    assert set(from_dict) == {"yell"} and from_dict["yell"].definition["name"] == "yell"
    assert run_tool(from_dict["yell"], {"word": "hi"}) == ("HI", False)
    from_list = as_tools([shout, get_weather])
    assert set(from_list) == {"shout", "get_weather"}
    assert all(isinstance(v, Tool) for v in from_list.values())
