"""Lesson 6 (notebook 05): an API error that does not clear, in the learner's whole ``run_agent``.

After the first response the API answers every request with 529 Overloaded. The SDK already retries it
twice (with the ``retry-after`` the API sends); the loop may let the error out, stop with
``lessons.stopped(...)``, or try again a set number of times. A loop that tries every error again without
end (``while True: try ... except Exception: continue``) never stops: level 2 sends its 400 again and
again, and this probe ends it after ``RETRIES`` failed requests with the hint that names it.
"""

from __future__ import annotations

from typing import Any

from ..emulator import call, emulated_client, reply
from ..emulator.api_errors import ApiError, error_answer
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
# What the live 529 carries: the SDK waits as the API asks (a millisecond here) before its own retry.
_RETRY_AFTER = {"retry-after": "1", "retry-after-ms": "1"}


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
        return status, head | _RETRY_AFTER, body


def api_error_ends(fn) -> None:
    """The loop meets an error that does not clear: whatever it does, it ends (an exception let out counts)."""
    emulator = _Overloaded(lambda request: reply(thought(), call("get_time")))
    impls = Recorder().tools(outputs())
    try:
        drive(fn(emulated_client(emulator), ask(), scene_tools(), impls, None))
    except NotImplementedError:  # the TODO cell as shipped: unwritten, not right
        raise
    except Exception:  # the SDK's OverloadedError let out, or a cause another point names
        pass
