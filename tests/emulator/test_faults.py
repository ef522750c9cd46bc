"""Faults on demand: the SDK's own retries go through them, or raise once retries run out."""

import time

import anthropic
import anthropic._base_client
import pytest

from harness_lab.emulator import Emulator, emulated_client, emulator_of, say

REQUEST = {"model": "claude-sonnet-5", "max_tokens": 1024, "messages": [{"role": "user", "content": "q"}]}


class _SleepsSeen:
    """The ``time`` module as the SDK sees it, noting each retry wait instead of sleeping it."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)

    def __getattr__(self, name: str):
        return getattr(time, name)


def test_two_overloads_then_success_with_default_retries(monkeypatch):
    seen = _SleepsSeen()
    monkeypatch.setattr(anthropic._base_client, "time", seen)
    client = emulated_client([say("届きました")], faults={1: "529", 2: "529"})
    response = client.messages.create(**REQUEST)
    assert response.content[-1].text == "届きました"
    assert emulator_of(client).http_requests == 3
    assert len(emulator_of(client).requests) == 1  # faults never reach the script
    assert seen.waits == [0.001, 0.001]  # retry-after-ms keeps the waits tiny (without it: 0.5 s and up)


def test_overloaded_without_retries_raises():
    client = emulated_client([say("x")], faults={1: "529"}, max_retries=0)
    with pytest.raises(anthropic.OverloadedError) as caught:
        client.messages.create(**REQUEST)
    assert caught.value.status_code == 529
    assert caught.value.body["error"] == {"details": None, "type": "overloaded_error", "message": "Overloaded"}
    assert caught.value.request_id.startswith("req_")


@pytest.mark.parametrize(
    "fault, error_class",
    [("429", anthropic.RateLimitError), ("500", anthropic.InternalServerError), ("529", anthropic.OverloadedError)],
)
def test_status_faults_exhaust_retries(fault, error_class):
    emulator = Emulator([say("x")], faults={1: fault, 2: fault, 3: fault})
    client = emulated_client(emulator)
    with pytest.raises(error_class):
        client.messages.create(**REQUEST)
    assert emulator.http_requests == 3  # first try plus the SDK's two retries


def test_connection_error_then_success_and_timeout_without_retry():
    client = emulated_client([say("つながりました")], faults={1: "connection"})
    assert client.messages.create(**REQUEST).content[-1].text == "つながりました"
    client = emulated_client([say("x")], faults={1: "timeout"}, max_retries=0)
    with pytest.raises(anthropic.APITimeoutError):
        client.messages.create(**REQUEST)
    client = emulated_client([say("x")], faults={1: "connection"}, max_retries=0)
    with pytest.raises(anthropic.APIConnectionError):
        client.messages.create(**REQUEST)


def test_fault_on_a_later_request_only():
    client = emulated_client([say("x")], faults={2: "500"}, max_retries=0)
    client.messages.create(**REQUEST)
    with pytest.raises(anthropic.InternalServerError):
        client.messages.create(**REQUEST)
    client.messages.create(**REQUEST)


def test_error_event_after_a_200_raises_without_retry():
    client = emulated_client([say("x")], faults={1: "stream_error"})
    with pytest.raises(anthropic.APIStatusError) as caught, client.messages.stream(**REQUEST) as stream:
        stream.get_final_message()
    assert caught.value.body["error"]["type"] == "overloaded_error"
    assert emulator_of(client).http_requests == 1  # a failure mid-stream is not retried
    assert client.messages.create(**REQUEST).content[-1].text == "x"


def test_an_error_body_has_the_live_shape_in_a_response_and_in_a_stream():
    # Live bodies of 2026, as public reports paste them whole: ``"details": null`` where no code names the
    # cause, and the request id in the body, an ``event: error`` mid-stream included
    # ({"type":"error","error":{"details":null,"type":"overloaded_error","message":"Overloaded"},"request_id":"req_011C..."}).
    client = emulated_client([say("x")], faults={1: "stream_error", 2: "529"}, max_retries=0)
    with pytest.raises(anthropic.APIStatusError) as caught, client.messages.stream(**REQUEST) as stream:
        stream.get_final_message()
    body = caught.value.body
    assert body["error"] == {"details": None, "type": "overloaded_error", "message": "Overloaded"}
    assert body["request_id"].startswith("req_011C") and body["request_id"] == caught.value.request_id
    with pytest.raises(anthropic.OverloadedError) as caught:
        client.messages.create(**REQUEST)
    assert caught.value.body["error"] == {"details": None, "type": "overloaded_error", "message": "Overloaded"}
    with pytest.raises(anthropic.BadRequestError) as caught:
        client.messages.create(**{**REQUEST, "messages": []})
    assert caught.value.body["error"]["details"] is None and caught.value.error_code is None


def test_unknown_fault_and_a_crashing_script_are_reported_plainly():
    with pytest.raises(ValueError, match="unknown fault '503'"):
        Emulator([say("x")], faults={1: "503"})

    def broken(request):
        raise KeyError("oops")

    emulator = Emulator(broken)
    client = emulated_client(emulator)
    with pytest.raises(anthropic.InternalServerError) as caught:
        client.messages.create(**REQUEST)
    assert "the script raised KeyError" in caught.value.api_message
    assert caught.value.request_id.startswith("req_011C") and caught.value.request_id == caught.value.body["request_id"]
    assert emulator.http_requests == 1  # not retried


def test_a_body_that_is_not_json_gets_the_real_400_with_its_own_request_id():
    client = emulated_client([say("x")], max_retries=0)
    caught = []
    for raw in (b'{"model": "claude-sonnet-5",', b'{"model": "claude-sonnet-5",', b"not json"):
        with pytest.raises(anthropic.BadRequestError) as error:
            client.post(
                "/v1/messages", cast_to=object, content=raw, options={"headers": {"content-type": "application/json"}}
            )
        caught.append(error.value)
    first, again, other = caught
    assert first.type == "invalid_request_error"
    assert first.api_message.startswith("The request body is not valid JSON: ")
    assert first.response.headers["content-type"] == "application/json"
    assert first.request_id.startswith("req_011C") and first.request_id == first.body["request_id"]
    assert again.request_id == first.request_id != other.request_id  # derived from the body, like every id
    assert emulator_of(client).requests == []  # never reached the script


def test_a_rate_limit_says_what_the_live_one_says_and_when_to_retry():
    client = emulated_client([say("x")], faults={1: "429"}, max_retries=0)
    with pytest.raises(anthropic.RateLimitError) as caught:
        client.messages.create(**REQUEST)
    error = caught.value
    assert error.body["error"]["type"] == "rate_limit_error"
    assert error.body["error"]["message"].startswith("This request would exceed your organization's rate limit of ")
    assert "model: claude-sonnet-5)" in error.body["error"]["message"]
    assert error.response.headers["retry-after"] == "1"  # seconds, the header the docs name


@pytest.mark.parametrize("model", ["claude-haiku-4-5", "claude-haiku-5-5", "claude-opus-4-7"])
def test_a_rate_limit_quotes_the_limit_the_answers_headers_give_that_model(model):
    client = emulated_client([say("x"), say("y")], faults={2: "429"}, max_retries=0)
    answer = client.messages.with_raw_response.create(**{**REQUEST, "model": model})
    with pytest.raises(anthropic.RateLimitError) as caught:
        client.messages.create(**{**REQUEST, "model": model})
    limit = int(answer.headers["anthropic-ratelimit-input-tokens-limit"])
    assert f"rate limit of {limit:,} input tokens per minute" in caught.value.body["error"]["message"]


def test_a_body_over_32_mb_is_refused_before_it_is_read():
    client = emulated_client([say("x")], max_retries=0)
    huge = {**REQUEST, "messages": [{"role": "user", "content": "a" * (32 * 1024 * 1024)}]}
    with pytest.raises(anthropic.ContentTooLargeError) as caught:
        client.messages.create(**huge)
    assert caught.value.status_code == 413
    assert caught.value.body["error"]["type"] == "request_too_large"
    assert emulator_of(client).requests == []  # never reached the model


def test_an_overload_says_retry_but_not_when():
    # Live 529s carry no retry-after (reports of 2026-06) and say x-should-retry: true; only a 429 says when.
    client = emulated_client([say("x")], faults={1: "529", 2: "500"}, max_retries=0)
    for _ in range(2):
        with pytest.raises(anthropic.APIStatusError) as caught:
            client.messages.create(**REQUEST)
        assert "retry-after" not in caught.value.response.headers
    overloaded = emulated_client([say("x")], faults={1: "529"}, max_retries=0)
    with pytest.raises(anthropic.OverloadedError) as caught:
        overloaded.messages.create(**REQUEST)
    assert caught.value.response.headers["x-should-retry"] == "true"
