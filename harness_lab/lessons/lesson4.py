"""Lesson 4 (notebook 03): ``signature_of``, the flattened tool calls of a turn, and its check."""

from __future__ import annotations

import json
from functools import partial

from ..emulator import call
from ..messages import content_dicts
from .checking import Miss, Piece, Point, generated
from .scenes import response_of, said, thought, unchanged

__all__ = ["SIGNATURE_OF", "signature_of"]


def signature_of(content):
    """このターンの tool_use を「名前(引数の JSON)」にして、並べ替えて1本の文字列にする"""
    parts = [
        f"{b.name}({json.dumps(b.input, ensure_ascii=False, sort_keys=True)})" for b in content if b.type == "tool_use"
    ]
    return " | ".join(sorted(parts))  # 呼び出しの順番が違っても、同じ呼び出しなら同じ署名


_said = partial(said, "l4")


def _rethought() -> dict:
    """The next turn's thinking: the model thinks anew each turn, even before the same call."""
    return {**thought(), "thinking": _said("rethought")}


def _content(*calls, turn: int = 1, text: str | None = None, thinking: dict | None = None):
    # The thinking's text is shown, as on a model that summarizes it: a signature must not read it either.
    said, prompt = _said("looking") if text is None else text, _said("turn", turn=turn)
    return response_of(thinking or thought(), said, *calls, prompt=prompt, shown=True).content


def _same_call_same_signature(fn) -> Miss | None:
    content = _content(call("read_file", path="notes.txt", limit=100))
    before = content_dicts(content)
    a = fn(content)
    if not isinstance(a, str):
        return generated(a) or Miss("lesson.l4.signature.not_text", {"got": type(a).__name__})
    if not unchanged(before, content):  # the content is the history's: a signature only reads it
        return Miss("lesson.l4.signature.changed_content")
    if miss := _reads_more_than_calls(fn, (call("read_file", path="notes.txt", limit=100),), a):
        return miss
    b = fn(_content(call("read_file", limit=100, path="notes.txt")))  # same input, keys written the other way
    if a != b:
        return Miss("lesson.l4.signature.key_order", {"a": a[:60], "b": b[:60]})
    # ...and inside a nested object too (sort_keys sorts every level; sorting the top level by hand does not)
    outer = fn(_content(call("search", query="notes", filter={"lang": "ja", "year": 2026})))
    inner = fn(_content(call("search", query="notes", filter={"year": 2026, "lang": "ja"})))
    if outer != inner:
        return Miss("lesson.l4.signature.key_order", {"a": str(outer)[:60], "b": str(inner)[:60]})
    return None


def _reads_more_than_calls(fn, calls: tuple, signature) -> Miss | None:
    """Why the very same calls got another signature: it reads something besides their names and inputs.

    Criteria 2 and 3 compare other responses, whose ids, text and thinking differ too: each asks this
    first, so a signature that keeps the id is told about the id there as well, not about sorting.
    """
    if signature != fn(_content(*calls)):
        return Miss("lesson.l4.signature.unstable")
    if signature != fn(_content(*calls, turn=2)):  # the next turn: new ids
        return Miss("lesson.l4.signature.ids")
    for other in ({"text": _said("once_more")}, {"thinking": _rethought()}):
        if signature != fn(_content(*calls, **other)):
            return Miss("lesson.l4.signature.text")
    return None


_OTHERS = (
    call("read_file", path="todo.txt"),
    call("search", query="notes.txt"),
    call("delete_file", path="notes.txt"),
)


def _not_a_signature(fn) -> Miss | None:
    """Point 1's miss when no signature is a string (a stub's [] or None): the later points' comparisons
    would only see its consequence, one value for every call."""
    got = fn(_content(call("read_file", path="notes.txt", limit=100)))
    return (
        None
        if isinstance(got, str)
        else generated(got) or Miss("lesson.l4.signature.not_text", {"got": type(got).__name__})
    )


def _one_for_all(fn) -> Miss | None:
    """Point 2's miss when every call gets one and the same signature (a stub's ""): point 3's extra and
    reordered calls get it too, and that is the cause to name there, not calls left out."""
    base = fn(_content(call("read_file", path="notes.txt")))
    if all(fn(_content(other)) == base for other in _OTHERS):
        return Miss("lesson.l4.signature.collides", {"signature": str(base)[:60]})
    return None


def _different_calls_differ(fn) -> Miss | None:
    if miss := _not_a_signature(fn):
        return miss
    base = fn(_content(call("read_file", path="notes.txt")))
    for other in _OTHERS:
        if fn(_content(other)) == base:
            return Miss("lesson.l4.signature.collides", {"signature": str(base)[:60]})
    # A call left out, the last one or the first (a loop that keeps overwriting one variable keeps the last):
    # either way the turn signs as the read alone.
    both = (
        (call("read_file", path="notes.txt"), call("get_time")),
        (call("get_time"), call("read_file", path="notes.txt")),
    )
    if any(fn(_content(*calls)) == base for calls in both):
        return Miss("lesson.l4.signature.one_call")
    # Two long inputs that differ only at the end: a signature that cuts the JSON short makes them one.
    draft = _said("looking") * 20
    cut = fn(_content(call("write_file", path="notes.txt", content=draft + "1")))
    if cut == fn(_content(call("write_file", path="notes.txt", content=draft + "2"))):
        return Miss("lesson.l4.signature.cut", {"signature": str(cut)[:60]})
    twice = fn(_content(call("read_file", path="notes.txt"), call("read_file", path="notes.txt")))
    if twice == base:  # a set of calls: reading it twice is not the same turn as reading it once
        return Miss("lesson.l4.signature.twice", {"signature": str(base)[:60]})
    # Each call keeps its own name and its own arguments: names and inputs sorted apart, or values
    # without their keys, make two different turns one.
    pairs = (
        (
            (call("read_file", path="a.md"), call("delete_file", path="b.md")),
            (call("read_file", path="b.md"), call("delete_file", path="a.md")),
        ),
        ((call("write_file", path="a.md", content="b.md"),), (call("write_file", path="b.md", content="a.md"),)),
    )
    for first, second in pairs:
        signature = fn(_content(*first))
        if signature == fn(_content(*second)):
            return Miss("lesson.l4.signature.pairs", {"signature": str(signature)[:60]})
    return _many_turns_stay_apart(fn)


# Distinct turns enough that a digest cut to 4 hex digits (65,536 values) cannot keep them apart, by the
# birthday bound (a clash has odds of 1 - e^-128), while a whole digest or the text itself always does.
_MANY_TURNS = 4096


def _many_turns_stay_apart(fn) -> Miss | None:
    template = _content(call("read_file", path="notes.txt"))
    seen: dict = {}
    for number in range(_MANY_TURNS):
        path = f"notes_{number}.txt"
        content = [b.model_copy(update={"input": {"path": path}}) if b.type == "tool_use" else b for b in template]
        signature = fn(content)
        if signature in seen:
            values = {"signature": str(signature)[:60], "a": seen[signature], "b": path, "count": _MANY_TURNS}
            return Miss("lesson.l4.signature.digest", values)
        seen[signature] = path
    return None


def _order_of_calls_ignored(fn) -> Miss | None:
    if miss := _not_a_signature(fn) or _one_for_all(fn):
        return miss
    one = fn(_content(call("get_time"), call("read_file", path="a.txt")))
    two = fn(_content(call("read_file", path="a.txt"), call("get_time")))
    # A signature that leaves calls out also changes with their order: name that cause first.
    if fn(_content(call("get_time"))) in (one, two) or fn(_content(call("read_file", path="a.txt"))) in (one, two):
        return Miss("lesson.l4.signature.one_call")
    if one != two:
        return _swapped(fn, (call("get_time"), call("read_file", path="a.txt")), one)
    # Two calls of the same tool, in either order: sorting by the tool's name alone keeps them as they came.
    calls = (call("read_file", path="a.txt"), call("read_file", path="b.txt"))
    one = fn(_content(*calls))
    if one != fn(_content(*reversed(calls))):
        return _swapped(fn, calls, one)
    return None


def _swapped(fn, calls: tuple, signature) -> Miss:
    # The two orders are two responses, their ids swapped too: a signature that reads the id (or anything
    # else besides the calls) changes for that reason, sorted or not.
    return _reads_more_than_calls(fn, calls, signature) or Miss("lesson.l4.signature.call_order")


SIGNATURE_OF = Piece(
    "signature_of",
    4,
    (
        Point("lesson.l4.signature.p1", _same_call_same_signature),
        Point("lesson.l4.signature.p2", _different_calls_differ),
        Point("lesson.l4.signature.p3", _order_of_calls_ignored),
    ),
    signature_of,
    hint="lesson.hint.signature_of",
    shape="signature_of(content)",
)
