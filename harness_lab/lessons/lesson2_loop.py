"""Lesson 2 (notebook 01): the checks of the bare ``run_agent`` loop, on the weather world of ``lesson2``."""

from __future__ import annotations

import json
import re
from typing import Any

import anthropic

from ..emulator import call, emulated_client, redacted, reply, say
from ..grading.spies import Recorder
from . import english_pieces
from .checking import Miss, Piece, Point, generated
from .lesson2 import _said, run_agent
from .lesson2_world import weather_impls
from .scenes import (
    Recording,
    api_refusal,
    blocks,
    fact,
    kept_whole,
    runaway_guard,
    scene_tools,
    scripted,
    swallowed,
    thought,
    tool_runner,
    user_turn,
)

__all__ = ["RUN_AGENT"]


def _drive(fn, script, limit: int = 12, rec: Recorder | None = None) -> tuple[Any, Any, Recording]:
    """Run the learner's loop against ``script``, its tools logging to ``rec``; (what it returned or the
    400's hint, the emulator that served it, the client that noted each response)."""
    emulator = runaway_guard(script, limit)
    try:
        impls = weather_impls(rec or Recorder())
        returned = fn(emulated_client(emulator), _said("ask"), scene_tools(), impls)
    except anthropic.BadRequestError as exc:
        return api_refusal(exc, emulator.requests[-1].get("messages")), emulator, Recording(emulator)
    return tool_runner(emulator) or swallowed(emulator) or returned, emulator, Recording(emulator)


def _answers_at_once(fn) -> Miss | None:
    for _ in range(2):  # twice: a history kept outside the function would carry the first run into the second
        returned, emulator, _client = _drive(fn, scripted(reply(thought(), _said("answer"))))
        if isinstance(returned, Miss):
            return returned
        if returned != _said("answer"):
            return _not_the_answer(returned)
        if emulator.requests and len(emulator.requests[0]["messages"]) != 1:
            return Miss("lesson.l2.run_agent.stale_history", {"count": len(emulator.requests[0]["messages"])})
    # An answer cut off at max_tokens has no tool_use either: only "tool_use" keeps the loop going.
    cut = _said("answer")[: len(_said("answer")) // 2]
    returned, emulator, _client = _drive(fn, scripted(reply(thought(), cut, stop_reason="max_tokens")))
    if len(emulator.requests) > 1:
        return Miss("lesson.l2.run_agent.went_on")
    if isinstance(returned, Miss):
        return returned
    if returned != cut:
        return _not_the_answer(returned)
    # Cut off inside a call, a reply still holds its tool_use block, its input perhaps half written:
    # whether to run it is stop_reason's to say, not the content's.
    half_call = reply(thought(), cut, call("get_weather", city=_said("osaka")), stop_reason="max_tokens")
    returned, emulator, _client = _drive(fn, scripted(half_call, reply(thought(), _said("answer"))))
    if len(emulator.requests) > 1:
        return Miss("lesson.l2.run_agent.cut_call_ran")
    return returned if isinstance(returned, Miss) else None


def _carries_two_turns(fn) -> Miss | None:
    # Text beside the calls that sounds like an ending: only stop_reason says whether the turn is over.
    # The second turn's thinking comes back encrypted (redacted_thinking), so a loop that rebuilds only
    # the block types it knows loses it.
    # The answer comes in two text blocks: all of the text is the answer, not the block at one place.
    answer = _said("answer")
    script = scripted(
        reply(thought(), _said("osaka_first"), call("get_weather", city=_said("osaka"))),
        reply(redacted(), _said("tokyo_next"), call("get_weather", city=_said("tokyo"))),
        reply(thought(), answer[: len(answer) // 2], answer[len(answer) // 2 :]),
    )
    returned, emulator, client = _drive(fn, script)
    if isinstance(returned, Miss):
        return returned
    if miss := _never_asked(fn, emulator):
        return miss
    if len(emulator.requests) != 3:
        return Miss("lesson.l2.run_agent.requests", {"count": len(emulator.requests), "want": 3})
    if not kept_whole(client, emulator.requests):
        # the API takes a history put in newest first; only the order of what it carries shows that
        oldest_first = [{**r, "messages": r.get("messages", [])[::-1]} for r in emulator.requests]
        return Miss(f"lesson.l2.run_agent.{'newest_first' if kept_whole(client, oldest_first) else 'not_whole'}")
    if returned != answer:
        return _joined_with(returned, answer[: len(answer) // 2], answer[len(answer) // 2 :]) or _not_the_answer(
            returned
        )
    return None


def _never_asked(fn, emulator) -> Miss | None:
    """Point 1's miss when the loop sent no request at all (a stub that returns at once): point 1 cannot
    be met without asking the model either, so its cause is the one to name, not a loop that stops early."""
    return None if emulator.requests else _answers_at_once(fn)


def _joined_with(returned: Any, first: str, second: str) -> Miss | None:
    """The two text blocks joined with something between them (a newline, a space): the model wrote
    one text, cut where a block ends (a citation cuts it mid-sentence too)."""
    if not isinstance(returned, str) or len(returned) <= len(first + second):
        return None
    if returned.startswith(first) and returned.endswith(second):
        return Miss("lesson.l2.run_agent.joined_with", {"sep": repr(returned[len(first) : -len(second)])[:20]})
    return None


def _not_the_answer(returned: Any) -> Miss:
    if returned is None:
        return Miss("lesson.l2.run_agent.returned_none")
    if hasattr(returned, "stop_reason") and hasattr(returned, "content"):  # the whole response
        return Miss("lesson.l2.run_agent.returned_response")
    # an object's address differs on every point's call: without it, one cause reads the same each time
    return generated(returned) or Miss("lesson.l2.run_agent.not_text", {"got": _ADDRESS.sub("", repr(returned))[:60]})


_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def _one_message_per_turn(fn) -> Miss | None:
    osaka, tokyo = call("get_weather", city=_said("osaka")), call("get_weather", city=_said("tokyo"))
    script = scripted(reply(thought(), _said("both"), osaka, tokyo), say(_said("answer")))
    rec = Recorder()
    returned, emulator, _client = _drive(fn, script, rec=rec)
    if isinstance(returned, Miss):
        return returned
    if miss := _never_asked(fn, emulator):
        return miss
    if len(emulator.requests) < 2:
        return Miss("lesson.l2.run_agent.requests", {"count": len(emulator.requests), "want": 2})
    # The API merges the turn's user messages, so a person's word after the results is fine (lesson 5);
    # results split over several messages are not: the API docs say it teaches the model to stop
    # calling tools in parallel.
    turn = user_turn(emulator.requests[1]["messages"])
    holding = [found for found in (blocks(m, "tool_result") for m in turn) if found]
    if len(holding) != 1 or len(holding[0]) != 2:
        return Miss("lesson.l2.run_agent.split_results")
    results = holding[0]
    said = [fact(b) for b in results]
    if any(f["is_error"] for f in said) and rec.ran("get_weather"):  # the tool was reached, and called so it failed
        return Miss("lesson.l2.run_tools.call_failed", {"got": (said[0]["text"] or "")[:60]})
    if any(f["is_error"] for f in said) or not _weather_of_osaka(said[0]["text"] or ""):
        return Miss("lesson.l2.run_agent.tools_not_run", {"got": (said[0]["text"] or "")[:60]})
    return None


def _weather_of_osaka(text: str) -> bool:
    """Whether a result is what get_weather returned for Osaka (as JSON, escaped or not, or as text)."""
    try:
        value = json.loads(text)
    except ValueError:
        return _said("osaka") in text
    return isinstance(value, dict) and value.get("city") == _said("osaka")


RUN_AGENT = Piece(
    "run_agent",
    2,
    (
        Point("lesson.l2.run_agent.p1", _answers_at_once),
        Point("lesson.l2.run_agent.p2", _carries_two_turns),
        Point("lesson.l2.run_agent.p3", _one_message_per_turn),
    ),
    run_agent,
    shape="run_agent(client, user_input, tools, impls)",
    english=english_pieces.run_agent,
    stalled=lambda fn, seconds: Miss("lesson.l2.run_agent.stalled", {"seconds": seconds}),
)
