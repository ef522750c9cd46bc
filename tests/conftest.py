"""Settings every test shares."""

from __future__ import annotations

import signal


def pytest_configure(config) -> None:
    # A shell that starts a job in the background without job control (a CI runner's `cmd &`)
    # starts it with SIGINT ignored, and Python then keeps it ignored. Some tests press a real Ctrl-C,
    # in this process or in a command they start: they need the handler a terminal gives. A Python
    # handler goes back to the default on exec, so the commands started from here get theirs too.
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
