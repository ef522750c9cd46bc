"""Which CPU a tool call's two threads use: the caller's, while the caller only waits.

A caller that hands its calls to worker threads sleeps until they answer. On a virtual machine a
CPU left idle is handed back to the host, and waking it (with cold caches after) costs far more
than the wait: a two-call turn took ~335 µs that way against ~130 µs when the caller and its
workers share one CPU, which then goes from one to the other without ever going idle
(docs/benchmarks.md). So while a caller waits for its calls it is pinned to the CPU it is on, and
the idle workers it wakes are pinned there first. A worker unpins itself as it takes a job, and the
caller gets its own CPUs back when its calls are answered: a long call, one abandoned past its
timeout, or parallel calls that release the GIL still run wherever the scheduler likes.

This only moves threads, so any failure is silent and turns placement off for good: without
``sched_getcpu`` / ``sched_setaffinity`` (macOS, Windows), or where the kernel refuses, threads run
where they are, as before.
"""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

__all__ = ["Placement", "Seat"]

Seat = tuple[int, set[int]]  # a waiting caller's CPU, and the CPUs it may use when not waiting


@functools.cache
def _cpu_reader() -> Callable[[], int] | None:
    if not hasattr(os, "sched_setaffinity"):
        return None
    try:
        import ctypes  # loaded at the first tool call: most imports of harness_lab never run a tool

        read = ctypes.CDLL(None, use_errno=True).sched_getcpu
    except (ImportError, OSError, AttributeError):
        return None
    read.restype, read.argtypes = ctypes.c_int, []
    return read


class Placement:
    """The pins of one worker pool. ``idle``, ``busy`` and ``gather`` expect the pool's lock held."""

    def __init__(self) -> None:
        self.on = hasattr(os, "sched_setaffinity")  # off for good at the first refusal
        self._idle: dict[int, int | None] = {}  # a waiting worker's thread id -> the CPU it is pinned to
        self._free: dict[int, set[int]] = {}  # a worker's thread id -> the CPUs it may use, as it started

    @contextmanager
    def caller_waits(self) -> Iterator[Seat | None]:
        """Pin the calling thread to its CPU until the block ends; yields that CPU and the CPUs the
        caller had before (None: not pinned)."""
        read = _cpu_reader() if self.on else None
        mask = os.sched_getaffinity(0) if read else set()
        cpu = read() if read else -1
        if cpu not in mask or not self._pin(0, {cpu}):
            yield None
            return
        try:
            yield cpu, mask
        finally:
            self._pin(0, mask)

    def started(self, seat: Seat | None) -> None:
        """On a new worker's own thread. It inherited its creator's pin, so it frees itself to the
        CPUs its creator had before pinning, and remembers them for the next unpin."""
        if not self.on:
            return
        free = seat[1] if seat else os.sched_getaffinity(0)
        self._free[threading.get_native_id()] = free
        if seat:
            self._pin(0, free)

    def idle(self) -> None:
        """On a worker's thread as it goes back to wait: not pinned until a caller gathers it."""
        if self.on:
            self._idle[threading.get_native_id()] = None

    def busy(self) -> None:
        """On a worker's thread as it takes a job: unpinned, so the job may run on any of its CPUs."""
        me = threading.get_native_id()
        if self._idle.pop(me, None) is not None:
            self._pin(me, self._free[me])

    def gather(self, seat: Seat | None) -> None:
        """On the caller's thread before it hands over a job: pin the idle workers to its CPU."""
        if seat is None or not self.on:
            return
        cpu = seat[0]
        for worker, pinned in self._idle.items():
            if pinned != cpu and cpu in self._free.get(worker, ()):
                self._idle[worker] = cpu if self._pin(worker, {cpu}) else None

    def _pin(self, thread: int, cpus: set[int]) -> bool:
        try:
            os.sched_setaffinity(thread, cpus)
            return True
        except OSError:  # refused (a sandbox, say): stop placing; threads run where they are
            self.on = False
            return False
