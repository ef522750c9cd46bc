"""The Stepper: step a run one turn at a time, answer approvals, resume, and travel back (lessons 2-6).

A ``Run`` is a generator: one ``next()`` is one turn, an ``ApprovalRequest`` pauses mid-turn until
``.send(decision)``. The Stepper holds that generator and never blocks the kernel waiting for a
click: each button press advances the generator by exactly one event (the "generator approach" of
the ipywidgets docs). Everything is also a method (``step``, ``run_all``, ``stop``, ``resume``,
``approve``, ``deny``, ``select``, ``fork``, ``compare``) so notebooks run headless under nbval and
store the same transcript a click would. Methods never wait: only the 「最後まで」 button paces its
turns (``SPEEDS``), so a person sees each one and can press 「停止」 in between.

Display goes only through widget value updates, never ``print`` inside an ``Output``: nbval would find stray stdout fields in the stored outputs.
A panel whose kernel is gone (restarted, shut down, or a notebook reopened from its saved widget
state) greys out and says so: ``stale.py``.
"""

from __future__ import annotations

import html
import inspect
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from ..errors import describe
from ..events import ApprovalRequest, Decision, Finished, Stopped, Turn, Usage
from ..text import t
from .cards import Card, approval_card, message_card, transcript
from .context_view import context_card
from .diagram import diagram, place_of
from .stale import stale_html, static_note
from .timeline import compare_card, fork_arguments, turn_card
from .timeline_panel import TimelinePanel

__all__ = ["SPEEDS", "Stepper"]

# Seconds between turns of 「最後まで」 in a live kernel: long enough to read a turn and press 停止.
SPEEDS = {"slow": 1.5, "normal": 0.7, "fast": 0.2}
# Turns shown open in the conversation; older ones fold to one line (a 12-turn run stays short).
OPEN_TURNS = 1
# An exception's message can be a whole API error body: the status line keeps its start.
ERROR_CHARS = 200
RED, GREEN = "#c8372d", "#3f9a5a"


def _one_line(error: BaseException) -> str:
    """``ZeroDivisionError: division by zero``: the exception's type and the first line of its message."""
    text = describe(error).strip().splitlines()[0]  # describe(): even an exception whose str() raises
    return text if len(text) <= ERROR_CHARS else text[: ERROR_CHARS - 1] + "…"


def _valve(run: Any, name: str) -> Any:
    """The run's valve called ``name`` (by its ``name`` attribute or its class), or None."""
    class_names = {"max_turns": "MaxTurns", "token_budget": "TokenBudget"}
    for valve in getattr(run, "valves", ()) or ():
        if getattr(valve, "name", None) == name or type(valve).__name__ == class_names.get(name):
            return valve
    return None


def suggested_limit(limit: int) -> int:
    """A new limit to offer after a stop: room for a few more turns, or twice the budget."""
    return max(limit * 2, limit + 4)


class _Answered:
    """An approval request as it stands in the transcript, with the decision once there is one."""

    def __init__(self, request: ApprovalRequest):
        self.request = request
        self.decision: Decision | None = None

    def card(self) -> Card:
        return approval_card(self.request, self.decision)


class Stepper:
    """An ipywidgets panel over one run: step, run to the end, stop, resume, approve or deny calls,
    see each turn's history and fork the run from any turn.

    ``Stepper(run, prompt)`` starts the run; ``Stepper(run)`` continues a run that was stopped
    (``run.resume()``), e.g. after a valve fired and its limit was raised, or a fork (``run.fork``).

    An exception raised inside the run (a learner's valve that breaks, an SDK error the loop lets
    through) ends the panel with the exception named in its status line and kept in ``error``.
    The loop only ever commits whole turns, so the history stays valid: fix the cause, then
    ``resume()``.
    """

    def __init__(
        self,
        run: Any,
        prompt: str | None = None,
        *,
        speed: str = "normal",
        origin: Stepper | None = None,
        fork_at: int | None = None,
    ):
        if speed not in SPEEDS:
            raise ValueError(t("ui.speed.unknown", speed=speed, known=", ".join(SPEEDS)))
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
        self.origin, self.fork_at = origin, fork_at  # set on a fork's panel: where it branched off
        self.forks: list[Stepper] = []
        self.notice = ""  # a one-line answer to the last control (e.g. a limit that was too low)
        self._stop_requested = False
        self._auto = False
        self._to_end = False  # 「最後まで」 was asked: go on after each approval answer
        self._listeners: list[Callable[[], None]] = []  # called after each refresh (a parent's comparison)
        self._build(speed)
        self._refresh()

    # --- driving the run ------------------------------------------------------------------------

    @property
    def done(self) -> bool:
        return self.outcome is not None or self.error is not None

    @property
    def delay(self) -> float:
        """Seconds 「最後まで」 waits between turns in a live kernel (the speed control)."""
        return SPEEDS[self.speed.value]

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
        """Step until the run ends, an approval is needed, or 「停止」 was pressed; no pauses.

        An approval answered afterwards (``approve``/``deny``) carries on to the end the same way.
        """
        self._stop_requested = False
        self._to_end = True
        event = None
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
        """Stop between turns. A pending approval is denied first (fail closed)."""
        self._stop_requested = True
        self._to_end = False
        while self.pending is not None:
            # Each denial lets the turn go on to its next call or its end, so history stays whole.
            self.deny(t("ui.stop.denied_on_stop"))
        if self.done or self._auto:
            # An auto-run notices the flag itself before its next turn.
            return self.outcome or self.error
        return self._interrupt()

    def resume(self, limit: int | None = None) -> bool:
        """Continue after a stop or an error (fix its cause first): a fresh generator, same run.

        ``limit`` raises the limit of the valve that stopped the run (「再開」 with a new number). A
        limit that would stop the run again at once is refused with a notice, and nothing changes.
        Returns whether the run can go on.
        """
        if not isinstance(self.outcome, Stopped) and self.error is None:
            return False
        if limit is not None and not self._raise_limit(limit):
            self._refresh()
            return False
        self._gen = self.run.resume()
        self.outcome = self.error = None
        self._stop_requested = False
        self.notice = t("ui.notice.resumed")
        self._refresh()
        return True

    def stopped_by_limit(self) -> Any:
        """The valve with a ``limit`` that stopped the run, or None."""
        if isinstance(self.outcome, Stopped):
            valve = _valve(self.run, self.outcome.cause)
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
        # Bound to the id the button was drawn for: a second click, or a click on an old panel,
        # finds the id decided (or no longer pending) and changes nothing.
        if tool_use_id in self.decisions or self.pending is None or self.pending.tool_use_id != tool_use_id:
            return None
        self.decisions[tool_use_id] = decision
        self.entries[-1].decision = decision
        self.pending = None
        event = self._advance(lambda: self._gen.send(decision))
        if self._to_end and not self.done and self.pending is None and not self._stop_requested:
            # 「最後まで」 was under way when the approval came: go on (paced after a click).
            if paced:
                self._auto_run()
            else:
                event = self.run_all() or event
        return event

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
            self._refresh()
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
            self.entries.append(_Answered(event))
        elif isinstance(event, (Finished, Stopped)):
            self.outcome = event
            self.entries.append(event)
        elif event is not None:
            if isinstance(event, Turn):
                self.last_turn = event
            self.entries.append(event)
        self._refresh()
        return event

    def _interrupted_event(self) -> Stopped:
        state = getattr(self.run, "state", None)
        return Stopped(
            cause="interrupted",
            reason=t("stop.interrupted"),
            turns=getattr(state, "turns", 0),
            usage=getattr(state, "usage", Usage()),
            messages=tuple(getattr(self.run, "messages", ())),
        )

    def _interrupt(self) -> Any:
        """End the run between turns the way Ctrl-C does: the loop turns it into a resumable stop."""
        self._stop_requested = False
        if inspect.getgeneratorstate(self._gen) != inspect.GEN_SUSPENDED:
            # Not started yet (a fresh Stepper, or just resumed) or already over: nothing inside could
            # catch the interrupt, so close it and say so ourselves.
            self._gen.close()
            return self._take(self._interrupted_event())
        return self._advance(lambda: self._gen.throw(KeyboardInterrupt()))

    # --- auto-run in a live kernel --------------------------------------------------------------

    def _auto_run(self) -> None:
        """「最後まで」 in a live kernel: one turn, then a pause of ``delay`` seconds, so a person sees
        each turn and 「停止」 clicks get in between. Headless (no event loop), it runs unpaced."""
        try:
            import asyncio

            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.run_all()  # headless (tests, scripts): nothing else can click meanwhile
            return
        self._stop_requested = False
        self._to_end = True
        self._auto = True

        def tick() -> None:
            again = False
            try:
                if self._stop_requested and not self.done:
                    self._interrupt()
                elif not self.done and self.pending is None:
                    self._safely(self._step)
                    again = not self.done and self.pending is None
            finally:
                # Whatever happened in this turn, an auto-run that will not tick again must say so,
                # or the buttons stay disabled and the status says 実行中… for good.
                if again:
                    loop.call_later(self.delay, tick)
                else:
                    self._auto = False
                    self._refresh()

        self._refresh()
        loop.call_later(0, tick)

    # --- time travel ------------------------------------------------------------------------------

    def select(self, k: int) -> Card:
        """Show turn ``k`` in the timeline: the history as it stood, and what the turn added."""
        self.timeline.select(k)
        return turn_card(self.run, k)

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
    ) -> Stepper:
        """A new panel over ``run.fork(at, ...)``: this run from turn ``at``, with the learner's edits.

        ``result`` replaces the result of turn ``at``'s one tool call (``results`` takes tool_use
        ids); ``flip=True`` answers turn ``at``'s approvals the other way (``decisions`` takes ids);
        ``limits`` ({"max_turns": 12}) gives the fork its own valve limits. Calls that ran here are
        answered from the record, never run again, unless ``rerun=True``. Step the fork like any
        panel; ``compare()`` puts this run and its forks side by side.
        """
        arguments = fork_arguments(
            self.run, at, result=result, results=results, decisions=decisions, flip=flip, limits=limits
        )
        child = Stepper(self.run.fork(at, rerun=rerun, **arguments), speed=self.speed.value, origin=self, fork_at=at)
        self.forks.append(child)
        child._listeners.append(self.timeline.show_comparison)
        self.timeline.show_fork(child)
        return child

    def context(self) -> Card:
        """What filled each model request's input, against the context window (the コンテキスト tab)."""
        return context_card(self.run)

    def compare(self) -> Card:
        """This run and each of its forks side by side: turns, tokens, and how each ended."""
        columns = [(t("ui.compare.original"), self.run)]
        columns += [(t("ui.compare.fork", k=f.fork_at, n=i), f.run) for i, f in enumerate(self.forks, start=1)]
        return compare_card(columns)

    # --- widgets --------------------------------------------------------------------------------

    def _build(self, speed: str) -> None:
        button = lambda key, style, icon: widgets.Button(  # noqa: E731
            description=t(key), button_style=style, icon=icon, layout=widgets.Layout(width="auto")
        )
        self.next_button = button("ui.button.next", "primary", "step-forward")
        self.all_button = button("ui.button.all", "", "fast-forward")
        self.stop_button = button("ui.button.stop", "warning", "stop")
        self.resume_button = button("ui.button.resume", "info", "play")
        self.limit_input = widgets.BoundedIntText(
            min=0,
            max=10**9,
            description=t("ui.limit.label"),
            layout=widgets.Layout(width="15em", display="none"),
            style={"description_width": "initial"},
        )
        self.speed = widgets.ToggleButtons(
            options=[(t(f"ui.speed.{k}"), k) for k in SPEEDS],
            value=speed,
            description=t("ui.speed.label"),
            style={"button_width": "7em"},
            tooltips=[t("ui.speed.tooltip", s=SPEEDS[k]) for k in SPEEDS],
        )
        self.next_button.on_click(lambda _: self._safely(self.step))
        self.all_button.on_click(lambda _: self._safely(self._auto_run))
        self.stop_button.on_click(lambda _: self._safely(self.stop))
        self.resume_button.on_click(lambda _: self._safely(self._resume_clicked))

        gauge = lambda key: widgets.Label(t(key), layout=widgets.Layout(width="7em"))  # noqa: E731
        self.turns_bar = widgets.IntProgress(value=0, min=0, max=1)
        self.turns_label = widgets.Label()
        self.tokens_bar = widgets.IntProgress(value=0, min=0, max=1)
        self.tokens_label = widgets.Label()
        self.signature_label = widgets.Label()
        self.status = widgets.HTML()
        self.diagram_html = widgets.HTML()
        self.transcript_html = widgets.HTML()
        self.context_html = widgets.HTML()
        self.reason = widgets.Text(placeholder=t("ui.reason.placeholder"))
        self.approval_box = widgets.VBox(layout=widgets.Layout(display="none"))
        self.approve_button: widgets.Button | None = None
        self.deny_button: widgets.Button | None = None
        self._approval_for: str | None = None
        self.timeline = TimelinePanel(self)

        # Each gauge's name has its own label, so it stays when a run has no limit to draw a bar for.
        self.gauge_rows = {
            "turns": widgets.HBox([gauge("ui.gauge.turns"), self.turns_bar, self.turns_label]),
            "tokens": widgets.HBox([gauge("ui.gauge.tokens"), self.tokens_bar, self.tokens_label]),
            "signature": widgets.HBox([gauge("ui.gauge.signature"), self.signature_label]),
        }
        gauges = widgets.VBox(list(self.gauge_rows.values()))
        # A hand-written loop (lesson 6) keeps no RunState: it has a conversation, but no timeline to
        # fork from and no requests on record to split.
        pages = [(self.transcript_html, "ui.tab.conversation")]
        if self.recorded:
            pages += [(self.timeline.widget, "ui.tab.timeline"), (self.context_html, "ui.tab.context")]
        self.tabs = widgets.Tab(children=[page for page, _ in pages], titles=[t(key) for _, key in pages])
        head = [widgets.HTML(stale_html())]
        if self.fork_at is not None:
            head.append(
                widgets.HTML(
                    f'<div class="hl-fork-note" style="font-weight:600">'
                    f"{html.escape(t('ui.fork.note', k=self.fork_at))}</div>"
                )
            )
        controls = widgets.HBox(
            [self.next_button, self.all_button, self.stop_button, self.resume_button, self.limit_input],
            layout=widgets.Layout(flex_flow="row wrap"),
        )
        # A fork's panel sits inside its original's timeline: the diagram is there already, and the
        # speed buttons go beside the step buttons, so the fork adds little height.
        drawing = [] if self.fork_at is not None else [self.diagram_html]
        if self.fork_at is not None:
            controls.children = (*controls.children, self.speed)
        self.widget = widgets.VBox(
            [
                *head,
                *drawing,
                controls,
                *([] if self.fork_at is not None else [self.speed]),
                gauges,
                self.status,
                self.approval_box,
                self.tabs,
            ],
            layout=widgets.Layout(width="100%"),
        )
        self.widget.add_class("hl-stepper")

    def _resume_clicked(self) -> None:
        limit = self.limit_input.value if self.stopped_by_limit() is not None else None
        self.resume(limit=limit)

    def _approval_panel(self, request: ApprovalRequest) -> None:
        """Fresh 許可/拒否 buttons bound to this one tool_use id."""
        if self._approval_for == request.tool_use_id:
            return
        self._approval_for = request.tool_use_id
        tool_use_id = request.tool_use_id
        approve = widgets.Button(description=t("ui.button.approve"), button_style="success", icon="check")
        deny = widgets.Button(description=t("ui.button.deny"), button_style="danger", icon="times")
        approve.on_click(lambda _: self._safely(self._answer, tool_use_id, Decision(True), True))
        deny.on_click(
            lambda _: self._safely(self._answer, tool_use_id, Decision(False, self.reason.value.strip()), True)
        )
        self.approve_button, self.deny_button = approve, deny
        self.reason.value = ""
        self.approval_box.children = [
            widgets.HTML(approval_card(request).html),
            widgets.HBox([approve, deny, self.reason]),
        ]

    def _safely(self, action: Any, *args: Any) -> Any:
        """Run a button's action; show an error in the panel instead of losing it in a log."""
        try:
            return action(*args)
        except Exception as error:
            self.status.value = f'<div class="hl-status" style="color:{RED}">{html.escape(_one_line(error))}</div>'
            raise

    # --- gauges and rendering -------------------------------------------------------------------

    def gauges(self) -> dict:
        """The gauges' values: turns used / max, tokens used / budget, the last signature."""
        state = getattr(self.run, "state", None)
        if state is not None:
            turns, usage = state.turns, state.usage
        else:  # a hand-written loop keeps no state: count what it yielded
            done = [e for e in self.entries if isinstance(e, Turn)]
            turns, usage = len(done), sum((e.usage for e in done), Usage())
            if self.outcome is not None and self.outcome.usage.total >= usage.total:
                turns, usage = self.outcome.turns, self.outcome.usage  # the loop's own count, at the end
        max_turns = getattr(_valve(self.run, "max_turns"), "limit", None)
        budget = getattr(_valve(self.run, "token_budget"), "limit", None)
        signature = self.last_turn.signature if self.last_turn else ""
        return {"turns": turns, "max_turns": max_turns, "tokens": usage.total, "budget": budget, "signature": signature}

    def status_text(self) -> str:
        if self.error is not None:
            return t("ui.status.error", error=_one_line(self.error))
        if isinstance(self.outcome, Finished):
            return t("ui.status.finished", stop_reason=self.outcome.stop_reason)
        if isinstance(self.outcome, Stopped):
            return t("ui.status.stopped", reason=self.outcome.reason)
        if self.pending is not None:
            return t("ui.status.waiting")
        if self._auto:
            return t("ui.status.running")
        if self.notice:
            return self.notice
        return t("ui.status.ready") if not self.entries else t("ui.status.paused")

    def place(self) -> tuple[str, str | None]:
        """Where the run is in the loop diagram, and which valve (or stop) fired."""
        if isinstance(self.outcome, Finished):
            return "end", None
        if isinstance(self.outcome, Stopped):
            return place_of(self.outcome.cause, getattr(self.run, "valves", ())) or "loop_top", self.outcome.cause
        if self.pending is not None:
            return "before_each_tool", None
        return ("loop_top" if self.entries else "request"), None

    def acted(self) -> str | None:
        """``"approval"`` while the current turn holds a call the learner denied, else None.

        A denial is the approval valve doing its job without ending the run, so the diagram marks it
        on that turn only: from the next model call on, the run has moved on.
        """
        entries = self.entries[:-1] if self.entries and isinstance(self.entries[-1], Turn) else self.entries
        for entry in reversed(entries):  # this turn's approvals come right before its Turn event
            if not isinstance(entry, _Answered):
                break
            if entry.decision is not None and not entry.decision.allowed:
                return "approval"
        return None

    def _gauge_lines(self) -> list[str]:
        g = self.gauges()
        turns = f"{g['turns']} / {g['max_turns']}" if g["max_turns"] is not None else str(g["turns"])
        tokens = f"{g['tokens']} / {g['budget']}" if g["budget"] is not None else str(g["tokens"])
        return [
            f"{t('ui.gauge.turns')}: {turns}",
            f"{t('ui.gauge.tokens')}: {tokens}",
            f"{t('ui.gauge.signature')}: {g['signature'] or t('ui.gauge.none')}",
        ]

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

        ``pending=False`` leaves out an unanswered request (the live panel shows it with its buttons);
        ``open_turns`` folds all but the last that many turns in the HTML.
        """
        # Raw entries, not cards: transcript() puts each approval inside the turn it belongs to.
        items = [e for e in self.entries if pending or not (isinstance(e, _Answered) and e.decision is None)]
        first = self._first_message()
        return transcript(([first] if first else []) + items, self._steering(), open_turns)

    def _bar(self, bar: widgets.IntProgress, value: int, limit: int | None, cause: str) -> None:
        if not limit:
            bar.layout.visibility = "hidden"  # the label beside it still says the number
            return
        bar.max, bar.value = limit, min(value, limit)
        fired = isinstance(self.outcome, Stopped) and self.outcome.cause == cause
        bar.bar_style = "danger" if fired or value >= limit else ""
        bar.layout.visibility = "visible"

    def _refresh(self) -> None:
        g = self.gauges()
        self._bar(self.turns_bar, g["turns"], g["max_turns"], "max_turns")
        self._bar(self.tokens_bar, g["tokens"], g["budget"], "token_budget")
        lines = self._gauge_lines()
        self.turns_label.value = lines[0].split(": ", 1)[1]
        self.tokens_label.value = lines[1].split(": ", 1)[1]
        self.signature_label.value = g["signature"] or t("ui.gauge.none")
        failed = isinstance(self.outcome, Stopped) or self.error is not None
        color = RED if failed else GREEN if self.outcome else "inherit"
        self.status.value = (
            f'<div class="hl-status" style="font-weight:600;color:{color}">{html.escape(self.status_text())}</div>'
        )
        here, fired = self.place()
        self.diagram_html.value = diagram(here, fired, self.acted(), getattr(self.run, "valves", ())).html()
        self.transcript_html.value = self.transcript(pending=False, open_turns=OPEN_TURNS).html
        if self.recorded:
            self.context_html.value = context_card(self.run).html
            self.timeline.refresh()

        waiting = self.pending is not None
        self.next_button.disabled = self.done or waiting or self._auto
        self.all_button.disabled = self.done or waiting or self._auto
        self.stop_button.disabled = self.done
        resumable = isinstance(self.outcome, Stopped) or self.error is not None
        self.resume_button.layout.display = None if resumable else "none"
        limited = self.stopped_by_limit()
        if limited is not None and self.limit_input.layout.display == "none":
            self.limit_input.value = suggested_limit(limited.limit)
        self.limit_input.layout.display = None if limited is not None else "none"
        if waiting:
            self._approval_panel(self.pending)
            self.approval_box.layout.display = "flex"
        else:
            self.approval_box.layout.display = "none"
            for b in (self.approve_button, self.deny_button):
                if b is not None:
                    b.disabled = True
        for listener in self._listeners:
            listener()

    # --- what notebooks and static renderers see ------------------------------------------------

    def _static(self) -> Card:
        head = [self.status_text(), *self._gauge_lines()]
        if self.fork_at is not None:
            head.insert(0, t("ui.fork.note", k=self.fork_at))
        body = self.transcript(open_turns=OPEN_TURNS)
        extra = [self.compare()] if self.forks else []
        return Card(
            '<div class="hl-stepper-static">'
            + static_note()
            + "".join(f'<div style="font-size:13px">{html.escape(line)}</div>' for line in head)
            + body.html
            + "".join(c.html for c in extra)
            + "</div>",
            "\n".join(head + [body.text] + [c.text for c in extra]),
        )

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict:
        bundle = dict(self.widget._repr_mimebundle_() or {})
        static = self._static()
        bundle["text/plain"] = static.text
        bundle["text/html"] = static.html
        return bundle

    def __repr__(self) -> str:
        return self._static().text
