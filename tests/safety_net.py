"""A net under tests whose bug is waiting for ever: they fail after a generous time instead of hanging.

Not a measure of speed (these machines are shared and noisy, a loaded one runs ten times slower):
the tests check which path was taken from the answer itself, and the net only turns "never
returns" into a failure. Set it ten times above what the code under test may take.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gives_up_after(seconds: float, waiting_for: str) -> Iterator[None]:
    """Raise in the main thread if the block is still running after ``seconds`` (SIGALRM; forked children get no timer)."""

    def give_up(signum: int, frame: object) -> None:
        raise AssertionError(f"still waiting for {waiting_for} after {seconds} s")

    previous = signal.signal(signal.SIGALRM, give_up)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
