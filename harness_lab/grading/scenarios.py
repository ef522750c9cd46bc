"""The tools and model responses the graders put in front of a learner's code (lesson 6 exercises).

Learners read ``block.type``, ``block.id``, ``block.name`` and ``block.input`` off real SDK objects,
so a grader's tool_use blocks come from the emulator through the real client, never from dicts.
Tool outputs are fixed strings, so every run of a grader sees the same thing.
"""

from __future__ import annotations

from typing import Any

from anthropic.types import ToolParam

from ..emulator import emulated_client, reply
from ..messages import field, user
from ..model import DEFAULT_MODEL

__all__ = ["OUTPUTS", "PROMPT", "TOOL_DEFS", "content_of", "tool_use_ids"]

PROMPT = "README.md の1行目を読んで、それから今何時か教えて"

# What each spy tool returns when it runs.
OUTPUTS: dict[str, str] = {
    "get_time": "2026-08-26T10:42:07+08:00",
    "read_file": "# エージェントハーネスの基礎",
    "write_file": "書き込みました",
    "delete_file": "削除しました",
    "http_post": "送信しました (200)",
    "send_email": "メールを送信しました",
    "brand_new_tool": "新しいツールの出力",
    "search": "手がかりが1件見つかりました",
    # tools the table never names: level 1's probe writes them into the learner's own policy
    "list_files": "README.md notes.txt",
    "create_issue": "課題 #12 を作りました",
    "drop_table": "テーブルを削除しました",
}

_SCHEMAS: dict[str, tuple[str, dict]] = {
    "get_time": ("現在時刻を ISO 8601 の文字列で返す", {}),
    "read_file": ("プロジェクト内のテキストファイルを読む", {"path": {"type": "string"}}),
    "write_file": ("ファイルに書き込む", {"path": {"type": "string"}, "content": {"type": "string"}}),
    "delete_file": ("ファイルを削除する", {"path": {"type": "string"}}),
    "http_post": ("URL に POST リクエストを送る", {"url": {"type": "string"}, "body": {"type": "string"}}),
    "send_email": ("メールを送る（廃止予定）", {"to": {"type": "string"}, "body": {"type": "string"}}),
    "brand_new_tool": ("今日追加されたばかりのツール", {"note": {"type": "string"}}),
    "search": ("資料を検索する", {"query": {"type": "string"}}),
    "list_files": ("フォルダーのファイル名を一覧する", {"path": {"type": "string"}}),
    "create_issue": ("課題管理に課題を起票する", {"title": {"type": "string"}}),
    "drop_table": ("データベースのテーブルを削除する", {"table": {"type": "string"}}),
}

TOOL_DEFS: list[ToolParam] = [
    {"name": name, "description": text, "input_schema": {"type": "object", "properties": props}}
    for name, (text, props) in _SCHEMAS.items()
]


def content_of(*parts: Any) -> list:
    """``response.content`` of one emulated model turn made of ``parts`` (text and ``call(...)``).

    Goes through the real client, so the blocks are ``anthropic.types`` objects with real ids.
    """
    client = emulated_client([reply(*parts)])
    response = client.messages.create(model=DEFAULT_MODEL, max_tokens=1024, tools=TOOL_DEFS, messages=[user(PROMPT)])  # type: ignore[list-item]  # a plain dict in MessageParam's shape
    return list(response.content)


def tool_use_ids(content: list) -> list[str]:
    return [field(b, "id") for b in content if field(b, "type") == "tool_use"]
