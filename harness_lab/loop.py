"""The harness: lesson 6's ``runAgent`` as a generator you can step, with its four valves.

One ``next()`` is one turn: a model request plus the tools it asked for. ``stop_reason`` drives it, and each valve
is checked at the step it names (``steps.py``). Only ``RunState`` writes the history, so a stop anywhere (a valve,
an API error, Ctrl-C) leaves ``messages`` valid to send again; ``resume()`` picks up a response a stop held back.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Generator, Iterable
from typing import Any

import anthropic

from . import checks, sdk
from .events import ApprovalRequest, Event, Finished, Stopped
from .messages import Block, Message, field, tool_calls
from .model import model_id
from .state import RunState
from .stops import abnormal_stop, api_error_text
from .text import t
from .tools import PARALLEL_CALLS, Limits, ToolsFailed, ToolsInterrupted, as_tools, run_tool_uses
from .valves import Valve, approval

__all__ = ["Run"]


class Run:
    """One conversation with the harness around it: ``start`` it, step it, ``resume`` or ``fork`` it."""

    def __init__(
        self,
        client: Any,
        tools: Any = (),
        valves: Iterable[Valve] = (),
        model: str | None = None,
        max_tokens: int = 1024,
        system: str | None = None,
        tool_timeout: float | None = 30.0,
        parallel_tools: int = PARALLEL_CALLS,
    ):
        self.client, self.tools, self.valves = checks.client(client), as_tools(tools), checks.valves(valves)
        self.max_tokens, self.system = checks.max_tokens(max_tokens), system
        self.limits = Limits(tool_timeout, checks.whole_number(parallel_tools, "parallel_tools", 1))
        self.state = RunState(model=checks.model(model) or model_id())
        self.end: Finished | Stopped | None = None  # how the last generator ended
        self._gen: Generator[Event, Any, Finished | Stopped] | None = None  # the one generator driving this run
        self._held_at: str | None = None  # the step whose valve held back ``state.pending``

    @property
    def messages(self) -> list[Message]:
        return self.state.messages

    def start(self, prompt: str | list[Block]) -> Generator[Event, Any, Finished | Stopped]:
        """Begin with the user's prompt (after a ``Finished`` run: a follow-up in the same conversation)."""
        if self.state.messages and (self.end is None or self.state.pending is not None):
            raise RuntimeError(t("usage.running"))  # a second prompt would interleave with this run
        self.state.messages.append({"role": "user", "content": checks.prompt(prompt)})
        return self._new_generator()

    def steer(self, text: str) -> None:
        """Add a user instruction; it goes out after the next tool results, in the same message.

        After a NoProgress stop, ``resume()`` answers the held-back repeat with ``is_error`` results
        instead of running it, and sends the instruction with them: the person has redirected.
        """
        self.state.pending_user.append(checks.instruction(text))

    def resume(self, valves: Iterable[Valve] | None = None) -> Generator[Event, Any, Finished | Stopped]:
        """Go on after a stop (raise a limit first, or pass new valves); same history, same counters."""
        s = self.state
        if not s.messages:
            raise RuntimeError(t("usage.not_started"))
        if valves is not None:
            self.valves = checks.valves(valves)
        if isinstance(self.end, Finished) and not s.follow_up():  # no new instruction for a finished run
            return _replay(self.end)
        return self._new_generator(s.pending is not None and self._held_at == "before_tools" and bool(s.pending_user))

    def fork(
        self,
        at: int,
        *,
        results: dict[str, str] | None = None,
        decisions: dict[str, Any] | None = None,
        valves: Iterable[Valve] | None = None,
        rerun: bool = False,
    ) -> Run:
        """A new run from turn ``at`` of this one, on the same client: what if that turn had gone otherwise?

        The fork holds the history as it stood when turn ``at``'s response arrived; step it with ``resume()``.
        ``results`` ({tool_use_id: text}) edits results of turns up to ``at``; ``decisions`` ({tool_use_id: True |
        False | Decision}) re-answers asks; ``valves`` replaces copies of these. A call that ran in this run, or in
        any run it was forked from, is answered from the record, never run again, unless ``rerun=True`` (fork.py).
        """
        fork = copy.copy(self)  # the same client, tools and options
        fork.tools = dict(self.tools)
        fork.valves = [copy.copy(v) for v in self.valves] if valves is None else checks.valves(valves)
        fork.state = self.state.branch(at, results or {}, decisions or {}, rerun)
        fork.end, fork._gen, fork._held_at = None, None, None  # resume() starts a generator of its own
        return fork

    def loop(self) -> Generator[Event, Any, Finished | Stopped]:
        """Lesson 6's ``while (response.stop_reason === "tool_use")``, one turn per ``yield``."""
        s = self.state
        while True:
            if s.pending is None:  # nothing held back by an earlier stop: ask the model
                if stop := self.check("before_send"):  # valve 2, when it checks the prompt before sending
                    return stop
                try:
                    s.receive(self.query())  # the request; its tokens are counted
                except anthropic.APIError as exc:  # raised after the SDK's own retries
                    return s.stopped("api_error", t("stop.api_error", error=api_error_text(exc)))
            response = s.pending
            if not self.wants_tools(response):  # stop_reason: the model is done (or cut off)
                return self.finish(response)
            if stop := self.check("loop_top"):  # valves 1 and 2: may the loop go round once more?
                return stop
            if stop := self.check("before_tools"):  # valve 3: the same calls as the last turn?
                return stop
            results = yield from self.run_tool_uses(response)  # valve 4 decides each call before it runs
            s.commit(results)  # the history, and the lesson's turns++
            yield s.turn(response, results, self.valves)

    def query(self) -> Any:
        """One model request with the whole history, and ``tools`` every time (the history needs them)."""
        return sdk.send(self.client, self.request())

    def request(self) -> sdk.Request:
        request: sdk.Request = dict(model=self.state.model, max_tokens=self.max_tokens, messages=self.state.messages)
        if self.tools:
            request["tools"] = [one.definition for one in self.tools.values()]
        if self.system:
            request["system"] = self.system
        return request

    def check(self, step: str) -> Stopped | None:
        """Ask each valve of ``step``; the first stop message ends the run there."""
        valves = [valve for valve in self.valves if valve.step == step]
        if step == "before_send" and valves:
            self.state.next_prompt, self.state.next_reply = self.estimate(), self.max_tokens
        for valve in valves:
            if reason := valve.check(self.state):
                self._held_at = step
                return self.state.stopped(valve.name, reason)
        return None

    def estimate(self) -> int:
        """The next request's prompt size: the API's count, else at least the last prompt's."""
        last = self.state.turn_usage[-1].prompt_tokens if self.state.turn_usage else 0
        return sdk.count(self.client, self.request(), fallback=last)

    def wants_tools(self, response: Any) -> bool:
        reason = field(response, "stop_reason")
        return reason == "pause_turn" or (reason == "tool_use" and bool(tool_calls(response.content)))

    def run_tool_uses(self, response: Any) -> Generator[ApprovalRequest, Any, list[Block]]:
        """Lesson 6's ``runToolUses`` over this run's tools; the valves at ``before_each_tool`` are valve 4."""
        approve = functools.partial(approval.decide, self.valves, self.state.model_calls, self.state.record)
        return (yield from run_tool_uses(response.content, self.tools, approve, self.state.record, self.limits))

    def finish(self, response: Any) -> Finished | Stopped:
        reason = field(response, "stop_reason")
        if reason in ("end_turn", "stop_sequence", "tool_use"):  # the model ended the run (or called nothing)
            return self.state.finish()
        return self.state.stopped(reason or "unexpected", abnormal_stop(response), drop=True)  # never run a cut call

    def _new_generator(self, aside: bool = False) -> Generator[Event, Any, Finished | Stopped]:
        if self._gen is not None:  # an older one still suspended leaves its response held back
            self._gen.close()
        self._gen = self._drive(aside)
        return self._gen

    def _drive(self, aside: bool = False) -> Generator[Event, Any, Finished | Stopped]:
        self.end, self._held_at = None, None
        try:
            if aside:  # NoProgress held a repeat and the person redirected: answered unrun, a turn of its own
                yield self.state.turn(*self.state.set_aside(), self.valves)
            self.end = yield from self.loop()
        except (ToolsInterrupted, ToolsFailed) as cut:  # tools ran: record them, so no resume repeats one
            response = self.state.pending
            self.state.commit(cut.results)
            if isinstance(cut, ToolsFailed):
                raise cut.cause  # noqa: B904 (the tool's own error, re-raised as it was)
            try:
                yield self.state.turn(response, cut.results, self.valves)
            except KeyboardInterrupt:  # pressed again: it asks for the stop that follows anyway
                pass
            self.end = self.state.stopped("interrupted", t("stop.interrupted_tools"))
        except KeyboardInterrupt:  # between turns or at an approval: nothing ran, nothing half-written
            self.end = self.state.stopped("interrupted", t("stop.interrupted"))
        yield self.end
        return self.end


def _replay(end: Finished) -> Generator[Event, Any, Finished]:  # a finished run has only its end to give
    yield end
    return end
