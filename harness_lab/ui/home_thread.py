"""A panel's clicks are handled on the thread that made the panel, one after another.

JupyterLab 4.6 can send widget messages over kernel subshells (its setting "Kernel Comms over
subshells", on by default), and ipykernel 7 then runs some widgets' handlers on a subshell's own
thread, beside the main thread where the panel was made, its paced turns tick and other widgets'
updates arrive. A 「拒否」 click was handled there before the reason typed just before it had
arrived on the main thread (a browser run under load lost 1 typed reason in 15), and two clicks
could change one run at once. The course's JupyterLab turns the setting off (``dev.LAB_SETTINGS``,
the hub's overrides), so each message is handled in the order it was sent. Elsewhere, a handler that
finds itself on another thread hands its work to the panel's own event loop, in the context the panel
was made in: ipykernel sends a widget's next messages to the shell whose message was being answered
when the kernel last spoke for that widget, so the widgets the panel draws stay on the main shell and
their messages keep their order there (the setting left on: 30 of 30 typed reasons kept under the
same load; handed home without that context, 1 in 30 was still lost).
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
from collections.abc import Callable
from typing import Any

__all__ = ["HomeThread"]


class HomeThread:
    """The thread and event loop a panel was made on; ``call`` runs work there."""

    def __init__(self) -> None:
        self.thread = threading.current_thread()
        # The kernel answers a widget on the shell that last spoke for it: work done in this context
        # keeps the panel's widgets on the main shell, where their messages keep their order.
        self.context = contextvars.copy_context()
        try:
            self.loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:  # headless (tests, scripts): every call comes from this thread
            self.loop = None

    def call(self, action: Callable[..., Any], *args: Any) -> Any:
        """``action(*args)`` now if this is the home thread, else queued on its loop (returns None)."""
        if self.loop is None or threading.current_thread() is self.thread:
            return action(*args)
        self.loop.call_soon_threadsafe(lambda: action(*args), context=self.context)
        return None
