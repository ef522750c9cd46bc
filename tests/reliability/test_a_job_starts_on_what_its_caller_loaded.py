"""A limited run's job loads no library of its own before learner code runs: what it needs was loaded, and the
kernel asked, in its caller, and every fork inherits it.

The job confines itself first thing (``landlock.confine``); loading libc there and asking the kernel its Landlock
version twice took 0.6 ms of CPU of every run, paid by every check of every test and every graded cell.
"""

from __future__ import annotations

import ctypes
import os

from harness_lab.grading import run_limited


def test_a_jobs_own_start_loads_no_library(monkeypatch):
    loaded: list[int] = []
    real = ctypes.CDLL

    def recording(*args, **kwargs):
        loaded.append(os.getpid())  # the list is copied into each fork: its own entries carry its pid
        return real(*args, **kwargs)

    run_limited(lambda: 1)  # the caller loads what its forks inherit; not counted
    monkeypatch.setattr(ctypes, "CDLL", recording)
    outcome = run_limited(lambda: loaded.count(os.getpid()))
    assert (outcome.status, outcome.value) == ("ok", 0)
