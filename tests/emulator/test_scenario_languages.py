"""The scripted model speaks the user's language: every scenario in English for an English task, and
for a Japanese task exactly the Japanese it wrote before the English edition (the Japanese notebooks'
stored outputs quote it).

``scenario_transcripts_ja.json`` holds each case's Japanese transcript as the scenarios wrote it
before they learned English. Rewrite it (``python tests/emulator/test_scenario_languages.py --write``)
only when a Japanese text is meant to change, and rebuild the Japanese notebooks with it.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from harness_lab.emulator import emulated_client, scenario_names

GOLDEN = Path(__file__).with_name("scenario_transcripts_ja.json")
JAPANESE = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff01-\uff9f]")
MODEL = "claude-sonnet-5"
# What to do when a transcript is missing or is meant to change (CONTRIBUTING.md, "Adding an emulator scenario").
RECORD = (
    "record it with `.venv/bin/python tests/emulator/test_scenario_languages.py --write`, "
    "then check that `git diff tests/emulator/scenario_transcripts_ja.json` changes only that scenario"
)
NAMES = ["read_file", "get_time", "get_weather", "get_forecast", "search", "check_status", "write_file"]
NAMES += ["delete_file", "http_post"]
TOOLS = [{"name": n, "description": n, "input_schema": {"type": "object"}} for n in NAMES]

# What each language's tools answer: the English side has no Japanese for a reply to quote.
WORDS = {
    "ja": {
        "task": "README.md の1行目を読んで、それから今何時か教えて",
        "readme": "# エージェントハーネスの基礎\n本文",
        "denied": "ユーザーがこの高インパクトなアクションを拒否したため、実行していません。",
        "failed": "ツールの実行に失敗しました",
        "missing": "ファイルが見つかりません: ",
        "cloudy": "曇り",
        "sunny": "晴れ",
        "now": "大阪の今の気温を教えて",
        "week": "今週の東京の天気概況を教えて",
    },
    "en": {
        "task": "Read the first line of README.md, then tell me the time",
        "readme": "# Agent harness basics\nbody",
        "denied": "The user denied this high-impact action, so it did not run.",
        "failed": "The tool failed",
        "missing": "No such file: ",
        "cloudy": "cloudy",
        "sunny": "sunny",
        "now": "What's the temperature in Osaka right now?",
        "week": "What's the weather like in Tokyo this week?",
    },
}

# (case id, scenario, prompt key, tool outcomes): every scenario once, and the branches that write
# other words (a denial, a failure, the weather's two questions, a stop sequence).
CASES = [(name, name, "task", {}) for name in scenario_names()] + [
    ("weather_now", "weather", "now", {}),
    ("weather_week", "weather", "week", {}),
    ("weather_failing", "weather", "week", {"fail": ("get_weather", "get_forecast")}),
    ("lesson6_failing", "lesson6", "task", {"fail": ("get_time",)}),
    ("high_impact_denied", "high_impact", "task", {"deny": ("write_file",)}),
    ("delete_and_post_denied", "delete_and_post", "task", {"deny": ("delete_file", "http_post")}),
    ("stop_sequence_given", "stop_sequence", "task", {"stop_sequences": ["---"]}),
    ("pause_turn_searching", "pause_turn", "task", {"web_search": True}),  # only a server tool's loop pauses
]
WEB_SEARCH = {"type": "web_search_20250305", "name": "web_search"}


def tool_output(words: dict, name: str, args: dict, deny: tuple = (), fail: tuple = ()) -> tuple[str, bool]:
    if name in deny:
        return words["denied"], True
    if name in fail:
        return words["failed"], True
    if name == "read_file":
        if args.get("path") == "README.md":
            return words["readme"], False
        return words["missing"] + str(args.get("path")), True
    if name == "get_time":
        return "2026-08-26T10:42:07+08:00", False
    if name == "get_weather":
        return json.dumps({"city": args["city"], "temp": 15, "condition": words["cloudy"], "humidity": 70}), False
    if name == "get_forecast":
        days = [{"day": 1, "condition": words["sunny"], "high": 15, "low": 8}]
        days.append({"day": 2, "condition": words["cloudy"], "high": 17, "low": 9})
        return json.dumps(days, ensure_ascii=False), False
    if name == "check_status":
        return "running", False
    return "ok", False


def block(b: Any) -> dict:
    if b.type == "text":
        return {"type": "text", "text": b.text}
    if b.type == "tool_use":
        return {"type": "tool_use", "name": b.name, "input": b.input}
    if b.type == "thinking":
        return {"type": "thinking", "thinking": b.thinking}
    return {"type": b.type}


def transcript(language: str, name: str, prompt: str, outcomes: dict) -> list[dict]:
    """The run of one scenario under a small loop: each response's stop reason and blocks."""
    words = WORDS[language]
    outcomes = dict(outcomes)
    extra = {"stop_sequences": outcomes.pop("stop_sequences")} if "stop_sequences" in outcomes else {}
    tools = [*TOOLS, WEB_SEARCH] if outcomes.pop("web_search", False) else TOOLS
    client = emulated_client(name, max_retries=0)
    messages: list[dict] = [{"role": "user", "content": words[prompt]}]
    turns = []
    for _ in range(22):
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages, **extra)
        turns.append({"stop_reason": response.stop_reason, "content": [block(b) for b in response.content]})
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason == "pause_turn":
            continue
        if response.stop_reason != "tool_use":
            break
        results = []
        for b in response.content:
            if b.type == "tool_use":
                text, is_error = tool_output(words, b.name, b.input, **outcomes)
                results.append({"type": "tool_result", "tool_use_id": b.id, "content": text, "is_error": is_error})
        messages.append({"role": "user", "content": results})
    return turns


def words_written(turns: list[dict]) -> list[str]:
    """Everything the model wrote: its text, its thinking, and the values of its tool inputs."""
    found = []
    for turn in turns:
        for b in turn["content"]:
            if b["type"] == "tool_use":
                found += [v for v in b["input"].values() if isinstance(v, str)]
            else:
                found += [b.get("text", ""), b.get("thinking", "")]
    return [w for w in found if w]


@pytest.mark.parametrize(("case", "name", "prompt", "outcomes"), CASES, ids=[c[0] for c in CASES])
def test_an_english_task_gets_english(monkeypatch, case, name, prompt, outcomes):
    monkeypatch.delenv("HARNESS_LAB_LANG", raising=False)
    turns = transcript("en", name, prompt, outcomes)
    japanese = [w for w in words_written(turns) if JAPANESE.search(w)]
    assert not japanese, f"{case}: Japanese in an English run: {japanese}"


def test_the_english_texts_say_what_the_japanese_say(monkeypatch):
    monkeypatch.delenv("HARNESS_LAB_LANG", raising=False)

    def final(case: str) -> str:
        _, name, prompt, outcomes = next(c for c in CASES if c[0] == case)
        return "".join(b.get("text", "") for b in transcript("en", name, prompt, outcomes)[-1]["content"])

    assert final("lesson6") == (
        'The first line of README.md is "# Agent harness basics", and it is 10:42 on August 26, 2026. '
        "That took 2 tool turns and 3 model requests."
    )
    now, week = transcript("en", "weather", "now", {}), transcript("en", "weather", "week", {})
    assert [b["input"] for t in now for b in t["content"] if b["type"] == "tool_use"] == [{"city": "Osaka"}]
    assert [b["name"] for t in week for b in t["content"] if b["type"] == "tool_use"] == ["get_weather", "get_forecast"]
    assert final("weather_now") == "It is currently 15°C and cloudy in Osaka (humidity 70%)."
    assert final("weather_week").endswith("This week's forecast goes sunny → cloudy, with highs from 15°C to 17°C.")
    assert final("weather_failing").endswith("The forecast could not be fetched (The tool failed).")
    assert final("high_impact_denied").endswith("# Weekly report\n\n- Inquiries: 42\n- Unresolved: 3\n")
    assert final("delete_and_post_denied") == "Left the old log in place. Did not send the totals; they stay here."


def test_the_language_setting_makes_a_japanese_task_english_too(monkeypatch):
    monkeypatch.setenv("HARNESS_LAB_LANG", "en")
    turns = transcript("ja", "weather", "now", {})
    assert turns[0]["content"][-1] == {"type": "tool_use", "name": "get_weather", "input": {"city": "大阪"}}
    assert turns[-1]["content"][-1]["text"].startswith("It is currently 15°C and 曇り in 大阪")


def japanese_transcripts() -> dict[str, list[dict]]:
    return {case: transcript("ja", name, prompt, outcomes) for case, name, prompt, outcomes in CASES}


def test_a_japanese_task_gets_the_japanese_it_always_got(monkeypatch):
    monkeypatch.delenv("HARNESS_LAB_LANG", raising=False)
    expected = json.loads(GOLDEN.read_text(encoding="utf-8"))
    now = japanese_transcripts()
    assert set(now) >= set(expected), "a scenario the transcripts recorded is gone"
    unrecorded = sorted(set(now) - set(expected))
    assert not unrecorded, f"no Japanese recorded for {unrecorded}: {RECORD}"
    for case in expected:
        assert now[case] == expected[case], (
            f"the Japanese of {case} changed; if it is meant to, {RECORD} and rebuild the Japanese notebooks"
        )


def record() -> str:
    """Rewrite the transcripts from today's scenarios; says which cases are new or changed."""
    # Recorded in Japanese whatever the shell says: with HARNESS_LAB_LANG=en every scripted text came
    # out in English, and the rewritten file then failed the test it exists for.
    os.environ.pop("HARNESS_LAB_LANG", None)
    before = json.loads(GOLDEN.read_text(encoding="utf-8")) if GOLDEN.exists() else {}
    now = japanese_transcripts()
    rows = [f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False, separators=(',', ':'))}" for k, v in now.items()]
    GOLDEN.write_text("{\n" + ",\n".join(rows) + "\n}\n", encoding="utf-8")  # a case a line
    new = sorted(set(now) - set(before))
    changed = sorted(k for k in now if k in before and now[k] != before[k])
    return f"wrote {GOLDEN.name}: new {new or 'none'}, changed {changed or 'none'}"


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit(f"usage: python {sys.argv[0]} --write  (records the scenarios' Japanese; pytest runs the tests)")
    print(record())
