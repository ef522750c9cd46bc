"""Helpers for policy scripts: read what the harness sent back (lessons 2, 5).

A policy function gets the request dict and decides the scripted model's next reply from it — for
instance a final answer that quotes the tool results, or another route after a denied call.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..text import lang
from .history import assistant_turns, blocks_of

# Kana, kanji and half-width katakana: a task with any of them is written in Japanese.
_JAPANESE = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff66-\uff9f]")

__all__ = [
    "Result",
    "assistant_turns",
    "compaction_summary",
    "first_user_text",
    "last_results",
    "reply_language",
    "results_by_name",
    "task_budget_left",
]


@dataclass(frozen=True)
class Result:
    """A tool_result as the scripted model reads it."""

    name: str
    text: str
    is_error: bool


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text")
    return ""


def results_by_name(request: dict) -> dict[str, Result]:
    """The latest result of each tool in the history, keyed by tool name."""
    names: dict = {}  # tool_use id -> name, as the request sent them
    found: dict[str, Result] = {}
    for message in request.get("messages") or ():
        for block in blocks_of(message.get("content")):
            if not isinstance(block, dict):
                continue
            if block.get("type") == "tool_use":
                names[block.get("id")] = block.get("name")
            elif block.get("type") == "tool_result":
                name = names.get(block.get("tool_use_id"), "")
                found[name] = Result(name, _text(block.get("content")), bool(block.get("is_error")))
    return found


def last_results(request: dict) -> list[Result]:
    """The tool results of the last user message, in order."""
    messages = request.get("messages") or ()
    names: dict = {}  # tool_use id -> name, as the request sent them
    for message in messages:
        for block in blocks_of(message.get("content")):
            if isinstance(block, dict) and block.get("type") == "tool_use":
                names[block.get("id")] = block.get("name")
    if not messages or messages[-1].get("role") != "user":
        return []
    return [
        Result(names.get(b.get("tool_use_id"), ""), _text(b.get("content")), bool(b.get("is_error")))
        for b in blocks_of(messages[-1].get("content"))
        if isinstance(b, dict) and b.get("type") == "tool_result"
    ]


def instruction(request: dict) -> str:
    """Text a person added after the tool results of the last user message (``run.steer``), or ""."""
    messages = request.get("messages") or ()
    if not messages or messages[-1].get("role") != "user" or not last_results(request):
        return ""
    return _text(messages[-1].get("content"))


def first_user_text(request: dict) -> str:
    """The text of the first user message (the task the run started with)."""
    for message in request.get("messages") or ():
        if message.get("role") == "user":
            return _text(message.get("content"))
    return ""


def reply_language(request: dict) -> str:
    """The language the emulated model writes in: "en" when ``HARNESS_LAB_LANG=en`` or the task (the
    first user message) has no Japanese character, else "ja" (the course's language)."""
    if lang() == "en":
        return "en"
    task = first_user_text(request)
    return "ja" if _JAPANESE.search(task) or not task.strip() else "en"


def compaction_summary(request: dict) -> str:
    """What a compaction block says (context_management.py): the task and how far the run got, in
    the language of the task (Japanese unless the task has none, or HARNESS_LAB_LANG=en)."""
    task = " ".join(first_user_text(request).split())
    task = task if len(task) <= 60 else task[:59] + "…"
    calls = sum(
        1
        for message in request.get("messages") or ()
        for block in blocks_of(message.get("content"))
        if isinstance(block, dict) and block.get("type") == "tool_use"
    )
    if reply_language(request) == "en":
        return f'Summary so far: the task is "{task}"; {calls} tool calls have run and their results were read.'
    return f"ここまでの要約: 依頼は「{task}」。ツール呼び出し{calls}回の結果を確認済み。"


def task_budget_left(request: dict) -> int | None:
    """The countdown a task budget shows the model (``output_config.task_budget``), or None without one.

    The emulator counts what the loop has used as the size of the prompt it is reading now (the
    history holds every earlier output and tool result): ``remaining`` (or ``total``) minus that.
    """
    from .tokens import estimate_request

    config = request.get("output_config")
    budget = config.get("task_budget") if isinstance(config, dict) else None
    if not isinstance(budget, dict):
        return None
    start = budget["remaining"] if budget.get("remaining") is not None else budget["total"]  # total is required
    return start - estimate_request(request).total
