"""Every named scenario driven through the real SDK by a small loop with fake tools."""

import itertools
import json

import pytest

from harness_lab.emulator import SCENARIOS, emulated_client, scenario_names

NAMES = [
    "read_file",
    "get_time",
    "get_weather",
    "get_forecast",
    "search",
    "check_status",
    "write_file",
    "delete_file",
    "http_post",
]
TOOLS = [{"name": n, "description": n, "input_schema": {"type": "object"}} for n in NAMES]
MODEL = "claude-sonnet-5"


def fake_tools(name, args, deny=(), fail=()):
    if name in deny:
        return "ユーザーがこの高インパクトなアクションを拒否したため、実行していません。", True
    if name in fail:
        return "ツールの実行に失敗しました", True
    if name == "read_file":
        if args.get("path") == "README.md":
            return "# エージェントハーネスの基礎\n本文", False
        return f"ファイルが見つかりません: {args.get('path')}", True
    if name == "get_time":
        return "2026-08-26T10:42:07+08:00", False
    if name == "get_weather":
        return json.dumps(
            {"city": args["city"], "temp": 15, "condition": "曇り", "humidity": 70}, ensure_ascii=False
        ), False
    if name == "get_forecast":
        return json.dumps([{"day": 1, "condition": "晴れ", "high": 15, "low": 8}], ensure_ascii=False), False
    if name == "check_status":
        return "running", False
    return "ok", False


def drive(name, rounds=20, prompt="README.md の1行目を読んで、それから今何時か教えて", tools=TOOLS, **tool_kwargs):
    client = emulated_client(name, max_retries=0)
    messages = [{"role": "user", "content": prompt}]
    responses = []
    for _ in range(rounds):
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
        responses.append(response)
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason == "pause_turn":
            continue  # send the content back unchanged
        if response.stop_reason != "tool_use":
            break
        results = []
        for block in response.content:
            if block.type == "tool_use":
                text, is_error = fake_tools(block.name, block.input, **tool_kwargs)
                results.append({"type": "tool_result", "tool_use_id": block.id, "content": text, "is_error": is_error})
        messages.append({"role": "user", "content": results})
    return responses


def calls(responses):
    return [[(b.name, b.input) for b in r.content if b.type == "tool_use"] for r in responses]


def final_text(responses):
    return "".join(b.text for b in responses[-1].content if b.type == "text")


def test_every_scenario_is_described_and_answers():
    assert set(SCENARIOS) == set(scenario_names())
    assert {
        "lesson6",
        "weather",
        "never_ending",
        "spinning",
        "spinning_reordered",
        "polling",
        "abab",
        "budget_burning",
        "high_impact",
        "delete_and_post",
        "tool_error_retry",
        "max_tokens",
        "pause_turn",
        "refusal",
        "model_context_window_exceeded",
        "stop_sequence",
        "empty_end_turn",
        "text_and_tool",
        "ijou_desu",
        "thats_all",
        "long_task",
    } <= set(SCENARIOS)
    for name in SCENARIOS:
        assert SCENARIOS[name].strip()
        assert drive(name, rounds=3)


def test_lesson6_is_honest_about_failed_tools():
    text = final_text(drive("lesson6", fail=("get_time",)))
    assert text.startswith("README.md の1行目は「# エージェントハーネスの基礎」で、時刻は取得できませんでした")
    assert "ツール呼び出し2ターン、モデルへのリクエスト3回" in text


def test_runaway_scenarios_never_stop_and_differ_as_described():
    never = calls(drive("never_ending", rounds=15))
    assert len(never) == 15 and len({json.dumps(c) for c in never}) == 15
    spin = calls(drive("spinning", rounds=4))
    assert all(c == spin[0] for c in spin)
    reordered = calls(drive("spinning_reordered", rounds=4))
    assert list(reordered[0][0][1]) != list(reordered[1][0][1]) and reordered[0][0][1] == reordered[1][0][1]
    abab = [c[0][0] for c in calls(drive("abab", rounds=6))]
    assert abab == ["get_time", "read_file"] * 3


def test_budget_burning_grows_input_fast():
    usage = [r.usage.input_tokens for r in drive("budget_burning", rounds=5)]
    assert all(b - a > 500 for a, b in itertools.pairwise(usage))


def test_polling_then_done():
    responses = drive("polling")
    assert [c[0][0] for c in calls(responses)[:-1]] == ["check_status"] * 3
    assert responses[-1].stop_reason == "end_turn"


def test_high_impact_takes_another_route_when_denied():
    denied = final_text(drive("high_impact", deny=("write_file",)))
    allowed = final_text(drive("high_impact"))
    assert "書き込みは行わず" in denied and "# 週次レポート" in denied
    assert allowed == "sandbox/report.md にレポートを保存しました。"
    outcome = final_text(drive("delete_and_post", deny=("delete_file",)))
    assert outcome == "古いログの削除は見送りました。集計結果は送信しました。"


def test_tool_error_then_corrected_retry():
    responses = drive("tool_error_retry")
    assert [c[0][1]["path"] for c in calls(responses)[:2]] == ["READM.md", "README.md"]
    assert final_text(responses) == "README.md の1行目は「# エージェントハーネスの基礎」です。"


@pytest.mark.parametrize("name", ["max_tokens", "refusal", "model_context_window_exceeded", "stop_sequence"])
def test_each_stop_reason(name):
    response = drive(name)[-1]
    assert response.stop_reason == name
    if name == "refusal":
        assert response.stop_details.type == "refusal" and response.stop_details.explanation
    if name == "stop_sequence":
        assert response.stop_sequence == "###"
    if name == "max_tokens":
        assert response.content[-1].type == "tool_use"


@pytest.mark.parametrize("stream", [False, True])
def test_refusal_before_any_output_has_empty_content_and_no_output_tokens(stream):
    # The refusals page ("What a refusal looks like", the page of 2026-08-22 in gpambrozio/ClaudeDocs): a
    # classifier's refusal is a 200 with "content": [], stop_details {type, category, explanation} and
    # output_tokens 0, thinking model or not. Code that reads content[0] must fail here as it does live.
    client = emulated_client("refusal", max_retries=0)
    request = {"model": MODEL, "max_tokens": 1024, "messages": [{"role": "user", "content": "hello"}]}
    if stream:
        with client.messages.stream(**request) as events:
            response = events.get_final_message()
    else:
        response = client.messages.create(**request)
    assert response.stop_reason == "refusal"
    assert response.content == []
    assert response.usage.output_tokens == 0
    assert response.stop_details.model_dump() == {
        "type": "refusal",
        "category": "cyber",
        "explanation": "This request was declined because it could enable cyber harm.",
    }


def test_pause_turn_continues_when_sent_back_and_empty_end_turn():
    # The server tools page: a server tool's loop pauses, possibly on a server_tool_use not yet run,
    # which the API runs at the start of the next request. Without a server tool nothing can pause.
    paused = drive("pause_turn", tools=[*TOOLS, {"type": "web_search_20250305", "name": "web_search"}])
    assert [r.stop_reason for r in paused] == ["pause_turn", "end_turn"]
    pending = paused[0].content[-1]
    assert pending.type == "server_tool_use" and pending.name == "web_search" and pending.id.startswith("srvtoolu_")
    result = next(b for b in paused[1].content if b.type == "web_search_tool_result")
    assert result.tool_use_id == pending.id and result.content[0].url.startswith("https://")
    assert (
        paused[0].usage.server_tool_use.web_search_requests,
        paused[1].usage.server_tool_use.web_search_requests,
    ) == (0, 1)
    assert [r.stop_reason for r in drive("pause_turn")] == ["end_turn"]
    empty = drive("empty_end_turn")
    # No text block at all: on the thinking default model the turn holds its thinking block only.
    assert empty[-1].stop_reason == "end_turn" and [b.type for b in empty[-1].content] == ["thinking"]


def test_stop_anti_pattern_scenarios():
    mixed = drive("text_and_tool")
    assert mixed[0].content[1].text == "調べてみます" and mixed[0].stop_reason == "tool_use"
    ijou = drive("ijou_desu")
    assert "以上です" in ijou[1].content[1].text and ijou[1].stop_reason == "tool_use"
    assert "以上です" not in final_text(ijou) and ijou[-1].stop_reason == "end_turn"
    long = drive("long_task")
    assert len(long) == 13 and long[-1].stop_reason == "end_turn"
    assert len(drive("long_task", rounds=10)) == 10
