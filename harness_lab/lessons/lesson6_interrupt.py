"""Lesson 6 (notebook 05): Ctrl-C pressed while a tool runs, in the learner's whole ``run_agent``.

Jupyter's ■ raises ``KeyboardInterrupt`` in the running tool (notebook 04). The loop may let it out, or
catch it and stop the run as the package's ``Run`` does; it must not turn it into one more failed result
and ask the model again, as ``except BaseException`` or a bare ``except:`` around the tools does.
"""

from __future__ import annotations

from typing import Any

from ..emulator import call, emulated_client, reply
from ..grading.sandbox import abort
from ..grading.spies import Recorder
from .diagnosis import ask, outputs
from .protocol import drive
from .scenes import runaway_guard, scene_tools, thought

__all__ = ["interrupt_stops"]


def interrupt_stops(fn) -> None:
    """A model that reads a file, and ■ pressed while read_file runs: a request after that is the miss. The
    scripted model ends the probe as it arrives, so a loop that never yields is caught too; a loop that never
    ran read_file (it refused it, say) is another point's to name."""
    pressed: list = []

    def read_file(**_: Any) -> Any:
        pressed.append(True)
        raise KeyboardInterrupt  # what ■ does to the tool that is running

    def model(request: dict) -> Any:
        if pressed:  # asked again after the tool was interrupted: the probe ends here, with its cause
            abort(("lesson.l6.run_agent.interrupt_caught", {}))
        return reply(thought(), call("read_file", path="README.md"))

    emulator = runaway_guard(model, 40)
    impls = Recorder().tools(outputs()) | {"read_file": read_file}
    try:
        drive(fn(emulated_client(emulator), ask(), scene_tools(), impls, None))
    except NotImplementedError:  # the TODO cell as shipped: unwritten, not right
        raise
    except (KeyboardInterrupt, Exception):  # let out to the person who pressed it, or a cause another point names
        pass  # returned, or caught and stopped before asking the model again: as the person wanted
