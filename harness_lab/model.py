"""Which model the course talks to (lesson 6 uses ``claude-sonnet-5``), in one place.

``HARNESS_LAB_MODEL`` picks another for a learner's own runs; the emulator answers for the SDK's
model list either way, and the tests drop the variable so stored outputs name the default.
"""

from __future__ import annotations

import os

__all__ = ["DEFAULT_MODEL", "model_id"]

DEFAULT_MODEL = "claude-sonnet-5"


def model_id() -> str:
    """``HARNESS_LAB_MODEL`` when set, else the course's default; read at each call, not at import."""
    return os.environ.get("HARNESS_LAB_MODEL", "").strip() or DEFAULT_MODEL
