"""Lesson 7 (notebook 06, the loop on the 2026 API): ``stop_message``, what the loop tells the person when
a response ends the run that no valve stopped.

``next_step`` (lesson 3) says "stop" for ``refusal``, ``model_context_window_exceeded`` and
``max_tokens``; this piece says why, in the person's terms: a refusal with the reason the API gives
in ``stop_details`` (its ``category`` and ``explanation``, either of which may be missing), a
window or ``max_tokens`` stop with the partial text the model had written (nothing the model said
is lost). A response the loop goes on with (``tool_use``, ``pause_turn``) or finishes with
(``end_turn``) gets None. It is checked on real responses from the emulator, with their
documented shapes (thinking blocks first).
"""

from __future__ import annotations

import contextlib
import io
import re
from functools import partial
from typing import Any

from ..emulator import call
from ..text import lang
from . import english
from .checking import Miss, Piece, Point, generated
from .scenes import response_of, said

__all__ = ["STOP_MESSAGE", "stop_message"]


def stop_message(response):
    """ループを止める応答なら、人に返す停止メッセージを、止めない応答なら None を返す"""
    text = "".join(b.text for b in response.content if b.type == "text")  # 途中まで書かれた答え
    if response.stop_reason == "refusal":
        details = response.stop_details  # 分類（category）と説明（explanation）。どちらも無いことがある
        category = (details.category if details else None) or "分類なし"
        explanation = (details.explanation if details else None) or "説明はありません"
        return f"モデルがこの依頼を断りました（{category}）: {explanation}"
    if response.stop_reason == "model_context_window_exceeded":
        return f"コンテキストウィンドウが一杯になり、答えが途中で切れました。ここまでの答え: {text}"
    if response.stop_reason == "max_tokens":
        return f"max_tokens に達して、答えが途中で切れました。ここまでの答え: {text}"
    return None  # tool_use / pause_turn は続け、end_turn などは答えで終わる


EXPLANATION = "The request could enable attacks on computer systems."  # the API's words, in English in both
# An answer cut off mid-sentence (notebook 02's scenario's words): no catalog entry, whose lesson texts are whole sentences.
PARTIAL = {"ja": "長い資料を要約します。第1章では", "en": "Here is a summary of the long document. Chapter 1 covers"}


_text = partial(said, "l7")  # a scripted response's text (``_said`` is what the learner's function said)


def _refused(details: Any, *parts: Any) -> Any:
    """A refusal as the API sends one before any output (``content == []``), or with ``parts`` the model
    had written when it declined midway."""
    return response_of(*parts, stop_reason="refusal", stop_details=details)


def _said(fn, response) -> str | Miss | None:
    """What ``fn`` returned for ``response``: the text, None, or a Miss for another type."""
    with contextlib.redirect_stdout(io.StringIO()) as shown:
        said = fn(response)
    stops = response.stop_reason in ("refusal", "model_context_window_exceeded", "max_tokens")
    if stops and not said and shown.getvalue().strip():  # the message went to the screen, the loop got nothing
        return Miss("lesson.l7.stop_message.printed")  # one cause on every stop: said once, then pointed back to
    if said is not None and not isinstance(said, str):
        return generated(said) or Miss("lesson.l7.stop_message.not_text", {"got": type(said).__name__})
    return said


def _silent(fn, reason: str) -> Miss:
    """An empty message on ``reason``; on every stop alike (a stub) that is one cause, said once, not per stop."""
    stops = (
        _refused({"type": "refusal", "category": "cyber", "explanation": EXPLANATION}),
        response_of(PARTIAL[lang()], stop_reason="model_context_window_exceeded"),
        response_of(PARTIAL[lang()], call("get_time"), stop_reason="max_tokens"),
    )
    try:
        everywhere = all(not _said(fn, response) for response in stops)
    except Exception:  # an error on one of them is a cause of its own, which its point says
        everywhere = False
    if everywhere:
        return Miss("lesson.l7.stop_message.silent_everywhere")
    return Miss("lesson.l7.stop_message.silent", {"reason": reason})


def _refusal_explained(fn) -> Miss | None:
    details = {"type": "refusal", "category": "cyber", "explanation": EXPLANATION}
    for response in (_refused(details), _refused(details, _text("declined"))):
        said = _said(fn, response)
        if isinstance(said, Miss):
            return said
        if not said:
            return _silent(fn, "refusal")
        if EXPLANATION not in said:
            return Miss("lesson.l7.stop_message.no_explanation")
        if "cyber" not in said:
            return Miss("lesson.l7.stop_message.no_category")
    return None


def _refusal_without_details(fn) -> Miss | None:
    said = _said(fn, _refused({"type": "refusal", "category": None, "explanation": None}))  # the API may say no more
    if isinstance(said, Miss):
        return said
    if not said or not said.strip():
        return _silent(fn, "refusal")
    if _NOTHING.search(said):  # an f-string (or JSON) of the missing fields shows the person None (null)
        return Miss("lesson.l7.stop_message.shows_none", {"got": said[:60]})
    # One field without the other: what there is still reaches the person.
    for details, wanted, key in (
        ({"type": "refusal", "category": "cyber", "explanation": None}, "cyber", "no_category"),
        ({"type": "refusal", "category": None, "explanation": EXPLANATION}, EXPLANATION, "no_explanation"),
    ):
        said = _said(fn, _refused(details))
        if isinstance(said, Miss):
            return said
        if not said or wanted not in said:
            return Miss("lesson.l7.stop_message." + key)
        if _NOTHING.search(said):
            return Miss("lesson.l7.stop_message.shows_none", {"got": said[:60]})
    return None


# Python's None (or JSON's null) printed where a field's value goes; not the English word in a
# sentence ("None of its reasons were given", "None was stated").
_NOTHING = re.compile(
    r"\bNone\b(?! (of|given|provided|stated|specified|(was|were|is|are) (given|provided|stated|specified))\b)|\bnull\b"
)


def _partial_text_kept(fn) -> Miss | None:
    partial = PARTIAL[lang()]
    half = (partial[: len(partial) // 2], partial[len(partial) // 2 :])
    cases = (
        (
            "model_context_window_exceeded",
            (partial,),
            response_of(partial, stop_reason="model_context_window_exceeded"),
        ),
        # cut off while writing a call, as a max_tokens stop often is: the last block is a tool_use. The text
        # comes in two blocks (a citation cuts it so too): all of it is what was written, not the first block.
        ("max_tokens", half, response_of(*half, call("get_time"), stop_reason="max_tokens")),
    )
    messages = []
    for reason, parts, response in cases:
        said = _said(fn, response)
        if isinstance(said, Miss):
            return said
        if not said:
            return _silent(fn, reason)
        if not all(part in said for part in parts):
            return Miss("lesson.l7.stop_message.lost_text", {"reason": reason})
        if not any(joint.join(parts) in said for joint in ("", "\n", " ")):  # a list's repr, or the blocks apart
            return Miss("lesson.l7.stop_message.text_apart", {"reason": reason, "got": said[:60]})
        rest = said
        for part in parts:  # what the message says besides the text (the blocks may be joined with a newline)
            rest = rest.replace(part, "", 1)
        if not rest.strip():
            return Miss("lesson.l7.stop_message.no_reason", {"reason": reason})
        messages.append(rest.strip())
    if messages[0] == messages[1]:  # the person's next step differs: a shorter history, or a larger max_tokens
        return Miss("lesson.l7.stop_message.same_reason", {"got": messages[0][:60]})
    return None


def _goes_on_quietly(fn) -> Miss | None:
    cases = (
        ("tool_use", response_of(_text("looking"), call("get_time"))),
        ("pause_turn", response_of(_text("searching"), stop_reason="pause_turn")),
        ("end_turn", response_of(_text("answer"))),
        ("end_turn", response_of(stop_reason="end_turn")),  # an empty answer is an answer: next_step finishes it
        ("stop_sequence", response_of(_text("answer"), stop_reason="stop_sequence", stop_sequence="###")),
    )
    for reason, response in cases:
        said = _said(fn, response)
        if isinstance(said, Miss):
            return said
        if said is not None:
            return Miss("lesson.l7.stop_message.not_none", {"reason": reason, "got": repr(said)[:40]})
    return None


STOP_MESSAGE = Piece(
    "stop_message",
    7,
    (
        Point("lesson.l7.stop_message.p1", _refusal_explained),
        Point("lesson.l7.stop_message.p2", _refusal_without_details),
        Point("lesson.l7.stop_message.p3", _partial_text_kept),
        Point("lesson.l7.stop_message.p4", _goes_on_quietly),
    ),
    stop_message,
    # content[0] of a refusal made before any output: the API sends its content empty
    rules=((re.compile(r"IndexError: (list|tuple) index out of range"), "lesson.empty_content"),),
    hint="lesson.hint.stop_message",
    english=english.stop_message,
)
