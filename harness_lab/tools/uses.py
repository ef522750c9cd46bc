"""Lesson 6's ``runToolUses``: a tool_result for every tool_use of a response, in call order.

The lesson's function walks the response's tool_use blocks, asks the approval valve right before
a high-impact call would run, runs the call, and wraps a failure as an ``is_error`` result so the
model can try another way. This one does the same, with three differences a real harness needs:
the calls that may run are run together, in parallel, each with a timeout (``execution.py``); a
fork answers a call that already ran from its record instead of running it twice (``fork.py``);
and a Ctrl-C while calls run still answers every call, so the turn can be kept.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

from ..errors import describe
from ..events import ApprovalRequest
from ..fork import Record
from ..messages import tool_calls, tool_result
from ..text import t
from .definition import Tool
from .execution import Limits, answer_calls

__all__ = ["Approve", "ToolsFailed", "ToolsInterrupted", "run_tool_uses"]

# Valve 4 for one call, right before it would run: returns None to run it, or the is_error
# tool_result that refuses it; it may first yield an ApprovalRequest and wait for the answer.
Approve = Callable[[dict[str, Any], Tool], Generator[ApprovalRequest, Any, dict[str, Any] | None]]


class ToolsInterrupted(KeyboardInterrupt):
    """Ctrl-C arrived while calls were running; ``results`` answers every call of the turn.

    Calls that finished keep their real result; the others get an ``is_error`` result saying they
    were interrupted. The loop records these instead of forgetting them, so a resumed run never
    repeats a call whose effect (a write, a post) has already happened.
    """

    def __init__(self, results: list[dict[str, Any]]):
        super().__init__()
        self.results = results


class ToolsFailed(Exception):
    """Something other than a tool failed after calls had started (``cause``); ``results`` as above."""

    def __init__(self, results: list[dict[str, Any]], cause: BaseException):
        super().__init__(describe(cause))
        self.results, self.cause = results, cause


def run_tool_uses(
    content: Any,
    tools: dict[str, Tool],
    approve: Approve | None = None,
    record: Record | None = None,
    limits: Limits | None = None,
) -> Generator[ApprovalRequest, Any, list[dict[str, Any]]]:
    """The tool_result of every tool_use in ``content``, in call order.

    ``approve`` is valve 4 (``Approve`` above; none: every call may run). ``record`` is what the run
    already knows: a result the learner wrote for a fork, and calls that ran in an earlier
    generation, answered from the record, never run twice; every call that runs here is kept in it.
    ``limits``: each call's timeout and how many run at once (``Limits()``: 30 s, 8).
    """
    record = record if record is not None else Record()
    record.asked = {}  # answers to asks held until the turn is committed; a cut-short try's are forgotten
    calls = tool_calls(content)
    results: list[dict[str, Any]] = []
    to_run: list[int] = []
    for call in calls:
        one = tools.get(call["name"])
        edited = record.edit(call["id"])  # the learner rewrote this result (a fork)
        if one is None:
            known = ", ".join(tools) or "-"
            unknown = tool_result(call["id"], t("result.unknown_tool", name=call["name"], known=known), True)
            results.append(edited if edited is not None else unknown)
        elif approve is not None and (refusal := (yield from approve(call, one))) is not None:  # 弁4
            # A refused call stays refused in a fork: an edit rewords the refusal, never makes it a success.
            results.append(refusal if edited is None else {**edited, "is_error": True})
        elif edited is not None:
            results.append(edited)
        elif (recorded := record.replayed(call["id"])) is not None:  # it ran before this fork: never twice
            results.append(recorded)
        else:
            to_run.append(len(results))
            results.append({})  # answered below, once the calls have run
    answers, cut = answer_calls([(tools[calls[i]["name"]], calls[i]["input"]) for i in to_run], limits or Limits())
    for i, (text, is_error) in zip(to_run, answers):
        results[i] = tool_result(calls[i]["id"], text, is_error)
        record.keep(calls[i]["id"], results[i])
    if isinstance(cut, KeyboardInterrupt):  # what ran is recorded; the loop commits it, then stops
        raise ToolsInterrupted(results) from None
    if cut is not None:
        raise ToolsFailed(results, cut) from cut
    return results
