"""The Stepper's timeline tab: pick turn k, see the history as it stood and what the turn added, edit a
tool_result, an approval answer or a valve limit, and fork the run from there (lessons 3-5).

Every control is a plain widget the tests set and click (``select``, ``result_inputs``,
``decision_inputs``, ``limit_inputs``, ``fork_button``); the fork runs in its own Stepper below the
form, and a table puts the original and each fork side by side.
"""

from __future__ import annotations

import html
import json
from typing import Any

import ipywidgets as widgets

from ..events import Decision
from ..text import t
from .limit_field import limit_field, read_limit
from .status import valve_label
from .timeline import turn_card, turn_of, turns_of

__all__ = ["TimelinePanel"]


class TimelinePanel:
    """The widgets of the timeline tab of one Stepper."""

    def __init__(self, stepper: Any):
        self.stepper = stepper
        self.selected: int | None = None
        self.turns = widgets.ToggleButtons(
            options=[],
            description=t("ui.timeline.pick"),
            style={"button_width": "auto", "description_width": "initial"},
        )
        self.turns.observe(lambda change: self.stepper._safely(self._picked, change), "value")
        self.view = widgets.HTML(f'<div style="opacity:0.7">{html.escape(t("ui.timeline.hint"))}</div>')
        self.result_inputs: dict[str, widgets.Textarea] = {}
        self.decision_inputs: dict[str, widgets.ToggleButtons] = {}
        self.limit_inputs: dict[str, widgets.Text] = {}
        self.form = widgets.VBox()
        # Coloured only once a turn is picked: a disabled coloured button reads as live in dark themes.
        self.fork_button = widgets.Button(
            description=t("ui.timeline.fork_button_none"),
            button_style="",
            icon="code-branch",
            disabled=True,
            tooltip=t("ui.stale.tooltip"),
            layout=widgets.Layout(width="auto"),
        )
        self.fork_button.on_click(lambda _: self.stepper._safely(self.fork_from_form))
        self.comparison = widgets.HTML()
        # Each fork's own panel, folded: the comparison already says how it went. A fork that waits
        # for an approval opens by itself, so its 許可 / 拒否 buttons are never out of sight.
        self.forks_box = widgets.Accordion()
        self.widget = widgets.VBox(
            [self.turns, self.view, self.form, self.fork_button, self.comparison, self.forks_box]
        )
        self.widget.add_class("hl-timeline")
        self._updating = False

    # --- the turn buttons -----------------------------------------------------------------------

    def refresh(self) -> None:
        self.show_comparison()  # the original moved on: its column too
        views = turns_of(self.stepper.run)
        options = tuple((str(v.k), v.k) for v in views)
        if tuple(self.turns.options) == options:
            return
        self._updating = True
        try:
            self.turns.options = options
            self.turns.tooltips = [
                t(
                    "ui.timeline.tooltip",
                    k=v.k,
                    calls=", ".join(c["name"] for c in v.calls) or "-",
                    tokens=v.usage.total,
                )
                for v in views
            ]
            self.turns.value = self.selected if self.selected in {v.k for v in views} else None
        finally:
            self._updating = False

    def _picked(self, change: dict) -> None:
        if not self._updating and change["new"] is not None:
            self.stepper._safely(self._show, change["new"])

    def select(self, k: int) -> None:
        """Show turn ``k``: the history then, what it added, and the form to fork from it."""
        turn_of(self.stepper.run, k)  # a clear error for a turn that does not exist
        self.refresh()
        if self.turns.value == k:
            self._show(k)
        else:
            self.turns.value = k  # shows it through _picked

    def _show(self, k: int) -> None:
        self.selected = k
        self.view.value = turn_card(self.stepper.run, k).html
        self._build_form(k)

    # --- the fork form --------------------------------------------------------------------------

    def _build_form(self, k: int, forked: str = "") -> None:
        """The form for turn ``k``, filled from its record; ``forked`` names the fork just made from it."""
        view, run = turn_of(self.stepper.run, k), self.stepper.run
        head = t("ui.timeline.form_again", k=k, fork=forked) if forked else t("ui.timeline.form", k=k)
        rows: list[widgets.Widget] = [
            widgets.HTML(f'<div style="font-weight:600;margin-top:6px">{html.escape(head)}</div>')
        ]
        self.result_inputs, self.decision_inputs, self.limit_inputs = {}, {}, {}
        self._answers = {i: d.allowed for i, d in view.decisions.items()}  # as the original answered
        for call in view.calls:
            label = f"{call['name']}({json.dumps(call['input'], ensure_ascii=False)})"
            rows.append(
                widgets.HTML(
                    f'<div style="font-size:12px">{html.escape(t("ui.timeline.result_for", call=label, id=call["id"]))}</div>'
                )
            )
            text = view.result_text(call["id"])
            # tall enough to edit a file's lines in place, short enough to keep the form on one screen
            rows_needed = min(max(2, text.count("\n") + 1), 12)
            box = widgets.Textarea(value=text, rows=rows_needed, layout=widgets.Layout(width="95%"))
            self.result_inputs[call["id"]] = box
            rows.append(box)
        for tool_use_id, decision in view.decisions.items():
            name = next(c["name"] for c in view.calls if c["id"] == tool_use_id)
            toggle = widgets.ToggleButtons(
                options=[(t("ui.button.approve"), True), (t("ui.button.deny"), False)],
                value=decision.allowed,
                description=t("ui.timeline.answer_for", name=name),
                style={"description_width": "initial"},
            )
            toggle.observe(lambda _, i=tool_use_id: self.stepper._safely(self._answer_changed, i), "value")
            self.decision_inputs[tool_use_id] = toggle
            rows.append(toggle)
        for valve in run.valves:
            if hasattr(valve, "limit"):
                field = limit_field(t("ui.timeline.limit_for", valve=valve_label(valve.name)), valve.limit)
                self.limit_inputs[valve.name] = field
                rows.append(field)
        self.form.children = rows
        self.fork_button.description = t("ui.timeline.fork_button", k=k)
        self.fork_button.disabled, self.fork_button.button_style = False, "info"

    def _answer_changed(self, tool_use_id: str) -> None:
        """A new answer decides that call's result in the fork: its box says how, and takes no edit.

        Allowed, the call runs and its result is whatever it returns; denied, the model gets the
        denial. Answered as the original did, the box shows the recorded result again, editable.
        """
        box = self.result_inputs.get(tool_use_id)
        if box is None or self.selected is None:
            return
        allowed = self.decision_inputs[tool_use_id].value
        if allowed == self._answers[tool_use_id]:
            box.value, box.disabled = turn_of(self.stepper.run, self.selected).result_text(tool_use_id), False
        else:
            box.value = t("ui.timeline.result_runs" if allowed else "ui.timeline.result_denied")
            box.disabled = True

    def edits(self) -> dict:
        """What the learner changed in the form, as ``Stepper.fork`` keyword arguments.

        A call whose answer changed takes its result from that answer, never from its box."""
        k = self.selected
        if k is None:
            return {}
        view, run = turn_of(self.stepper.run, k), self.stepper.run
        results = {
            i: box.value
            for i, box in self.result_inputs.items()
            if not box.disabled and box.value != view.result_text(i)
        }
        decisions = {}
        for i, toggle in self.decision_inputs.items():
            if toggle.value != view.decisions[i].allowed:
                decisions[i] = Decision(True) if toggle.value else Decision(False, t("ui.timeline.flipped_deny"))
        current = {v.name: v.limit for v in run.valves if hasattr(v, "limit")}
        typed = {name: read_limit(field) for name, field in self.limit_inputs.items()}  # 2.5 is refused by name
        limits = {name: limit for name, limit in typed.items() if limit != current[name]}
        return {"results": results, "decisions": decisions, "limits": limits}

    def fork_from_form(self) -> Any:
        """「ターン k から分岐」: fork with the form's edits and run the fork (paced, like 「最後まで」)."""
        if self.selected is None:
            return None
        child = self.stepper.fork(self.selected, **self.edits())
        # The edits now belong to the fork (its panel and the comparison show them). The form goes back
        # to the turn's record: clicking the turn that is still picked sends no change to the kernel, so
        # a learner who picks it again to try something else would otherwise start from the last edits.
        # Its heading says so: a form that quietly showed the original answer again, beside a comparison
        # showing the fork's, read as if the change had been lost.
        self._build_form(self.selected, forked=t("ui.compare.fork", k=self.selected, n=len(self.stepper.forks)))
        child._auto_run()
        return child

    # --- forks and the comparison ---------------------------------------------------------------

    def show_fork(self, child: Any) -> None:
        n = len(self.forks_box.children) + 1
        self.forks_box.children = (*self.forks_box.children, child.widget)
        self.forks_box.set_title(n - 1, t("ui.timeline.fork_panel", label=t("ui.compare.fork", k=child.fork_at, n=n)))
        self.show_comparison()

    def show_comparison(self) -> None:
        forks = self.stepper.forks
        self.comparison.value = self.stepper.compare().html if forks else ""
        waiting = [i for i, fork in enumerate(forks) if fork.pending is not None]
        if waiting and self.forks_box.selected_index not in waiting:
            self.forks_box.selected_index = waiting[0]
