"""A rejection as the API words it: HTTP status, the body's ``error.type`` and ``error.message``."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ApiError", "STATUS_TYPES", "bad", "error_answer", "error_body", "response_headers"]

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

    @property
    def error_type(self) -> str:
        return self.type or STATUS_TYPES.get(self.status, "api_error")


def bad(message: str) -> ApiError:
    """The usual rejection: a 400 ``invalid_request_error``."""
    return ApiError(400, message)


def error_body(error: ApiError, request_id: str) -> dict:
    """The API's error body: ``{"type": "error", "error": {type, message}, "request_id"}``."""
    return {
        "type": "error",
        "error": {"type": error.error_type, "message": error.message},
        "request_id": request_id,
    }


def response_headers(request_id: str, content_type: str = "application/json") -> dict:
    """What every answer carries: the ``request-id`` header (the SDK reads it) and its content type."""
    return {"request-id": request_id, "content-type": content_type}


def error_answer(error: ApiError, request_id: str) -> tuple[int, dict, dict]:
    """A rejection as ``respond`` answers it: ``(status, headers, body)``."""
    return error.status, response_headers(request_id), error_body(error, request_id)
