"""The beta server-held thread (the SDK's ``tool_runner`` default), kept by an emulator.

``{"type": "create"}`` stores the conversation under the response id; ``{"type": "continue",
"previous_message_id": ...}`` sends only the new messages, which are appended to the stored ones.
The answer is the one the whole history would get, ids included, so a threaded run and a
resend-everything run see identical responses. A response is continued once: its entry is then
cleared, and a second continue from it is refused, as is a continue from an id no thread holds, each
with the ``error_code`` the SDK's thread helper replays the whole conversation on (its
``ThreadAlreadyContinuedError`` and ``ThreadNotFoundError``; docs/api_facts.md, "Message threads").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .api_errors import ApiError, error_answer
from .ids import digest_of, digests, make_id
from .schema import THREAD

__all__ = ["threaded"]


# The SDK's descriptions of the two errors (types/thread_*_error_details.py); the API's own wording is not public.
NOT_FOUND = "No usable Thread state was found for `previous_message_id`: {id}."
ALREADY_CONTINUED = (
    "The response that `previous_message_id` names has already been continued, and each response can be continued "
    "only once: {id}."
)


def threaded(
    create: Callable[..., tuple[int, dict, Any, dict | None]],
    threads: dict[str, dict | None],
    request: dict,
    betas: frozenset,
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
        named = thread["previous_message_id"]
        if named not in threads:
            return error_answer(ApiError(404, NOT_FOUND.format(id=named), code="thread_not_found"), request_id)
        previous = threads[named]
        if previous is None:
            refused = ApiError(400, ALREADY_CONTINUED.format(id=named), code="thread_already_continued")
            return error_answer(refused, request_id)
        fields = {**previous, **fields, "messages": previous["messages"] + list(fields.get("messages") or [])}
    both = digests(fields)
    status, headers, body, message = create(fields, both, make_id("req_011C", both[0], "request", 21), betas)
    if message is not None:
        stored = {k: v for k, v in fields.items() if k != "stream"}
        stored["messages"] = fields["messages"] + [{"role": "assistant", "content": message["content"]}]
        threads[message["id"]] = stored
        if thread["type"] == "continue":
            threads[thread["previous_message_id"]] = None
    return status, headers, body
