"""Level 2, criterion 3: Ctrl-C pressed while a tool runs stops the learner's loop.

Jupyter's ■ raises ``KeyboardInterrupt`` in the running tool (notebook 04; lesson 6's check and level 1's
criterion 3 ask the same). The exercise's ``run_tool_uses`` catches ``Exception`` only, so the interrupt
reaches ``run_agent``; the loop may let it out, or catch it and return a stop message. A ``try`` around
``run_tool_uses`` with ``except BaseException``, a bare ``except:`` or ``except KeyboardInterrupt`` that
goes on makes a loop a person cannot stop: only MAX_TURNS ends it. The grader's side sees that as a model
request, or a tool run, after the interrupt.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..emulator import Emulator, call, say
from ..emulator.transport import handler_for
from .bridge import Stop, bridged_client, observe, serve_http
from .level2_scene import TOOL_NAMES, said
from .sandbox import plain
from .scenarios import tool_defs
from .spies import remote_tools

__all__ = ["interrupt_caught"]

PRESSED = "read_file"  # the tool running when ■ is pressed


class _Pressed:
    """The grader's side: the model and the spy tools, and whether anything went on after the interrupt."""

    def __init__(self) -> None:
        emulator = Emulator([call(PRESSED, path="README.md"), say(said("answer"))])
        self.model, self.pressed = serve_http(handler_for(emulator)), False

    def answer(self, message: tuple) -> Any:
        kind, _, *rest = message
        if self.pressed:  # a request or a tool run after ■: the loop went on
            raise Stop({"caught": True})
        if kind == "impl":
            self.pressed = plain(rest[0]) == PRESSED
            return ""
        if kind != "http":
            raise ValueError(f"no spy answers {kind!r} here")
        return self.model(*rest)


def _pressed_run(run_agent: Callable, task: str) -> dict:
    """In the child: the loop run once, with ■ pressed while ``read_file`` runs."""
    impls = remote_tools("tools", TOOL_NAMES)
    spy = impls[PRESSED]

    def pressed(*args: Any, **kwargs: Any) -> Any:
        spy(*args, **kwargs)  # the grader notes that it started
        raise KeyboardInterrupt  # what ■ does to the tool that is running

    impls[PRESSED] = pressed
    tools = [d for d in tool_defs() if d["name"] in TOOL_NAMES]
    return {"returned": plain(run_agent(bridged_client("model"), task, tools, impls), 60)}


def interrupt_caught(learner: Callable[[], tuple], timeout: float) -> bool:
    """Did the loop go on (ask the model, or run a tool) after Ctrl-C was pressed while a tool ran?"""
    scene = _Pressed()
    outcome = observe(lambda: _pressed_run(learner()[1], said("task")), scene.answer, timeout)
    return outcome.status == "aborted" and outcome.value == {"caught": True}
