"""The learner-facing string catalog: Japanese by default, English beside it.

``HARNESS_LAB_LANG=en`` switches the language; ``t("key", **values)`` formats one entry. Every
message a learner reads (stop reasons, approval prompts, widget labels, grader feedback) lives here,
so the two languages stay side by side and nothing is translated in two places.
"""

from __future__ import annotations

import os

__all__ = ["CATALOG", "lang", "t"]

# key -> (ja, en)
CATALOG: dict[str, tuple[str, str]] = {
    # stops (lesson 6's wording for the four valves)
    "stop.max_turns": (
        "最大ターン数 {limit} に達したので、自分から停止します（タスクが難しすぎるか、モデルが行き詰まっている可能性があります）",
        "Reached the maximum of {limit} turns, so the harness stopped itself (the task may be too hard or the model stuck).",
    ),
    "stop.token_budget": (
        "トークン予算 {limit} に達したので、自分から停止します（使用量 {used}）",
        "Reached the token budget of {limit}, so the harness stopped itself ({used} used).",
    ),
    "stop.usd_budget": (
        "費用の上限 ${limit} に達したので、自分から停止します（見積もり ${used}）",
        "Reached the cost limit of ${limit}, so the harness stopped itself (estimated ${used}).",
    ),
    "stop.token_budget_preflight": (
        "次のリクエストは見積もり {estimate} トークンで、予算 {limit} を超える（使用済み {used}）ので送らずに停止します",
        "The next request is estimated at {estimate} tokens and would cross the budget of {limit} ({used} used), so it was not sent.",
    ),
    "stop.no_progress": (
        "{window}ターン連続で同一のツール呼び出しでした（{signature}）。空回りと判定し、自分から停止します",
        "The same tool calls came {window} turns in a row ({signature}); judged as spinning, the harness stopped itself.",
    ),
    "stop.api_error": (
        "API エラーで停止しました（SDK の再試行の後）: {error}",
        "Stopped on an API error (after the SDK's retries): {error}",
    ),
    "stop.interrupted": (
        "ターンの合間に中断しました。履歴はそのまま再開できます",
        "Interrupted between turns; the history is intact and the run can resume.",
    ),
    "stop.max_tokens": (
        "応答が max_tokens で打ち切られました。途中で切れたツール呼び出しは実行していません",
        "The response was cut at max_tokens; a possibly truncated tool call was not run.",
    ),
    "stop.refusal": (
        "モデルが応答を辞退しました（refusal）{detail}",
        "The model declined to respond (refusal){detail}",
    ),
    "stop.model_context_window_exceeded": (
        "コンテキストウィンドウが一杯になり、応答が打ち切られました",
        "The context window is full; the response was truncated.",
    ),
    # tool results the model reads
    "result.denied": (
        "ユーザーがこの高インパクトなアクションを拒否したため、実行していません。",
        "The user denied this high-impact action, so it was not run.",
    ),
    "result.denied_reason": (
        "ユーザーがこの高インパクトなアクションを拒否したため、実行していません。理由: {reason}",
        "The user denied this high-impact action, so it was not run. Reason: {reason}",
    ),
    "result.forbidden": (
        "ツール {name} はポリシーで禁止されているため、実行していません。",
        "The tool {name} is forbidden by policy, so it was not run.",
    ),
    "result.failed": (
        "ツールの実行に失敗しました: {error}",
        "The tool failed: {error}",
    ),
    "result.skipped": (
        "ハーネスが停止したため、このツール呼び出しは実行していません。",
        "The harness stopped, so this tool call was not run.",
    ),
}


def lang() -> str:
    """The active language: ``HARNESS_LAB_LANG`` ("ja" or "en"), Japanese when unset or unknown."""
    return "en" if os.environ.get("HARNESS_LAB_LANG", "ja").lower().startswith("en") else "ja"


def t(key: str, **values: object) -> str:
    """The catalog entry ``key`` in the active language, formatted with ``values``."""
    ja, en = CATALOG[key]
    return (en if lang() == "en" else ja).format(**values)
