"""Settings every test shares."""

from __future__ import annotations

import os
import signal

import pytest

import tests.examples  # noqa: F401 (loads the hypothesis profile HARNESS_LAB_EXAMPLES names, before any test module)


def pytest_configure(config) -> None:
    # A shell that starts a job in the background without job control (a CI runner's `cmd &`)
    # starts it with SIGINT ignored, and Python then keeps it ignored. Some tests press a real Ctrl-C,
    # in this process or in a command they start: they need the handler a terminal gives. A Python
    # handler goes back to the default on exec, so the commands started from here get theirs too.
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(autouse=True)
def _no_language_chosen_in_process():
    """``hl.use_language`` is this process's state (and its environment's): a test that runs a
    notebook's setup cell in-process must not pass its choice on to the next test."""
    from harness_lab import text

    before = os.environ.get("HARNESS_LAB_LANG")
    text._chosen = None
    yield
    text._chosen = None
    if before is None:
        os.environ.pop("HARNESS_LAB_LANG", None)
    else:
        os.environ["HARNESS_LAB_LANG"] = before
