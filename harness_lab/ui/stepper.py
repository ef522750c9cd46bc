"""The Stepper: a panel of widgets over a ``Controller`` (lessons 2-6).

The controller steps the run; this module only draws it and turns clicks into the controller's
methods. Every button is also a method (``step``, ``run_all``, ``stop``, ``resume``, ``approve``,
``deny``, ``select``, ``fork``, ``compare``), so notebooks run headless under nbval and store the
same transcript a click would. Methods never wait: only the 「最後まで」 button paces its turns
(``SPEEDS``), so a person sees each one and can press 「停止」 in between.

Display goes only through widget value updates, never ``print`` inside an ``Output``: nbval would
find stray stdout fields in the stored outputs. A panel whose kernel is gone (restarted, shut down,
or a notebook reopened from its saved widget state) greys out and says so: ``panel_style.py``.
"""

from __future__ import annotations

import html
from typing import Any, Self

import ipywidgets as widgets

from ..events import ApprovalRequest, Decision, Finished, Stopped, Turn
from ..text import t
from .cards import Card
from .context_view import context_card
from .controller import Answered, Controller, suggested_limit
from .diagram import LESSON_VALVES, diagram, place_of
from .home_thread import HomeThread
from .limit_field import limit_field, read_limit
from .panel_style import panel_style_html, static_note
from .status import one_line
from .timeline import turn_card
from .timeline_panel import TimelinePanel
from .transcript import approval_card

__all__ = ["SPEEDS", "Stepper"]

# Seconds between turns of 「最後まで」 in a live kernel: long enough to read a turn and press 停止.
SPEEDS = {"slow": 1.5, "normal": 0.7, "fast": 0.2}
# Turns shown open in the conversation; older ones fold to one line (a 12-turn run stays short).
OPEN_TURNS = 1
RED, GREEN = "#c8372d", "#3f9a5a"


class Stepper(Controller):
    """An ipywidgets panel over one run: step, run to the end, stop, resume, approve or deny calls,
    see each turn's history and fork the run from any turn.

    ``Stepper(run, prompt)`` starts the run; ``Stepper(run)`` continues a run that was stopped
    (``run.resume()``), e.g. after a valve fired and its limit was raised, or a fork (``run.fork``).
    An exception inside the run ends the panel with the exception named in its status line and kept
    in ``error``; fix the cause, then ``resume()``.
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
        super().__init__(run, prompt, origin=origin, fork_at=fork_at)
        self._home = HomeThread()
        self._build(speed)
        self._refresh()

    def _changed(self) -> None:
        self._refresh()

    @property
    def delay(self) -> float:
        """Seconds 「最後まで」 waits between turns in a live kernel (the speed control)."""
        return SPEEDS[self.speed.value]

    # --- 「最後まで」 in a live kernel ----------------------------------------------------------

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
        self.running = True

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
                    self.running = False
                    self._refresh()

        self._refresh()
        loop.call_later(0, tick)

    def _go_on(self, paced: bool) -> Any:
        if paced:  # after a click on 許可 / 拒否: the rest at the chosen speed, like the button
            self._auto_run()
            return None
        return super()._go_on(paced)

    # --- time travel ------------------------------------------------------------------------------

    def select(self, k: int) -> Card:
        """Show turn ``k`` in the timeline: the history as it stood, and what the turn added."""
        self.timeline.select(k)
        return turn_card(self.run, k)

    def _spawn(self, run: Any, at: int) -> Self:
        child = type(self)(run, speed=self.speed.value, origin=self, fork_at=at)
        child._listeners.append(self.timeline.show_comparison)
        self.timeline.show_fork(child)
        return child

    def context(self) -> Card:
        """What filled each model request's input, against the context window (the コンテキスト tab)."""
        return context_card(self.run)

    # --- widgets --------------------------------------------------------------------------------

    def _build(self, speed: str) -> None:
        def button(key: str, style: str, icon: str) -> widgets.Button:
            # The tooltip speaks for a panel whose kernel was replaced, which no style sheet can see.
            return widgets.Button(
                description=t(key),
                button_style=style,
                icon=icon,
                tooltip=t("ui.stale.tooltip"),
                layout=widgets.Layout(width="auto"),
            )

        self.next_button = button("ui.button.next", "primary", "step-forward")
        self.all_button = button("ui.button.all", "", "fast-forward")
        self.stop_button = button("ui.button.stop", "warning", "stop")
        self.resume_button = button("ui.button.resume", "info", "play")
        self.limit_input = limit_field(t("ui.limit.label"), width="15em", display="none")
        self.steer_input = widgets.Text(
            placeholder=t("ui.steer.placeholder"),
            description=t("ui.steer.label"),
            layout=widgets.Layout(width="28em", display="none"),
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

        def gauge(key: str) -> widgets.Label:
            return widgets.Label(t(key), layout=widgets.Layout(width="7em"))

        # On a narrow panel the bar gives way, never the numbers beside it: a bar keeps its 300 px by
        # default, and a 430 px panel (900 px, file browser open) cut "2,412 / 40,000" to "2,412 / 40,00".
        # The numbers take the same room on both rows, so the two bars still end together.
        def bar() -> widgets.IntProgress:
            return widgets.IntProgress(value=0, min=0, max=1, layout=widgets.Layout(flex="0 1 auto", min_width="4em"))

        def reading() -> widgets.Label:
            return widgets.Label(layout=widgets.Layout(flex="0 0 auto", min_width="8em"))

        self.turns_bar, self.turns_label = bar(), reading()
        self.tokens_bar, self.tokens_label = bar(), reading()
        self.signature_label = widgets.Label()
        self.signature_label.add_class("hl-signature")  # wraps: panel_style.py
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
        # A hand-written loop keeps no signatures: no row for them.
        self.gauge_rows = {
            "turns": widgets.HBox([gauge("ui.gauge.turns"), self.turns_bar, self.turns_label]),
            "tokens": widgets.HBox([gauge("ui.gauge.tokens"), self.tokens_bar, self.tokens_label]),
        }
        if self.recorded:
            self.gauge_rows["signature"] = widgets.HBox([gauge("ui.gauge.signature"), self.signature_label])
        gauges = widgets.VBox(list(self.gauge_rows.values()))
        # A hand-written loop (lesson 6) keeps no RunState: it has a conversation, but no timeline to
        # fork from and no requests on record to split.
        pages = [(self.transcript_html, "ui.tab.conversation")]
        if self.recorded:
            pages += [(self.timeline.widget, "ui.tab.timeline"), (self.context_html, "ui.tab.context")]
        self.tabs = widgets.Tab(children=[page for page, _ in pages], titles=[t(key) for _, key in pages])
        controls = widgets.HBox(
            [
                self.next_button,
                self.all_button,
                self.stop_button,
                self.resume_button,
                self.limit_input,
                self.steer_input,
            ],
            layout=widgets.Layout(flex_flow="row wrap"),
        )
        # The line that says why a dead panel's buttons do nothing sits right above those buttons.
        stale = widgets.HTML(panel_style_html())
        if self.fork_at is None:
            head = [self.diagram_html, stale, controls, self.speed]
        else:
            # A fork's panel sits inside its original's timeline: the diagram is there already, and
            # the speed buttons go beside the step buttons, so the fork adds little height.
            note = f'<div class="hl-fork-note" style="font-weight:600">{html.escape(t("ui.fork.note", k=self.fork_at))}</div>'
            controls.children = (*controls.children, self.speed)
            head = [widgets.HTML(note), stale, controls]
        self.widget = widgets.VBox(
            [*head, gauges, self.status, self.approval_box, self.tabs], layout=widgets.Layout(width="100%")
        )
        self.widget.add_class("hl-stepper")

    def _resume_clicked(self) -> None:
        limit = None
        if self.stopped_by_limit() is not None:
            try:
                limit = read_limit(self.limit_input)
            except ValueError as unread:  # said where the limit's other refusals are, and nothing changes
                self.notice = str(unread)
                self._changed()
                return
        steer = self.steer_input.value if self.needs_steer() else None
        if self.resume(limit=limit, steer=steer):
            self.steer_input.value = ""

    def _approval_panel(self, request: ApprovalRequest) -> None:
        """Fresh 許可/拒否 buttons bound to this one tool_use id."""
        if self._approval_for == request.tool_use_id:
            return
        self._approval_for = request.tool_use_id
        tool_use_id = request.tool_use_id
        approve = widgets.Button(
            description=t("ui.button.approve"), button_style="success", icon="check", tooltip=t("ui.stale.tooltip")
        )
        deny = widgets.Button(
            description=t("ui.button.deny"), button_style="danger", icon="times", tooltip=t("ui.stale.tooltip")
        )
        approve.on_click(lambda _: self._safely(self._answer, tool_use_id, Decision(True), True))
        # The reason is read where the click is handled, after what was typed before it.
        deny.on_click(
            lambda _: self._safely(lambda: self._answer(tool_use_id, Decision(False, self.reason.value.strip()), True))
        )
        self.approve_button, self.deny_button = approve, deny
        self.reason.value = ""
        self.approval_box.children = [
            widgets.HTML(approval_card(request).html),
            widgets.HBox([approve, deny, self.reason]),
        ]

    def _safely(self, action: Any, *args: Any) -> Any:
        """Run a button's action on the panel's own thread (``home_thread.py``); show an error in
        the panel instead of losing it in a log."""
        return self._home.call(self._showing_errors, action, *args)

    def _showing_errors(self, action: Any, *args: Any) -> Any:
        try:
            return action(*args)
        except Exception as error:
            self.status.value = f'<div class="hl-status" style="color:{RED}">{html.escape(one_line(error))}</div>'
            raise

    # --- drawing ----------------------------------------------------------------------------------

    @property
    def valves(self) -> list:
        """The valves the loop diagram draws. A hand-written loop writes lesson 6's four inline, not
        as objects, so those are drawn for it; a ``Run`` draws exactly its own (none for a bare loop)."""
        valves = list(getattr(self.run, "valves", ()) or ())
        return valves if valves or self.recorded else list(LESSON_VALVES)

    def place(self) -> tuple[str, str | None]:
        """Where the run is in the loop diagram, and which valve (or stop) fired."""
        if isinstance(self.outcome, Finished):
            return "end", None
        if isinstance(self.outcome, Stopped):
            return place_of(self.outcome.cause, self.valves) or "loop_top", self.outcome.cause
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
            if not isinstance(entry, Answered):
                break
            if entry.decision is not None and not entry.decision.allowed:
                return "approval"
        return None

    def _bar(self, bar: widgets.IntProgress, value: int, limit: int | None, cause: str) -> None:
        if not limit:
            bar.layout.visibility = "hidden"  # the label beside it still says the number
            return
        bar.max, bar.value = limit, min(value, limit)
        fired = isinstance(self.outcome, Stopped) and self.outcome.cause == cause
        # Full is red while the run goes on (its next turn would stop it); a run that ended by itself on
        # its last allowed turn is red only past the limit.
        over = value > limit or (value == limit and not isinstance(self.outcome, Finished))
        bar.bar_style = "danger" if fired or over else ""
        bar.layout.visibility = "visible"

    def _refresh(self) -> None:
        g = self.gauges()
        self._bar(self.turns_bar, g["turns"], g["max_turns"], "max_turns")
        self._bar(self.tokens_bar, g["tokens"], g["budget"], "token_budget")
        lines = self.gauge_lines()
        self.turns_label.value = lines[0].split(": ", 1)[1]
        self.tokens_label.value = lines[1].split(": ", 1)[1]
        self.signature_label.value = g["signature"] or t("ui.gauge.none")
        failed = isinstance(self.outcome, Stopped) or self.error is not None
        color = RED if failed else GREEN if self.outcome else "inherit"
        self.status.value = (
            f'<div class="hl-status" style="font-weight:600;color:{color}">{html.escape(self.status_text())}</div>'
        )
        here, fired = self.place()
        self.diagram_html.value = diagram(here, fired, self.acted(), self.valves).html()
        self.transcript_html.value = self.transcript(pending=False, open_turns=OPEN_TURNS).html
        if self.recorded:
            self.context_html.value = context_card(self.run).html
            self.timeline.refresh()

        waiting = self.pending is not None
        self.next_button.disabled = self.done or waiting or self.running
        self.all_button.disabled = self.done or waiting or self.running
        self.stop_button.disabled = self.done or not self.started  # at rest there is nothing to stop
        self.resume_button.layout.display = None if self.resumable else "none"
        limited = self.stopped_by_limit()
        if limited is not None and self.limit_input.layout.display == "none":
            self.limit_input.value = str(suggested_limit(limited.limit))
        self.limit_input.layout.display = None if limited is not None else "none"
        self.steer_input.layout.display = None if self.needs_steer() else "none"
        if self.pending is not None:
            self._approval_panel(self.pending)
            self.approval_box.layout.display = "flex"
        else:
            self.approval_box.layout.display = "none"
            for b in (self.approve_button, self.deny_button):
                if b is not None:
                    b.disabled = True
        super()._changed()

    # --- what notebooks and static renderers see ------------------------------------------------

    def _static(self) -> Card:
        head = self._head_lines()
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
