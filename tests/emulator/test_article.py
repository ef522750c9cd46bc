"""The Python article's loop (seeds/002) on an emulated client, and its text-only anti-pattern."""

import json
import re
from pathlib import Path

import anthropic
import pytest

from harness_lab.emulator import emulated_client

SEED = Path("/work/shared/seeds/002_2edbc6019b8dae98.txt")
WEATHER_SCHEMA = {
    "name": "get_weather",
    "description": "指定都市の現在の気象情報を返す",
    "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}
FORECAST_SCHEMA = {
    "name": "get_forecast",
    "description": "指定都市の気象予報を返す",
    "input_schema": {
        "type": "object",
        "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
        "required": ["city", "days"],
    },
}
EXPECTED = (
    "現在の東京は気温15°C・曇り（湿度70%）です。\n"
    "今週の予報は晴れ→曇り→雨→晴れのち曇り→曇り時々晴れと変化する見込みで、最高気温は15°Cから19°Cです。"
)


def weather_tool(city):
    data = {
        "東京": {"temp": 15, "condition": "曇り", "humidity": 70},
        "大阪": {"temp": 18, "condition": "晴れ", "humidity": 55},
    }
    return {"city": city, **data.get(city, {"temp": 20, "condition": "晴れ", "humidity": 60})}


def forecast_tool(city, days):
    kinds = ["晴れ", "曇り", "雨", "晴れのち曇り", "曇り時々晴れ"]
    return [{"day": i + 1, "condition": kinds[i % len(kinds)], "high": 15 + i, "low": 8 + i} for i in range(days)]


def loop_like_the_article(client, question):
    """The article's loop: whole response.content kept, stop only on stop_reason, results in one message."""
    messages = [{"role": "user", "content": question}]
    while True:
        response = client.messages.create(
            model="claude-sonnet-4-6", max_tokens=1024, messages=messages, tools=[WEATHER_SCHEMA, FORECAST_SCHEMA]
        )
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            break
        results = []
        for block in response.content:
            if block.type != "tool_use":
                continue
            impl = weather_tool if block.name == "get_weather" else forecast_tool
            output = impl(**block.input)
            results.append(
                {
                    "type": "tool_result",
                    "tool_use_id": block.id,
                    "content": json.dumps(output, ensure_ascii=False),
                    "is_error": False,
                }
            )
        messages.append({"role": "user", "content": results})
    return "\n".join(block.text for block in response.content if block.type == "text"), messages


def test_article_loop_returns_the_scripted_answer():
    text, messages = loop_like_the_article(emulated_client("weather"), "今週の東京の天気概況を教えて")
    assert text == EXPECTED
    assert len(messages) == 6  # question, two tool rounds, the answer


def test_article_single_question_gets_only_the_current_weather():
    text, _ = loop_like_the_article(emulated_client("weather"), "大阪の今の気温を教えて")
    assert text == "現在の大阪は気温18°C・晴れ（湿度55%）です。"


def test_text_only_history_gets_the_real_400():
    client = emulated_client("weather", max_retries=0)
    messages = [{"role": "user", "content": "大阪の今の気温を教えて"}]
    response = client.messages.create(
        model="claude-sonnet-4-6", max_tokens=1024, messages=messages, tools=[WEATHER_SCHEMA]
    )
    messages.append({"role": "assistant", "content": response.content[0].text})  # the anti-pattern: tool_use dropped
    tool_block = response.content[1]
    messages.append(
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": tool_block.id,
                    "content": json.dumps(weather_tool(**tool_block.input), ensure_ascii=False),
                    "is_error": False,
                }
            ],
        }
    )
    with pytest.raises(anthropic.BadRequestError) as caught:
        client.messages.create(model="claude-sonnet-4-6", max_tokens=1024, messages=messages, tools=[WEATHER_SCHEMA])
    assert caught.value.api_message == (
        f"messages.2.content.0: unexpected `tool_use_id` found in `tool_result` blocks: {tool_block.id}. "
        "Each `tool_result` block must have a corresponding `tool_use` block in the previous message."
    )


@pytest.mark.skipif(not SEED.exists(), reason="the course seed is not on this machine")
def test_the_seed_code_itself_runs_unchanged(monkeypatch, capsys):
    """Execute the article's own agent-loop listing, byte for byte, with anthropic.Anthropic emulated."""
    text = SEED.read_text(encoding="utf-8")
    start = text.index("import json\nimport anthropic")
    end = text.index("print(result)", start) + len("print(result)")
    listing = text[start:end]
    assert re.search(r"def run_conversation\(", listing)
    client = emulated_client("weather")  # built before the patch: it needs the real class
    monkeypatch.setattr(anthropic, "Anthropic", lambda *a, **k: client)
    namespace = {"get_weather_schema": WEATHER_SCHEMA, "get_forecast_schema": FORECAST_SCHEMA}
    exec(compile(listing, str(SEED), "exec"), namespace)
    assert namespace["result"] == EXPECTED
    assert EXPECTED in capsys.readouterr().out
