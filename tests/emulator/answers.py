"""What two answers to the same request must share: everything but the rate-limit resets, which are
times read from the clock (``emulator/rate_limits.py``) and differ when the two straddle a second."""

from __future__ import annotations

from typing import Any


def timeless(answer: tuple[int, dict, Any]) -> tuple[int, dict, Any]:
    status, headers, body = answer
    return status, {k: v for k, v in headers.items() if not k.endswith("-reset")}, body
