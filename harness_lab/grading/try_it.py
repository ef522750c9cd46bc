"""A notebook's try-it cell: the learner's function under ``run_limited``, with what it printed shown.

``try_limited(job)`` runs ``job()`` in a limited child like a grader's check, catches the first
``_SHOWN_CHARS`` characters it prints, and shows them after it ends, then the value it returned
(cut at ``_SHOWN_VALUE_CHARS``), or one line saying why it did not finish. Where ``os.fork`` is
missing the thread fallback prints straight into the cell.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable
from typing import Any

from ..text import t
from .processes import Sink
from .sandbox import run_limited
from .wire import describe_error, plain

__all__ = ["try_limited"]

# How much of what a try-it job prints, and of the value it returns, is shown in the cell.
_SHOWN_CHARS = 10_000
_SHOWN_VALUE_CHARS = 2_000


class _Capture(Sink):
    """A stdout/stderr stand-in that keeps the first ``limit`` characters printed and drops the rest."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.kept = io.StringIO()
        self.dropped = False

    def write(self, text: str) -> int:
        text = plain(text) if isinstance(text, str) else ""
        room = self.limit - self.kept.tell()
        self.kept.write(text[: max(room, 0)])
        self.dropped = self.dropped or len(text) > room
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def text(self) -> str:
        return self.kept.getvalue() + ("\n" + t("grade.try.cut", limit=self.limit) if self.dropped else "")


def try_limited(job: Callable[[], Any], timeout: float = 5.0) -> None:
    """A try-it cell's run: ``job()`` under ``run_limited``, then what it printed and returned, here.

    The learner's prints are caught in the child (the first ``_SHOWN_CHARS`` of them) and shown
    after it ends; a returned value other than None is printed as ``print`` would, cut at
    ``_SHOWN_VALUE_CHARS``. An exception, a timeout, too much memory or a crash ends with one line
    instead of a traceback or a hung cell.
    """
    if not hasattr(os, "fork"):  # the thread fallback prints straight into the cell already
        outcome = run_limited(job, timeout)
        shown, value, error = "", outcome.value, outcome.error
        value = None if value is None else _capped(str(value))
    else:
        outcome = run_limited(lambda: _printed_and_returned(job), timeout)
        shown, value, error = outcome.value if outcome.status == "ok" else ("", None, outcome.error)
    if shown:
        print(shown, end="" if shown.endswith("\n") else "\n")
    if error:
        print(t("grade.try.raised", error=error))
    elif outcome.status == "timeout":
        print(t("grade.try.timeout", seconds=f"{timeout:g}"))
    elif outcome.status == "memory":
        print(t("grade.try.memory", mb=outcome.value))
    elif outcome.status in ("crashed", "tampered"):
        print(t(f"grade.{outcome.status}"))
    elif value is not None:
        print(value)


def _capped(text: str) -> str:
    if len(text) <= _SHOWN_VALUE_CHARS:
        return text
    return text[:_SHOWN_VALUE_CHARS] + "\n" + t("grade.try.value_cut", limit=_SHOWN_VALUE_CHARS)


def _printed_and_returned(job: Callable[[], Any]) -> tuple[str, str | None, str]:
    """Inside the child: run ``job`` with its prints caught; (printed, returned as text or None, error)."""
    caught = _Capture(_SHOWN_CHARS)
    sys.stdout = sys.stderr = caught
    try:
        value = job()
        returned = None if value is None else _capped(plain(str(value)))
    except MemoryError:
        raise  # the job's own handler names the cap
    except BaseException as exc:  # the prints before the exception are worth showing too
        return caught.text(), None, describe_error(exc)
    return caught.text(), returned, ""
