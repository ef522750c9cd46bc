"""What a run knows about itself (lessons 3-6): the history, the counters the valves read, and the
only code that writes the history.

The lesson keeps these as local variables of ``runAgent`` (``messages``, ``turns``, ``tokensUsed``,
``lastSignature``). Gathering them in one object lets a valve be a pure check of the state, lets a
notebook inspect a run between turns, and lets a stopped run resume where it left off.

The history is always valid to send again: an assistant message enters it only together with the
tool_result of every one of its tool_use blocks, in one step (``commit``). Anything that could fail
while turning a response into history happens when the response arrives (``receive``), before any
tool runs, so a failure can never leave a tool's side effect unrecorded.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from . import checks
from .events import Decision, Finished, Stopped, Turn, Usage
from .fork import Record, edit_history, fork_edits
from .messages import Block, Message, assistant, text_of, tool_calls, tool_result, user
from .messages import field as field_of
from .signature import signature_of
from .text import t

__all__ = ["Lap", "RunState"]


class Gauge(Protocol):
    """What a turn's event reads from each valve (``valves/protocol.py`` has the whole of a valve)."""

    @property
    def name(self) -> str: ...

    def reading(self, state: RunState) -> str: ...


@dataclass(frozen=True)
class Lap:
    """One committed turn, kept so that a fork can go back to the moment before its tools ran."""

    start: int  # len(messages) before this turn's assistant message
    turns: int  # finished turns before it
    signatures: int  # signatures before it (pause_turn resends have none)
    model_calls: int  # model requests up to and including this turn's response
    response: Any
    results: tuple[Block, ...]  # the tool_result blocks it sent back
    steering: tuple[str, ...]  # instructions sent with those results


@dataclass
class RunState:
    """The mutable state of one run; only its own methods write the history."""

    messages: list[Message] = field(default_factory=list)  # plain dicts, always valid to resend
    turns: int = 0  # finished turns: tool rounds and pause_turn resends (the lesson's ``turns``)
    model_calls: int = 0  # model requests that got a response (the trace's [turn k] is the k-th)
    usage: Usage = field(default_factory=Usage)  # running total of every model request
    turn_usage: list[Usage] = field(default_factory=list)  # one Usage per model request, in order
    sent: list[int] = field(default_factory=list)  # len(messages) each model request carried, in order
    signatures: list[str] = field(default_factory=list)  # one per tool round (see signature.py)
    pending: Any = None  # a response received but not yet acted on (held over by a stop)
    pending_message: Message | None = None  # ``pending`` as a history message, made when it arrived
    pending_user: list[str] = field(default_factory=list)  # steering texts for after the next tool results
    next_prompt: int = 0  # estimated size of the request about to go out (read at before_send)
    next_reply: int = 0  # the most its reply may cost: the request's max_tokens (read at before_send)
    model: str = ""  # the model id, for price tables
    laps: list[Lap] = field(default_factory=list)  # one Lap per committed turn (for ``Run.fork``)
    record: Record = field(default_factory=Record)  # every call's result and every answer to an ask (fork.py)

    @property
    def decided(self) -> dict[str, Decision]:
        """Every answer a person gave to an ask, by tool_use id."""
        return self.record.decided

    def receive(self, response: Any) -> None:
        """Take a model response: count its tokens and hold it until the loop acts on it."""
        used = Usage.of(field_of(response, "usage"))
        message = assistant(field_of(response, "content") or [])  # may fail: nothing has run yet
        self.model_calls, self.usage = self.model_calls + 1, self.usage + used
        self.turn_usage.append(used)
        self.sent.append(len(self.messages))
        self.pending, self.pending_message = response, message

    def commit(self, results: list[Block]) -> None:
        """Add the held response and its tool results (plus any steering) as one finished turn.

        A ``pause_turn`` resend is a turn too, so MaxTurns bounds a server that keeps pausing. An
        empty response adds nothing (the API refuses empty messages). The turn's answers to asks
        enter the record with it.
        """
        response, steering, message = self.pending, tuple(self.pending_user), self.pending_message
        assert message is not None, "commit() without a held response"  # receive() always comes first
        new = [message] if message["content"] else []
        if results:
            new.append(user([*results, *({"type": "text", "text": s} for s in steering)]))
            self.pending_user = []
            self.signatures.append(signature_of(message["content"]))
        if results or field_of(response, "stop_reason") == "pause_turn":
            before = len(self.signatures) - (1 if results else 0)
            self.laps.append(
                Lap(
                    len(self.messages),
                    self.turns,
                    before,
                    self.model_calls,
                    response,
                    tuple(results),
                    steering if results else (),
                )
            )
            self.turns += 1  # the lesson's turns++: a turn is done
        self.record.settle()
        self.messages.extend(new)
        self.pending = self.pending_message = None

    def follow_up(self) -> bool:
        """After a finished run: send the steering instructions as the next user message, if there are any."""
        if not self.pending_user:
            return False
        self.messages.append(user([{"type": "text", "text": text} for text in self.pending_user]))
        self.pending_user = []
        return True

    def set_aside(self) -> tuple[Any, list[Block]]:
        """Answer a held-back repeat without running it: the person has redirected (lesson 5).

        Returns the response and the results it got, for the turn's event."""
        response = self.pending
        results = [tool_result(c["id"], t("result.skipped_steered"), True) for c in self.pending_calls()]
        self.commit(results)
        return response, results

    def calls(self, turn: int) -> list[Block]:
        """The tool calls of finished turn ``turn`` (1-based), as ``{"id", "name", "input"}``: what to fork on."""
        return tool_calls(self.laps[turn - 1].response.content)

    def pending_calls(self) -> list[Block]:
        return tool_calls(self.pending_message["content"]) if self.pending_message else []

    def finish(self) -> Finished:
        """The model ended the run: keep its answer, and close any tool_use it left unanswered."""
        response, calls = self.pending, self.pending_calls()
        self.commit([])
        if calls:  # tool_use blocks in a finished response still need their results
            self.messages.append(user([tool_result(c["id"], t("result.skipped"), True) for c in calls]))
        return Finished(
            text_of(response.content), field_of(response, "stop_reason"), self.turns, self.usage, tuple(self.messages)
        )

    def turn(self, response: Any, results: list[Block], valves: Iterable[Gauge]) -> Turn:
        """The event for a committed turn, with each valve's gauge reading."""
        return Turn(
            request_number=self.model_calls,
            response=response,
            stop_reason=field_of(response, "stop_reason"),
            results=tuple(results),
            usage=self.turn_usage[-1] if self.turn_usage else Usage(),
            total=self.usage,
            signature=self.signatures[-1] if results else "",
            readings={v.name: v.reading(self) for v in valves},
        )

    def stopped(self, cause: str, reason: str, drop: bool = False) -> Stopped:
        """The stop event; ``drop`` forgets a truncated response so that a resume asks again."""
        text = text_of(self.pending_message["content"]) if self.pending_message else ""
        if drop:
            self.pending = self.pending_message = None
        return Stopped(cause, reason, self.turns, self.usage, tuple(self.messages), text)

    def branch(self, at: int, results: Mapping[str, str], decisions: Mapping[str, Any], rerun: bool) -> RunState:
        """A copy of this state as it stood when turn ``at``'s response arrived, before its tools ran.

        ``results`` edits tool_results by id (of turns up to ``at``): those of earlier turns in the
        copied history, those of turn ``at`` when the branch answers it. ``decisions`` re-answers
        asks of turn ``at``. The branch's record answers every call that ran here or in any run this
        one was forked from, instead of running it again, unless ``rerun`` (fork.py).
        """
        checks.whole_number(at, "at", 1)
        if at > len(self.laps):
            raise ValueError(t("usage.fork_at", at=at, turns=len(self.laps)))
        lap, calls = self.laps[at - 1], {c["id"] for c in self.calls(at)}
        earlier = {c["id"] for k in range(1, at + 1) for c in self.calls(k)}
        edits = fork_edits(at, results, decisions, earlier, calls)
        branch = RunState(
            messages=self.messages[: lap.start],
            turns=lap.turns,
            model_calls=lap.model_calls,
            usage=sum(self.turn_usage[: lap.model_calls], Usage()),
            turn_usage=self.turn_usage[: lap.model_calls],
            sent=self.sent[: lap.model_calls],
            signatures=self.signatures[: lap.signatures],
            pending=lap.response,
            pending_message=assistant(lap.response.content),
            pending_user=list(lap.steering),
            model=self.model,
            laps=self.laps[: at - 1],
            record=self.record.branch(calls, edits, decisions, rerun),
        )
        # One deep copy of the whole: the fork owns every dict and response it carries over (an edit
        # made in place in the fork never reaches this run), and what the history and the laps shared
        # here they still share there, so the edit below shows in both.
        branch = copy.deepcopy(branch)
        edit_history(branch.messages, edits, {*self.record.ran, *self.record.replay})
        return branch
