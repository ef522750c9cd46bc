"""connect(): live only with a key and never elsewhere than Anthropic; emulated otherwise."""

import anthropic
import pytest

from harness_lab import client as client_module
from harness_lab.client import ANTHROPIC_URL, connect, is_live, mode_line
from harness_lab.emulator import emulator_of, say

KEY = "sk-ant-test-SECRET-0123"


def test_offline_without_a_key(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "https://attacker.example")
    client = connect("weather")
    assert isinstance(client, anthropic.Anthropic) and not is_live(client)
    assert emulator_of(client).name == "weather"
    assert "attacker" not in str(client.base_url)
    assert "オフライン" in mode_line(client)
    weather = {"name": "get_weather", "description": "天気", "input_schema": {"type": "object", "properties": {}}}
    ask = {"model": client_module.MODEL, "max_tokens": 1024, "messages": [{"role": "user", "content": "東京の天気"}]}
    assert client.messages.create(**ask, tools=[weather]).stop_reason == "tool_use"
    # without the tool in the request the model cannot call it: it answers in text
    assert client.messages.create(**ask).stop_reason == "end_turn"


def test_live_with_a_key_is_pinned_to_anthropic(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "https://attacker.example")
    client = connect()
    assert is_live(client)
    assert str(client.base_url).rstrip("/") == ANTHROPIC_URL
    assert KEY not in repr(client) and KEY not in mode_line(client)
    assert not is_live(connect(live=False))


def test_live_keeps_the_client_options(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    client = connect("weather", max_retries=0, timeout=7.5)  # a scenario name is ignored silently, live
    assert is_live(client) and client.max_retries == 0 and client.timeout == 7.5
    offline = connect("weather", live=False, max_retries=0, timeout=7.5)
    assert not is_live(offline) and offline.max_retries == 0 and offline.timeout == 7.5


def test_live_warns_when_it_drops_faults_or_a_script(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    with pytest.warns(UserWarning, match="faults") as faults_warning:
        assert is_live(connect("weather", faults={1: "529"}))
    with pytest.warns(UserWarning, match="scenario") as script_warning:
        assert is_live(connect([say("台本")]))
    for caught in (faults_warning, script_warning):
        assert "live=False" in str(caught[0].message) and KEY not in str(caught[0].message)
    assert emulator_of(connect("weather", faults={1: "529"}, live=False)).faults == {1: "529"}  # offline, kept


def test_live_with_a_scenario_name_does_not_warn(monkeypatch):
    import warnings

    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert is_live(connect("weather"))


def test_live_true_without_a_key_raises_without_printing_a_key(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(RuntimeError) as caught:
        connect(live=True)
    assert "ANTHROPIC_API_KEY" in str(caught.value)


def test_emulated_client_ignores_credentials_in_the_environment(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    monkeypatch.setenv("ANTHROPIC_AUTH_TOKEN", KEY + "-token")
    client = connect(live=False)
    assert not is_live(client) and client.api_key != KEY
    headers = {**client.auth_headers, **client.default_headers}
    assert KEY not in repr(headers)


def test_model_defaults_to_sonnet_5(monkeypatch):
    import importlib

    monkeypatch.delenv("HARNESS_LAB_MODEL", raising=False)
    assert importlib.reload(client_module).MODEL == "claude-sonnet-5"
    monkeypatch.setenv("HARNESS_LAB_MODEL", "claude-opus-5")
    assert importlib.reload(client_module).MODEL == "claude-opus-5"
    monkeypatch.delenv("HARNESS_LAB_MODEL")
    importlib.reload(client_module)
