"""Named scripts for the lessons' demos (one per lesson moment), registered by name.

Each scenario is a list of replies or a policy function of the request. Policies read what came
back, so they stay sensible whatever the harness returns (denials, errors, skipped calls).
``SCENARIOS`` maps every name to its one-line description; ``scenario(name)`` returns the script.

The scripted model speaks the user's language, as Claude does: every text it writes (and every
tool argument that is prose, such as a report's content) comes in Japanese and in English, chosen
by ``reply_language`` (English for an English task or ``HARNESS_LAB_LANG=en``). The stop-reason
scenarios of lesson 3 are in scenarios_stops.py, lesson 6's in scenarios_2026.py.
"""

from __future__ import annotations

import json
import re
import reprlib
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any

from ..text import t
from .reading import Result, assistant_turns, first_user_text, last_results, reply_language, results_by_name
from .replies import Reply, as_reply, call, reply, say

__all__ = ["SCENARIOS", "resolve_script", "scenario", "scenario_names"]

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
        raise ValueError(t("client.unknown_scenario", name=repr(name), known=", ".join(sorted(_SCRIPTS)))) from None


def scenario_names() -> list[str]:
    return sorted(_SCRIPTS)


def _en(request: dict) -> bool:
    return reply_language(request) == "en"


def _in_language(ja: list[Reply], en: list[Reply]) -> Callable[[dict], Reply]:
    """A fixed list of replies, one per turn (the last repeats), in the language of the request."""

    def script(request: dict) -> Reply:
        replies = en if _en(request) else ja
        return replies[min(assistant_turns(request), len(replies) - 1)]

    return script


# -- quoting tool results ------------------------------------------------------------------------

_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)  # not strftime's %B: that follows the machine's locale


def _brief(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _first_line(result: Result | None, en: bool, path: str = "README.md") -> str:
    if result is None:
        return f"{path} has not been read yet" if en else f"{path} はまだ読めていません"
    if result.is_error:
        return (
            f"{path} could not be read ({_brief(result.text)})"
            if en
            else f"{path} は読めませんでした（{_brief(result.text)}）"
        )
    text = result.text
    if text.startswith('"'):  # a tool that JSON-encoded its string output
        try:
            text = json.loads(text)
        except ValueError:
            pass
    lines = str(text).splitlines()
    first = lines[0] if lines else ""
    return f'the first line of {path} is "{first}"' if en else f"{path} の1行目は「{first}」"


def _clock(result: Result | None, en: bool) -> str:
    if result is None:
        return "the time has not been checked yet" if en else "時刻はまだ確認できていません"
    if result.is_error:
        return (
            f"the time could not be read ({_brief(result.text)})"
            if en
            else f"時刻は取得できませんでした（{_brief(result.text)}）"
        )
    raw = result.text.strip().strip('"')
    try:
        moment = datetime.fromisoformat(raw)
    except ValueError:
        return f"the time is {raw}" if en else f"いまは {raw} です"
    if en:
        return f"it is {moment:%H:%M} on {_MONTHS[moment.month - 1]} {moment.day}, {moment.year}"
    return f"いまは {moment.year}年{moment.month}月{moment.day}日の {moment:%H:%M} です"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _tally(request: dict, en: bool) -> str:
    rounds = assistant_turns(request)
    if en:
        return f"That took {_plural(rounds, 'tool turn')} and {_plural(rounds + 1, 'model request')}."
    return f"ツール呼び出し{rounds}ターン、モデルへのリクエスト{rounds + 1}回で終わりました。"


def _readme_and_time(request: dict) -> str:
    en = _en(request)
    found = results_by_name(request)
    line, clock = _first_line(found.get("read_file"), en), _clock(found.get("get_time"), en)
    if en:
        return f"{line[0].upper()}{line[1:]}, and {clock}. {_tally(request, en)}"
    return f"{line}で、{clock}。{_tally(request, en)}"


# -- lesson 6 and the article -------------------------------------------------------------------


@_register("lesson6", "lesson 6's demo: read_file(README.md), then get_time, then an answer quoting both")
def lesson6(request: dict) -> Reply:
    turn = assistant_turns(request)
    if turn == 0:
        return call("read_file", path="README.md")
    if turn == 1:
        return call("get_time")
    return say(_readme_and_time(request))


# Each city as a Japanese task and an English one names it: the call passes it on as the task wrote it.
_CITIES = (("東京", "Tokyo"), ("大阪", "Osaka"), ("札幌", "Sapporo"))
_NOW_WORDS = re.compile(r"\b(now|current|currently)\b", re.IGNORECASE)
_LATER_WORDS = re.compile(r"\b(week|weekly|forecast|outlook)\b", re.IGNORECASE)


def _city(task: str, en: bool) -> str:
    found = next((ja for ja, _ in _CITIES if ja in task), None)
    found = found or next((name for _, name in _CITIES if name.lower() in task.lower()), None)
    return found or ("Tokyo" if en else "東京")


def _weather_sentence(result: Result | None, city: str, en: bool) -> str:
    if result is None or result.is_error:
        why = (f" ({_brief(result.text)})" if en else f"（{_brief(result.text)}）") if result else ""
        return (
            f"The current weather in {city} could not be fetched" if en else f"{city}の現在の天気は取得できませんでした"
        ) + why
    try:
        data = json.loads(result.text)
        where = data.get("city", city)
        if en:
            return f"It is currently {data['temp']}°C and {data['condition']} in {where} (humidity {data['humidity']}%)"
        return f"現在の{where}は気温{data['temp']}°C・{data['condition']}（湿度{data['humidity']}%）です"
    except (ValueError, KeyError, TypeError):
        return (
            f'The current weather in {city} is "{_brief(result.text)}"'
            if en
            else f"現在の{city}の天気は「{_brief(result.text)}」です"
        )


def _forecast_sentence(result: Result | None, en: bool) -> str:
    if result is None or result.is_error:
        why = (f" ({_brief(result.text)})" if en else f"（{_brief(result.text)}）") if result else ""
        return ("The forecast could not be fetched" if en else "予報は取得できませんでした") + why
    try:
        days = json.loads(result.text)
        first, last = days[0]["high"], days[-1]["high"]
        if en:
            conditions = " → ".join(d["condition"] for d in days)
            return f"This week's forecast goes {conditions}, with highs from {first}°C to {last}°C"
        conditions = "→".join(d["condition"] for d in days)
        return f"今週の予報は{conditions}と変化する見込みで、最高気温は{first}°Cから{last}°Cです"
    except (ValueError, KeyError, TypeError, IndexError):
        return f'The forecast says "{_brief(result.text)}"' if en else f"予報は「{_brief(result.text)}」です"


def _wants_forecast(task: str) -> bool:
    # The article's first example only asks for the current temperature: no forecast then.
    now = "今の" in task or _NOW_WORDS.search(task)
    later = any(w in task for w in ("週", "予報", "概況")) or _LATER_WORDS.search(task)
    return not (now and not later)


@_register(
    "weather", "the article's pair: get_weather(city) then get_forecast(city, days=5), then an answer quoting both"
)
def weather(request: dict) -> Reply:
    en = _en(request)
    task = first_user_text(request)
    city = _city(task, en)
    wants_forecast = _wants_forecast(task)
    turn = assistant_turns(request)
    if turn == 0:
        lead = f"Let me check the current weather in {city}." if en else f"現在の{city}の気象情報を調べます。"
        return reply(lead, call("get_weather", city=city))
    found = results_by_name(request)
    if turn == 1 and wants_forecast:
        return call("get_forecast", city=city, days=5)
    sentences = [_weather_sentence(found.get("get_weather"), city, en)]
    if wants_forecast:
        sentences.append(_forecast_sentence(found.get("get_forecast"), en))
    return say(".\n".join(sentences) + "." if en else "。\n".join(sentences) + "。")


# -- runaway (lesson 4) ---------------------------------------------------------------------------


@_register("never_ending", "never stops: a different harmless read_file each turn (notes/001.md, 002, ...)")
def never_ending(request: dict) -> Reply:
    return call("read_file", path=f"notes/{assistant_turns(request) + 1:03d}.md")


# About as many tokens in each language (a wide character is a token, four narrow ones are one), so
# a budget runs out after the same turn in both editions.
_FILLER = {
    "ja": (
        "アクセスログの該当区間を読み、リクエスト数、エラー率、応答時間の分布、時間帯ごとの偏り、"
        "利用者の地域別の傾向を一つずつ確かめながら、前の区間との差分を表にまとめていきます。"
    ),
    "en": (
        "Reading this stretch of the access log, I check the request count, the error rate, the spread of "
        "response times, how the traffic leans by hour of the day and how users differ from region to region, "
        "one figure at a time, and I tabulate how each of them moved since the previous stretch so that "
        "the whole trend shows up at a glance, hour by hour. "
    ),
}


@_register("budget_burning", "burns tokens: every turn a long analysis plus read_file of the next large log part")
def budget_burning(request: dict) -> Reply:
    turn = assistant_turns(request) + 1
    if _en(request):
        analysis = f"Analysing part {turn} of the log. " + _FILLER["en"] * 8
    else:
        analysis = f"ログの第{turn}部を分析します。" + _FILLER["ja"] * 8
    return reply(analysis, call("read_file", path=f"logs/part{turn:02d}.log"))


# -- human in the loop (lesson 5) -----------------------------------------------------------------

_REPORT = {
    "ja": "# 週次レポート\n\n- 問い合わせ件数: 42件\n- 未解決: 3件\n",
    "en": "# Weekly report\n\n- Inquiries: 42\n- Unresolved: 3\n",
}


@_register("high_impact", "asks write_file(sandbox/report.md); if denied it answers with the text inline instead")
def high_impact(request: dict) -> Reply:
    en = _en(request)
    report = _REPORT["en" if en else "ja"]
    if assistant_turns(request) == 0:
        lead = "I'll save the report to a file." if en else "レポートをファイルに保存します。"
        return reply(lead, call("write_file", path="sandbox/report.md", content=report))
    result = results_by_name(request).get("write_file")
    if result is None or result.is_error:
        if en:
            return say("I won't write the file and will take another route. Here is the report instead:\n\n" + report)
        return say("ファイルへの書き込みは行わず、別の方法を取ります。レポートの内容をここに示します:\n\n" + report)
    return say("Saved the report to sandbox/report.md." if en else "sandbox/report.md にレポートを保存しました。")


@_register(
    "delete_and_post", "asks delete_file(sandbox/old.log) then http_post(report); the answer reports each outcome"
)
def delete_and_post(request: dict) -> Reply:
    en = _en(request)
    turn = assistant_turns(request)
    if turn == 0:
        return reply(
            "Deleting the old log." if en else "古いログを削除します。", call("delete_file", path="sandbox/old.log")
        )
    if turn == 1:
        return reply(
            "Sending the totals." if en else "集計結果を送信します。",
            call("http_post", url="https://example.com/api/reports", body="count: 42" if en else "件数: 42"),
        )
    found = results_by_name(request)

    def outcome(name: str, done: str, skipped: str) -> str:
        result = found.get(name)
        return skipped if result is None or result.is_error else done

    if en:
        deleted = outcome("delete_file", "Deleted the old log", "Left the old log in place")
        sent = outcome("http_post", "Sent the totals", "Did not send the totals; they stay here")
        return say(f"{deleted}. {sent}.")
    return say(
        outcome("delete_file", "古いログは削除しました", "古いログの削除は見送りました")
        + "。"
        + outcome("http_post", "集計結果は送信しました", "集計結果は送信せず、手元に残しています")
        + "。"
    )


@_register("tool_error_retry", "a typo'd read_file(READM.md) fails, the model retries with README.md, then answers")
def tool_error_retry(request: dict) -> Reply:
    en = _en(request)
    turn = assistant_turns(request)
    if turn == 0:
        return call("read_file", path="READM.md")
    results = last_results(request)
    if turn == 1 and any(r.is_error for r in results):
        lead = (
            "I got the file name wrong. Reading README.md again."
            if en
            else "ファイル名を間違えたようです。README.md を読み直します。"
        )
        return reply(lead, call("read_file", path="README.md"))
    line = _first_line(results_by_name(request).get("read_file"), en)
    return say(f"{line[0].upper()}{line[1:]}." if en else line + "です。")


def resolve_script(script: Any) -> Any:
    """What ``Emulator(script)`` runs: a scenario by name, a callable, or a list of replies (checked)."""
    if isinstance(script, str):
        return scenario(script)
    if isinstance(script, Reply):
        return [script]
    if callable(script):
        return script
    if isinstance(script, (dict, bytes)) or not isinstance(script, Iterable):  # connect(42): say what a script is
        raise TypeError(t("usage.script", got=reprlib.repr(script)))
    script = list(script)
    if not script:
        raise ValueError(t("usage.script_empty"))
    return [as_reply(r) for r in script]
