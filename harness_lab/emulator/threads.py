"""The beta server-held thread (the SDK's ``tool_runner`` default), kept by an emulator.

``{"type": "create"}`` stores the conversation under the response id; ``{"type": "continue",
"previous_message_id": ...}`` sends only the new messages, which are appended to the stored ones.
The answer is the one the whole history would get, ids included, so a threaded run and a
resend-everything run see identical responses.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .api_errors import ApiError, error_answer
from .ids import digest_of, digests, make_id
from .schema import THREAD

__all__ = ["threaded"]


def threaded(
    create: Callable[..., tuple[int, dict, Any, dict | None]], threads: dict[str, dict], request: dict, betas: frozenset
) -> tuple[int, dict, Any]:
    """Answer a request that carries ``thread``, storing the conversation for the next one in ``threads``.

    ``create`` is the emulator's own answer to a whole request (``Emulator._create``)."""
    thread = request["thread"]
    fields = {k: v for k, v in request.items() if k != "thread"}
    problem = THREAD.check(thread, ("thread",))
    if problem or thread["type"] == "continue":
        request_id = make_id("req_011C", digest_of(request), "request", 21)
        if problem:
            return error_answer(ApiError(400, problem.text()), request_id)
        previous = threads.get(thread["previous_message_id"])
        if previous is None:
            missing = ApiError(404, f"thread.previous_message_id: {thread['previous_message_id']}")
            return error_answer(missing, request_id)
        fields = {**previous, **fields, "messages": previous["messages"] + list(fields.get("messages") or [])}
    both = digests(fields)
    status, headers, body, message = create(fields, both, make_id("req_011C", both[0], "request", 21), betas)
    if message is not None:
        stored = {k: v for k, v in fields.items() if k != "stream"}
        stored["messages"] = fields["messages"] + [{"role": "assistant", "content": message["content"]}]
        threads[message["id"]] = stored
    return status, headers, body
