"""With a (fake) API key set, the key never shows: not in cassettes, reprs, stop messages or error text.

The key is set in the environment as a learner would set it. Offline clients must not pick it up at
all; a live client must send it only to Anthropic's URL; a recording must scrub it (also when it
turns up inside the conversation); and nothing the harness prints or stores — events, stops, error
lines, the CLI's output — may contain it. The executed-notebook half of this is in
test_notebook_kernel.py.
"""

from __future__ import annotations

import io
import itertools
import json
import traceback

import anthropic
import httpx2
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness_lab.client import connect, is_live, mode_line
from harness_lab.drain import drain
from harness_lab.emulator import Emulator, call, emulated_client, reply, say
from harness_lab.emulator.transport import handler_for
from harness_lab.events import Finished, Stopped
from harness_lab.grading.sandbox import describe_error
from harness_lab.loop import Run
from harness_lab.tools import tool
from harness_lab.trace import recording_client, replay_client
from harness_lab.valves import Approval, MaxTurns, Policy, TokenBudget
from tests.examples import examples

FAKE = "sk-ant-api03-FAKE-SECRET-0000"
TOKEN = 'tok"en\\with/odd chars'  # a second secret whose JSON spelling differs from its text
SPELLINGS = (FAKE, TOKEN, json.dumps(TOKEN)[1:-1])


@pytest.fixture(autouse=True)
def key_set(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", FAKE)
    monkeypatch.setenv("ANTHROPIC_AUTH_TOKEN", TOKEN)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "https://collector.attacker.invalid")


def assert_clean(*texts: object) -> None:
    for text in texts:
        text = text if isinstance(text, str) else repr(text)
        for secret in SPELLINGS:
            assert secret not in text, f"a secret leaks: ...{text[max(0, text.find(secret) - 80) :][:200]}"


def sent_authorization(client) -> str:
    raw = client.messages.with_raw_response.create(
        model="claude-sonnet-5", max_tokens=16, messages=[{"role": "user", "content": "やあ"}]
    )
    headers = raw.http_request.headers
    return " ".join(headers.get(name, "") for name in ("authorization", "x-api-key"))


def test_offline_clients_never_pick_up_the_key(tmp_path):
    cassette = tmp_path / "c.json"
    cassette.write_text(json.dumps({"version": 1, "interactions": []}), encoding="utf-8")
    for client in (emulated_client([say("はい")]), connect([say("はい")], live=False)):
        assert client.api_key != FAKE and client.auth_token != TOKEN
        assert_clean(sent_authorization(client), str(client.base_url), repr(client), mode_line(client))


def test_a_live_client_sends_the_key_to_anthropic_only():
    client = connect()
    assert client.api_key == FAKE  # live: the learner's key is used...
    assert str(client.base_url).startswith("https://api.anthropic.com")  # ...only with Anthropic's URL
    assert_clean(repr(client), str(client), mode_line(client), repr(client.messages))


@tool
def leaky_env() -> str:
    """A careless tool that returns the environment's key."""
    import os

    return f"key={os.environ['ANTHROPIC_API_KEY']} token={os.environ['ANTHROPIC_AUTH_TOKEN']}"


def test_a_recording_scrubs_the_key_even_inside_the_conversation(tmp_path):
    path = tmp_path / "run.json"
    script = [reply("環境を見ます", call("leaky_env")), say(f"キーは {FAKE} でした")]
    client = recording_client(path, transport=httpx2.MockTransport(handler_for(Emulator(script))))
    run = Run(client, [leaky_env], [MaxTurns(3)])
    end = drain(run.start(f"私のキー {FAKE} とトークン {TOKEN} を覚えて"))
    assert isinstance(end, Finished)
    text = path.read_text(encoding="utf-8")
    assert_clean(text, repr(client.cassette))
    assert text.count("[REDACTED]") >= 6  # prompt (2), tool result (2), the model's reply, resent history
    recorded = json.loads(text)
    assert len(recorded["interactions"]) == 2
    assert all("authorization" not in json.dumps(i).lower() for i in recorded["interactions"])


def test_a_clean_recording_replays_without_the_key(tmp_path):
    path = tmp_path / "run.json"
    script = [call("get_weather", city="大阪"), say("晴れです")]

    @tool
    def get_weather(city: str) -> str:
        """Weather."""
        return "晴れ"

    recorder = recording_client(path, transport=httpx2.MockTransport(handler_for(Emulator(script))))
    drain(Run(recorder, [get_weather], [MaxTurns(3)]).start("大阪の天気"))
    replayer = replay_client(path)
    end = drain(Run(replayer, [get_weather], [MaxTurns(3)]).start("大阪の天気"))
    assert isinstance(end, Finished) and end.text == "晴れです"
    assert replayer.api_key != FAKE
    assert_clean(path.read_text(encoding="utf-8"), repr(replayer))


def failing_live_client(kind: str) -> anthropic.Anthropic:
    """A client configured like a live one (key from the environment), whose network fails in one way."""

    def handle(request: httpx2.Request) -> httpx2.Response:
        if kind == "connection":
            raise httpx2.ConnectError("connection refused", request=request)
        if kind == "timeout":
            raise httpx2.ReadTimeout("timed out", request=request)
        if kind == "html":
            return httpx2.Response(502, content=b"<html>Bad gateway</html>", headers={"content-type": "text/html"})
        status, kind_name, message = {
            "401": (401, "authentication_error", "invalid x-api-key"),
            "403": (403, "permission_error", "Your API key does not have permission to use the specified resource."),
            "400": (400, "invalid_request_error", "messages: at least one message is required"),
        }[kind]
        body = {"type": "error", "error": {"type": kind_name, "message": message}, "request_id": "req_011Cabc"}
        return httpx2.Response(status, json=body, headers={"request-id": "req_011Cabc"})

    return anthropic.Anthropic(
        http_client=httpx2.Client(transport=httpx2.MockTransport(handle)),
        base_url="https://api.anthropic.com",
        max_retries=0,
    )


@pytest.mark.parametrize("kind", ["401", "403", "400", "connection", "timeout", "html"])
def test_stop_messages_and_error_text_never_show_the_key(kind):
    client = failing_live_client(kind)
    assert client.api_key == FAKE  # the key really is in play
    run = Run(client, [leaky_env], [MaxTurns(3), TokenBudget(10_000, preflight=True), Approval(Policy())])
    end = drain(run.start("こんにちは"))
    assert isinstance(end, Stopped) and end.cause == "api_error"
    assert_clean(end.reason, end, repr(run.state), end.text)
    try:
        client.messages.create(model="claude-sonnet-5", max_tokens=16, messages=[{"role": "user", "content": "x"}])
    except anthropic.APIError as exc:
        lines = "".join(traceback.format_exception(exc))
        assert_clean(
            str(exc),
            repr(exc),
            describe_error(exc),
            lines,
            repr(getattr(exc, "request", None)),
            repr(getattr(exc, "response", None)),
            repr(getattr(exc, "body", None)),
        )
    else:
        pytest.fail("the failing client did not fail")


def test_events_and_state_reprs_never_show_the_key():
    @tool
    def lookup(key: str) -> str:
        """Look something up."""
        return f"{key} の値"

    script = [reply("確認します", call("lookup", key="a")), call("lookup", key="b"), say("終わり")]
    events = []
    run = Run(emulated_client(script), [lookup], [MaxTurns(1), TokenBudget(50_000), Approval(Policy())])
    end = drain(run.start("やって"), approve=lambda request: True, on_event=events.append)
    assert isinstance(end, Stopped) and {type(e).__name__ for e in events} == {"ApprovalRequest", "Turn", "Stopped"}
    for item in (
        *events,
        end,
        run.state,
        run,
        run.valves,
        run.tools,
        run.client,
        emulated_client(script),
        Emulator(script),
    ):
        assert_clean(repr(item), str(item))


def test_a_live_run_and_its_parts_never_show_the_key():
    # the offline check above holds a dummy key, so it could not catch a repr that shows client.api_key
    client = connect("lesson6")
    assert is_live(client) and client.api_key == FAKE
    run = Run(client, [leaky_env], [MaxTurns(3), TokenBudget(10_000, preflight=True), Approval(Policy())])
    steps = run.start("こんにちは")  # builds the generator only: nothing is sent until it is stepped
    for item in (
        run,
        run.state,
        run.valves,
        run.tools,
        run.client,
        run.client.messages,
        run.messages,
        steps,
        Run(connect(live=True), [leaky_env]),
    ):
        assert_clean(repr(item), str(item))
    with pytest.raises(AssertionError):  # and the check does see the key where it is
        assert_clean(f"Run(client={client.api_key})")


def test_the_cli_offline_never_prints_the_key(capsys):
    from harness_lab.cli import main

    out = io.StringIO()
    code = main(["run", "README.md の1行目を読んで、それから今何時か教えて", "--yes"], out=out)
    captured = capsys.readouterr()
    assert code == 0
    assert_clean(out.getvalue(), captured.out, captured.err)


def split_stream_transport(text_pieces: list[str], json_pieces: list[str]) -> httpx2.MockTransport:
    """A live-like server that streams one text block and one tool_use, cut into the given deltas."""
    events = [
        {
            "type": "message_start",
            "message": {
                "id": "msg_01split",
                "type": "message",
                "role": "assistant",
                "model": "claude-sonnet-5",
                "content": [],
                "stop_reason": None,
                "stop_sequence": None,
                "usage": {"input_tokens": 5, "output_tokens": 1},
            },
        },
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        *({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": p}} for p in text_pieces),
        {"type": "content_block_stop", "index": 0},
        {
            "type": "content_block_start",
            "index": 1,
            "content_block": {"type": "tool_use", "id": "toolu_01split", "name": "leaky_env", "input": {}},
        },
        *(
            {"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": p}}
            for p in json_pieces
        ),
        {"type": "content_block_stop", "index": 1},
        {
            "type": "message_delta",
            "delta": {"stop_reason": "tool_use", "stop_sequence": None},
            "usage": {"output_tokens": 20},
        },
        {"type": "message_stop"},
    ]
    body = "".join(f"event: {e['type']}\ndata: {json.dumps(e, ensure_ascii=False)}\n\n" for e in events).encode()
    return httpx2.MockTransport(
        lambda request: httpx2.Response(
            200,
            content=body,
            headers={"content-type": "text/event-stream; charset=utf-8", "request-id": "req_011Csplit"},
        )
    )


def test_a_recording_scrubs_a_key_cut_over_streamed_deltas_and_still_replays(tmp_path):
    half = len(FAKE) // 2
    text_pieces = ["キーは ", FAKE[:half], FAKE[half:-3], FAKE[-3:] + " です"]
    tool_json = json.dumps({"note": f"{TOKEN}!", "path": "a.txt"})
    cut = tool_json.index('\\"')  # inside the token's JSON spelling, between the backslash and the quote
    json_pieces = [tool_json[:5], tool_json[5 : cut + 1], tool_json[cut + 1 :]]
    path = tmp_path / "split.json"
    client = recording_client(path, transport=split_stream_transport(text_pieces, json_pieces))
    request = {
        "model": "claude-sonnet-5",
        "max_tokens": 64,
        "tools": [{"name": "leaky_env", "input_schema": {"type": "object"}}],
        "messages": [{"role": "user", "content": "キーを見せて"}],
    }
    with client.messages.stream(**request) as stream:
        live = stream.get_final_message()
    assert live.content[0].text == f"キーは {FAKE} です"  # the learner's own run sees everything

    text = path.read_text(encoding="utf-8")
    assert_clean(text)
    assert FAKE[:half] not in text and FAKE[half:-3] not in text  # no cut piece is stored either
    with replay_client(path).messages.stream(**request) as stream:
        replayed = stream.get_final_message()
    assert replayed.content[0].text == "キーは [REDACTED] です"
    assert replayed.content[1].input == {"note": "[REDACTED]!", "path": "a.txt"}


STREAMED_TEXT = f"前 {FAKE} 中 {TOKEN} 後 {FAKE}"


@settings(
    max_examples=examples("secret_cuts"),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(cuts=st.lists(st.integers(0, len(STREAMED_TEXT)), max_size=8))
def test_any_cut_of_the_streamed_text_is_scrubbed_and_replays_redacted(tmp_path, cuts):
    bounds = [0, *sorted(cuts), len(STREAMED_TEXT)]
    text_pieces = [STREAMED_TEXT[a:b] for a, b in itertools.pairwise(bounds)]  # empty deltas included
    tool_json = json.dumps({"note": STREAMED_TEXT})
    json_bounds = [0, *sorted(min(c * 2, len(tool_json)) for c in cuts), len(tool_json)]
    json_pieces = [tool_json[a:b] for a, b in itertools.pairwise(json_bounds)]
    path = tmp_path / f"cut-{'-'.join(map(str, cuts))}.json"
    request = {"model": "claude-sonnet-5", "max_tokens": 64, "messages": [{"role": "user", "content": "q"}]}
    with recording_client(path, transport=split_stream_transport(text_pieces, json_pieces)).messages.stream(
        **request
    ) as stream:
        stream.get_final_message()
    assert_clean(path.read_text(encoding="utf-8"))
    with replay_client(path).messages.stream(**request) as stream:
        replayed = stream.get_final_message()
    redacted = "前 [REDACTED] 中 [REDACTED] 後 [REDACTED]"
    assert replayed.content[0].text == redacted and replayed.content[1].input == {"note": redacted}
