"""What the lesson checks put in front of a learner's function: real SDK responses from the emulator,
spy tools that record what ran, and the emulator's own verdict on a history (its real 400s).

Every check that sends a history does so to the course's default model (``claude-sonnet-5``), which
thinks before it answers: its replies start with a signed thinking block that must go back whole.
A learner's loop meets that model whatever ``MODEL`` it names (``HARNESS_LAB_MODEL`` may choose a
model that does not think), so a loop that filters or rebuilds the assistant turn fails offline
with the live API's 400, as it would on its first live request.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import anthropic

from ..emulator import KNOWN_MODELS, Emulator, emulated_client, reply
from ..grading.sandbox import abort
from ..messages import field
from ..model import DEFAULT_MODEL
from .checking import Miss

__all__ = [
    "TOOLS",
    "CourseModel",
    "answer_rejected",
    "api_rejects",
    "api_refusal",
    "definitions",
    "fact",
    "rejection_hint",
    "response_of",
    "runaway_guard",
]


def definitions(**tools: tuple[str, dict]) -> list[dict]:
    """Tool definitions from ``name=(description, properties)``."""
    return [
        {"name": name, "description": text, "input_schema": {"type": "object", "properties": props}}
        for name, (text, props) in tools.items()
    ]


TOOLS = definitions(
    get_weather=("指定した都市の現在の気象情報を返す", {"city": {"type": "string"}}),
    get_time=("現在時刻を ISO 8601 の文字列で返す", {}),
    read_file=("プロジェクト内のテキストファイルを読む", {"path": {"type": "string"}}),
    search=("資料を検索する", {"query": {"type": "string"}}),
    write_file=("ファイルに書き込む", {"path": {"type": "string"}, "content": {"type": "string"}}),
    http_post=("URL に POST リクエストを送る", {"url": {"type": "string"}, "body": {"type": "string"}}),
    delete_file=("ファイルを削除する", {"path": {"type": "string"}}),
)


def response_of(*parts: Any, stop_reason: str | None = None, prompt: str = "やって", **extra: Any) -> Any:
    """One model response (an ``anthropic.types.Message``) made of ``parts`` (text and ``call(...)``).

    Its ids come from the request, as the real API's are new for every response: another ``prompt``
    gives the same calls other ids. ``extra`` goes to ``reply`` (``stop_sequence="###"``).
    """
    client = emulated_client([reply(*parts, stop_reason=stop_reason, **extra) if stop_reason else reply(*parts)])
    return client.messages.create(
        model=DEFAULT_MODEL, max_tokens=1024, tools=TOOLS, messages=[{"role": "user", "content": prompt}]
    )


def api_rejects(messages: list) -> str:
    """The emulator's 400 message for sending ``messages`` (with ``TOOLS``), or "" when accepted."""
    client = emulated_client(["了解しました。"])
    try:
        client.messages.create(model=DEFAULT_MODEL, max_tokens=256, tools=TOOLS, messages=copy.deepcopy(messages))
    except anthropic.BadRequestError as exc:
        body = exc.body if isinstance(exc.body, dict) else {}
        return str(body.get("error", {}).get("message", exc.message))
    return ""


def answer_rejected(prompt: str, response: Any, results: Any) -> Miss | None:
    """Send ``results`` back after ``response`` as the next user message: the API's 400 as a miss."""
    rejected = api_rejects(
        [
            {"role": "user", "content": prompt},
            {"role": "assistant", "content": response.content},
            {"role": "user", "content": list(results or ())},
        ]
    )
    return Miss("lesson.api_400", {"error": rejected}) if rejected else None


# The real API's 400 for each history mistake a lesson teaches, and the hint that names its cause.
# The thinking ones come first: a turn rebuilt without its thinking block is the lesson-2 mistake
# the default model makes fatal (the texts are roundtrip.py's and the schema's).
REJECTIONS = (
    ("Expected `thinking` or `redacted_thinking`", "lesson.l2.keep_thinking"),
    ("blocks in the latest assistant message cannot be modified", "lesson.l2.thinking_changed"),
    ("Invalid `signature` in `thinking` block", "lesson.l2.thinking_changed"),
    ("Invalid `data` in `redacted_thinking` block", "lesson.l2.thinking_changed"),
    ("thinking.signature: Field required", "lesson.l2.thinking_changed"),
    ("thinking.data: Field required", "lesson.l2.thinking_changed"),
    ("inside a tool-use loop", "lesson.l2.thinking_config"),
    ("unexpected `tool_use_id`", "lesson.l2.keep_content"),
    ("must define tools", "lesson.l2.pass_tools"),
    ("were found without `tool_result`", "lesson.l2.results_first"),
    ("ids must be unique", "lesson.l2.reassign"),
)


def rejection_hint(message: str) -> Miss:
    for needle, key in REJECTIONS:
        if needle in message:
            return Miss(key, {"error": message})
    return Miss("lesson.api_400", {"error": message})


def api_refusal(exc: anthropic.BadRequestError) -> Miss:
    """The hint for a 400 the learner's loop ran into, by the message the API sent."""
    body = exc.body if isinstance(exc.body, dict) else {}
    error = body.get("error") if isinstance(body.get("error"), dict) else {}
    return rejection_hint(str(error.get("message", exc.message)))


class CourseModel(Emulator):
    """An emulator that answers every request as the course's default model, which thinks by default.

    A known model id the learner's code names is answered as ``DEFAULT_MODEL`` (an unknown one keeps
    its 404): the lesson's rules are the default model's, whatever ``HARNESS_LAB_MODEL`` picked.
    """

    def respond(self, request: Any, path: str = "/v1/messages", headers: Any = None) -> tuple[int, dict, Any]:
        if isinstance(request, dict) and request.get("model") in KNOWN_MODELS - {DEFAULT_MODEL}:
            request = {**request, "model": DEFAULT_MODEL}
        return super().respond(request, path, headers)


def runaway_guard(script: Callable[[dict], Any], limit: int, miss: Miss | None = None) -> Emulator:
    """An emulator playing ``script`` that ends the probe after ``limit`` requests (a loop that never
    stops), with ``miss`` as its hint (its values get the request ``count``), by default the generic one."""

    def guarded(request: dict) -> Any:
        if len(emulator.requests) > limit:
            key, values = (miss.key, miss.values) if miss else ("lesson.runaway_requests", {})
            abort((key, {**{k: str(v) for k, v in values.items()}, "count": str(len(emulator.requests))}))
        return script(request)

    emulator = CourseModel(guarded)
    return emulator


def fact(result: Any) -> dict:
    """A returned tool_result, whatever its form (dict or object), as plain facts."""
    content = field(result, "content")
    if isinstance(content, (list, tuple)):
        text = "".join(str(field(b, "text", "") or "") for b in content)
    else:
        text = content if isinstance(content, str) else None
    return {
        "type": field(result, "type"),
        "tool_use_id": field(result, "tool_use_id"),
        "text": text,
        "content": content,
        "is_error": field(result, "is_error", False) is True,
    }
