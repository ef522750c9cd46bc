"""Long-lived grading workers, one per core, for a class's notebooks (issue 17).

A fresh Python per notebook spends about two seconds importing the anthropic SDK before it grades
anything. So the batch forks a few workers from its own process, which has imported the graders
already; each worker takes one task at a time and answers it. The work itself (``grade_notebook``)
forks a fresh process for the learner's code, so a worker never runs learner code and nothing a
learner does reaches the next notebook.

A worker that dies (a learner's code found it and killed it) or overruns its deadline is killed and
replaced, and its task comes back as "died" or "overdue": the batch goes on. Killing a worker also
ends what it had started: the sandbox's supervisor dies with its parent and takes the job's
process tree with it (``processes.die_with_parent``).
"""

from __future__ import annotations

import signal
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from multiprocessing import get_context
from multiprocessing.connection import Connection, wait
from typing import Any

from .sandbox import describe_error

__all__ = ["Pool"]

_STOP_WITHIN = 2.0  # seconds an idle worker gets to leave by itself at the end, before it is killed


@dataclass
class _Worker:
    process: Any
    conn: Connection
    task: Any = None
    deadline: float = 0.0


class Pool:
    """``jobs`` forked workers that each call ``work(task)`` and send back its (picklable) value.

    ``run(tasks, limit)`` yields ``(task, outcome, value)`` as each task ends, in the order they
    end: outcome "done" (``value`` is what ``work`` returned), "failed" (``work`` raised: ``value``
    is one line), "died" or "overdue" (the worker was gone, or still busy ``limit`` seconds after
    it got the task; ``value`` is None).
    """

    def __init__(self, work: Callable[[Any], Any], jobs: int) -> None:
        self.work = work
        self.jobs = max(1, jobs)
        self._context = get_context("fork")
        self._workers: list[_Worker] = []

    def run(self, tasks: Iterable[Any], limit: float) -> Iterator[tuple[Any, str, Any]]:
        todo = deque(tasks)
        try:
            while todo or self._busy():
                while todo and (self._idle() or len(self._workers) < self.jobs):
                    worker = self._idle() or self._start()
                    task = todo.popleft()
                    try:
                        worker.conn.send(task)
                    except (OSError, ValueError):  # it died while idle: the task was never started
                        self._drop(worker)
                        todo.appendleft(task)
                        continue
                    worker.task, worker.deadline = task, time.monotonic() + limit
                yield from self._collect()
        finally:
            self._stop_all()

    def _busy(self) -> list[_Worker]:
        return [w for w in self._workers if w.task is not None]

    def _idle(self) -> _Worker | None:
        return next((w for w in self._workers if w.task is None), None)

    def _start(self) -> _Worker:
        ours, theirs = self._context.Pipe()
        others = [ours] + [w.conn for w in self._workers]
        process = self._context.Process(target=_serve, args=(theirs, self.work, others), daemon=True)
        process.start()
        theirs.close()  # the worker holds its end; an EOF here then means the worker is gone
        worker = _Worker(process, ours)
        self._workers.append(worker)
        return worker

    def _collect(self) -> Iterator[tuple[Any, str, Any]]:
        """Wait for the first busy worker to answer, die or overrun; yield what ended."""
        busy = self._busy()
        if not busy:
            return
        timeout = max(0.0, min(w.deadline for w in busy) - time.monotonic())
        ready = set(wait([w.conn for w in busy] + [w.process.sentinel for w in busy], timeout))
        for worker in busy:
            if worker.conn in ready or worker.process.sentinel in ready:
                task = worker.task
                try:
                    outcome, value = worker.conn.recv() if worker.conn.poll() else ("died", None)
                except Exception:  # EOF or a message cut short: the worker died mid-answer
                    outcome, value = "died", None
                if outcome == "died":
                    self._drop(worker)
                else:
                    worker.task = None
                yield task, outcome, value
            elif time.monotonic() >= worker.deadline:
                task = worker.task
                self._drop(worker)
                yield task, "overdue", None

    def _drop(self, worker: _Worker) -> None:
        self._workers.remove(worker)
        worker.process.kill()
        worker.process.join()
        worker.conn.close()

    def _stop_all(self) -> None:
        for worker in self._workers:
            worker.conn.close()  # an idle worker reads EOF and leaves
        deadline = time.monotonic() + _STOP_WITHIN
        for worker in self._workers:
            if worker.task is not None:
                worker.process.kill()  # interrupted mid-task: its sandbox dies with it
            worker.process.join(max(0.0, deadline - time.monotonic()))
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
        self._workers = []


def _serve(conn: Connection, work: Callable[[Any], Any], others: list[Connection]) -> None:
    """A worker's life: answer tasks until the pool closes its end of the pipe."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the pool to decide, not each worker
    for other in others:  # the pool's ends of the pipes, inherited by the fork: else no EOF ever comes
        other.close()
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        try:
            reply = ("done", work(task))
        except Exception as exc:
            reply = ("failed", describe_error(exc))
        conn.send(reply)
