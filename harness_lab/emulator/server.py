"""The emulated Messages API server: ``respond(request) -> (status, headers, body)`` (lessons 2-6).

The answer is a function of the request body (and its ``anthropic-beta`` header): the request is
validated first (``validate.py``, the model table in ``models.py``, the thinking round-trip rules in
``roundtrip.py``), context management applies its edits (``context_management.py``), the script
picks the model's reply, ``tool_choice`` binds it (``tool_choice.py``), a thinking model adds its
thinking (``thinking.py``), and the reply is dressed as a complete Message with ids derived from
the request (``ids.py``) and an estimated usage (``tokens.py``). Streaming requests get the same
Message as server-sent events (``sse.py``). What an emulator keeps between requests, as a server
would: its prompt cache (``caching.py``: what is read and written depends on what came before), the
fingerprints of cache diagnostics (``cache_diagnostics.py``) and the beta server-held threads (``threads.py``); the
content of an answer never depends on them.

``respond`` never raises: whatever the body holds, the answer is a status, headers and a body. A
script that raises, or a bug of the emulator's own, is a 500 ``api_error`` with a request id, as a
server's would be; an exception escaping into the SDK's transport would look like a dropped
connection and be retried.

A *script* is either a list of replies, indexed by how many assistant messages the request already
holds (after merging consecutive same-role messages; past the end the last reply repeats), or a
policy function ``request -> reply`` that reads what came back, or a scenario name.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from . import wire
from .api_errors import error_answer, error_body, response_headers, unknown_betas
from .cache_diagnostics import Fingerprints
from .caching import PromptCache, too_many_breakpoints, ttl_error, usage, wants_cache
from .citing import cite, in_blocks
from .context_management import Managed, compacted_view, compacting, compaction_usage, counted, manage
from .history import assistant_turns
from .ids import digest_of, digests, fast_digests, make_id
from .model_list import models_answer
from .models import BINDING_BETA, PREFILL_REFUSED, dated_id, spec
from .rate_limits import rate_limit_headers
from .reading import compaction_summary, reply_language
from .replies import Reply, as_reply
from .roundtrip import history_error, turn_mode
from .scenarios import resolve_script
from .shape import billed_output, shape_reply
from .sse import encode_stream
from .strict import formatted
from .system_messages import without_system_messages
from .thinking import Mode, ToolState, make_tool_id, mode_of, sign_blocks, think, without_text_in_omitted
from .threads import threaded
from .tokens import RequestEstimate, estimate_request, in_tokenizer
from .tool_choice import obey
from .validate import ApiError, check_prompt_length, validate

__all__ = [
    "Emulator",
    "FAULTS",
    "beta_values",
    "body_bytes",
    "error_body",
    "respond",
]

# What ``faults=`` may schedule (see transport.py for how each one fails).
FAULTS = ("429", "500", "529", "connection", "timeout", "stream_error")

Script = Any  # list[Reply] | Callable[[dict], Reply | str] | str (a scenario name)


class ScriptFailed(Exception):
    """The script (a policy function, or what it returned) failed, not the emulator."""


# A 500 quotes the exception; this much of it is enough to find the bug.
MAX_EXCEPTION_TEXT = 500


def beta_values(headers: Any) -> list[str]:
    """The ``anthropic-beta`` header's values in the order sent (comma-separated, possibly repeated)."""
    if not headers:
        return []
    values = headers.get_list("anthropic-beta") if hasattr(headers, "get_list") else [headers.get("anthropic-beta")]
    return [v.strip() for value in values if value for v in value.split(",") if v.strip()]


class Emulator:
    """A scripted model behind the Messages API; keeps every request body it received.

    ``Emulator(script, faults={3: "529"})`` also fails chosen HTTP requests (1-based, retries count)
    when mounted under a client by ``emulated_client``; ``respond`` itself never fails on purpose.
    ``Emulator(cassette="run.json")`` answers recorded requests with their recorded responses.
    """

    def __init__(self, script: Script = "lesson6", *, faults: dict | None = None, cassette: Any = None) -> None:
        self.name = script if isinstance(script, str) else getattr(script, "__name__", type(script).__name__)
        self.replay = None
        if cassette is not None:
            from .cassette import Replay

            self.replay = Replay.load(cassette)
            self.name = f"cassette:{cassette}" if isinstance(cassette, str) else "cassette"
            self.script: Any = None
        else:
            self.script = resolve_script(script)
        self.faults: dict[int, str] = {}
        self.add_faults(faults)
        self.requests: list[dict] = []
        self.threads: dict[str, dict | None] = {}  # beta server-held threads, by response id
        self.cache = PromptCache()  # the prompt cache this server holds (caching.py)
        self.fingerprints = Fingerprints()  # of the requests that opted in to cache diagnostics
        self.http_requests = 0  # counted by the transport, faults included

    def add_faults(self, faults: dict | None) -> None:
        """Schedule faults by 1-based HTTP request number (the SDK's retries count as requests)."""
        for number, fault in (faults or {}).items():
            if str(fault) not in FAULTS:
                raise ValueError(f"unknown fault {fault!r}; use one of {', '.join(FAULTS)}")
            self.faults[int(number)] = str(fault)

    def __repr__(self) -> str:
        return f"Emulator({self.name!r}, requests={len(self.requests)})"

    # -- the script -------------------------------------------------------------------------
    def reply_for(self, request: dict) -> Reply:
        script = self.script
        try:
            if callable(script):
                return as_reply(script(without_system_messages(request)))
            index = min(assistant_turns(request), len(script) - 1)
            return as_reply(script[index])
        except Exception as exc:
            raise ScriptFailed() from exc

    # -- the server -------------------------------------------------------------------------
    def respond(self, request: dict, path: str = "/v1/messages", headers: Any = None) -> tuple[int, dict, Any]:
        """Answer one request body: ``(status, headers, body)``; body is a dict, or SSE text.

        ``headers`` are the HTTP request's (only ``anthropic-beta`` is read: beta parameters need their
        name there, and a name the API does not know is a 400 before the body is read).
        """
        self.requests.append(request)
        try:
            sent = beta_values(headers)
            unknown = unknown_betas(sent)
            if unknown and self.replay is None:
                request_id = make_id("req_011C", digest_of(request), "request", 21)
                return error_answer(unknown, request_id)
            return self._respond(request, path, frozenset(sent))
        except Exception as exc:
            return self._failed(request, exc)

    def _respond(self, request: Any, path: str, betas: frozenset) -> tuple[int, dict, Any]:
        path, _, query = path.partition("?")
        if self.replay is not None:
            return self.replay.answer(path, request)
        path = path.rstrip("/")
        both = fast_digests(request)
        encodable = both is not None  # the C encoder wrote it: no lone surrogate, no NaN
        digest, conversation = both if both is not None else digests(request)
        request_id = make_id("req_011C", digest, "request", 21)
        if path == "/v1/models" or path.startswith("/v1/models/"):
            answer = models_answer(path, query)
            return (
                error_answer(answer, request_id)
                if isinstance(answer, ApiError)
                else (200, response_headers(request_id), answer)
            )
        if path not in ("/v1/messages", "/v1/messages/count_tokens"):
            return error_answer(ApiError(404, "Not Found"), request_id)
        if not encodable:
            unreadable = wire.first_error(request)
            if unreadable:
                return error_answer(ApiError(400, unreadable), request_id)
            encodable = True  # walked: no lone surrogate, no NaN
        if path == "/v1/messages/count_tokens":
            return self._count_tokens(request, request_id, betas)
        if isinstance(request, dict) and isinstance(request.get("thread"), dict):
            return threaded(self._create, self.threads, request, betas)
        return self._create(request, (digest, conversation), request_id, betas, encodable)[:3]

    def _failed(self, request: Any, exc: BaseException) -> tuple[int, dict, dict]:
        """A 500 that says what broke; never retried, since the same request breaks the same way."""
        try:
            digest = digest_of(request)
        except Exception:
            digest = b""
        if isinstance(exc, ScriptFailed) and exc.__cause__ is not None:
            what, exc = "the script raised", exc.__cause__
        else:
            what = "internal error"
        text = f"emulator: {what} {type(exc).__name__}: {exc}"[:MAX_EXCEPTION_TEXT]
        request_id = make_id("req_011C", digest, "script_failed", 21)
        status, headers, body = error_answer(ApiError(500, text), request_id)
        return status, {**headers, "x-should-retry": "false"}, body

    def _create(
        self, request: dict, both: tuple, request_id: str, betas: frozenset, encodable: bool = False, dry: bool = False
    ) -> tuple[int, dict, Any, dict | None]:
        """Validate, then answer; also hands back the Message dict (None on an error)."""
        error, merged = validate(request, encodable=encodable, betas=betas)
        if error is not None:
            return (*error_answer(error, request_id), None)
        ignored = without_text_in_omitted(request)
        if ignored is not request:  # the model reads the request without that text
            request, both = ignored, digests(ignored)
            _, merged = validate(request, encodable=encodable, betas=betas)
        row = spec(request["model"])
        if request["messages"][-1]["role"] == "assistant" and not row.prefill and not self._resumes(request, betas):
            return (*error_answer(ApiError(400, PREFILL_REFUSED), request_id), None)
        mode = mode_of(request, row.thinking_default, row.display_default)
        error, dropped, mode = history_error(request, merged, row, mode, betas)
        if error is not None:
            return (*error_answer(error, request_id), None)
        mode = turn_mode(merged, row, mode, betas)
        managed = manage(request, compaction_summary)
        estimate = estimate_request(managed.request, track=wants_cache(managed.request))
        problem = too_many_breakpoints(estimate) or ttl_error(request)
        error = (
            ApiError(400, problem)
            if problem
            else check_prompt_length(in_tokenizer(estimate.total, row.tokenizer), request["model"])
        )
        if error is not None:
            return (*error_answer(error, request_id), None)
        # The preserved thinking page: "Under the beta header, every response from a thinking-capable model carries
        # `input_transformations`. It's empty when nothing was dropped"; "Without the header, the drop is silent."
        listed = dropped if BINDING_BETA in betas else None
        message = self._message(request, managed, both, estimate, mode, listed, dry)
        if isinstance(request.get("diagnostics"), dict) and not dry:
            message["diagnostics"] = self.fingerprints.answer(request, message["id"], betas)
        if not dry:
            self.answered(message)
        limits = rate_limit_headers(row.id, message["usage"])
        if request.get("stream"):
            return (
                200,
                {**response_headers(request_id, "text/event-stream; charset=utf-8"), **limits},
                encode_stream(message),
                message,
            )
        return 200, {**response_headers(request_id), **limits}, message, message

    def answered(self, message: dict) -> None:
        """Called with each Message this emulator answers, as JSON or as a stream (not the dry run that
        looks back at a paused turn); does nothing here. A subclass overrides it to record what a loop
        was served (lessons/scenes.py's ``CourseModel``); the message is the one sent: leave it as it is."""

    def _count_tokens(self, request: dict, request_id: str, betas: frozenset) -> tuple[int, dict, Any]:
        # The body was found readable by now (respond() walks it when the C encoder could not).
        error, _ = validate(request, count_tokens=True, encodable=True, betas=betas)
        if error is not None:
            return error_answer(error, request_id)
        return 200, response_headers(request_id), counted(request)

    def _content(self, request: dict, managed: Managed, digest: bytes, mode: Mode) -> tuple[Reply, list, int]:
        """The script's reply as the model sends it: bound by tool_choice, with its thinking and
        tool ids; also the thinking tokens it spent."""
        row = spec(request["model"])
        # The script reads what the model would see (cleared tool results), but past a compaction it
        # reads the whole history: a script counts its own turns there.
        compacted = compacted_view(request) is not request
        scripted = self.reply_for(request if compacted else managed.request)
        content = formatted(obey([dict(b) for b in scripted.content], request, reply_language(request)), request)
        content = cite(content, request)
        scripted = replace(scripted, content=tuple(content))  # the stop reason follows what is sent
        choice = request.get("tool_choice")
        forced = isinstance(choice, dict) and choice.get("type") in ("any", "tool")
        # Forced tool use on a model that accepts it skips adaptive thinking: the reply starts with the call.
        # A refusal with nothing before it was declined before any output, thinking included (the refusals page).
        declined = scripted.final_stop_reason == "refusal" and not content
        shown = Mode("disabled", mode.display) if forced or declined else mode
        content, thinking = think(content, request, shown, row.text_between_tools_as_thinking)
        if managed.compaction is not None:
            content = [managed.compaction] if managed.pause else [managed.compaction, *content]
        state = ToolState(mode.kind, bool(content) and content[0]["type"] in ("thinking", "redacted_thinking"))
        for index, block in enumerate(content):
            # Every call names its caller, "direct" unless the script gives one (live replies, docs/api_facts.md).
            if block["type"] == "tool_use":
                extra = {k: v for k, v in block.items() if k not in ("type", "id", "name", "input")}
                call_id = block.get("id") or make_tool_id(make_id("", digest, f"tool{index}", 13), row.family, state)
                made = {"type": "tool_use", "id": call_id, "name": block["name"], "input": block.get("input") or {}}
                content[index] = {**made, "caller": {"type": "direct"}, **extra}
            elif block["type"] == "server_tool_use":
                content[index] = {"caller": {"type": "direct"}, **block}
        return scripted, content, thinking

    def _message(
        self,
        request: dict,
        managed: Managed,
        both: tuple,
        estimate: RequestEstimate,
        mode: Mode,
        dropped: list | None,
        dry: bool = False,
    ) -> dict:
        digest, conversation = both
        row = spec(request["model"])
        warming = request["max_tokens"] == 0  # pre-warming the cache [PC]: the prompt is read, nothing made
        content: list[dict]
        if warming:
            scripted, content, thinking = Reply(), [], 0
            stop_reason, stop_sequence = "max_tokens", None
        else:
            scripted, content, thinking = self._content(request, managed, digest, mode)
        window_left = row.context_window - in_tokenizer(estimate.total, row.tokenizer)
        if managed.pause:
            stop_reason, stop_sequence = "compaction", None
        elif not warming:
            content, stop_reason, stop_sequence, thinking = shape_reply(
                content, scripted, request, thinking, window_left, row.tokenizer
            )
        billed = 0 if warming else billed_output(request, stop_reason, content, thinking, row.tokenizer)
        content = in_blocks(content)  # billed as written: splitting a cited text into blocks costs nothing
        sign_blocks(content, row.family, conversation, digest)
        stop_details = scripted.stop_details
        if stop_reason == "refusal" and stop_details is None:
            stop_details = {"type": "refusal", "category": None, "explanation": None}
        write, read = (
            self.cache.use(estimate, row.min_cacheable, row.tokenizer) if estimate.trail and not dry else (0, 0)
        )
        message: dict[str, Any] = {
            "id": make_id("msg_01", digest, "message"),
            "type": "message",
            "role": "assistant",
            "model": dated_id(request["model"]),  # an alias is answered by its dated id, as live
            "content": content,
            "stop_reason": stop_reason,
            "stop_sequence": stop_sequence,
            "stop_details": stop_details,
            "usage": usage(estimate, write, read, billed, thinking, row.tokenizer),
            "container": None,
            "diagnostics": None,
        }
        # Live replies carry server_tool_use only where a server tool was used (docs/api_facts.md, "usage");
        # a scripted result is one search.
        if any(b["type"] == "server_tool_use" or b["type"].endswith("_tool_result") for b in content):
            searches = sum(b["type"] == "web_search_tool_result" for b in content)
            message["usage"]["server_tool_use"]["web_search_requests"] = searches
        else:
            del message["usage"]["server_tool_use"]
        if request.get("inference_geo"):  # where it ran, as the request asked
            message["usage"]["inference_geo"] = request["inference_geo"]
        elif not row.inference_geo:  # a model without the parameter says so (live Haiku 4.5 replies)
            message["usage"]["inference_geo"] = "not_available"
        if not thinking and not row.output_details_without_thinking:
            del message["usage"]["output_tokens_details"]
        if request.get("speed"):  # how fast it ran: Opus 4.6 quietly runs a "fast" request at standard speed
            message["usage"]["speed"] = row.ran_at(request["speed"])
        if request.get("context_management") is not None:
            message["context_management"] = {"applied_edits": managed.applied}
        if compacting(request):
            message["usage"] = compaction_usage(message["usage"], managed, row.tokenizer)
        if dropped is not None:
            message["input_transformations"] = dropped
        return message

    def _resumes(self, request: dict, betas: frozenset) -> bool:
        """Whether the final assistant message is this emulator's own paused reply (``pause_turn``, or ``compaction``
        as the compaction page continues one) resent unchanged: answered again (dry), without touching the cache."""
        earlier = {**request, "messages": request["messages"][:-1], "stream": False}
        if not earlier["messages"]:
            return False
        message = self._create(earlier, digests(earlier), "", betas, dry=True)[3]
        final = request["messages"][-1]["content"]
        if message is None or message["stop_reason"] not in ("pause_turn", "compaction"):
            return False
        return _same(message["content"], final)


def _same(content: list, sent: Any) -> bool:
    """Whether ``sent`` is ``content`` as the SDK sends a response's content back (unset fields left out)."""
    blocks = [{"type": "text", "text": sent}] if isinstance(sent, str) else sent
    return [{k: v for k, v in b.items() if v is not None} for b in content] == [
        {k: v for k, v in b.items() if v is not None} for b in blocks
    ]


def respond(
    request: dict, script: Script = "lesson6", path: str = "/v1/messages", headers: Any = None
) -> tuple[int, dict, Any]:
    """One answer from a fresh emulator running ``script``: pure, same request -> same bytes."""
    return Emulator(script).respond(request, path, headers)


def body_bytes(body: Any) -> bytes:
    """The wire form of a ``respond`` body.

    A lone surrogate (a script may say one) cannot be UTF-8; it can only appear inside a JSON
    string, where ``backslashreplace`` writes it as the ``\\uXXXX`` escape JSON means by it.
    """
    text = body if isinstance(body, str) else json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    return text.encode("utf-8", "backslashreplace")
