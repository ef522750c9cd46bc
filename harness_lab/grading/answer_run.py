"""Running a notebook's answer cells in a grading child, as the notebook's kernel would (``notebook.py``).

Each cell is compiled and run in one namespace; a cell with IPython's magics runs through IPython. The
cells share one deadline, a SIGALRM in their child (``cells_deadline``), which raises ``TooSlow`` in the
cell under way. A cell can ignore or block that signal, or be stuck in C where no handler runs: then only
the child's own limit, from outside, ends it, and the process that forked the child learns which cell it
was from ``UnderWay``, a number the child keeps in memory the two share. There too a thread of the child's
own looks at the cell's stack every ``SAMPLE`` seconds and notes whether it is recursing (one function on
the stack ``RECURSING`` times), so the hint names recursion, not a loop: a cell that raised the recursion
limit to 10^7 reaches it within seconds, and unwinding those frames then runs past both limits with no
handler run meanwhile. The timer's signal handler took those looks once, and a recursing cell that also
ignored or blocked the signal was never looked at, so it was told as a loop; a thread's look needs only
the interpreter's lock, which a recursing cell gives up as any running Python code does.

A cell that stops its own process (``SIGSTOP``, or ``SIGTSTP`` to itself or its group) stops that thread
and the timer with it, so nothing inside can tell; ``watching_stops`` looks from the process that forked
the child, at the state the kernel gives the child's pid (which the child notes in ``UnderWay``), so the
hint names the stop rather than a loop (round twenty-one's leftover).

A cell that closes or replaces the descriptors it inherited (``os.closerange``, ``os.dup2``) takes the
child's answer pipe with them, and the grade said the process "ended before it returned a result (it
exited, or used too much memory)". After each cell the child compares the pipe with the one it started
with and notes the cell in ``UnderWay`` when it is gone, so the grade names the descriptors.
"""

from __future__ import annotations

import linecache
import mmap
import os
import signal
import sys
import threading
import time
from collections import Counter
from types import FrameType
from typing import Any

from . import sandbox
from .processes import room_left

__all__ = ["TooDeep", "TooSlow", "UnderWay", "cells_deadline", "run_cell", "watching_stops"]

# The times one function is on the stack that make it recursion: no answer cell's own call nests so deep.
RECURSING = 200
SAMPLE = 0.25  # seconds between two looks at the stack of the cell under way


class TooSlow(BaseException):
    """Raised in the child when its answer cells run past their time (a learner's ``except Exception``
    cannot swallow it)."""


class TooDeep(Exception):
    """compile() gave up on a cell nested past what Python's parser or compiler takes."""


class UnderWay:
    """The number of the cell a child is running, and whether it was recursing when its time ran out, in an
    anonymous mapping its forks share with this process. The cells may write it too, and so misname only
    their own cell."""

    def __init__(self) -> None:
        # the cell's number, whether it recursed, the child's pid, the cell that cut the answer pipe off
        self._shared = mmap.mmap(-1, 25)
        self._pipe: tuple[int, int] | None = None

    def now(self, number: int) -> None:
        self._shared[:8] = number.to_bytes(8, "little", signed=True)

    def sample(self, frame: FrameType | None) -> None:
        """The timer went off in ``frame``: note whether the stack below it is a recursion."""
        seen: Counter = Counter()
        while frame is not None and seen[frame.f_code] < RECURSING:
            seen[frame.f_code] += 1
            frame = frame.f_back
        self._shared[8] = int(frame is not None)

    def begun(self) -> None:
        """In the child, before its first cell: its pid, for ``watching_stops`` to look at, and which pipe it answers on."""
        self._shared[9:17] = os.getpid().to_bytes(8, "little", signed=True)
        self._pipe = _identity(sandbox._answer_fd)

    def after(self, number: int) -> None:
        """In the child, after cell ``number``: note it if the answer pipe is no longer the one it started with
        (the first such cell: the later ones found it gone)."""
        if self._pipe is not None and not self.pipe_cut() and _identity(sandbox._answer_fd) != self._pipe:
            self._shared[17:25] = number.to_bytes(8, "little", signed=True)

    def pipe_cut(self) -> int | None:
        """The number of the cell after which the answer pipe was gone, or None."""
        number = int.from_bytes(self._shared[17:25], "little", signed=True)
        return number if number > 0 else None

    def pid(self) -> int:
        return int.from_bytes(self._shared[9:17], "little", signed=True)

    def recursing(self) -> bool:
        return self._shared[8] == 1

    def last(self) -> int | str:
        """The number last written, or "?" where no cell had started."""
        number = int.from_bytes(self._shared[:8], "little", signed=True)
        return number if number > 0 else "?"


class cells_deadline:
    """A timer for the answer cells (POSIX, the main thread: where the forked child runs); elsewhere only
    the notebook's own limit applies. With ``under_way`` a thread also samples their stack (``_Sampler``)."""

    def __init__(self, seconds: float, under_way: UnderWay | None = None) -> None:
        self.seconds, self.under_way, self.armed = seconds, under_way, False
        self.ends = 0.0
        self.sampler: _Sampler | None = None

    def __enter__(self) -> cells_deadline:
        if hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGALRM, self._fire)
            self.ends = time.monotonic() + self.seconds
            signal.setitimer(signal.ITIMER_REAL, self.seconds)  # once: a later TooSlow would land in the grader's code
            self.armed = True
            if self.under_way is not None:
                self.sampler = _Sampler.started(self.under_way)
        return self

    def _fire(self, _: int, frame: FrameType | None) -> None:
        left = self.ends - time.monotonic()
        if left > 0.01:  # the timer's own clock may run a little ahead
            signal.setitimer(signal.ITIMER_REAL, left)
            return
        raise TooSlow()

    def __exit__(self, *_: Any) -> None:
        if self.armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, signal.SIG_DFL)
        if self.sampler is not None:
            self.sampler.done.set()


class _Sampler(threading.Thread):
    """Every ``SAMPLE`` seconds, the stack of the thread that started it, noted in ``under_way``: from a thread,
    where no signal the cells ignore, block or disarm is needed for the look."""

    def __init__(self, under_way: UnderWay) -> None:
        super().__init__(name="harness_lab-stack-sample", daemon=True)
        self.under_way, self.cells, self.done = under_way, threading.get_ident(), threading.Event()

    @classmethod
    def started(cls, under_way: UnderWay) -> _Sampler | None:
        sampler = cls(under_way)
        try:
            sampler.start()
        except RuntimeError:  # no thread to be had (a process limit): the cells run unsampled, told as a loop
            return None
        return sampler

    def run(self) -> None:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})  # the cells' timer is never delivered here
        while not self.done.wait(SAMPLE):
            self.under_way.sample(sys._current_frames().get(self.cells))


class watching_stops(threading.Thread):
    """While the cells' child runs, in the process that forked it: every ``SAMPLE`` seconds for ``seconds``,
    whether the kernel has that child stopped by a signal. ``stopped`` is the last look at a live child.
    The looks end before the child's limit kills it: a stopped process that is being killed runs again
    for as long as it takes to free its memory, and a look then once saw it running (a zombie or a pid
    gone says nothing either)."""

    def __init__(self, under_way: UnderWay, seconds: float) -> None:
        super().__init__(name="harness_lab-stop-watch", daemon=True)
        self.under_way, self.done, self.stopped = under_way, threading.Event(), False
        self.until = time.monotonic() + seconds

    def __enter__(self) -> watching_stops:
        try:
            self.start()
        except RuntimeError:  # no thread to be had: a stopped cell is told as a loop, as before
            pass
        return self

    def __exit__(self, *_: Any) -> None:
        self.done.set()
        if self.is_alive():
            self.join()

    def run(self) -> None:
        while not self.done.wait(SAMPLE) and time.monotonic() < self.until:
            state = _state(self.under_way.pid())
            if state not in (None, "Z", "X"):
                self.stopped = state == "T"


def _identity(fd: int | None) -> tuple[int, int] | None:
    """The file ``fd`` is open on, as (device, inode); None where there is none."""
    try:
        info = os.fstat(fd) if fd is not None else None
    except OSError:
        return None
    return (info.st_dev, info.st_ino) if info else None


def _state(pid: int) -> str | None:
    """The one-letter state ``/proc`` gives process ``pid`` ("T": stopped by a signal), or None."""
    if pid <= 0:
        return None
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return None
    # the command name, in brackets before it, may hold any character: the state follows the last ")"
    return stat[stat.rfind(b")") + 2 :][:1].decode("ascii", "replace") or None


def run_cell(source: str, name: str, namespace: dict) -> None:
    """Run one cell's source as the kernel would: plain Python, or IPython's when it has magics."""
    linecache.cache[name] = (len(source), None, source.splitlines(True), name)  # names the line that raised
    try:
        code = compile(source, name, "exec")
    except (RecursionError, MemoryError) as exc:
        # 3.11's parser gives up on deep nesting with a MemoryError; compiling needs ~350 bytes a character, not 1000
        if isinstance(exc, MemoryError) and (room := room_left()) is not None and room < 1000 * len(source):
            raise
        raise TooDeep() from None
    except SyntaxError:
        if not any(line.lstrip().startswith(("%", "!")) for line in source.splitlines()):
            raise
        from IPython.core.interactiveshell import InteractiveShell

        shell = InteractiveShell.instance(user_ns=namespace)
        shell.run_cell(source, store_history=False, silent=True).raise_error()
        return
    exec(code, namespace)
