"""Lesson 2 (notebook 01): ``run_tools`` and the bare ``run_agent`` loop, their references and run_tools' checks
(run_agent's are in ``lesson2_loop``).

The references are what the lesson goes on with until the learner's own version passes; a notebook
shows them with ``lesson.show(name)``, so they are written for a lesson-2 reader.
"""

from __future__ import annotations

import json
from functools import partial
from typing import Any

from ..emulator import call
from ..grading.spies import Event, Recorder, logged
from ..messages import content_dicts, tool_calls
from ..model import DEFAULT_MODEL
from ..text import lang
from . import english_pieces
from .checking import Miss, Piece, Point, generated, interrupt_escapes
from .lesson2_world import WEATHER, CityNotFound, two_cities, weather_impls
from .scenes import (
    another_apis_results,
    answer_rejected,
    fact,
    response_of,
    said,
    thought,
    unchanged,
    unflagged,
)

__all__ = ["RUN_TOOLS", "run_agent", "run_tools"]

MODEL = DEFAULT_MODEL


def run_tools(content, impls):
    """このターンのすべての tool_use を実行し、tool_result のリストを呼び出しの順に返す"""
    results = []
    for block in content:
        if block.type != "tool_use":
            continue  # tool_use 以外（text・思考）は飛ばす
        try:
            output = impls[block.name](**block.input)  # モデルが名指ししたツールを、名指しされた引数で
            text = output if isinstance(output, str) else json.dumps(output, ensure_ascii=False)
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": text})
        except Exception as err:  # ツールが落ちても、ループは落とさない
            results.append(
                {
                    "type": "tool_result",
                    "tool_use_id": block.id,
                    "content": f"ツールの実行に失敗しました: {err}",
                    "is_error": True,
                }
            )
    return results


def run_agent(client, user_input, tools, impls):
    """stop_reason が "tool_use" のあいだ回り、最後の text を返す（制御弁のない、裸のループ）"""
    messages = [{"role": "user", "content": user_input}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response.content})  # content をまるごと
        results = run_tools(response.content, impls)
        messages.append({"role": "user", "content": results})  # 1ターン分の結果は1つの user メッセージに
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)  # 再代入
    return "".join(b.text for b in response.content if b.type == "text")


_said = partial(said, "l2")


# --- checks for run_tools --------------------------------------------------------------------


def _results(fn, impls: dict, by_call: bool = False) -> tuple[Any, Any, list | Miss]:
    """Call ``run_tools`` on two calls: (the response, what it returned, the results as facts), the facts
    being a Miss for a wrong shape; ``by_call``: every call answered in another order, put in call order.

    Every point starts here, so a wrong shape is named once, the same way, on every point; the order only
    on point 1, so the points that read one call's result read that call's own.
    """
    response = two_cities()
    before = content_dicts(response.content)
    returned = fn(response.content, impls)
    if not unchanged(before, response.content):  # calls taken out of it: every count below would read wrong
        return (response, returned, Miss("lesson.l2.run_tools.changed_content"))
    facts = _facts(returned)
    ids = [c["id"] for c in tool_calls(response.content)]
    if isinstance(facts, list) and len(facts) < len(ids) and [f["tool_use_id"] for f in facts] == ids[-1:]:
        # both calls are get_weather, and only the second one's result is left: it overwrote the first
        return (response, returned, Miss("lesson.l2.run_tools.by_name", {"uses": len(ids), "results": len(facts)}))
    if by_call and isinstance(facts, list) and sorted(str(f["tool_use_id"]) for f in facts) == sorted(ids):
        facts = sorted(facts, key=lambda f: ids.index(f["tool_use_id"]))
    return (response, returned, facts)


def _facts(returned: Any) -> list | Miss:
    """What ``run_tools`` returned as plain facts, or the Miss naming a wrong shape (said on every point)."""
    if returned is None:
        return Miss("lesson.l2.run_tools.returned_none")
    if isinstance(returned, dict) and "role" in returned and "content" in returned:
        return Miss("lesson.l2.run_tools.message")
    if not isinstance(returned, (list, tuple)):
        return generated(returned) or Miss("lesson.l2.run_tools.not_list", {"got": type(returned).__name__})
    if miss := another_apis_results(returned):
        return miss
    if len({id(r) for r in returned}) < len(returned):  # one dict, refilled and appended for every call
        return Miss("lesson.l2.run_tools.one_dict")
    facts = [fact(r) for r in returned]
    if any(f["type"] == "text" for f in facts):
        return Miss("lesson.l2.run_tools.text_in_results")
    return facts


def _each_call_answered(fn) -> Miss | None:
    impls = weather_impls(Recorder())
    response, first, facts = _results(fn, impls)
    if isinstance(facts, Miss):
        return facts
    ids = [c["id"] for c in tool_calls(response.content)]
    kinds = [f["type"] for f in facts]
    if len(facts) < len(ids):
        return Miss("lesson.l2.run_tools.too_few", {"uses": len(ids), "results": len(facts)})
    if len(facts) > len(ids):
        return Miss("lesson.l2.run_tools.count", {"uses": len(ids), "results": len(facts)})
    if any(kind != "tool_result" for kind in kinds):
        return Miss("lesson.l2.run_tools.type")
    got = [f["tool_use_id"] for f in facts]
    if got != ids:
        return Miss("lesson.l2.run_tools.order" if sorted(got, key=str) == sorted(ids) else "lesson.l2.run_tools.ids")
    # The next turn: the same function, a new response. Results kept from the last call must not come back.
    # It opens with an encrypted (redacted) thinking block: every block that is not a tool_use is skipped,
    # not only the kinds the lesson has shown so far.
    redacted = {"type": "redacted_thinking", "data": ""}
    again = response_of(redacted, _said("tokyo_only"), call("get_weather", city=_said("tokyo")), prompt=_said("again"))
    try:
        later = _facts(fn(again.content, impls))
    except AttributeError as exc:  # a block without .id / .name / .input taken for a call
        return Miss("lesson.l2.run_tools.other_blocks", {"error": str(exc)[:80]})
    if isinstance(later, list) and [f["tool_use_id"] for f in later] != [c["id"] for c in tool_calls(again.content)]:
        return Miss("lesson.l2.run_tools.kept_results", {"results": len(later)})
    # The first list is the previous turn's results message, already in the history: the next call
    # must leave it as it was (one list cleared and refilled on every call rewrites that message).
    if _facts(first) != facts:
        return Miss("lesson.l2.run_tools.reused_list")
    return _in_call_order(fn, impls)


def _in_call_order(fn, impls: dict) -> Miss | None:
    """Four calls in an order no sort gives back (by name, by city, by id), twice with other ids: results
    put in order by anything but the calls' own (a sort, a set of ids) do not come back in call order.
    Two calls alone came in the order a sort by city also gives, and a set of two ids kept it half the time."""
    for prompt in (_said("four"), _said("four_again")):
        cities = (_said("tokyo"), _said("osaka"), _said("tokyo"), _said("osaka"))
        response = response_of(_said("four"), *(call("get_weather", city=city) for city in cities), prompt=prompt)
        facts = _facts(fn(response.content, impls))
        if isinstance(facts, Miss):
            return facts
        ids, got = [c["id"] for c in tool_calls(response.content)], [f["tool_use_id"] for f in facts]
        if got != ids:
            return Miss(
                "lesson.l2.run_tools.order" if sorted(got, key=str) == sorted(ids) else "lesson.l2.run_tools.ids"
            )
    return None


def _output_as_text(fn) -> Miss | None:
    rec = Recorder()
    _, _, facts = _results(fn, weather_impls(rec), by_call=True)
    if isinstance(facts, Miss):
        return facts
    if not facts:
        return Miss("lesson.l2.run_tools.too_few", {"uses": 2, "results": 0})
    first = facts[0]
    if first["is_error"] and _is_the_output(first["text"]):  # it ran, and its output got flagged as a failure
        return Miss("lesson.l2.run_tools.output_flagged")
    if first["is_error"] and Event("impl", "get_weather", logged({"city": _said("osaka")})) in rec.events:
        # the tool was called as it should be and returned: what failed is the learner's code after it
        return Miss("lesson.l2.run_tools.own_code_failed", {"got": (first["text"] or "")[:80]})
    if first["is_error"]:  # this call works: the tool failed because of how it was called
        return Miss("lesson.l2.run_tools.call_failed", {"got": (first["text"] or "")[:80]})
    if not _is_text(first["content"]):
        return _not_text(first["content"])
    try:
        value = json.loads(first["text"])
    except ValueError:
        return Miss("lesson.l2.run_tools.not_json", {"got": first["text"][:60]})
    if value != WEATHER[lang()][_said("osaka")]:
        return Miss("lesson.l2.run_tools.wrong_output")
    if first["text"].isascii():  # the same JSON, its non-ASCII characters escaped as \uXXXX
        return Miss("lesson.l2.run_tools.ascii")
    return _list_as_json(fn) or _literals_as_json(fn) or _arguments_by_name(fn)


def _arguments_by_name(fn) -> Miss | None:
    """The model writes an input's keys in its own order: a tool given ``*block.input.values()`` gets
    them by position, so the unit lands where the city goes."""
    weather = WEATHER[lang()]

    def get_weather(city: str, unit: str = "celsius") -> dict:
        return weather[city]

    response = response_of(_said("two_cities"), call("get_weather", unit="celsius", city=_said("osaka")))
    facts = _facts(fn(response.content, {"get_weather": get_weather}))
    if isinstance(facts, Miss):
        return facts
    if facts and facts[0]["is_error"]:  # by position, the city is "celsius": no such city
        return Miss("lesson.l2.run_tools.by_position", {"got": (facts[0]["text"] or "")[:60]})
    return None


def _is_text(content: Any) -> bool:
    """A tool_result's content as the API takes text: a string, or a list of text blocks."""
    return isinstance(content, str) or (
        isinstance(content, list) and all(isinstance(b, dict) and b.get("type") == "text" for b in content)
    )


def _not_text(content: Any) -> Miss:
    if isinstance(content, list):  # ["..."]: a list the API reads as blocks, each item without its type
        return Miss("lesson.l2.run_tools.not_text_blocks")
    return Miss("lesson.l2.run_tools.not_text", {"got": type(content).__name__})


def _list_as_json(fn) -> Miss | None:
    # A tool that returns a list (notebook 01's get_forecast does) is JSON text too, not Python's repr.
    weather = WEATHER[lang()]
    _, _, facts = _results(fn, {"get_weather": lambda city: [weather[city]]}, by_call=True)
    if isinstance(facts, Miss):
        return facts
    text = facts[0]["text"] if facts and _is_text(facts[0]["content"]) else None
    try:
        value = json.loads(text) if text is not None else None
    except ValueError:
        value = None
    if value != [weather[_said("osaka")]]:
        got = text if text is not None else type(facts[0]["content"]).__name__ if facts else "?"
        return Miss("lesson.l2.run_tools.list_output", {"got": str(got)[:60]})
    return None


def _literals_as_json(fn) -> Miss | None:
    # Python's repr with ' made " reads as JSON until a value is True, False or None.
    _, _, facts = _results(fn, {"get_weather": lambda city: {"city": city, "rain": None, "open": True}}, by_call=True)
    if isinstance(facts, Miss) or not facts or not _is_text(facts[0]["content"]):
        return None  # what the other probes name
    try:
        value = json.loads(facts[0]["text"])
    except ValueError:
        value = None
    if value != {"city": _said("osaka"), "rain": None, "open": True}:
        return Miss("lesson.l2.run_tools.repr_output", {"got": str(facts[0]["text"])[:60]})
    return None


def _is_the_output(text: str | None) -> bool:
    try:
        return json.loads(text or "") in WEATHER[lang()].values()
    except ValueError:
        return False


def _failure_is_a_result(fn) -> Miss | None:
    rec = Recorder()
    try:
        _, _, facts = _results(fn, weather_impls(rec, fail=_said("osaka")), by_call=True)
    except CityNotFound:
        return Miss("lesson.l2.run_tools.raised")
    except Exception:
        if _answers_both(fn):  # fine without the failure: the failure went out as another exception (re-raised)
            return Miss("lesson.l2.run_tools.raised")
        raise
    if isinstance(facts, Miss) and facts.key == "lesson.l2.run_tools.by_name" and _answers_both(fn):
        return Miss("lesson.l2.run_tools.failure_dropped")  # only the failed call went unanswered: no overwrite
    if isinstance(facts, Miss):
        return facts
    if not facts:  # no result for any call, the failed one included: point 1's cause, not a missing flag
        return Miss("lesson.l2.run_tools.too_few", {"uses": 2, "results": 0})
    if not facts[0]["is_error"]:  # the first call is the one that failed
        return unflagged(facts, "lesson.l2.run_tools.not_error")
    if len(facts) == 2 and facts[1]["is_error"] and _is_the_output(facts[1]["text"]):
        return Miss("lesson.l2.run_tools.output_flagged")
    if len(facts) == 2 and facts[1]["is_error"]:  # the second call works: it failed by how it was called
        ran = Event("impl", "get_weather", logged({"city": _said("tokyo")})) in rec.events
        key = "lesson.l2.run_tools.own_code_failed" if ran else "lesson.l2.run_tools.call_failed"
        return Miss(key, {"got": (facts[1]["text"] or "")[:80]})
    if not facts[0]["content"]:  # no content at all, or an empty one: the API refuses the failure as it is
        return Miss("lesson.rule.error_without_content")
    if not _is_text(facts[0]["content"]):  # the message may be there, in a shape the API refuses
        return _not_text(facts[0]["content"])
    if _said("no_city") not in (facts[0]["text"] or ""):
        return Miss("lesson.l2.run_tools.no_message")
    if len(rec.ran("get_weather")) != 2 or len(facts) != 2:
        if not _answers_both(fn):  # one call answered even when none fails: point 1's cause, not the failure's
            return Miss("lesson.l2.run_tools.too_few", {"uses": 2, "results": len(facts)})
        return Miss("lesson.l2.run_tools.stopped_early")
    return _unknown_name_is_a_result(fn)


def _answers_both(fn) -> bool:
    """Does ``run_tools`` answer both calls when neither fails?"""
    _, _, facts = _results(fn, weather_impls(Recorder()))
    return isinstance(facts, list) and len(facts) == 2


def _unknown_name_is_a_result(fn) -> Miss | None:
    # A name missing from impls fails at the lookup, before any tool runs: that KeyError is a failed
    # call too (lesson 1's "try it" deletes get_forecast and expects an is_error result).
    try:
        _, _, facts = _results(fn, {})
    except KeyError:
        return Miss("lesson.l2.run_tools.unknown_name")
    if isinstance(facts, Miss):
        return facts
    if len(facts) != 2 or not all(f["is_error"] for f in facts):
        return Miss("lesson.l2.run_tools.unknown_name")
    return interrupt_escapes(lambda tool: fn(two_cities().content, {"get_weather": tool}))  # Ctrl-C is no failure


def _api_accepts(fn) -> Miss | None:
    response = two_cities()
    before = content_dicts(response.content)
    returned = fn(response.content, weather_impls(Recorder()))
    facts = _facts(returned)
    if isinstance(facts, Miss):
        return facts
    if not facts:  # the API's 400 is for an empty message, which here means no results: point 1's cause
        return Miss("lesson.l2.run_tools.too_few", {"uses": 2, "results": 0})
    if not unchanged(before, response.content) or _reorders(fn):  # the content goes into the history as it is
        return Miss("lesson.l2.run_tools.changed_content")
    if miss := answer_rejected(_said("ask"), response, returned):
        return miss
    # A failed call's result goes back too: a tool that raised, and a name missing from impls.
    for impls in (weather_impls(Recorder(), fail=_said("osaka")), {}):
        response = two_cities()
        try:
            returned = fn(response.content, impls)
        except Exception:  # an exception that escapes is point 3's to name
            continue
        facts = _facts(returned)
        if isinstance(facts, list) and len(facts) < len(tool_calls(response.content)):
            # a failed call left unanswered is point 3's cause: the 400 for it is said there, in its words
            return _failure_is_a_result(fn) or answer_rejected(_said("ask"), response, returned)
        if not isinstance(facts, Miss) and (miss := answer_rejected(_said("ask"), response, returned)):
            return miss
    return None


def _reorders(fn) -> bool:
    """Did ``run_tools`` reorder a content whose calls are not in name order (sorted in place)? The
    probes' two get_weather calls look the same in any order."""
    response = response_of(thought(), _said("two_cities"), call("get_weather", city=_said("osaka")), call("get_time"))
    before = content_dicts(response.content)
    try:
        fn(response.content, weather_impls(Recorder()))  # get_time is no tool here: an is_error result
    except Exception:
        pass  # an exception that escapes is point 3's to name
    return not unchanged(before, response.content)


RUN_TOOLS = Piece(
    "run_tools",
    2,
    (
        Point("lesson.l2.run_tools.p1", _each_call_answered),
        Point("lesson.l2.run_tools.p2", _output_as_text),
        Point("lesson.l2.run_tools.p3", _failure_is_a_result),
        Point("lesson.l2.run_tools.p4", _api_accepts),
    ),
    run_tools,
    shape="run_tools(content, impls)",
    english=english_pieces.run_tools,  # its failure text goes to the model
)
