"""What the harness tells the learner when the model's response, or the API, ends a run (lesson 3).

``max_tokens`` and ``model_context_window_exceeded`` cut a response short, so its tool calls may be
truncated and are never run; ``refusal`` carries the model's own explanation when there is one. An
API error keeps its HTTP status and the start of its text.
"""

from __future__ import annotations

from typing import Any

from .messages import field
from .text import t

__all__ = ["abnormal_stop", "api_error_text"]


def abnormal_stop(response: Any) -> str:
    """The stop message for a response that neither finished nor asked for tools."""
    reason = field(response, "stop_reason")
    if reason == "refusal":
        details = field(response, "stop_details")
        explanation = field(details, "explanation") or field(details, "category") if details else None
        return t("stop.refusal", detail=f": {explanation}" if explanation else "")
    if reason == "max_tokens":
        return t("stop.max_tokens")
    if reason == "model_context_window_exceeded":
        return t("stop.model_context_window_exceeded")
    return t("stop.unexpected", stop_reason=reason)


def api_error_text(exc: Exception, limit: int = 500) -> str:
    """The SDK's error text with its HTTP status, short enough for a stop message.

    The SDK names the status only for JSON error bodies; a proxy's HTML error page comes as bare
    text, and can run to megabytes.
    """
    text = str(exc)
    status = getattr(exc, "status_code", None)
    if status is not None and str(status) not in text[:40]:
        text = f"HTTP {status}: {text}"
    return text if len(text) <= limit else text[:limit] + "…"
