"""``Run`` keeps thinking blocks whole: on the default model every scenario runs to its end without a 400.

Every response on the default model starts with a thinking block; the harness must send each
assistant turn back exactly as it came (lesson 2's rule), or the emulator answers the API's 400.
The run's history is compared with the responses themselves, block for block.
"""

import pytest

import harness_lab as hl
from harness_lab.emulator import SCENARIOS, Emulator, emulated_client, emulator_of
from harness_lab.events import Finished, Stopped


@hl.tool
def read_file(path: str) -> str:
    """Read a file."""
    return f"# {path}\n本文"


@hl.tool
def get_time() -> str:
    """The current time."""
    return "2026-12-04T10:42:07+09:00"


@hl.tool
def search(query: str, limit: int = 5) -> str:
    """Search notes."""
    return f"{query}: {limit} 件"


@hl.tool
def check_status(job_id: str) -> str:
    """A job's status."""
    return "done"


@hl.tool
def write_file(path: str, content: str) -> str:
    """Write a file (a stand-in: nothing is written)."""
    return f"wrote {len(content)} characters to {path}"


@hl.tool
def delete_file(path: str) -> str:
    """Delete a file (a stand-in)."""
    return f"deleted {path}"


@hl.tool
def http_post(url: str, body: str) -> str:
    """POST (a stand-in)."""
    return "200 OK"


@hl.tool
def get_weather(city: str) -> str:
    """Current weather."""
    return '{"city": "東京", "temp": 12, "condition": "晴れ", "humidity": 40}'


@hl.tool
def get_forecast(city: str, days: int = 5) -> str:
    """The forecast."""
    return '[{"condition": "晴れ", "high": 14}, {"condition": "雨", "high": 11}]'


TOOLS = [read_file, get_time, search, check_status, write_file, delete_file, http_post, get_weather, get_forecast]


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_run_keeps_every_thinking_block_on_the_default_model(name, check_history):
    client = emulated_client(name, max_retries=0)
    outcome = hl.run(client, "東京の天気と README.md を調べて", TOOLS, [hl.MaxTurns(25)])
    assert isinstance(outcome.stop, (Finished, Stopped))
    assert not (isinstance(outcome.stop, Stopped) and outcome.stop.cause == "api_error"), outcome.stop.reason
    # Answer each request again (a fresh emulator gives the same bytes) to know what every response was.
    responses = [Emulator(name).respond(request)[2] for request in emulator_of(client).requests]
    kept = [m["content"] for m in outcome.messages if m["role"] == "assistant"]
    if isinstance(outcome.stop, Stopped):
        responses = responses[:-1]  # held back by the stop, before its tools ran: not history yet
    for response in responses:
        assert response["content"][0]["type"] in ("thinking", "redacted_thinking"), name
        assert response["content"] in kept, name  # whole: thinking, signature and all
    check_history(outcome.messages, [t.definition for t in TOOLS])
