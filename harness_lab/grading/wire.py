"""What crosses between learner code and the grader: plain values, framed, and one-line errors.

Every message between a limited job and its caller (``sandbox.py``), between a job and the judge
(``bridge.py``) and between a grading host and the command that started it (``runner.py``) is a
pickle of plain values only: str, int, float, bool, None, bytes, and lists, tuples, sets and dicts
of them, each of exactly that type. The sending side refuses anything else (``check_plain``) and
the reading side's unpickler can build no class at all (``PlainOnly``), so nothing a learner
defined (a str subclass with its own ``__eq__``, say) comes back to run on the reading side. A
message travels as its pickle's length in ``HEADER`` bytes, then the pickle (``framed``), and every
side writes it with ``send`` and reads it with ``receive``.

``describe_error`` turns an exception into the one line a learner sees: its type, the first line of
its message and the learner's own line that raised it.
"""

from __future__ import annotations

import errno
import io
import os
import pickle
import select
import time
import traceback
from typing import Any

from ..text import t

__all__ = [
    "HEADER",
    "PlainOnly",
    "check_plain",
    "describe_error",
    "ends",
    "framed",
    "plain",
    "receive",
    "send",
    "unframed",
    "write_all",
]

# A message is prefixed with its length in this many bytes.
HEADER = 8
# Characters kept at each end of a long learner text a judge searches (``ends``): a reason, an answer.
ENDS_KEPT = 4000
_PLAIN = (str, int, float, bool, bytes, type(None))


class PlainOnly(pickle.Unpickler):
    """An unpickler that builds no class: only the plain values pickle encodes without one."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"{module}.{name} is not a plain value")


def framed(message: Any) -> bytes:
    """``message`` as it travels: its pickle's length in ``HEADER`` bytes, then the pickle."""
    payload = pickle.dumps(message)
    return len(payload).to_bytes(HEADER, "big") + payload


def unframed(payload: bytes) -> Any:
    """A framed message's pickle read back, building no class (raises for anything else)."""
    return PlainOnly(io.BytesIO(payload)).load()


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def send(fd: int, message: Any) -> None:
    """Write ``message`` framed to ``fd``, whole."""
    write_all(fd, framed(message))


def receive(fd: int, deadline: float | None = None, limit: int | None = None) -> tuple[Any, str]:
    """One framed message from ``fd`` (a pipe or a socket): (message, "whole"), or (None, why it is not).

    Why: "ended" (end of file first: the writer died, mid-message or before), "late" (``deadline``,
    monotonic, passed), "oversized" (its header announced more than ``limit`` bytes; nothing more is
    read, since only learner code writing to the channel itself sends that much) or "garbled" (no
    pickle of plain values). Without ``deadline`` it waits as long as the writer takes.
    """
    header, end = _exactly(fd, HEADER, deadline)
    if end:
        return None, end
    size = int.from_bytes(header, "big")
    if limit is not None and size > limit:
        return None, "oversized"
    payload, end = _exactly(fd, size, deadline)
    if end:
        return None, end
    try:
        return unframed(payload), "whole"
    except Exception:
        return None, "garbled"


def _exactly(fd: int, size: int, deadline: float | None) -> tuple[bytes, str]:
    """``size`` bytes from ``fd``, and ""; or b"" and "ended" or "late"."""
    chunks, got = [], 0  # joined once: adding each chunk to the rest copies the message over and over
    while got < size:
        if deadline is not None:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return b"", "late"
            if not select.select([fd], [], [], remaining)[0]:
                continue
        try:  # at most 64 KiB a read: os.read allocates all it is asked for, whatever arrives
            chunk = os.read(fd, min(size - got, 1 << 16))
        except OSError:  # a socket the other side reset
            chunk = b""
        if not chunk:
            return b"", "ended"
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks), ""


def plain(value: Any, limit: int | None = None) -> str:
    """``value`` as an exact ``str`` (a str subclass's own methods left behind), cut at ``limit``.

    Call it on the job side, on anything the learner produced that goes into a summary. A value
    that is not a str is shown with ``repr``.
    """
    if not isinstance(value, str):
        value = repr(value)
    if type(value) is not str:
        value = str.__getitem__(value, slice(None))  # str's own slice: an exact copy
    if limit is not None and len(value) > limit:
        value = value[: limit - 3] + "..."
    return value


def ends(text: str, keep: int = ENDS_KEPT) -> str:
    """``text``, or its first and last ``keep`` characters around an ellipsis when it is longer.

    Call it on the job side, on a learner's text of any length that a judge searches (for a reason, the
    model's answer): what it looks for sits at one end, and the summary carrying it stays far under the
    answer limit. A text sent whole was the grader's own summary over it, and read as tampering.
    """
    return text if len(text) <= 2 * keep + 1 else text[:keep] + "…" + text[-keep:]


def check_plain(value: Any, depth: int = 0) -> None:
    kind = type(value)
    if kind in _PLAIN:
        return
    if depth > 20 or kind not in (list, tuple, set, frozenset, dict):
        raise TypeError(f"{kind.__name__} is not a plain value")
    items = [x for pair in value.items() for x in pair] if kind is dict else value
    for item in items:
        check_plain(item, depth + 1)


def describe_error(exc: BaseException) -> str:
    """One line for an exception: type, message and, when known, the learner's line that raised it.

    Frames inside harness_lab, the SDK or the standard library are skipped, so the line named is
    the learner's own (notebook cells are registered in ``linecache`` by IPython).
    """
    kind = plain(type(exc).__name__)
    message = _api_message(exc) or _first_line(exc)
    text = f"{kind}: {message}" if message else kind
    if len(text) > 200:
        text = text[:197] + "..."
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    own = function = None
    for frame in traceback.extract_tb(exc.__traceback__):
        path = os.path.abspath(frame.filename)
        if path.startswith((here, os.path.dirname(os.__file__))) or "site-packages" in path:
            continue
        own = frame
        # Python's names for a comprehension, a lambda or a cell's top level (<listcomp>, <lambda>,
        # <module>) are no name the learner wrote: the function around them is named instead, or none.
        if not frame.name.startswith("<"):
            function = frame.name
    if own is not None and own.line:
        line = own.line.strip()
        line = line if len(line) <= 60 else line[:59] + "…"
        text += t("grade.raised_at", function=function, line=line) if function else t("grade.raised_at_line", line=line)
    if isinstance(exc, OSError) and exc.errno == errno.EFBIG:  # the job's file size limit (namespaces.FILE_LIMIT)
        import resource  # EFBIG is Unix's: so is this module

        limit = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
        if limit != resource.RLIM_INFINITY:
            text += t("grade.file_limit", mb=limit >> 20)
    return text


def _first_line(exc: BaseException) -> str:
    text = plain(str(exc)).strip()
    return text.splitlines()[0] if text else ""


def _api_message(exc: BaseException) -> str:
    """The API's own words for an SDK status error (the 400's message), without the JSON around it."""
    body = getattr(exc, "body", None)
    if type(body) is dict and type(body.get("error")) is dict:
        return plain(body["error"].get("message", ""))
    return ""
