"""What a grading host checks it still has after every call: its limits, priority, CPUs and I/O class.

Each notebook a host grades is forked from it and inherits all of these, so one notebook that
changed them (a memory limit at the host's own size, a process limit of 8, a nice of 19, one CPU,
the idle I/O class) would change the grading of every notebook after it on that worker: a right
answer failed for memory, or the grader's own failure. The sandbox keeps learner code from them (a
PID namespace per notebook, a seccomp filter); this is the check behind both, and the one there is
without the sandbox, where learner code runs as the host's own user. ``host.py`` takes a
``snapshot`` when it is ready and compares one after every call: a host whose state moved says so
instead of answering and ends, and the runner grades that notebook again on a fresh host
(``batch.py``).
"""

from __future__ import annotations

import ctypes
import os
from typing import Any

from .syscall_filter import number

__all__ = ["changed", "snapshot"]

_IOPRIO_WHO_PROCESS = 1


def snapshot() -> dict[str, Any]:
    """This process's limits and scheduling, as plain values (what the platform can tell)."""
    state: dict[str, Any] = {}
    try:
        import resource
    except ImportError:  # Windows: no forked notebooks, nothing to inherit
        return state
    for name in sorted(n for n in dir(resource) if n.startswith("RLIMIT_")):
        try:
            state[name] = resource.getrlimit(getattr(resource, name))
        except (OSError, ValueError):
            continue
    state["nice"] = os.getpriority(os.PRIO_PROCESS, 0)
    if hasattr(os, "sched_getscheduler"):
        state["policy"] = (os.sched_getscheduler(0), os.sched_getparam(0).sched_priority)
    if hasattr(os, "sched_getaffinity"):
        state["cpus"] = sorted(os.sched_getaffinity(0))
    ioprio_get = number("ioprio_get")
    if ioprio_get is not None:
        state["io"] = ctypes.CDLL(None, use_errno=True).syscall(ioprio_get, _IOPRIO_WHO_PROCESS, 0)
    return state


def changed(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """The names whose values differ between two snapshots."""
    return sorted(name for name in before.keys() | after.keys() if before.get(name) != after.get(name))
