"""Lesson 3 (notebook 02): ``next_step``, the loop's decision on every ``stop_reason``, and its check.

The learner answers with one of four words, so the check can tell a right decision from a wrong
one without reading any prose: "run_tools", "resend", "finish" or "stop".
"""

from __future__ import annotations

import re
from collections.abc import Generator
from functools import partial
from types import SimpleNamespace
from typing import Any

from ..emulator import call, compaction_model, emulated_client, say
from ..model import DEFAULT_MODEL
from .checking import Miss, Piece, Point
from .scenes import response_of, said, scene_tools

__all__ = ["NEXT_STEP", "STEPS", "next_step"]

STEPS = ("run_tools", "resend", "finish", "stop")


def next_step(response):
    """この応答のあと、ループが次にすること: "run_tools" / "resend" / "finish" / "stop" """
    reason = response.stop_reason
    if reason == "tool_use":
        return "run_tools"  # ツールを実行し、結果を返して続ける
    if reason == "pause_turn":
        return "resend"  # assistant の内容をそのまま送り返して続ける（"続けて" は足さない）
    if reason in ("end_turn", "stop_sequence"):
        return "finish"  # 最終回答を返して終わる
    return "stop"  # max_tokens / refusal / model_context_window_exceeded、そして知らない値: 止めて報告


# A wrong word where the hint depends on the word, not only on the stop_reason.
BY_WORD = {("max_tokens", "finish"): "lesson.l3.next_step.max_tokens_finish"}


_said = partial(said, "l3")


def _expect(fn, cases) -> Miss | None:
    for reason, response, expected in cases:
        got = fn(response)
        if got is None:
            if _nothing_for_any(fn):  # one cause, said once: each point's own stop_reason would repeat it
                return Miss("lesson.l3.next_step.returned_nothing")
            return Miss("lesson.l3.next_step.returned_none", {"reason": response.stop_reason})
        if isinstance(got, Generator):  # a yield in the body: the call hands back a generator, never a word
            return Miss("lesson.l3.next_step.generator")
        if not isinstance(got, str) or got not in STEPS:
            return Miss("lesson.l3.next_step.vocabulary", {"got": repr(got)[:40], "steps": ", ".join(STEPS)})
        if got not in ((expected,) if isinstance(expected, str) else expected):
            return Miss(BY_WORD.get((reason, got), f"lesson.l3.next_step.{reason}"), {"got": got})
    return None


def _nothing_for_any(fn) -> bool:
    """Does ``fn`` return None whether the loop should go on, finish or stop (a stub, a print for a return)?"""
    responses = (
        response_of(_said("looking"), call("get_time")),
        response_of(say(_said("answer"))),
        response_of(call("get_time"), stop_reason="max_tokens"),
    )
    try:
        return all(fn(response) is None for response in responses)
    except Exception:  # an error on one of them is a cause of its own, which the point says
        return False


def _goes_on(fn) -> Miss | None:
    return _expect(
        fn,
        [
            ("tool_use", response_of(_said("looking"), call("get_time")), "run_tools"),
            ("pause_turn", response_of(_said("searching"), stop_reason="pause_turn"), "resend"),
            ("text_first", _unthought(response_of(_said("looking"), call("get_time"))), "run_tools"),
        ],
    )


def _unthought(response: Any) -> Any:
    """``response`` as a model that does not think sends it: its text (say) comes first."""
    return response.model_copy(update={"content": [b for b in response.content if b.type != "thinking"]})


def _finishes(fn) -> Miss | None:
    return _expect(
        fn,
        [
            ("end_turn", response_of(say(_said("answer"))), "finish"),
            ("empty_end_turn", response_of(stop_reason="end_turn"), "finish"),
            # No blocks at all, not even thinking: the API's empty end_turn, as a model without thinking sends it.
            ("empty_end_turn", response_of(stop_reason="end_turn").model_copy(update={"content": []}), "finish"),
            (
                "stop_sequence",
                response_of(_said("42"), stop_reason="stop_sequence", stop_sequence="###"),
                "finish",
            ),
        ],
    )


def _compacted() -> Any:
    """A response paused after compaction, as notebook 06 makes one: the summary (a compaction block) alone."""
    return emulated_client(["…"]).beta.messages.create(
        model=compaction_model(DEFAULT_MODEL),
        max_tokens=1024,
        tools=scene_tools(),
        messages=[{"role": "user", "content": "背景: " * 28000}],  # past the 50,000-token trigger
        context_management={
            "edits": [
                {
                    "type": "compact_20260112",
                    "trigger": {"type": "input_tokens", "value": 50000},
                    "pause_after_compaction": True,
                }
            ]
        },
        betas=["compact-2026-01-12"],
    )


def _stops_on_the_rest(fn) -> Miss | None:
    return _expect(
        fn,
        [
            ("max_tokens", response_of(call("get_time"), stop_reason="max_tokens"), "stop"),
            ("refusal", response_of(stop_reason="refusal"), "stop"),
            ("model_context_window_exceeded", response_of("…", stop_reason="model_context_window_exceeded"), "stop"),
            ("unknown", SimpleNamespace(stop_reason="a_value_from_next_year", content=[]), "stop"),
            # no answer to finish with: stopped as an unknown value, or resent as after pause_turn (notebook 06)
            ("compaction", _compacted(), ("stop", "resend")),
        ],
    )


NEXT_STEP = Piece(
    "next_step",
    3,
    (
        Point("lesson.l3.next_step.p1", _goes_on),
        Point("lesson.l3.next_step.p2", _finishes),
        Point("lesson.l3.next_step.p3", _stops_on_the_rest),
    ),
    next_step,
    shape="next_step(response)",
    rules=((re.compile(r"KeyError: 'a_value_from_next_year'"), "lesson.l3.next_step.unknown_raised"),),
)
