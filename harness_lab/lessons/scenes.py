"""What the lesson checks put in front of a learner's function: real SDK responses from the emulator,
spy tools that record what ran, a client that notes every response it handed out, and the emulator's
own verdict on a history (its real 400s)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from itertools import pairwise
from typing import Any

import anthropic
from anthropic.types import ToolParam

from ..emulator import KNOWN_MODELS, Emulator, emulated_client, reply
from ..emulator.caching import wants_cache
from ..grading.sandbox import abort
from ..messages import content_dicts, field, in_another_apis_shape, misspelled_is_error
from ..model import DEFAULT_MODEL
from ..text import t
from .checking import Miss
from .rejections import NOT_A_FLAG, api_refusal, blocks, rejection_hint, swallowed

__all__ = [
    "Recording",
    "CourseModel",
    "answer_rejected",
    "swallowed",
    "answered",
    "blocks",
    "api_refusal",
    "api_rejects",
    "definitions",
    "fact",
    "user_turn",
    "kept_whole",
    "out_of_order",
    "rejection_hint",
    "response_of",
    "runaway_guard",
    "said",
    "scene_tools",
    "scripted",
    "thought",
    "unchanged",
]


def said(scene: str, what: str, **values: object) -> str:
    """What ``scene``'s scripted world says as ``what``, in the kernel's language (``said_catalog``)."""
    return t(f"lesson.said.{scene}.{what}", **values)


def thought() -> dict:
    """A thinking block, as the course's default model puts before its text and tool calls: a loop that
    keeps ``response.content`` whole passes it back untouched; one that filters or rebuilds it does not."""
    return {"type": "thinking", "thinking": said("any", "thought"), "signature": "c2lnbmVkLXRob3VnaHQ="}


def definitions(**tools: tuple[str, dict]) -> list[ToolParam]:
    """Tool definitions from ``name=(description, properties)``."""
    return [
        {"name": name, "description": text, "input_schema": {"type": "object", "properties": props}}
        for name, (text, props) in tools.items()
    ]


# The tools every lesson probe defines: their descriptions are in the kernel's language, as a learner's loop
# may show or quote them, and cost the same tokens in both (said_catalog.py).
TOOL_PROPERTIES: dict[str, dict] = {
    "get_weather": {"city": {"type": "string"}},
    "get_time": {},
    "read_file": {"path": {"type": "string"}},
    "search": {"query": {"type": "string"}},
    "write_file": {"path": {"type": "string"}, "content": {"type": "string"}},
    "http_post": {"url": {"type": "string"}, "body": {"type": "string"}},
    "delete_file": {"path": {"type": "string"}},
}


def scene_tools() -> list[ToolParam]:
    """The probes' tool definitions, described in the kernel's language."""
    return definitions(**{name: (said("tools", name), props) for name, props in TOOL_PROPERTIES.items()})


def response_of(
    *parts: Any, stop_reason: str | None = None, prompt: str = "やって", shown: bool = False, **extra: Any
) -> Any:
    """One model response (an ``anthropic.types.Message``) made of ``parts`` (text and ``call(...)``).

    Its ids come from the request, as the real API's are new for every response: another ``prompt``
    gives the same calls other ids. ``shown`` asks for the thinking's text (``display: "summarized"``;
    the default model omits it). ``extra`` goes to ``reply`` (``stop_sequence="###"``).
    """
    client = emulated_client([reply(*parts, stop_reason=stop_reason, **extra) if stop_reason else reply(*parts)])
    thinking: Any = {"type": "adaptive", "display": "summarized"} if shown else anthropic.omit
    return client.messages.create(
        model=DEFAULT_MODEL,
        max_tokens=1024,
        tools=scene_tools(),
        messages=[{"role": "user", "content": prompt}],
        thinking=thinking,
    )


def api_rejects(messages: list) -> str:
    """The emulator's 400 message for sending ``messages`` (with ``scene_tools()``), or "" when accepted."""
    client = emulated_client(["了解しました。"])
    try:
        client.messages.create(
            model=DEFAULT_MODEL, max_tokens=256, tools=scene_tools(), messages=copy.deepcopy(messages)
        )
    except anthropic.BadRequestError as exc:
        body = exc.body if isinstance(exc.body, dict) else {}
        return str(body.get("error", {}).get("message", exc.message))
    return ""


def answer_rejected(prompt: str, response: Any, results: Any) -> Miss | None:
    """Send ``results`` back after ``response`` as the next user message: the API's 400 as a miss,
    or the SDK's own refusal to send what is no JSON (an exception object as a result's content)."""
    sent = [
        {"role": "user", "content": prompt},
        {"role": "assistant", "content": response.content},
        {"role": "user", "content": list(results or ())},
    ]
    try:
        rejected = api_rejects(sent)
    except (TypeError, ValueError) as exc:
        return Miss("lesson.unsendable", {"error": f"{type(exc).__name__}: {exc}"[:120]})
    return rejection_hint(rejected, sent) if rejected else None


class CourseModel(Emulator):
    """An emulator that answers every request as the course's default model, which thinks by default.

    A known model id the learner's code names is answered as ``DEFAULT_MODEL`` (an unknown one keeps
    its 404): the lesson's rules are the default model's, whatever ``HARNESS_LAB_MODEL`` picked.
    """

    def __init__(self, *args: Any, caching: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.served: list[dict] = []  # every Message answered, as JSON or as a stream (``Recording``)
        self.refused: list[tuple[str, Any]] = []  # each 400's message and the history it refused
        self.prompts_counted = 0  # the count_tokens requests (and any other that is no model request)
        self.runner = False  # a request came from the SDK's tool runner (client.beta.messages.tool_runner)
        # Prompt caching on, as a loop run with a top-level cache_control is (notebook 06): a request that
        # asks for none is cached automatically, so usage carries cache writes and reads as the API reports them.
        self.caching = caching

    def respond(self, request: Any, path: str = "/v1/messages", headers: Any = None) -> tuple[int, dict, Any]:
        if isinstance(request, dict) and request.get("model") in KNOWN_MODELS - {DEFAULT_MODEL}:
            request = {**request, "model": DEFAULT_MODEL}
        if self.caching and isinstance(request, dict) and "messages" in request and not wants_cache(request):
            request = {**request, "cache_control": {"type": "ephemeral"}}
        kept = len(self.requests)
        helper = headers.get("x-stainless-helper") if hasattr(headers, "get") else None
        self.runner = self.runner or "BetaToolRunner" in str(helper or "")  # the SDK's own loop sent it
        status, head, body = super().respond(request, path, headers)
        if path.partition("?")[0].rstrip("/") != "/v1/messages":  # count_tokens asks the model nothing:
            del self.requests[kept:]  # the checks count and read the loop's requests to the model alone
            self.prompts_counted += 1
        error = body.get("error") if status == 400 and isinstance(body, dict) else None
        if isinstance(error, dict):
            self.refused.append(
                (str(error.get("message", "")), request.get("messages") if isinstance(request, dict) else None)
            )
        return status, head, body

    def answered(self, message: dict) -> None:
        self.served.append(message)


def _essence(block: Any) -> str:
    """What of a content block the API checks when it comes back: its kind and every field it carries."""
    fields = ("type", "text", "id", "name", "input", "thinking", "signature", "data")
    return json.dumps([field(block, f) for f in fields], ensure_ascii=False, sort_keys=True, default=str)


def tool_runner(emulator: Any) -> Miss | None:
    """The SDK's tool runner asked the model: its loop, not the one the lesson writes (and the definitions
    handed to it are no functions it can run: every call comes back "Error: Tool '...' not found")."""
    return Miss("lesson.tool_runner") if getattr(emulator, "runner", False) else None


def unchanged(before: list, content: Any) -> bool:
    """Is ``content`` still the blocks ``before`` (``content_dicts`` taken earlier) held, none removed,
    reordered or edited?"""
    try:
        return [_essence(b) for b in content_dicts(content)] == [_essence(b) for b in before]
    except (TypeError, ValueError):
        return False


class Recording:
    """Each response the emulator answered the learner's loop: its content, usage and calls.

    Read at the server, not at the client: a loop that streams (``messages.stream``, ``stream=True``)
    or asks through ``with_options`` or ``with_raw_response`` receives the same responses as one that
    calls ``messages.create``, and is judged on them alike.
    """

    def __init__(self, emulator: CourseModel) -> None:
        self.emulator = emulator

    @property
    def contents(self) -> list[list[Any]]:
        return [content_dicts(m["content"]) for m in self.emulator.served]

    @property
    def usage(self) -> list[tuple[int, int]]:
        return [(m["usage"]["input_tokens"], m["usage"]["output_tokens"]) for m in self.emulator.served]

    @property
    def cached(self) -> list[int]:
        """Each response's cache writes and cache reads (prompt caching), billed beside usage."""
        kinds = ("cache_creation_input_tokens", "cache_read_input_tokens")
        return [sum(m["usage"].get(kind) or 0 for kind in kinds) for m in self.emulator.served]

    @property
    def written(self) -> list[int]:
        """Each response's cache writes alone (``cached`` less its reads)."""
        return [m["usage"].get("cache_creation_input_tokens") or 0 for m in self.emulator.served]

    @property
    def calls(self) -> list[list[str]]:
        return [
            [
                f"{b['name']}({json.dumps(b['input'], ensure_ascii=False, sort_keys=True)})"
                for b in m["content"]
                if b.get("type") == "tool_use"
            ]
            for m in self.emulator.served
        ]


def kept_whole(recording: Recording, requests: list[dict]) -> bool:
    """Did every request carry each earlier response back as its assistant message, block for block?

    A pause_turn response goes back as it is too, so the k-th assistant message of any request is the
    k-th response the loop received.
    """
    for request in requests:
        sent = [m.get("content") for m in request.get("messages", []) if m.get("role") == "assistant"]
        if len(sent) > len(recording.contents):
            return False
        if not all(unchanged(got, content) for got, content in zip(recording.contents, sent)):
            return False
    return True


def out_of_order(emulator: Any) -> Miss | None:
    """Results sent back in another order than the calls they answer (reversed, sorted, the denied ones
    last): the API pairs them by id, but the course sends one result per call, in call order."""
    sent = emulator.requests[-1].get("messages", []) if emulator.requests else []
    for asked, answered in pairwise(sent):
        if asked.get("role") != "assistant" or answered.get("role") != "user":
            continue
        calls = [b.get("id") for b in blocks(asked, "tool_use")]
        ids = [b.get("tool_use_id") for b in blocks(answered, "tool_result")]
        if sorted(map(str, ids)) == sorted(map(str, calls)) and ids != calls:
            return Miss("lesson.l6.run_agent.results_order", {"calls": len(calls)})
    return None


def runaway_guard(
    script: Callable[[dict], Any], limit: int, miss: Miss | None = None, caching: bool = False
) -> CourseModel:
    """An emulator playing ``script`` that ends the probe after ``limit`` requests (a loop that never
    stops), with ``miss`` as its hint (its values get the request ``count``), by default the generic one;
    ``caching`` turns prompt caching on (``CourseModel``)."""

    def guarded(request: dict) -> Any:
        if len(emulator.requests) > limit:
            key, values = (miss.key, miss.values) if miss else ("lesson.runaway_requests", {})
            if _trimmed(emulator.requests):  # the model never saw its own turns, so it went on asking
                key, values = "lesson.history_trimmed", {}
            abort((key, {**{k: str(v) for k, v in values.items()}, "count": str(len(emulator.requests))}))
        return script(request)

    emulator = CourseModel(guarded, caching=caching)
    return emulator


def _trimmed(requests: list[dict]) -> bool:
    """Did a request carry less history than the one before it, or lose the user's question at its head?
    A history cut to its last messages (messages[-2:]) keeps the loop going: the model cannot see it is done.
    So does one rebuilt each turn from the question and the last turn alone: as long as the one before it,
    with other messages."""
    sent = [r.get("messages") or [] for r in requests]
    first = sent[0][:1]
    return any(
        len(later) < len(earlier) or later[:1] != first or (len(later) == len(earlier) > 1 and later != earlier)
        for earlier, later in pairwise(sent)
    )


def fact(result: Any) -> dict:
    """A returned tool_result, whatever its form (dict or object), as plain facts."""
    content = field(result, "content")
    if isinstance(content, (list, tuple)):
        text: str | None = "".join(str(field(b, "text", "") or "") for b in content)
    else:
        text = content if isinstance(content, str) else None
    return {
        "type": field(result, "type"),
        "tool_use_id": field(result, "tool_use_id"),
        "text": text,
        "content": content,
        "is_error": field(result, "is_error", False) is True,
        "is_error_text": flag if isinstance(flag := field(result, "is_error", False), str) else None,
        "is_error_other": None if isinstance(flag, (bool, str)) else (flag,),  # 1, 0, None: no bool either
        "is_error_spelled": next(filter(misspelled_is_error, result), None) if isinstance(result, dict) else None,
    }


def another_apis_results(returned: Any) -> Miss | None:
    """Results in OpenAI's function-calling shape ({"role": "tool", "tool_call_id": ...}): named as that
    shape, not as the tool_result fields it lacks one by one."""
    if any(map(in_another_apis_shape, returned)):
        return Miss("lesson.rule.other_api_result")
    return None


def unflagged(facts: list[dict], key: str, **values: Any) -> Miss:
    """The miss for results that lack is_error: True, named for a flag written as text ("true") or as
    another value that is no bool (1), which is no True (the API refuses it with a 400) when that is why."""
    spelled = next((f["is_error_spelled"] for f in facts if f.get("is_error_spelled")), None)
    if spelled is not None:
        return Miss("lesson.rule.is_error_spelled", {"got": str(spelled)[:20]})
    text = next((f["is_error_text"] for f in facts if f.get("is_error_text") is not None), None)
    if text is not None:
        return Miss("lesson.rule.is_error_text", {"got": repr(text)[:20]})
    other = next((f["is_error_other"] for f in facts if f.get("is_error_other") is not None), None)
    if other is not None:
        return Miss("lesson.rule.is_error_type", {"got": repr(other[0])[:20], "error": NOT_A_FLAG})
    return Miss(key, values)


def answered(request: dict) -> int:
    """How many assistant messages a request carries: the turns a scripted model has played so far."""
    return sum(1 for m in request["messages"] if m.get("role") == "assistant")


def scripted(*replies: Any) -> Callable[[dict], Any]:
    """A model that plays ``replies`` one per turn, the last one again once they run out."""
    return lambda request: replies[min(answered(request), len(replies) - 1)]


def user_turn(messages: list) -> list:
    """The user messages after the last assistant one: one turn, as the API merges consecutive
    messages of a role (a person's text sent after the results in a message of its own is fine)."""
    turn: list = []
    for message in reversed(messages):
        if not isinstance(message, dict) or message.get("role") != "user":
            break
        turn.insert(0, message)
    return turn
