"""A body the real API cannot read as JSON gets the parser's 400, at the right place, never a crash.

The real texts (public 400s): ``The request body is not valid JSON: no low surrogate in string:
line 1 column 37589 (char 37588)`` and ``... invalid high surrogate in string: line 1 column 73900
(char 73899)``. The parser is orjson's yyjson; its depth limit (1,024) and the other messages come
from its source.
"""

import json
import re

import anthropic
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness_lab.emulator import Emulator, emulated_client, emulator_of, say, wire
from tests.emulator.answers import timeless
from tests.emulator.refusals import refusal
from tests.examples import examples

MODEL = "claude-sonnet-5"
TOOLS = [{"name": "t", "description": "d", "input_schema": {"type": "object"}}]
POSITION = re.compile(r": line 1 column (\d+) \(char (\d+)\)$")


def sent_text(body) -> str:
    """The body as the SDK writes it, with each surrogate as the escape it would have to be."""
    text = wire.dumps(body)  # json.dumps, without its recursion (test_the_iterative_writer_matches_json)
    return "".join(f"\\u{ord(c):04x}" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text)


def post_raw(client, body: str):
    """``body`` sent as written, past the SDK's own JSON encoding."""
    headers = {"content-type": "application/json"}
    return client.post("/v1/messages", cast_to=object, content=body.encode(), options={"headers": headers})


def char_of(message: str) -> int:
    column, char = map(int, POSITION.search(message).groups())
    assert column == char + 1
    return char


def with_text(text: str) -> dict:
    return {
        "model": MODEL,
        "max_tokens": 64,
        "messages": [{"role": "user", "content": [{"type": "text", "text": text}]}],
    }


def nested(depth: int, leaf=1):
    value = leaf
    for _ in range(depth):
        value = {"a": value}
    return value


def in_tool_input(value) -> dict:
    return {
        "model": MODEL,
        "max_tokens": 64,
        "tools": TOOLS,
        "messages": [
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_a", "name": "t", "input": value}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_a", "content": "ok"}]},
        ],
    }


# -- lone surrogates -------------------------------------------------------------------------------


def test_a_lone_low_surrogate_is_an_invalid_high_surrogate_at_its_escape():
    request = with_text("x\udcff")  # what surrogateescape makes of a 0xff byte
    message = refusal(request)
    assert message.startswith("The request body is not valid JSON: invalid high surrogate in string: line 1 column ")
    assert sent_text(request)[char_of(message) :].startswith("\\udcff")


def test_a_lone_high_surrogate_has_no_low_surrogate_after_its_escape():
    request = with_text("絵文字の半分 \ud83d です")  # an emoji cut in half
    message = refusal(request)
    assert message.startswith("The request body is not valid JSON: no low surrogate in string: line 1 column ")
    char = char_of(message)
    assert sent_text(request)[char - 6 : char] == "\\ud83d"


def test_a_high_surrogate_before_another_escape_has_an_invalid_low_surrogate():
    request = with_text("\ud83d\ud83d")
    message = refusal(request)
    assert "invalid low surrogate in string" in message
    assert sent_text(request)[char_of(message) :].startswith("\\ud83d")


def test_a_proper_pair_and_the_first_lone_half_anywhere_are_found():
    # a pair written as two code points is what the escapes \ud83d\ude00 mean: readable
    assert wire.first_error(with_text("\ud83d\ude00")) is None
    request = in_tool_input({"ok": "😀", "key\udc80": "v"})  # in a key, deep in a tool input
    message = refusal(request)
    assert sent_text(request)[char_of(message) :].startswith("\\udc80")


def test_a_lone_surrogate_reaches_the_sdk_as_the_same_400_through_a_raw_body():
    client = emulated_client([say("x")], max_retries=0)
    raw = '{"model":"claude-sonnet-5","max_tokens":64,"messages":[{"role":"user","content":"途中で\\ud83d切れた"}]}'
    with pytest.raises(anthropic.BadRequestError) as caught:
        post_raw(client, raw)
    char = char_of(caught.value.api_message)
    assert raw[char - 6 : char] == "\\ud83d" and "no low surrogate" in caught.value.api_message


# -- nesting ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("depth", [1025, 3000, 10_000])
def test_nesting_past_1024_levels_is_refused_where_it_crosses(depth):
    request = in_tool_input(nested(depth))
    message = refusal(request)
    assert message.startswith(
        "The request body is not valid JSON: array and object recursion depth exceeded: line 1 column "
    )
    before = sent_text(request)[: char_of(message)]
    assert before.count("{") + before.count("[") - before.count("}") - before.count("]") == 1025
    assert before.endswith("{")


def test_1024_levels_are_read_and_answered():
    # body, messages, message, content, block: the input may nest 1,019 more levels
    status, _, answer = Emulator([say("はい")]).respond(in_tool_input(nested(1019)))
    assert status == 200, answer
    assert "depth" in refusal(in_tool_input(nested(1020)))


@pytest.mark.parametrize("where", ["tool_result", "input_schema", "system"])
def test_deep_values_elsewhere_are_refused_too(where):
    deep = nested(5000)
    if where == "tool_result":
        request = in_tool_input({})
        request["messages"][2]["content"][0]["content"] = [{"type": "text", "text": "x", "citations": [deep]}]
    elif where == "input_schema":
        request = {
            "model": MODEL,
            "max_tokens": 64,
            "tools": [{"name": "t", "input_schema": deep}],
            "messages": [{"role": "user", "content": "q"}],
        }
    else:
        request = {"model": MODEL, "max_tokens": 64, "system": [deep], "messages": [{"role": "user", "content": "q"}]}
    assert "array and object recursion depth exceeded" in refusal(request)


def test_the_parser_error_wins_over_a_shape_error_before_it():
    request = in_tool_input(nested(2000))
    request["messages"][0]["name"] = "extra field, earlier in the body"
    assert "recursion depth exceeded" in refusal(request)


def test_a_raw_body_too_deep_for_python_gets_the_400_or_a_plain_500():
    client = emulated_client([say("x")], max_retries=0)
    head = '{"model":"claude-sonnet-5","max_tokens":64,"messages":[{"role":"user","content":"q"}],"metadata":'
    deep = head + "[" * 1100 + "]" * 1100 + "}"
    with pytest.raises(anthropic.BadRequestError) as caught:
        post_raw(client, deep)
    char = char_of(caught.value.api_message)
    assert char == len(head) + 1024  # just after the 1,025th bracket, counting the body's own
    legal = head + "[" * 1000 + "]" * 1000 + "}"  # the API reads it; Python's json recursion cannot
    with pytest.raises(anthropic.InternalServerError) as caught:
        post_raw(client, legal)
    assert caught.value.type == "api_error" and "1024" in caught.value.api_message
    assert emulator_of(client).http_requests == 2  # not retried


# -- numbers ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "reason", "at"),
    [
        (float("nan"), "unexpected character", "NaN"),
        (float("inf"), "unexpected character", "Infinity"),
        (float("-inf"), "no digit after minus sign", "Infinity"),
        (10**400, "number is infinity when parsed as double", "1000"),
    ],
)
def test_numbers_the_parser_cannot_read(value, reason, at):
    request = in_tool_input({"n": value})
    message = refusal(request)
    assert f"not valid JSON: {reason}: line 1" in message
    text = json.dumps(request, ensure_ascii=False, separators=(",", ":"))
    assert text[char_of(message) :].startswith(at)


def test_an_integer_past_64_bits_is_a_float_the_schema_refuses_as_an_integer():
    request = {"model": MODEL, "max_tokens": 2**64, "messages": [{"role": "user", "content": "q"}]}
    assert refusal(request) == "max_tokens: Input should be a valid integer"
    request = {"model": MODEL, "max_tokens": 10**400, "messages": [{"role": "user", "content": "q"}]}
    assert "number is infinity when parsed as double" in refusal(request)


# -- the walk writes what json writes -------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=30,
)


@settings(max_examples=examples("wire_json"), deadline=None, database=None)
@given(json_values)
def test_the_iterative_writer_matches_json(value):
    assert wire.dumps(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    canonical = json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()
    assert wire.canonical_bytes(value) == canonical
    assert wire.first_error(value) is None and wire.encodes(value)


def test_ids_do_not_depend_on_how_deep_the_stack_is():
    # Past Python's recursion limit the digest is taken without recursion: the same bytes json
    # writes, so a request keeps its ids whether or not the C encoder gave up on it.
    value = nested(900)
    assert (
        wire.canonical_bytes(value)
        == json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()
    )
    first = Emulator([say("はい")]).respond(in_tool_input(nested(1019)))
    assert timeless(first) == timeless(Emulator([say("はい")]).respond(in_tool_input(nested(1019))))
