"""An exception as one line a person (or the model) can read: ``Type: message``.

Tool failures become tool_result text, an approver that breaks becomes a denial's reason, and the
Stepper's status line names the error a run raised; all three read an exception the same way.
"""

from __future__ import annotations

__all__ = ["describe"]


def describe(exc: BaseException) -> str:
    """``Type: message``; an exception whose ``__str__`` itself raises still gets its name."""
    try:
        message = str(exc)
    except Exception:
        message = ""
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__
