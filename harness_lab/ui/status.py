"""The panel's status line: where its run stands, in one sentence, and after a stop what 「再開」 needs."""

from __future__ import annotations

from typing import Any

from ..errors import describe
from ..events import Finished, Stopped
from ..text import CATALOG, t

__all__ = ["gauge_lines", "one_line", "status_line", "stop_words", "valve_label", "valve_named"]

ERROR_CHARS = 200
# The package's valves, and the stops only the loop or the panel itself makes (an interrupt; the API's).
VALVES = ("max_turns", "token_budget", "no_progress", "approval")
CAUSES = ("interrupted", "api_error", "max_tokens", "refusal", "model_context_window_exceeded", "unexpected")


def one_line(error: BaseException) -> str:
    """``ZeroDivisionError: division by zero``: the exception's type and the first line of its message."""
    text = describe(error).strip().splitlines()[0]  # describe(): even an exception whose str() raises
    return text if len(text) <= ERROR_CHARS else text[: ERROR_CHARS - 1] + "…"


def status_line(panel: Any) -> str:
    """The status of a Controller (or Stepper): an error, the end, a stop and how to go on, or the step."""
    if panel.error is not None:
        key = "ui.status.error" if panel.recorded else "ui.status.error_hand_written"
        return t(key, error=one_line(panel.error))
    if isinstance(panel.outcome, Finished):
        return t("ui.status.finished", stop_reason=panel.outcome.stop_reason)
    if isinstance(panel.outcome, Stopped):
        said = stop_words(panel.outcome, panel.recorded)
        # A Resume that was refused says why; otherwise, what Resume needs here.
        if panel.notice:
            return f"{said} — {panel.notice}"
        hint = _resume_hint(panel, panel.outcome)
        return t("ui.status.stopped_then", stopped=said.rstrip("。. "), hint=hint) if hint else said
    if panel.pending is not None:
        return t("ui.status.waiting")
    if panel.running:
        return t("ui.status.running")
    if panel.notice:
        return panel.notice
    return t("ui.status.ready") if not panel.entries else t("ui.status.paused")


def stop_words(stop: Stopped, worded_here: bool) -> str:
    """A stop after its × mark, naming what stopped the run once.

    The package words its own stops, and each reason names its valve or cause in its first words
    (「中断しました。…」, 「最大ターン数 8 に達したので、自分から停止します…」): 「× 停止: 中断しました」 read as
    stopping twice, so such a reason stands alone. ``worded_here`` says the valves' reasons are the package's
    (a harness_lab Run); an interrupt's always is. A reason someone else wrote (a hand-written loop's stop
    message, a learner's own valve) may not name its valve, so the cause goes before it."""
    if stop.cause in CAUSES or (worded_here and stop.cause in VALVES):
        return t("ui.status.stopped", reason=stop.reason)
    return t("ui.status.stopped_by", cause=valve_label(stop.cause), reason=stop.reason)


def _resume_hint(panel: Any, stop: Stopped) -> str:
    if panel.needs_steer():
        return t("ui.status.hint_steer")
    if panel.stopped_by_limit() is not None:
        return t("ui.status.hint_limit")
    # An interrupt's own message already says whether the run can be resumed.
    if stop.cause == "interrupted" or not panel.resumable:
        return ""
    return t("ui.status.hint_resume")


def gauge_lines(panel: Any) -> list[str]:
    """The gauges as lines of text. A hand-written loop keeps no signatures: no line for them."""
    g = panel.gauges()
    # separators as the context card prints them: 28,185 is read at a glance, 28185 is counted (a
    # turn limit too: the learner types 40,000 into 「新しい上限」 and reads it back here)
    turns = f"{g['turns']:,} / {g['max_turns']:,}" if g["max_turns"] is not None else f"{g['turns']:,}"
    tokens = f"{g['tokens']:,} / {g['budget']:,}" if g["budget"] is not None else f"{g['tokens']:,}"
    lines = [f"{t('ui.gauge.turns')}: {turns}", f"{t('ui.gauge.tokens')}: {tokens}"]
    if panel.recorded:
        lines.append(f"{t('ui.gauge.signature')}: {g['signature'] or t('ui.gauge.none')}")
    return lines


def valve_label(name: str) -> str:
    """A valve's name in the reader's words (最大ターン数); a learner's own valve shows by its name."""
    key = f"ui.valve.{name}"
    return t(key) if key in CATALOG else name


def valve_named(run: Any, name: str) -> Any:
    """The run's valve called ``name`` (by its ``name`` attribute or its class), or None."""
    class_names = {"max_turns": "MaxTurns", "token_budget": "TokenBudget"}
    for valve in getattr(run, "valves", ()) or ():
        if getattr(valve, "name", None) == name or type(valve).__name__ == class_names.get(name):
            return valve
    return None
