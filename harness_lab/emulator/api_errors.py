"""A rejection as the API words it: HTTP status, the body's ``error.type`` and ``error.message``."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ApiError", "STATUS_TYPES", "bad"]

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
