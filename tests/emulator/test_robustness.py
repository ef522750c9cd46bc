"""Whatever a learner sends, the emulator answers with a status instead of crashing (a crash in the
transport would surface as a connection error and be retried by the SDK)."""

import anthropic
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness_lab.emulator import Emulator, emulated_client, reply, say
from tests.emulator.answers import timeless
from tests.examples import examples

scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.text(max_size=6))
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=12,
)
ids = st.sampled_from(["toolu_a", "toolu_b"])
# Mostly well-formed blocks, so the checks past the first ones get exercised too.
block = st.one_of(
    st.builds(lambda t: {"type": "text", "text": t}, st.text(max_size=6)),
    st.builds(
        lambda i, x: {"type": "tool_use", "id": i, "name": "t", "input": x},
        ids,
        st.dictionaries(st.text(max_size=3), values, max_size=2),
    ),
    st.builds(
        lambda i, c: {"type": "tool_result", "tool_use_id": i, "content": c},
        ids,
        st.one_of(st.text(max_size=5), st.lists(values, max_size=2), values),
    ),
    st.fixed_dictionaries(
        {"type": st.sampled_from(["text", "tool_use", "tool_result", "image", "weird"])},
        optional={
            "text": values,
            "id": values,
            "name": values,
            "input": values,
            "tool_use_id": values,
            "content": values,
        },
    ),
)
message = st.fixed_dictionaries(
    {"role": st.sampled_from(["user", "assistant", "system"])},
    optional={"content": st.one_of(st.text(max_size=8), st.lists(st.one_of(block, values), max_size=3), values)},
)
request = st.fixed_dictionaries(
    {"model": st.sampled_from(["claude-sonnet-5", "nope"]), "max_tokens": st.one_of(st.integers(-1, 50), values)},
    optional={
        "messages": st.one_of(st.lists(st.one_of(message, values), max_size=4), values),
        "tools": st.one_of(
            st.just([{"name": "t", "input_schema": {"type": "object"}}]),
            st.lists(
                st.one_of(values, st.fixed_dictionaries({"name": st.text(max_size=5), "input_schema": values})),
                max_size=2,
            ),
        ),
        "system": values,
        "stop_sequences": values,
        "cache_control": values,
    },
)


@settings(
    max_examples=examples("emulator_requests"),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(request)
def test_any_request_gets_a_status_and_a_complete_body(body):
    emulator = Emulator([say("はい")])
    status, headers, answer = emulator.respond(body)
    assert status in (200, 400, 404)
    assert headers["request-id"].startswith("req_")
    if status == 200:
        assert answer["type"] == "message" and answer["usage"]["output_tokens"] >= 1
    else:
        assert answer["type"] == "error" and answer["error"]["message"]
    assert timeless(emulator.respond(body)) == timeless((status, headers, answer))
    count_status, _, _counted = emulator.respond(body, "/v1/messages/count_tokens")
    assert count_status in (200, 400, 404)


# -- bodies no client would send: deep, odd types, lone surrogates, numbers JSON cannot hold ----------

ALPHABET = ["a", " ", "\n", "\x00", '"', "\\", "あ", "😀", "\ud83d", "\ude00", "\udcff"]
odd_text = st.text(st.sampled_from(ALPHABET), max_size=6)
odd_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from([20, 400, 5000]).map(lambda digits: 10**digits),
    st.just(-(2**63) - 1),
    st.floats(),
    odd_text,
    st.binary(max_size=3),
)


def nest(value, depth, kind):
    for _ in range(depth):
        value = {"k": value} if kind == "dict" else [value]
    return value


deep = st.builds(nest, odd_scalars, st.integers(0, 3000), st.sampled_from(["dict", "list"]))
odd_values = st.recursive(
    odd_scalars | deep,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.tuples(inner)
        | st.dictionaries(st.one_of(odd_text, st.integers(), st.none()), inner, max_size=3)
    ),
    max_leaves=8,
)
odd_block = st.one_of(
    st.builds(lambda t: {"type": "text", "text": t}, odd_text),
    st.builds(
        lambda i, x: {"type": "tool_use", "id": i, "name": "t", "input": x},
        ids,
        st.dictionaries(odd_text, odd_values, max_size=2),
    ),
    st.builds(
        lambda i, c: {"type": "tool_result", "tool_use_id": i, "content": c, "is_error": False},
        ids,
        st.one_of(odd_text, odd_values),
    ),
    odd_values,
)
odd_request = st.fixed_dictionaries(
    {"model": st.sampled_from(["claude-sonnet-5", "nope"]), "max_tokens": st.one_of(st.integers(-1, 50), odd_values)},
    optional={
        "messages": st.lists(
            st.fixed_dictionaries(
                {
                    "role": st.sampled_from(["user", "assistant"]),
                    "content": st.one_of(odd_text, st.lists(odd_block, max_size=3)),
                }
            ),
            max_size=4,
        ),
        "tools": st.one_of(
            st.just([{"name": "t", "input_schema": {"type": "object"}}]),
            st.lists(st.fixed_dictionaries({"name": odd_text, "input_schema": odd_values}), max_size=2),
        ),
        "tool_choice": odd_values,
        "thinking": odd_values,
        "metadata": odd_values,
        "stream": odd_values,
        "system": odd_values,
        "stop_sequences": odd_values,
        "temperature": odd_values,
    },
)


# A valid conversation around one odd tool input, so the 200 path (estimate, ids, streaming) meets them too.
odd_history = st.builds(
    lambda value, stream: {
        "model": "claude-sonnet-5",
        "max_tokens": 64,
        "stream": stream,
        "tools": [{"name": "t", "input_schema": {"type": "object"}}],
        "messages": [
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_a", "name": "t", "input": value}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_a", "content": "ok"}]},
        ],
    },
    st.dictionaries(
        st.text(max_size=3), st.one_of(st.integers(), st.floats(allow_nan=False), st.text(), odd_values), max_size=3
    ),
    st.booleans(),
)


@settings(
    max_examples=examples("emulator_odd_bodies"),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.one_of(odd_request, odd_values, odd_history), st.sampled_from(["/v1/messages", "/v1/messages/count_tokens"]))
def test_respond_never_raises_whatever_the_body(body, path):
    emulator = Emulator([say("はい")])
    answer = emulator.respond(body, path)
    assert isinstance(answer, tuple) and len(answer) == 3
    status, headers, payload = answer
    assert status in (200, 400, 404), payload  # a 500 here would be the emulator's own bug
    assert headers["request-id"].startswith("req_011C")
    if status != 200:
        assert (
            payload["type"] == "error"
            and payload["error"]["message"]
            and payload["request_id"] == headers["request-id"]
        )
    assert timeless(emulator.respond(body, path)) == timeless(answer)


def test_a_script_that_raises_is_a_500_from_respond_itself():
    def broken(request):
        raise KeyError("oops")

    request = {"model": "claude-sonnet-5", "max_tokens": 64, "messages": [{"role": "user", "content": "q"}]}
    status, headers, payload = Emulator(broken).respond(request)
    assert status == 500 and headers["x-should-retry"] == "false"
    assert payload["error"] == {
        "details": None,
        "type": "api_error",
        "message": "emulator: the script raised KeyError: 'oops'",
    }
    assert payload["request_id"] == headers["request-id"] and payload["request_id"].startswith("req_011C")


def test_a_reply_json_cannot_carry_is_a_500_not_a_dropped_connection():
    client = emulated_client([reply({"type": "tool_use", "name": "t", "input": {"tags": {"a", "b"}}})], max_retries=0)
    with pytest.raises(anthropic.InternalServerError) as caught:
        client.messages.create(
            model="claude-sonnet-5",
            max_tokens=1024,
            tools=[{"name": "t", "input_schema": {"type": "object"}}],
            messages=[{"role": "user", "content": "q"}],
        )
    assert caught.value.type == "api_error" and "not JSON" in caught.value.api_message
    assert caught.value.request_id.startswith("req_011C")
