"""The lesson checks' hints for a thinking block that did not go back whole (ja and en): the
default model thinks first, so lesson 2's rule (send response.content back whole) meets it first."""

from __future__ import annotations

from ..text import add

add(
    {
        "lesson.l2.keep_thinking": (
            "ツールの結果が答える assistant ターン（tool_use を含むターン）から、思考ブロック（thinking / redacted_thinking）が消えています。"
            "既定のモデル claude-sonnet-5 は答える前に考え、その思考ブロックを応答の先頭に返します。text と tool_use だけに絞ったり、"
            "知っている型だけで組み立て直したりせず、response.content をまるごと assistant に入れましょう（API の 400: {error}）",
            "The assistant turn your tool results answer has lost its thinking block (thinking / redacted_thinking). The "
            "default model claude-sonnet-5 thinks before it answers and returns that block first; do not keep only text "
            "and tool_use or rebuild the turn from the types you know: append the whole response.content as the "
            "assistant message (the API's 400: {error})",
        ),
        "lesson.l2.thinking_changed": (
            "思考ブロックが、受け取ったときのままではありません（思考ブロックの signature が欠けている・変わっている、"
            "または本文が変わっている）。思考ブロックは作り直さず、response.content をまるごと返しましょう（API の 400: {error}）",
            "A thinking block is not as it arrived (its signature missing or changed, or its text edited); do not "
            "rebuild thinking blocks: send the whole response.content back (the API's 400: {error})",
        ),
    }
)
