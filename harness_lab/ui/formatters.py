"""Teach IPython to draw the core's events as cards (the core stays free of UI code).

The event dataclasses live in layer 0 and must not import the UI, so instead of giving them
``_repr_html_`` methods we register HTML and plain-text formatters for their types with the
running IPython shell. Outside a kernel this does nothing.
"""

from __future__ import annotations

from typing import Any

from IPython import get_ipython  # installed with ipywidgets and ipykernel

from ..events import ApprovalRequest, Decision, Finished, Stopped, Turn, Usage
from .transcript import card

__all__ = ["EVENT_TYPES", "register_formatters"]

EVENT_TYPES = (Turn, ApprovalRequest, Finished, Stopped, Usage, Decision)


def register_formatters(shell: Any = None) -> bool:
    """Register the cards with ``shell`` (default: the running IPython). True if registered."""
    shell = shell if shell is not None else get_ipython()
    if shell is None or not hasattr(shell, "display_formatter"):
        return False
    formatters = shell.display_formatter.formatters
    for kind in EVENT_TYPES:
        formatters["text/html"].for_type(kind, lambda obj: card(obj).html)
        formatters["text/plain"].for_type(kind, lambda obj, p, cycle: p.text(card(obj).text))
    return True
