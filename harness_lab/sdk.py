"""The two SDK calls the loop makes, with the SDK's quirks handled in one place (lessons 2-4).

``send`` is ``client.messages.create``; the SDK refuses, before sending, a plain call whose
``max_tokens`` could outlast its 10-minute timeout, and the same request streamed is allowed and
ends in the same ``Message``. ``count`` asks ``count_tokens`` for a request's prompt size (the token
budget's check before sending); a client without it (or a failing one) gets ``fallback``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Request", "count", "send"]

Request = dict[str, Any]  # the keyword arguments of ``messages.create``, as JSON data


def send(client: Any, request: Request) -> Any:
    try:
        return client.messages.create(**request)
    except ValueError as exc:
        if "Streaming is required" not in str(exc):
            raise
        with client.messages.stream(**request) as stream:
            return stream.get_final_message()


def count(client: Any, request: Request, fallback: int) -> int:
    counted = {k: v for k, v in request.items() if k != "max_tokens"}
    try:
        return int(client.messages.count_tokens(**counted).input_tokens)
    except Exception:
        return fallback
