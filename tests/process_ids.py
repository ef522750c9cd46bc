"""The pid a test can look up, written from inside a limited run.

A limited run's job lives in a PID namespace of its own where the system gives one
(``harness_lab/grading/pid_namespace.py``): there ``os.getpid()`` and ``os.fork()`` answer that
namespace's numbers, which name other processes (or none) in the test's ``/proc``. ``/proc/self``
is resolved in the namespace ``/proc`` was mounted for, the test's.
"""

from __future__ import annotations

import os


def seen_pid() -> int:
    """This process's pid as the test process sees it."""
    return int(os.readlink("/proc/self")) if os.path.isdir("/proc") else os.getpid()
