"""Named scripts for the lessons' demos (one per lesson moment), registered by name.

Each scenario is a list of replies or a policy function of the request. Policies read what came
back, so they stay sensible whatever the harness returns (denials, errors, skipped calls).
``SCENARIOS`` maps every name to its one-line description; ``scenario(name)`` returns the script.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from typing import Any

from .reading import Result, assistant_turns, first_user_text, last_results, results_by_name
from .replies import Reply, call, reply, say

__all__ = ["SCENARIOS", "scenario", "scenario_names"]

SCENARIOS: dict[str, str] = {}
_SCRIPTS: dict[str, Any] = {}


def _register(name: str, description: str) -> Callable:
    def add(script: Any) -> Any:
        SCENARIOS[name] = description
        _SCRIPTS[name] = script
        return script

    return add


def scenario(name: str) -> Any:
    """The script registered under ``name`` (a list of replies or a policy function)."""
    try:
        return _SCRIPTS[name]
    except KeyError:
        raise KeyError(f"unknown scenario {name!r}; known: {', '.join(sorted(_SCRIPTS))}") from None


def scenario_names() -> list[str]:
    return sorted(_SCRIPTS)


# -- quoting tool results ------------------------------------------------------------------------


def _brief(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _first_line(result: Result | None, path: str = "README.md") -> str:
    if result is None:
        return f"{path} はまだ読めていません"
    if result.is_error:
        return f"{path} は読めませんでした（{_brief(result.text)}）"
    text = result.text
    if text.startswith('"'):  # a tool that JSON-encoded its string output
        try:
            text = json.loads(text)
        except ValueError:
            pass
    lines = str(text).splitlines()
    return f"{path} の1行目は「{lines[0] if lines else ''}」"


def _clock(result: Result | None) -> str:
    if result is None:
        return "時刻はまだ確認できていません"
    if result.is_error:
        return f"時刻は取得できませんでした（{_brief(result.text)}）"
    raw = result.text.strip().strip('"')
    try:
        moment = datetime.fromisoformat(raw)
    except ValueError:
        return f"いまは {raw} です"
    return f"いまは {moment.year}年{moment.month}月{moment.day}日の {moment:%H:%M} です"


def _tally(request: dict) -> str:
    rounds = assistant_turns(request)
    return f"ツール呼び出し{rounds}ターン、モデルへのリクエスト{rounds + 1}回で終わりました。"


def _readme_and_time(request: dict) -> str:
    found = results_by_name(request)
    return f"{_first_line(found.get('read_file'))}で、{_clock(found.get('get_time'))}。{_tally(request)}"


# -- lesson 6 and the article -------------------------------------------------------------------


@_register("lesson6", "lesson 6's demo: read_file(README.md), then get_time, then an answer quoting both")
def lesson6(request: dict) -> Reply:
    turn = assistant_turns(request)
    if turn == 0:
        return call("read_file", path="README.md")
    if turn == 1:
        return call("get_time")
    return say(_readme_and_time(request))


_CITIES = ("東京", "大阪", "札幌")


def _weather_sentence(result: Result | None, city: str) -> str:
    if result is None or result.is_error:
        return f"{city}の現在の天気は取得できませんでした" + (f"（{_brief(result.text)}）" if result else "")
    try:
        data = json.loads(result.text)
        return (
            f"現在の{data.get('city', city)}は気温{data['temp']}°C・{data['condition']}（湿度{data['humidity']}%）です"
        )
    except (ValueError, KeyError, TypeError):
        return f"現在の{city}の天気は「{_brief(result.text)}」です"


def _forecast_sentence(result: Result | None) -> str:
    if result is None or result.is_error:
        return "予報は取得できませんでした" + (f"（{_brief(result.text)}）" if result else "")
    try:
        days = json.loads(result.text)
        conditions = "→".join(d["condition"] for d in days)
        return f"今週の予報は{conditions}と変化する見込みで、最高気温は{days[0]['high']}°Cから{days[-1]['high']}°Cです"
    except (ValueError, KeyError, TypeError, IndexError):
        return f"予報は「{_brief(result.text)}」です"


@_register(
    "weather", "the article's pair: get_weather(city) then get_forecast(city, days=5), then an answer quoting both"
)
def weather(request: dict) -> Reply:
    task = first_user_text(request)
    city = next((c for c in _CITIES if c in task), "東京")
    # The article's first example only asks for the current temperature: no forecast then.
    wants_forecast = not ("今の" in task and not any(w in task for w in ("週", "予報", "概況")))
    turn = assistant_turns(request)
    if turn == 0:
        return reply(f"現在の{city}の気象情報を調べます。", call("get_weather", city=city))
    found = results_by_name(request)
    if turn == 1 and wants_forecast:
        return call("get_forecast", city=city, days=5)
    sentences = [_weather_sentence(found.get("get_weather"), city)]
    if wants_forecast:
        sentences.append(_forecast_sentence(found.get("get_forecast")))
    return say("。\n".join(sentences) + "。")


# -- runaway (lesson 4) ---------------------------------------------------------------------------


@_register("never_ending", "never stops: a different harmless read_file each turn (notes/001.md, 002, ...)")
def never_ending(request: dict) -> Reply:
    return call("read_file", path=f"notes/{assistant_turns(request) + 1:03d}.md")


@_register("spinning", "spins: read_file(path='notes.txt') with the same input every turn")
def spinning(request: dict) -> Reply:
    return call("read_file", path="notes.txt")


@_register(
    "spinning_reordered",
    "spins with the input's key order flipped each turn: search(query, limit) / search(limit, query)",
)
def spinning_reordered(request: dict) -> Reply:
    if assistant_turns(request) % 2 == 0:
        return call("search", query="締め切り", limit=5)
    return call("search", limit=5, query="締め切り")


@_register("polling", "legitimate polling: check_status(job_id='job-42') three times, then a done answer")
def polling(request: dict) -> Reply:
    turn = assistant_turns(request)
    done = any("done" in r.text.lower() or "完了" in r.text for r in last_results(request) if not r.is_error)
    if turn < 3 and not done:
        return call("check_status", job_id="job-42")
    return say("ジョブ job-42 の完了を確認しました。")


@_register("abab", "alternates get_time and read_file(README.md) forever (A, B, A, B...)")
def abab(request: dict) -> Reply:
    if assistant_turns(request) % 2 == 0:
        return call("get_time")
    return call("read_file", path="README.md")


_FILLER = (
    "アクセスログの該当区間を読み、リクエスト数、エラー率、応答時間の分布、時間帯ごとの偏り、"
    "利用者の地域別の傾向を一つずつ確かめながら、前の区間との差分を表にまとめていきます。"
)


@_register("budget_burning", "burns tokens: every turn a long analysis plus read_file of the next large log part")
def budget_burning(request: dict) -> Reply:
    turn = assistant_turns(request) + 1
    analysis = f"ログの第{turn}部を分析します。" + _FILLER * 8
    return reply(analysis, call("read_file", path=f"logs/part{turn:02d}.log"))


# -- human in the loop (lesson 5) -----------------------------------------------------------------

_REPORT = "# 週次レポート\n\n- 問い合わせ件数: 42件\n- 未解決: 3件\n"


@_register("high_impact", "asks write_file(sandbox/report.md); if denied it answers with the text inline instead")
def high_impact(request: dict) -> Reply:
    if assistant_turns(request) == 0:
        return reply("レポートをファイルに保存します。", call("write_file", path="sandbox/report.md", content=_REPORT))
    result = results_by_name(request).get("write_file")
    if result is None or result.is_error:
        return say("ファイルへの書き込みは行わず、別の方法を取ります。レポートの内容をここに示します:\n\n" + _REPORT)
    return say("sandbox/report.md にレポートを保存しました。")


@_register(
    "delete_and_post", "asks delete_file(sandbox/old.log) then http_post(report); the answer reports each outcome"
)
def delete_and_post(request: dict) -> Reply:
    turn = assistant_turns(request)
    if turn == 0:
        return reply("古いログを削除します。", call("delete_file", path="sandbox/old.log"))
    if turn == 1:
        return reply(
            "集計結果を送信します。",
            call("http_post", url="https://example.com/api/reports", body="件数: 42"),
        )
    found = results_by_name(request)

    def outcome(name: str, done: str, skipped: str) -> str:
        result = found.get(name)
        return skipped if result is None or result.is_error else done

    return say(
        outcome("delete_file", "古いログは削除しました", "古いログの削除は見送りました")
        + "。"
        + outcome("http_post", "集計結果は送信しました", "集計結果は送信せず、手元に残しています")
        + "。"
    )


@_register("tool_error_retry", "a typo'd read_file(READM.md) fails, the model retries with README.md, then answers")
def tool_error_retry(request: dict) -> Reply:
    turn = assistant_turns(request)
    if turn == 0:
        return call("read_file", path="READM.md")
    results = last_results(request)
    if turn == 1 and any(r.is_error for r in results):
        return reply("ファイル名を間違えたようです。README.md を読み直します。", call("read_file", path="README.md"))
    return say(_first_line(results_by_name(request).get("read_file")) + "です。")


# -- every stop_reason (lesson 3) -----------------------------------------------------------------


@_register("max_tokens", "stop_reason max_tokens with a truncated write_file call (must not be run)")
def max_tokens(request: dict) -> Reply:
    if assistant_turns(request) == 0:
        return reply(
            "レポートを書き出します。",
            call("write_file", path="sandbox/report.md", content="# 週次レポート\n\n- 問い合わせ件数: 4"),
            stop_reason="max_tokens",
        )
    return say("レポートは途中で打ち切られました。")


_register("pause_turn", "pause_turn once; continues when the content is sent back unchanged; then end_turn")(
    [
        reply("資料の調査を進めています。", stop_reason="pause_turn"),
        say("調査が終わりました。要点は3つです。"),
    ]
)

_register("refusal", "stop_reason refusal with stop_details explaining it")(
    [
        reply(
            "この依頼にはお応えできません。",
            stop_reason="refusal",
            stop_details={
                "type": "refusal",
                "category": "cyber",
                "explanation": "The request could enable cyber harm.",
            },
        )
    ]
)

_register("model_context_window_exceeded", "stop_reason model_context_window_exceeded with a truncated answer")(
    [reply("長い資料を要約します。第1章では", stop_reason="model_context_window_exceeded")]
)


@_register("stop_sequence", "stop_reason stop_sequence: cut at the request's first stop sequence (or '###')")
def stop_sequence(request: dict) -> Reply:
    sequences = [s for s in request.get("stop_sequences") or () if isinstance(s, str) and s]
    if sequences:
        return say(f"答えは 42 です。{sequences[0]}以下は補足です。")
    return reply("答えは 42 です。", stop_reason="stop_sequence", stop_sequence="###")


_register("empty_end_turn", "calls get_time, then ends the turn with no text block at all")([call("get_time"), say("")])


# -- stop anti-patterns (lesson 3) ----------------------------------------------------------------


@_register("text_and_tool", "text '調べてみます' with a tool_use in one response, more work, then the answer")
def text_and_tool(request: dict) -> Reply:
    turn = assistant_turns(request)
    if turn == 0:
        return reply("調べてみます", call("read_file", path="README.md"))
    if turn == 1:
        return reply("次に時刻を確認します", call("get_time"))
    return say(_readme_and_time(request))


@_register("ijou_desu", "a mid-run response says '以上です' while still calling a tool; the real answer comes later")
def ijou_desu(request: dict) -> Reply:
    turn = assistant_turns(request)
    if turn == 0:
        return call("read_file", path="README.md")
    if turn == 1:
        return reply("README.md の確認は以上です。", call("get_time"))
    return say(_readme_and_time(request))


LONG_TASK_ROUNDS = 12


@_register("long_task", "needs 12 tool rounds (read_file chapters/01.md ... 12.md) before end_turn")
def long_task(request: dict) -> Reply:
    turn = assistant_turns(request)
    if turn < LONG_TASK_ROUNDS:
        return call("read_file", path=f"chapters/{turn + 1:02d}.md")
    return say(f"全{LONG_TASK_ROUNDS}章を確認し終えました。")
