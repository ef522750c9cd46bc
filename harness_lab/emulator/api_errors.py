"""A rejection as the API words it: HTTP status, the body's ``error.type`` and ``error.message``."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import get_args

__all__ = ["ApiError", "STATUS_TYPES", "bad", "error_answer", "error_body", "response_headers", "unknown_betas"]

STATUS_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    504: "timeout_error",
    529: "overloaded_error",
}


@dataclass(frozen=True)
class ApiError:
    """A rejection: HTTP status, the body's ``error.type`` and the exact ``error.message``."""

    status: int
    message: str
    type: str = ""
    code: str = ""  # error.details.error_code, where the API names the cause (the SDK picks its exception by it)

    @property
    def error_type(self) -> str:
        return self.type or STATUS_TYPES.get(self.status, "api_error")


def bad(message: str) -> ApiError:
    """The usual rejection: a 400 ``invalid_request_error``."""
    return ApiError(400, message)


def error_body(error: ApiError, request_id: str) -> dict:
    """The API's error body: ``{"type": "error", "error": {details, type, message}, "request_id"}``.

    ``details`` is null unless a code names the cause: live bodies of 2026 carry the key either way
    (docs/api_facts.md, "Checked on 2026-12-07 (round two)").
    """
    details = {"error_code": error.code} if error.code else None
    body = {"details": details, "type": error.error_type, "message": error.message}
    return {"type": "error", "error": body, "request_id": request_id}


def response_headers(request_id: str, content_type: str = "application/json") -> dict:
    """What every answer carries: the ``request-id`` header (the SDK reads it) and its content type."""
    return {"request-id": request_id, "content-type": content_type}


def error_answer(error: ApiError, request_id: str) -> tuple[int, dict, dict]:
    """A rejection as ``respond`` answers it: ``(status, headers, body)``."""
    return error.status, response_headers(request_id), error_body(error, request_id)


@cache
def _beta_names() -> frozenset | None:
    """The beta names the installed SDK lists (``AnthropicBetaParam``: "Beta names you can send in the
    ``anthropic-beta`` header"), read from its type so a newer SDK brings its new betas along; None
    (every name taken) for an SDK without the list."""
    try:
        from anthropic.types.anthropic_beta_param import AnthropicBetaParam
    except ImportError:
        return None
    names = frozenset(name for part in get_args(AnthropicBetaParam) for name in get_args(part) if isinstance(name, str))
    return names or None


def unknown_betas(sent: list[str]) -> ApiError | None:
    """The API's 400 for ``anthropic-beta`` values it does not know, named in the order sent.

    The Beta headers page (https://platform.claude.com/docs/en/api/beta-headers, "Error handling"): an
    invalid or unavailable beta header gets an error response. The text is the live one as public
    reports quote it (anthropics/claude-code #46105, request id ``req_011CZudNPFEcZGR8Ace3tPTm``;
    several values: QuantumNous/new-api #2975). A beta the live API still takes but the SDK's list
    lacks would be refused here: none of the course's is.
    """
    known = _beta_names()
    unknown = [name for name in dict.fromkeys(sent) if known is not None and name not in known]
    if not unknown:
        return None
    names = ", ".join(f"`{name}`" for name in unknown)
    return bad(
        f"Unexpected value(s) {names} for the `anthropic-beta` header. "
        "Please consult our documentation at docs.claude.com or try again without the header."
    )
