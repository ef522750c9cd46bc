"""Whatever a learner sends, the emulator answers with a status instead of crashing (a crash in the
transport would surface as a connection error and be retried by the SDK)."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness_lab.emulator import Emulator, say

scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.text(max_size=6))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=12)
ids = st.sampled_from(["toolu_a", "toolu_b"])
# Mostly well-formed blocks, so the checks past the first ones get exercised too.
block = st.one_of(
    st.builds(lambda t: {"type": "text", "text": t}, st.text(max_size=6)),
    st.builds(lambda i, x: {"type": "tool_use", "id": i, "name": "t", "input": x}, ids, st.dictionaries(st.text(max_size=3), values, max_size=2)),
    st.builds(lambda i, c: {"type": "tool_result", "tool_use_id": i, "content": c}, ids, st.one_of(st.text(max_size=5), st.lists(values, max_size=2), values)),
    st.fixed_dictionaries(
        {"type": st.sampled_from(["text", "tool_use", "tool_result", "image", "weird"])},
        optional={"text": values, "id": values, "name": values, "input": values, "tool_use_id": values, "content": values},
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
            st.lists(st.one_of(values, st.fixed_dictionaries({"name": st.text(max_size=5), "input_schema": values})), max_size=2),
        ),
        "system": values,
        "stop_sequences": values,
        "cache_control": values,
    },
)


@settings(max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
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
    assert emulator.respond(body) == (status, headers, answer)
    count_status, _, counted = emulator.respond(body, "/v1/messages/count_tokens")
    assert count_status in (200, 400, 404)
