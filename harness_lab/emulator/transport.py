"""Mount the emulator under the real ``anthropic`` client (principle 1: the real SDK always).

The SDK's transport seam is ``http_client=httpx2.Client(transport=httpx2.MockTransport(handler))``:
learners call ``client.messages.create(...)`` and get real ``anthropic.types.Message`` objects, the
SDK's own retries, exceptions and stream parsing included. The handler is thin: count the HTTP
request, inject a fault if one is scheduled for it, else hand the JSON body to ``Emulator.respond``,
which always answers (a script that raises is a 500, not an exception in the SDK's transport).

The client gets an explicit dummy key and base URL, so no environment variable leaks into it and
nothing it sends can leave the process.
"""

from __future__ import annotations

import json
from typing import Any

import anthropic
import httpx2

from ..model import DEFAULT_MODEL
from .ids import make_id
from .rate_limits import input_limit
from .server import Emulator, body_bytes, error_body
from .validate import ApiError
from .wire import MAX_DEPTH, text_depth_error

__all__ = [
    "BASE_URL",
    "DUMMY_KEY",
    "emulated_async_client",
    "emulated_client",
    "emulator_of",
    "handler_for",
]

BASE_URL = "https://emulator.harness-lab.invalid"
DUMMY_KEY = "emulated-no-key"

# The live 429's text as public reports of 2026 quote it (a tier-1 organisation's Sonnet limit, 30,000;
# the emulator quotes the limit its rate-limit headers give the request's model); the live one goes on to name where
# to ask for more. ``retry-after`` is the docs' header (seconds), sent on a 429 only: live 529s come without one
# (tombii/better-ccflare #271 and anthony-chaudhary/fak #1361, 2026-06) and say ``x-should-retry: true``
# (anthropic-sdk-typescript #616), so a loop reading ``retry-after`` on an overload meets None offline as live.
# ``retry-after-ms``, which the SDK reads first, is the emulator's own: it keeps the emulated waits at a millisecond.
RATE_LIMITED = (
    "This request would exceed your organization's rate limit of {limit:,} input tokens per minute "
    "(org: 00000000-0000-4000-8000-000000000000, model: {model}). For details, refer to: "
    "https://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage. "
    "Please reduce the prompt length or the maximum tokens requested, or try again later."
)
FAULT_HEADERS = {
    "429": {"retry-after": "1", "retry-after-ms": "1"},
    "500": {"retry-after-ms": "1"},
    "529": {"retry-after-ms": "1", "x-should-retry": "true"},
}
_FAULT_ERRORS = {
    "500": ApiError(500, "Internal server error"),
    "529": ApiError(529, "Overloaded"),
}
# The errors page: a Messages or token-counting body over 32 MB is a 413 ``request_too_large``, sent
# before the request reaches the API. Inferred: the wording (the page quotes none).
MAX_BODY_BYTES = 32 * 1024 * 1024
TOO_LARGE = ApiError(413, "Request exceeds the maximum allowed number of bytes.")
_ATTRIBUTE = "_harness_lab_emulator"


def _stream_error(number: int, model: str) -> httpx2.Response:
    """A stream that starts fine (200) and then fails: ``event: error`` mid-stream, never retried; its
    data is the error body a response would carry, request id included (live reports paste it so)."""
    request_id = make_id("req_011C", f"fault-{number}".encode(), "stream_error", 21)
    start = {
        "type": "message_start",
        "message": {
            "id": make_id("msg_01", f"fault-{number}".encode(), "message"),
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": 0, "output_tokens": 1},
        },
    }
    error = error_body(_FAULT_ERRORS["529"], request_id)
    text = f"event: message_start\ndata: {json.dumps(start)}\n\nevent: error\ndata: {json.dumps(error)}\n\n"
    headers = {"request-id": request_id, "content-type": "text/event-stream; charset=utf-8"}
    return httpx2.Response(200, headers=headers, content=text.encode())


def _fault_response(fault: str, number: int, request: httpx2.Request) -> httpx2.Response:
    if fault == "stream_error":
        streaming = b'"stream":true' in request.content.replace(b" ", b"")
        if streaming:
            return _stream_error(number, _model_of(request))
        fault = "529"  # a non-streamed request cannot fail mid-stream: it is overloaded instead
    if fault == "connection":
        raise httpx2.ConnectError("emulated connection error", request=request)
    if fault == "timeout":
        raise httpx2.ReadTimeout("emulated timeout", request=request)
    if fault == "429":
        model = _model_of(request)
        error = ApiError(429, RATE_LIMITED.format(model=model, limit=input_limit(model)))
    else:
        error = _FAULT_ERRORS[fault]
    return _error_response(error, make_id("req_011C", f"fault-{number}".encode(), fault, 21), FAULT_HEADERS[fault])


def _model_of(request: httpx2.Request) -> str:
    try:
        model = json.loads(request.content).get("model")
    except (ValueError, RecursionError, AttributeError):
        model = None
    return model if isinstance(model, str) else DEFAULT_MODEL


def _error_response(error: ApiError, request_id: str, extra_headers: dict | None = None) -> httpx2.Response:
    """An error the way the real API sends one: JSON body and ``request-id`` header with the same id."""
    headers = {"request-id": request_id, "content-type": "application/json", **(extra_headers or {})}
    return httpx2.Response(error.status, headers=headers, content=body_bytes(error_body(error, request_id)))


def _too_deep(content: bytes) -> httpx2.Response:
    """A body Python's recursive ``json`` cannot read: the API's depth 400 when it nests past the
    API's limit; below it (only a raw client can send one, the SDK's own encoder stops first) the
    emulator says plainly that the limit is its own."""
    message, deepest = text_depth_error(content.decode("utf-8", "replace"))
    if message:
        return _error_response(ApiError(400, message), make_id("req_011C", content, "invalid_json", 21))
    error = ApiError(
        500,
        f"emulator: the body nests {deepest} levels deep; the real API reads up to {MAX_DEPTH}, "
        "Python's json module stops at its recursion limit",
    )
    return _error_response(error, make_id("req_011C", content, "too_deep", 21), {"x-should-retry": "false"})


def handler_for(emulator: Emulator):
    """The MockTransport handler: one HTTP request in, one response (or a transport error) out."""

    def handle(request: httpx2.Request) -> httpx2.Response:
        emulator.http_requests += 1
        fault = emulator.faults.get(emulator.http_requests)
        if fault is not None:
            return _fault_response(fault, emulator.http_requests, request)
        if len(request.content) > MAX_BODY_BYTES:
            return _error_response(TOO_LARGE, make_id("req_011C", request.content[:4096], "too_large", 21))
        try:
            body = json.loads(request.content) if request.content else {}
        except RecursionError:
            return _too_deep(request.content)
        except ValueError as exc:  # the real API quotes Python's own parse error
            error = ApiError(400, f"The request body is not valid JSON: {exc}")
            return _error_response(error, make_id("req_011C", request.content, "invalid_json", 21))
        path = request.url.raw_path.decode("ascii", "replace")  # with its query: the Models API pages by it
        status, headers, answer = emulator.respond(body, path, request.headers)
        try:
            content = body_bytes(answer)
        except (TypeError, ValueError) as exc:  # a script's reply holding what JSON cannot carry
            error = ApiError(500, f"emulator: the script's reply is not JSON: {type(exc).__name__}: {exc}")
            return _error_response(error, headers["request-id"], {"x-should-retry": "false"})
        return httpx2.Response(status, headers=headers, content=content)

    return handle


def _emulator(script_or_emulator: Any, faults: dict | None) -> Emulator:
    if isinstance(script_or_emulator, Emulator):
        script_or_emulator.add_faults(faults)
        return script_or_emulator
    return Emulator(script_or_emulator, faults=faults)


def emulated_client(
    script_or_emulator: Any = "lesson6", *, faults: dict | None = None, **client_kwargs: Any
) -> anthropic.Anthropic:
    """A real ``anthropic.Anthropic`` whose HTTP requests are answered by the emulator in-process.

    ``client_kwargs`` go to the client (``max_retries=0``, ``timeout=...``); ``emulator_of(client)``
    returns the emulator, for its ``.requests``.
    """
    emulator = _emulator(script_or_emulator, faults)
    http_client = httpx2.Client(transport=httpx2.MockTransport(handler_for(emulator)))
    client = anthropic.Anthropic(api_key=DUMMY_KEY, base_url=BASE_URL, http_client=http_client, **client_kwargs)
    setattr(client, _ATTRIBUTE, emulator)
    return client


def emulated_async_client(
    script_or_emulator: Any = "lesson6", *, faults: dict | None = None, **client_kwargs: Any
) -> anthropic.AsyncAnthropic:
    """``emulated_client`` for ``anthropic.AsyncAnthropic`` (pydantic-ai and other async callers)."""
    emulator = _emulator(script_or_emulator, faults)
    http_client = httpx2.AsyncClient(transport=httpx2.MockTransport(handler_for(emulator)))
    client = anthropic.AsyncAnthropic(api_key=DUMMY_KEY, base_url=BASE_URL, http_client=http_client, **client_kwargs)
    setattr(client, _ATTRIBUTE, emulator)
    return client


def emulator_of(client: Any) -> Emulator | None:
    """The emulator behind an emulated client (``None`` for a live one)."""
    return getattr(client, _ATTRIBUTE, None)
