"""What a learner's code raised by a slip rather than by a choice, for the levels' criteria: a misspelt name,
attribute or keyword (NameError, AttributeError, an unexpected keyword), or input() in a child that has no
keyboard. A criterion that reads an exception as its own mistake (a deny raised, a cap that raises) would
name a cause the learner never chose; these are told as what they are."""

from __future__ import annotations

import re
from typing import Any

from .report import Check

__all__ = ["slip_check", "slipped"]

KEYBOARD = re.compile(r"^(OSError: \[Errno 9\] Bad file descriptor|EOFError: EOF when reading a line)")
SLIP = re.compile(r"^(NameError|AttributeError|UnboundLocalError): |^TypeError: .*unexpected keyword argument")


def slip_check(number: int, title: str, error: str) -> Check | None:
    """The fail for ``error`` (``describe_error``'s line) when a slip raised it, else None."""
    if KEYBOARD.match(error):
        return Check.fail(number, title, "grade.keyboard", error=error)
    return Check.fail(number, title, "grade.raised", error=error) if SLIP.match(error) else None


def slipped(number: int, title: str, outcome: Any) -> Check | None:
    """``slip_check`` for a child's outcome (a ``JobResult``) that ended in an error."""
    return slip_check(number, title, outcome.error or "") if outcome.status == "error" else None
