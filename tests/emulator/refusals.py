"""How a test reads the emulator's 400: on the wire, or raised through the SDK; either way its type is
checked here, once, and the API's message is what the test goes on to compare."""

from __future__ import annotations

from collections.abc import Callable

import anthropic
import pytest

from harness_lab.emulator import Emulator, say


def refusal(request: dict, path: str = "/v1/messages") -> str:
    """The message of the 400 the emulator answers ``request`` with, its request-id in header and body alike."""
    status, headers, answer = Emulator([say("はい")]).respond(request, path)
    assert status == 400, answer
    assert answer["error"]["type"] == "invalid_request_error"
    assert headers["request-id"] == answer["request_id"]
    return answer["error"]["message"]


def refusal_of(create: Callable[[], object]) -> str:
    """The message of the 400 that ``create()`` raises through the SDK."""
    with pytest.raises(anthropic.BadRequestError) as caught:
        create()
    assert caught.value.status_code == 400 and caught.value.type == "invalid_request_error"
    return caught.value.api_message or ""
