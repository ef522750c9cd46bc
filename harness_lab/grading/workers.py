"""Grading hosts, one per core, for a class's notebooks (issue 17; sandboxed since issue 24).

A fresh Python spends seconds importing the anthropic SDK before it grades anything, so each
worker is a long-lived grading host (``host.py``, started through ``runner.Host``) that imports the
graders once and then grades one notebook at a time, each in a limited child with a private folder
(in the sandbox: namespaces of its own). The pool sends each host a ``Call`` and waits on all of
them at once, here in the command's process.

A host that dies or overruns its deadline is killed (with the sandbox and everything in it) and
replaced, and its task comes back as "died" or "overdue": the batch goes on, within its limits
whatever one notebook does. In the sandbox learner code can reach neither the hosts nor this
process (its own process namespace), so either outcome is the grader's failure, not the learner's.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterable, Iterator
from multiprocessing.connection import wait
from typing import Any

from .adopted import end_adopted
from .isolation import Launch
from .runner import Call, Host, HostAltered, HostFailed

__all__ = ["Pool"]


class Pool:
    """``jobs`` grading hosts started as ``launch`` says.

    ``run(tasks, limit)`` takes ``(key, Call)`` pairs and yields ``(key, outcome, value)`` as each
    ends, in the order they end: outcome "done" (``value`` is the call's ``JobResult``), "died"
    (the host was gone, or could not be started: ``value`` says why), "altered" (the call changed its
    host's limits or scheduling, ``runner.HostAltered``: its outcome is void, the host replaced) or
    "overdue" (its host still had not answered ``limit`` seconds after it got the call). ``SandboxUnavailable`` from the first
    hosts' start (the sandbox failed its probe) propagates: no learner code ran.
    """

    def __init__(self, launch: Launch, jobs: int) -> None:
        self.launch = launch
        self.jobs = max(1, jobs)
        self._hosts: dict[int, Host] = {}  # slot -> its running host
        self._busy: dict[int, tuple[Any, float]] = {}  # slot -> (key, deadline)

    def run(self, tasks: Iterable[tuple[Any, Call]], limit: float) -> Iterator[tuple[Any, str, Any]]:
        todo = deque(tasks)
        try:
            self._start_all(min(self.jobs, len(todo)))
            while todo or self._busy:
                for slot in sorted(self._hosts.keys() - self._busy.keys()):
                    if not todo:
                        break
                    key, call = todo.popleft()
                    try:
                        self._hosts[slot].submit(call)
                    except HostFailed:  # it died while idle: the call was never started
                        self._drop(slot)
                        todo.appendleft((key, call))
                        continue
                    self._busy[slot] = (key, time.monotonic() + limit)
                yield from self._refill(todo)
                yield from self._collect()
        finally:
            for slot in list(self._hosts):
                self._hosts.pop(slot).close()
            end_adopted()

    def _start_all(self, count: int) -> None:
        """Start ``count`` hosts at once (their imports run side by side), then wait for each."""
        hosts = {slot: Host(self.launch, slot) for slot in range(count)}
        try:
            for host in hosts.values():
                host.start()
        except BaseException:
            for host in hosts.values():
                host.kill()
            raise
        self._hosts = hosts

    def _refill(self, todo: deque) -> Iterator[tuple[Any, str, Any]]:
        """Replace hosts that died, while there is work for them; a host that cannot start fails one task."""
        for slot in range(self.jobs):
            if slot in self._hosts or not todo:
                continue
            try:
                host = Host(self.launch, slot)
                host.start()
            except Exception as exc:  # the machine refuses a new host now: this task cannot be graded
                key, _ = todo.popleft()
                yield key, "died", str(exc)
                continue
            self._hosts[slot] = host

    def _collect(self) -> Iterator[tuple[Any, str, Any]]:
        """Wait for the first busy host to answer, die or overrun; yield what ended."""
        if not self._busy:
            return
        timeout = max(0.0, min(deadline for _, deadline in self._busy.values()) - time.monotonic())
        ready = set(wait([self._hosts[slot].fileno() for slot in self._busy], timeout))
        for slot, (key, deadline) in list(self._busy.items()):
            host = self._hosts[slot]
            if host.fileno() in ready:
                del self._busy[slot]
                try:
                    outcome = host.result(time.monotonic() + 1.0)
                except HostFailed as exc:
                    self._drop(slot)
                    yield key, "altered" if isinstance(exc, HostAltered) else "died", str(exc)
                    continue
                self._end_left()  # before anything else is graded, here or on the other hosts
                yield key, "done", outcome
            elif time.monotonic() >= deadline:
                del self._busy[slot]
                self._drop(slot)
                yield key, "overdue", None

    def _drop(self, slot: int) -> None:
        host = self._hosts.pop(slot, None)
        if host is not None:
            host.kill()
            self._end_left()

    def _end_left(self) -> None:
        """End what learner code left behind its host, come to this process once what ran it was gone
        (``adopted.py``): it would kill the next notebook's judge or host. The hosts still at work stay."""
        end_adopted(keep=[host.process.pid for host in self._hosts.values()])
