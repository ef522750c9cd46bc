"""Lesson 6 (notebook 05): an API error that does not clear, in the learner's whole ``run_agent``.

After the first response the API answers every request with 529 Overloaded, with the emulator's headers
(no ``retry-after``, as live). The SDK already retries it twice; the loop may let the error out, stop with
``lessons.stopped(...)``, or try again a set number of times, waiting as long as it likes. A loop that tries every error again without
end (``while True: try ... except Exception: continue``) never stops: level 2 sends its 400 again and
again, and this probe ends it after ``RETRIES`` failed requests with the hint that names it.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, SupportsIndex

from ..emulator import call, emulated_client, reply
from ..emulator.api_errors import ApiError, error_answer
from ..emulator.transport import FAULT_HEADERS
from ..grading.sandbox import abort
from ..grading.spies import Recorder
from .diagnosis import ask, outputs
from .protocol import drive
from .scenes import CourseModel, scene_tools, thought

__all__ = ["RETRIES", "api_error_ends"]

# Failed requests before the probe calls it endless: the SDK sends each create three times, so this is
# ten tries of the loop's own, more than a set number of retries needs.
RETRIES = 30
_OVERLOADED = ApiError(529, "Overloaded")


class _Overloaded(CourseModel):
    """The first request answered with a call; every one after it with 529 Overloaded."""

    def respond(self, request: Any, path: str = "/v1/messages", headers: Any = None) -> tuple[int, dict, Any]:
        if not self.requests:
            return super().respond(request, path, headers)
        self.requests.append(request)
        failed = len(self.requests) - 1
        if failed > RETRIES:
            abort(("lesson.l6.run_agent.api_error_retried", {"count": str(failed)}))
        status, head, body = error_answer(_OVERLOADED, f"req_011COverloaded{failed:08d}")
        return status, head | FAULT_HEADERS["529"], body


def _waits_pass_at_once(fn) -> None:
    """A backoff between tries passes at once here: a loop that waits and then gives up ends, however long
    its waits would be, and an endless one is still cut off at ``RETRIES``. Both ``time.sleep`` and an
    async retry's ``await asyncio.sleep(...)`` pass at once. This probe runs in a child of its own, so
    nothing else sees the change; a ``sleep`` imported by name is the function's own global."""
    real, real_async = time.sleep, asyncio.sleep

    def at_once(seconds: float | SupportsIndex) -> None:
        real(0)

    async def at_once_async(seconds: float, result: Any = None) -> Any:
        return await real_async(0, result)

    time.sleep = at_once
    asyncio.sleep = at_once_async  # type: ignore[assignment]  # typeshed's two overloads, one stand-in for both
    names = getattr(getattr(fn, "__func__", fn), "__globals__", None)
    if isinstance(names, dict):
        for name, value in list(names.items()):
            if value is real:
                names[name] = at_once
            elif value is real_async:
                names[name] = at_once_async


def api_error_ends(fn) -> None:
    """The loop meets an error that does not clear: whatever it does, it ends (an exception let out counts)."""
    _waits_pass_at_once(fn)
    emulator = _Overloaded(lambda request: reply(thought(), call("get_time")))
    impls = Recorder().tools(outputs())
    try:
        drive(fn(emulated_client(emulator), ask(), scene_tools(), impls, None))
    except NotImplementedError:  # the TODO cell as shipped: unwritten, not right
        raise
    except Exception:  # the SDK's OverloadedError let out, or a cause another point names
        pass
