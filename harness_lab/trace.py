"""Record a run to a JSON cassette, replay it offline (lesson 6: show a live run without a key).

``recording_client("run.json")`` is a live client whose transport writes every request body and
response body it sees to a cassette (after each request, so a crash still leaves one). Only bodies
are stored plus the ``request-id`` / ``content-type`` response headers: no request headers, so no
``authorization`` or ``x-api-key``; and every secret string the recorder knows (the client's key,
``ANTHROPIC_API_KEY``, ``ANTHROPIC_AUTH_TOKEN``) is scrubbed before it is stored (``scrub``: both
spellings, and across a stream's deltas, where a key can arrive cut in two).

``replay_client("run.json")`` answers the same requests with the recorded responses, exactly
(``Emulator(cassette=...)``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import anthropic
import httpx2

from .emulator.cassette import CASSETTE_VERSION
from .emulator.server import Emulator
from .emulator.transport import emulated_async_client, emulated_client
from .scrub import scrub, scrub_stream, secret_spellings
from .text import t

__all__ = [
    "AsyncRecordingTransport",
    "Cassette",
    "RecordingTransport",
    "recording_async_client",
    "recording_client",
    "replay_async_client",
    "replay_client",
]

KEPT_RESPONSE_HEADERS = ("request-id", "content-type")
SECRET_VARIABLES = ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN")


class Cassette:
    """The interactions recorded so far, written to ``path`` with every secret scrubbed."""

    def __init__(self, path: str | os.PathLike[str], secrets: Iterable[str | None] = ()) -> None:
        self.path = Path(path)
        env = (os.environ.get(name) for name in SECRET_VARIABLES)
        # Longest first, so a secret that contains another is scrubbed whole.
        self._secrets = secret_spellings({s for s in (*secrets, *env) if s})
        self.interactions: list[dict[str, Any]] = []

    def __repr__(self) -> str:  # never shows a secret
        return f"Cassette({str(self.path)!r}, interactions={len(self.interactions)})"

    def add(self, request: httpx2.Request, response: httpx2.Response) -> None:
        try:
            body: Any = json.loads(request.content) if request.content else {}
        except ValueError:
            body = request.content.decode("utf-8", "replace")
        content_type = response.headers.get("content-type", "")
        text = response.content.decode("utf-8", "replace")
        answer: Any = text
        if "json" in content_type:
            try:
                answer = json.loads(text)
            except ValueError:
                pass
        elif "event-stream" in content_type:
            answer = scrub_stream(text, self._secrets)
        headers = {k: response.headers[k] for k in KEPT_RESPONSE_HEADERS if k in response.headers}
        interaction = {
            "request": {"method": request.method, "path": request.url.path, "body": body},
            "response": {"status": response.status_code, "headers": headers, "body": answer},
        }
        self.interactions.append(scrub(interaction, self._secrets))
        self.save()

    def dumps(self) -> str:
        text = json.dumps(
            {"version": CASSETTE_VERSION, "interactions": self.interactions}, ensure_ascii=False, indent=1
        )
        return scrub(text, self._secrets)  # a last pass over the written text: nothing stored escapes it

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(self.dumps(), encoding="utf-8")


class RecordingTransport(httpx2.BaseTransport):
    """Wraps a transport; every response passes through unchanged and lands in the cassette."""

    def __init__(self, inner: httpx2.BaseTransport, cassette: Cassette) -> None:
        self.inner = inner
        self.cassette = cassette

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        request.read()
        response = self.inner.handle_request(request)
        response.read()  # a recorded stream is stored whole; the client still parses it as SSE
        self.cassette.add(request, response)
        return response

    def close(self) -> None:
        self.inner.close()


class AsyncRecordingTransport(httpx2.AsyncBaseTransport):
    """``RecordingTransport`` for ``AsyncAnthropic``."""

    def __init__(self, inner: httpx2.AsyncBaseTransport, cassette: Cassette) -> None:
        self.inner = inner
        self.cassette = cassette

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        await request.aread()
        response = await self.inner.handle_async_request(request)
        await response.aread()
        self.cassette.add(request, response)
        return response

    async def aclose(self) -> None:
        await self.inner.aclose()


def _key(api_key: str | None) -> str:
    key = api_key or os.environ.get("ANTHROPIC_API_KEY")
    if not key:
        raise RuntimeError(t("usage.record_needs_key"))
    return key


def recording_client(
    path: str | os.PathLike[str],
    *,
    api_key: str | None = None,
    transport: httpx2.BaseTransport | None = None,
    base_url: str = "https://api.anthropic.com",
    **client_kwargs: Any,
) -> anthropic.Anthropic:
    """A client (live by default) whose traffic is recorded to the cassette at ``path``.

    ``transport`` replaces the network (tests wrap an emulated transport); ``client.cassette`` is the
    recording.
    """
    key = _key(api_key)
    cassette = Cassette(path, secrets=[key])
    inner = transport if transport is not None else httpx2.HTTPTransport()
    http_client = httpx2.Client(transport=RecordingTransport(inner, cassette))
    client = anthropic.Anthropic(api_key=key, base_url=base_url, http_client=http_client, **client_kwargs)
    client.cassette = cassette  # type: ignore[attr-defined]  # the recording rides on the SDK's client
    return client


def recording_async_client(
    path: str | os.PathLike[str],
    *,
    api_key: str | None = None,
    transport: httpx2.AsyncBaseTransport | None = None,
    base_url: str = "https://api.anthropic.com",
    **client_kwargs: Any,
) -> anthropic.AsyncAnthropic:
    """``recording_client`` for ``AsyncAnthropic``."""
    key = _key(api_key)
    cassette = Cassette(path, secrets=[key])
    inner = transport if transport is not None else httpx2.AsyncHTTPTransport()
    http_client = httpx2.AsyncClient(transport=AsyncRecordingTransport(inner, cassette))
    client = anthropic.AsyncAnthropic(api_key=key, base_url=base_url, http_client=http_client, **client_kwargs)
    client.cassette = cassette  # type: ignore[attr-defined]  # the recording rides on the SDK's client
    return client


def replay_client(path: str | os.PathLike[str] | dict[str, Any], **client_kwargs: Any) -> anthropic.Anthropic:
    """An offline client that answers recorded requests with their recorded responses."""
    return emulated_client(Emulator(cassette=str(path) if not isinstance(path, dict) else path), **client_kwargs)


def replay_async_client(
    path: str | os.PathLike[str] | dict[str, Any], **client_kwargs: Any
) -> anthropic.AsyncAnthropic:
    return emulated_async_client(Emulator(cassette=str(path) if not isinstance(path, dict) else path), **client_kwargs)
