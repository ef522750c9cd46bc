"""Step any loop generator by hand, with no widgets: the Stepper's engine (lessons 2-6).

A ``Run`` (or a hand-written loop wrapped for the Stepper) is a generator: one ``next()`` is one
turn, an ``ApprovalRequest`` pauses mid-turn until ``.send(decision)``. A ``Controller`` holds that
generator and moves it one event per call (``step``, ``run_all``, ``approve``, ``deny``, ``stop``,
``resume``, ``fork``), so a button's handler returns at once and the kernel never blocks waiting for
a click (the ipywidgets docs' "generator approach"). It also says where the run stands (``gauges``,
``status_text``, ``transcript``). The Stepper is this plus the widgets that draw it;
scripts and tests can use the Controller alone.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from typing import Any, Self

from ..events import ApprovalRequest, Decision, Finished, Stopped, Turn, Usage
from ..text import t
from .cards import Card, message_card
from .status import gauge_lines, status_line, valve_named
from .timeline import compare_card, fork_arguments
from .transcript import transcript

__all__ = ["Controller", "suggested_limit"]


def suggested_limit(limit: int) -> int:
    """A new limit to offer after a stop: room for a few more turns, or twice the budget."""
    return max(limit * 2, limit + 4)


class Answered:
    """An approval request as it stands in the transcript, with the decision once there is one."""

    def __init__(self, request: ApprovalRequest):
        self.request = request
        self.decision: Decision | None = None


class Controller:
    """One run, stepped by hand: step, run to the end, stop, resume, approve or deny calls, fork.

    ``Controller(run, prompt)`` starts the run; ``Controller(run)`` continues a run that was stopped
    (``run.resume()``), e.g. after a valve fired and its limit was raised, or a fork (``run.fork``).
    ``run`` is a ``harness_lab`` ``Run`` or anything with ``start(prompt)`` / ``resume()`` that yields
    the same events (``lessons.HandWritten``).

    An exception raised inside the run (a learner's valve that breaks, an SDK error the loop lets
    through) ends the run with the exception kept in ``error``. The loop only ever commits whole
    turns, so the history stays valid: fix the cause, then ``resume()``.
    """

    def __init__(
        self, run: Any, prompt: str | None = None, *, origin: Controller | None = None, fork_at: int | None = None
    ):
        self.run = run
        self.recorded = hasattr(run, "state")  # a harness_lab Run, not a hand-written loop
        self.prompt = prompt
        self._gen = run.start(prompt) if prompt is not None else run.resume()
        self.entries: list[Any] = []  # events as they came, approvals wrapped with their decision
        self.decisions: dict[str, Decision] = {}  # one decision per tool_use id, never two
        self.pending: ApprovalRequest | None = None
        self.outcome: Finished | Stopped | None = None
        self.last_turn: Turn | None = None
        self.error: Exception | None = None
        self.origin, self.fork_at = origin, fork_at  # set on a fork: where it branched off
        self.forks: list[Self] = []
        self.notice = ""  # a one-line answer to the last control (e.g. a limit that was too low)
        self.running = False  # a paced run to the end is under way (the Stepper's 「最後まで」)
        self._stop_requested = self._denied_on_stop = False  # denied: Stop answered a waiting approval
        self._to_end = False  # a run to the end was asked: go on after each approval answer
        self._listeners: list[Callable[[], None]] = []  # called after each change (a parent's comparison)

    def _changed(self) -> None:
        """Called after every change of state; the Stepper redraws here."""
        for listener in self._listeners:
            listener()

    # --- driving the run ------------------------------------------------------------------------

    @property
    def done(self) -> bool:
        return self.outcome is not None or self.error is not None

    @property
    def started(self) -> bool:
        """Whether anything has happened on this panel yet (a stop before that has nothing to stop)."""
        return bool(self.entries) or self.pending is not None or self.running

    def step(self) -> Any:
        """Advance one event: a whole turn, or up to the next approval request. Returns the event.

        While an approval is pending this does nothing: only ``approve``/``deny`` answer it, so a
        stray click on 「次のターン」 can never be taken as a decision. If the run raises, the
        exception is returned (and kept in ``error``) instead of escaping a button's handler.
        """
        self._to_end = False
        return self._step()

    def _step(self) -> Any:
        if self.done or self.pending is not None:
            return self.pending or self.outcome or self.error
        if self._stop_requested:
            return self._interrupt()
        return self._advance(lambda: next(self._gen))

    def run_all(self) -> Any:
        """Step until the run ends, an approval is needed, or a stop was asked; no pauses.

        An approval answered afterwards (``approve``/``deny``) carries on to the end the same way.
        On a run already over it returns that end again, as ``step`` does: a cell that reads
        ``s.run_all().cause``, run a second time, reads the same stop.
        """
        self._stop_requested = False
        self._to_end = True
        event = self.pending or self.outcome or self.error
        while not self.done and self.pending is None and not self._stop_requested:
            event = self._step()
        return event

    def approve(self, reason: str | None = None) -> Any:
        """Allow the pending call (no-op when nothing is pending). Returns the next event."""
        if self.pending is None:
            return None
        return self._answer(self.pending.tool_use_id, Decision(True, reason or ""))

    def deny(self, reason: str = "") -> Any:
        """Deny the pending call; the model gets an ``is_error`` tool_result with the reason."""
        if self.pending is None:
            return None
        return self._answer(self.pending.tool_use_id, Decision(False, reason or ""))

    def stop(self) -> Any:
        """Stop between turns. A pending approval is denied first (fail closed). Before anything ran
        there is nothing to stop: nothing happens."""
        if not self.started:
            return None
        self._stop_requested = True
        self._to_end = False
        self._denied_on_stop = self.pending is not None
        while self.pending is not None:
            # Each denial lets the turn go on to its next call or its end, so history stays whole.
            self.deny(t("ui.stop.denied_on_stop"))
        if self.done or self.running:
            # A paced run notices the flag itself before its next turn.
            return self.outcome or self.error
        return self._interrupt()

    def resume(self, limit: int | None = None, steer: str | None = None) -> bool:
        """Continue after a stop or an error (fix its cause first): a fresh generator, same run.

        ``limit`` raises the limit of the valve that stopped the run (「再開」 with a new number). A
        limit that would stop the run again at once is refused with a notice, and nothing changes.
        ``steer`` is an instruction for the model (``run.steer``); after a no-progress stop it is what
        lets the run go on, since without one the held-back repeat would stop it again at once.
        Returns whether the run can go on.
        """
        if not self.resumable:
            return False
        if limit is not None and not self._raise_limit(limit):
            self._changed()
            return False
        if steer is not None and steer.strip():
            self.run.steer(steer)
        elif self.needs_steer():
            self.notice = t("ui.notice.steer_first")
            self._changed()
            return False
        self._gen = self.run.resume()
        self.outcome = self.error = None
        self._stop_requested = self._denied_on_stop = False
        self.notice = t("ui.notice.resumed")
        self._changed()
        return True

    @property
    def resumable(self) -> bool:
        """Whether 「再開」 has something to go on with: a stopped or failed Run (a hand-written loop has no resume)."""
        return self.recorded and (isinstance(self.outcome, Stopped) or self.error is not None)

    def needs_steer(self) -> bool:
        """Whether the run stopped on a repeat that only an instruction from a person gets past."""
        stopped = isinstance(self.outcome, Stopped) and self.outcome.cause == "no_progress"
        return stopped and self.recorded and not self.run.state.pending_user

    def stopped_by_limit(self) -> Any:
        """The valve with a ``limit`` that stopped the run, or None."""
        if isinstance(self.outcome, Stopped):
            valve = valve_named(self.run, self.outcome.cause)
            return valve if hasattr(valve, "limit") else None
        return None

    def _raise_limit(self, limit: int) -> bool:
        valve = self.stopped_by_limit()
        if valve is None:
            raise ValueError(t("ui.notice.no_limit"))
        if isinstance(limit, bool) or not isinstance(limit, int):
            raise TypeError(t("ui.notice.limit_type", got=repr(limit)))
        old = valve.limit
        valve.limit = limit
        if valve.check(self.run.state):  # the same stop would come back before any turn ran
            valve.limit = old
            self.notice = t("ui.notice.limit_too_low", limit=limit, reading=valve.reading(self.run.state))
            return False
        return True

    def _answer(self, tool_use_id: str, decision: Decision, paced: bool = False) -> Any:
        # Bound to the id a button was drawn for: a second click, or a click on an old panel, finds
        # the id decided (or no longer pending) and changes nothing.
        if tool_use_id in self.decisions or self.pending is None or self.pending.tool_use_id != tool_use_id:
            return None
        self.decisions[tool_use_id] = decision
        self.entries[-1].decision = decision
        self.pending = None
        event = self._advance(lambda: self._gen.send(decision))
        if self._to_end and not self.done and self.pending is None and not self._stop_requested:
            event = self._go_on(paced) or event  # a run to the end was under way when the approval came
        return event

    def _go_on(self, paced: bool) -> Any:
        """Carry a run to the end on after an approval answer (the Stepper paces it after a click)."""
        return self.run_all()

    def _advance(self, move: Callable[[], Any]) -> Any:
        """Move the generator once (next, send or throw) and take the event it gives."""
        try:
            event = move()
        except StopIteration as end:
            # A generator that ends without an outcome was closed under us (a newer one drives the run).
            event = end.value if isinstance(end.value, (Finished, Stopped)) else self._interrupted_event()
        except Exception as error:
            # The generator is dead now; nothing more can come out of it until resume().
            self.error = error
            self.pending = None
            self._changed()
            return error
        return self._take(event)

    def _take(self, event: Any) -> Any:
        self.notice = ""
        if isinstance(event, ApprovalRequest):
            if event.tool_use_id in self.decisions:
                # The generator asked twice for one id: answer it the same way, never anew.
                answer = self.decisions[event.tool_use_id]
                return self._advance(lambda: self._gen.send(answer))
            self.pending = event
            self.entries.append(Answered(event))
        elif isinstance(event, (Finished, Stopped)):
            if getattr(self.run, "state", None) is None and event.usage.total < self._yielded()[1].total:
                # A hand-written loop that counted fewer tokens than its turns carried (often none): the
                # end card says what the turns the panel saw used, as the gauge does.
                event = dataclasses.replace(event, usage=self._yielded()[1])
            if (
                isinstance(event, Stopped) and event.cause == "interrupted" and self._denied_on_stop
            ):  # ended on a denial
                event = dataclasses.replace(event, reason=t("ui.stop.interrupted_after_denial"))
            self.outcome = event
            self.entries.append(event)
        elif event is not None:
            if isinstance(event, Turn):
                self.last_turn = event
            self.entries.append(event)
        self._changed()
        return event

    def _yielded(self) -> tuple[int, Usage]:
        """The turns a hand-written loop yielded so far, and the tokens they carried."""
        done = [e for e in self.entries if isinstance(e, Turn)]
        return len(done), sum((e.usage for e in done), Usage())

    def _interrupted_event(self) -> Stopped:
        state = getattr(self.run, "state", None)
        turns, usage = (state.turns, state.usage) if state is not None else self._yielded()
        return Stopped(
            cause="interrupted",
            # A hand-written loop's generator is gone once interrupted: it has no resume() to go on with.
            reason=t("stop.interrupted") if self.recorded else t("ui.stop.interrupted_hand_written"),
            turns=turns,
            usage=usage,
            messages=tuple(getattr(self.run, "messages", ())),
        )

    def _interrupt(self) -> Any:
        """End the run between turns the way Ctrl-C does: the loop turns it into a resumable stop."""
        self._stop_requested = False
        if inspect.getgeneratorstate(self._gen) != inspect.GEN_SUSPENDED:
            # Not started yet (just resumed) or already over: nothing inside could catch the
            # interrupt, so close it and say so ourselves.
            self._gen.close()
            return self._take(self._interrupted_event())
        try:
            return self._advance(lambda: self._gen.throw(KeyboardInterrupt()))
        except KeyboardInterrupt:
            # A hand-written loop (lesson 6) need not catch it; left alone it would reach the kernel
            # from a button's handler. The loop stood at a yield, so its history is whole.
            return self._take(self._interrupted_event())

    # --- time travel ------------------------------------------------------------------------------

    def fork(
        self,
        at: int,
        *,
        result: str | None = None,
        results: dict | None = None,
        decisions: dict | None = None,
        flip: bool = False,
        limits: dict | None = None,
        rerun: bool = False,
    ) -> Self:
        """This run from turn ``at`` with the learner's edits (``run.fork``), in a new controller.

        ``result`` replaces the result of turn ``at``'s one tool call (``results`` takes tool_use
        ids); ``flip=True`` answers turn ``at``'s approvals the other way (``decisions`` takes ids);
        one call gets an edited result or a new answer, not both. ``limits`` ({"max_turns": 12})
        gives the fork its own valve limits. Calls that ran here are answered from the record, never
        run again, unless ``rerun=True``. Step the fork like this one; ``compare()`` puts this run
        and its forks side by side.
        """
        arguments = fork_arguments(
            self.run, at, result=result, results=results, decisions=decisions, flip=flip, limits=limits
        )
        child = self._spawn(self.run.fork(at, rerun=rerun, **arguments), at)
        self.forks.append(child)
        return child

    def _spawn(self, run: Any, at: int) -> Self:
        return type(self)(run, origin=self, fork_at=at)

    def compare(self) -> Card:
        """This run and each of its forks side by side: turns, tokens, and how each ended."""
        columns = [(t("ui.compare.original"), self.run)]
        columns += [(t("ui.compare.fork", k=f.fork_at, n=i), f.run) for i, f in enumerate(self.forks, start=1)]
        return compare_card(columns)

    # --- where the run stands -------------------------------------------------------------------

    def gauges(self) -> dict:
        """The gauges' values: turns used / max, tokens used / budget, the last signature."""
        state = getattr(self.run, "state", None)
        if state is not None:
            turns, usage = state.turns, state.usage
        else:  # a hand-written loop keeps no state: count what it yielded
            turns, usage = self._yielded()
            if self.outcome is not None and self.outcome.usage.total >= usage.total:
                turns, usage = self.outcome.turns, self.outcome.usage  # the loop's own count, at the end
        max_turns = getattr(valve_named(self.run, "max_turns"), "limit", None)
        budget = getattr(valve_named(self.run, "token_budget"), "limit", None)
        signature = self.last_turn.signature if self.last_turn else ""
        return {"turns": turns, "max_turns": max_turns, "tokens": usage.total, "budget": budget, "signature": signature}

    def gauge_lines(self) -> list[str]:
        return gauge_lines(self)

    def status_text(self) -> str:
        return status_line(self)

    def _first_message(self) -> Card | None:
        if self.prompt is not None:
            return message_card({"role": "user", "content": self.prompt})
        messages = getattr(self.run, "messages", None) or ()
        return message_card(messages[0]) if messages else None

    def _steering(self) -> dict:
        state = getattr(self.run, "state", None)
        return {lap.model_calls: lap.steering for lap in getattr(state, "laps", ()) if lap.steering}

    def transcript(self, pending: bool = True, open_turns: int | None = None) -> Card:
        """Everything so far as one Card: the prompt, each turn, approvals with their answers, the end.

        ``pending=False`` leaves out an unanswered request (a live panel shows it with its buttons);
        ``open_turns`` folds all but the last that many turns in the HTML.
        """
        # Raw entries, not cards: transcript() puts each approval inside the turn it belongs to.
        items = [e for e in self.entries if pending or not (isinstance(e, Answered) and e.decision is None)]
        first = self._first_message()
        return transcript(([first] if first else []) + items, self._steering(), open_turns)

    def _head_lines(self) -> list[str]:
        """The panel's top as text: a fork's note, the status line and the gauges."""
        note = [t("ui.fork.note", k=self.fork_at)] if self.fork_at is not None else []
        return [*note, self.status_text(), *self.gauge_lines()]

    def __repr__(self) -> str:
        return "\n".join([*self._head_lines(), self.transcript().text])
