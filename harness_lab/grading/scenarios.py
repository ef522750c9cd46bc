"""The tools and model responses the graders put in front of a learner's code (lesson 6 exercises).

Learners read ``block.type``, ``block.id``, ``block.name`` and ``block.input`` off real SDK objects,
so a grader's tool_use blocks come from the emulator through the real client, never from dicts.
Tool outputs are fixed strings, one per language, so every run of a grader sees the same thing.
"""

from __future__ import annotations

from typing import Any

from anthropic.types import ToolParam

from ..emulator import emulated_client, reply
from ..messages import field, user
from ..model import DEFAULT_MODEL
from ..text import LANGUAGES, lang

__all__ = ["PROMPT", "content_of", "outputs", "tool_defs", "tool_use_ids"]

PROMPT = "README.md の1行目を読んで、それから今何時か教えて"

# What each spy tool returns when it runs (Japanese, English), in the grading language (``outputs``). Each
# English text costs the emulator as many tokens as the Japanese one (``text_tokens``), and each tool
# definition as many in both, so a loop with a token budget stops at the same request in both editions.
_OUTPUTS: dict[str, tuple[str, str]] = {
    "get_time": ("2026-08-26T10:42:07+08:00", "2026-08-26T10:42:07+08:00"),
    "read_file": ("# エージェントハーネスの基礎", "# harness_lab\n\nThe basics of agent harnesses, by hand"),
    "write_file": ("書き込みました", "Written to the file as asked"),
    "delete_file": ("削除しました", "The file was deleted."),
    "http_post": ("送信しました (200)", "Sent the POST request (200 OK)"),
    "send_email": ("メールを送信しました", "The email was sent to all its recipients"),
    "brand_new_tool": ("新しいツールの出力", "What the brand-new tool gives back"),
    "search": ("手がかりが1件見つかりました", "Found one clue in the documents that matches the query"),
    "list_files": ("README.md notes.txt", "README.md notes.txt"),
    "create_issue": ("課題 #12 を作りました", "Opened issue #12 in the issue tracker"),
    "drop_table": ("テーブルを削除しました", "Dropped the whole table from the database"),
}

_SCHEMAS: dict[str, tuple[str, str, dict]] = {
    "get_time": (
        "現在時刻を ISO 8601 の文字列で返す",
        "Returns the current time as an ISO 8601 string, with offset",
        {},
    ),
    "read_file": (
        "プロジェクト内のテキストファイルを読む",
        "Reads a text file inside the project folder and returns the whole of its text",
        {"path": {"type": "string"}},
    ),
    "write_file": (
        "ファイルに書き込む",
        "Writes the given text into the file",
        {"path": {"type": "string"}, "content": {"type": "string"}},
    ),
    "delete_file": (
        "ファイルを削除する",
        "Deletes the file at the given path",
        {"path": {"type": "string"}},
    ),
    "http_post": (
        "URL に POST リクエストを送る",
        "Sends a POST request with a body to a web URL",
        {"url": {"type": "string"}, "body": {"type": "string"}},
    ),
    "send_email": (
        "メールを送る（廃止予定）",
        "Sends an email (retired: it is going away soon)",
        {"to": {"type": "string"}, "body": {"type": "string"}},
    ),
    "brand_new_tool": (
        "今日追加されたばかりのツール",
        "A tool added only today, so nobody has tried it out yet",
        {"note": {"type": "string"}},
    ),
    "search": (
        "資料を検索する",
        "Searches the course notes",
        {"query": {"type": "string"}},
    ),
    "list_files": (
        "フォルダーのファイル名を一覧する",
        "Lists the names of all the files in one folder of this project",
        {"path": {"type": "string"}},
    ),
    "create_issue": (
        "課題管理に課題を起票する",
        "Opens an issue in the project's own issue tracker",
        {"title": {"type": "string"}},
    ),
    "drop_table": (
        "データベースのテーブルを削除する",
        "Drops (deletes) a table from the database, with all of its rows",
        {"table": {"type": "string"}},
    ),
}


def outputs() -> dict[str, str]:
    """What each spy tool returns, in the language spoken now (a grader's ``speaking``, a notebook's edition)."""
    side = LANGUAGES.index(lang())
    return {name: texts[side] for name, texts in _OUTPUTS.items()}


def tool_defs() -> list[ToolParam]:
    """The tool definitions the graders send (the exercises' ``TOOLS``), described in the language spoken now."""
    side = LANGUAGES.index(lang())
    return [
        {"name": name, "description": texts[side], "input_schema": {"type": "object", "properties": props}}
        for name, (*texts, props) in _SCHEMAS.items()
    ]


def __getattr__(name: str) -> Any:
    # An exercise saved before the tools spoke the edition imports these names in its setup cell, which
    # the grader runs: they still import, in the language spoken when they are read.
    if name == "TOOL_DEFS":
        return tool_defs()
    if name == "OUTPUTS":
        return outputs()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def content_of(*parts: Any) -> list:
    """``response.content`` of one emulated model turn made of ``parts`` (text and ``call(...)``).

    Goes through the real client, so the blocks are ``anthropic.types`` objects with real ids.
    """
    client = emulated_client([reply(*parts)])
    response = client.messages.create(model=DEFAULT_MODEL, max_tokens=1024, tools=tool_defs(), messages=[user(PROMPT)])  # type: ignore[list-item]  # a plain dict in MessageParam's shape
    return list(response.content)


def tool_use_ids(content: list) -> list[str]:
    return [field(b, "id") for b in content if field(b, "type") == "tool_use"]
