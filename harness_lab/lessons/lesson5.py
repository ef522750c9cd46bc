"""Lesson 5 (notebook 04): ``run_tool_uses`` with the approval valve before each high-impact call."""

from __future__ import annotations

import re
import reprlib
from collections.abc import Mapping
from functools import partial
from typing import Any

from ..emulator import call
from ..grading.sandbox import describe_error
from ..grading.spies import Recorder, logged
from ..messages import content_dicts, tool_calls
from ..text import t
from .checking import Miss, Piece, Point, interrupt_escapes, slip
from .scenes import another_apis_results, answer_rejected, fact, response_of, said, unchanged, unflagged

__all__ = ["HIGH_IMPACT", "RUN_TOOL_USES", "run_tool_uses"]

HIGH_IMPACT = {"write_file", "http_post", "delete_file"}


def run_tool_uses(content, impls, approve):
    """tool_use 1つにつき tool_result を1つ、呼び出しの順に。高インパクトなツールは実行の「前」に尋ねる"""
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        # 承認弁: 高インパクトなアクションは、実行の前に確認を取る。断られたら実行しない
        if block.name in HIGH_IMPACT and not approve(block.name, block.input):
            results.append(
                {
                    "type": "tool_result",
                    "tool_use_id": block.id,
                    "is_error": True,
                    "content": t("result.denied"),  # 断ったことをモデルに伝える文（ノートブックの言語で）
                }
            )
            continue  # 実行はしないが、tool_result は返す — 呼び出しを宙ぶらりんにしない
        try:
            results.append(
                {"type": "tool_result", "tool_use_id": block.id, "content": str(impls[block.name](**block.input))}
            )
        except Exception as err:
            results.append(
                {
                    "type": "tool_result",
                    "tool_use_id": block.id,
                    "content": t("result.failed", error=err),
                    "is_error": True,
                }
            )
    return results


MISSING = "sandbox/missing.md"

_said = partial(said, "l5")


def _note() -> dict:
    return {"path": "sandbox/report.md", "content": _said("summary")}


def _other() -> dict:
    return {"path": "config.txt", "content": _said("overwrite")}


def _tools(rec: Recorder) -> dict:
    """The tools as the notebook's are: named parameters, so ``impl(block.input)`` fails as it would there.

    ``read_file`` of ``MISSING`` raises, as a real file tool does.
    """
    said = {name: _said(name) for name in ("read_file", "write_file", "http_post", "delete_file")}
    spies = rec.tools({"get_time": "2026-08-26T10:42:07+09:00", **said})

    def get_time():
        return spies["get_time"]()

    def read_file(path):
        out = spies["read_file"](path=path)
        if path == MISSING:
            raise FileNotFoundError(_said("missing", path=path))
        return out

    def write_file(path, content):
        return spies["write_file"](path=path, content=content)

    def http_post(url, body):
        return spies["http_post"](url=url, body=body)

    def delete_file(path):
        return spies["delete_file"](path=path)

    tools = {"get_time": get_time, "read_file": read_file, "write_file": write_file}
    tools.update(http_post=http_post, delete_file=delete_file)
    for name, tool in tools.items():
        tool.__qualname__ = name  # what an error names: write_file(), as the notebook's own tool
    return tools


def _approver(rec: Recorder, decide) -> Any:
    """An approval callback shaped as the notebook's are: ``approve(name, tool_input)``."""
    log = rec.approver(decide)
    odd: list[str] = []  # questions asked with something else than (the tool's name, its input dict)

    def approve(name, tool_input):
        if not isinstance(name, str) or not isinstance(tool_input, dict):
            odd.append(f"approve({reprlib.repr(name)}, {reprlib.repr(tool_input)})")
        return log(name, tool_input)

    approve.__qualname__ = "approve"  # what an error names when the learner calls it another way
    approve.odd = odd  # type: ignore[attr-defined]
    return approve


def _yes(name: str, given: dict) -> bool:
    return True


def _asks_first(fn) -> Miss | None:
    rec = Recorder()
    response, approve = _write(), _approver(rec, _yes)
    returned = fn(response.content, _tools(rec), approve)
    if miss := _shape(returned):
        return miss
    if approve.odd:  # asked before running, but about something a person could not read as the call
        return Miss("lesson.l5.approve_args", {"got": approve.odd[0][:80]})
    asked = rec.asked("write_file")
    if asked and all(e.input != logged(_note()) for e in asked):  # asked, about another input than the call's
        return Miss("lesson.l5.approve_args", {"got": f"approve('write_file', {asked[0].input})"[:80]})
    if not asked:
        return _unasked(rec, "write_file", returned, response)
    if not rec.asked_before_ran("write_file", _note()):
        return Miss("lesson.l5.ran_before_asking")
    if len(rec.ran("write_file")) != 1:
        facts = [fact(r) for r in returned or ()]
        said = (facts[0]["text"] or "") if facts else ""
        if not rec.ran("write_file") and facts and facts[0]["is_error"]:
            if "write_file(" in said:  # it was called, and failed by how it was called
                return Miss("lesson.l5.call_failed", {"got": said[:80]})
            return Miss("lesson.l5.yes_refused")  # never called: approve's yes was read as a no
        return Miss("lesson.l5.approved_not_run")
    rec = Recorder()  # every name in HIGH_IMPACT, not only write_file
    post, gone = {"url": "https://example.com/hook", "body": _said("weekly")}, {"path": "sandbox/old.md"}
    response = response_of(
        _said("post_and_delete"), call("http_post", **post), call("delete_file", **gone), prompt=_said("next")
    )
    returned = fn(response.content, _tools(rec), _approver(rec, _yes))
    if miss := _shape(returned):
        return miss
    for name, given in (("http_post", post), ("delete_file", gone)):
        if not rec.asked_before_ran(name, given):
            return _answer_carried(fn, rec, name, given) or _unasked(rec, name, returned, response)
    return None


def _answer_carried(fn, rec: Recorder, name: str, given: dict) -> Miss | None:
    """A tool run unasked after another was asked about, though asked about when alone in a turn: the
    earlier answer was kept for it. Never asked even alone, or failing alone: the plain hint says enough."""
    if not rec.asked() or not rec.ran(name):
        return None
    alone, turn = Recorder(), response_of(_said("post_and_delete"), call(name, **given), prompt=_said("next"))
    try:
        fn(turn.content, _tools(alone), _approver(alone, _yes))
    except Exception:
        return None
    return Miss("lesson.l5.answer_carried", {"tool": name, "asked": rec.asked()[0].name}) if alone.asked(name) else None


def _shape(returned: Any) -> Miss | None:
    """A return value that is no list of results, named before anything it did is judged."""
    if returned is None:
        return Miss("lesson.l5.returned_none")
    if not isinstance(returned, (list, tuple)):  # a generator, a message dict, a string...
        return Miss("lesson.l5.not_list", {"got": type(returned).__name__})
    if (odd := next((r for r in returned if not isinstance(r, Mapping)), None)) is not None:  # outputs, tuples
        return Miss("lesson.l5.not_results", {"got": type(odd).__name__})  # no tool_use_id for the API to pair
    if len({id(r) for r in returned}) < len(returned):  # one dict, refilled and appended for every call
        return Miss("lesson.l2.run_tools.one_dict")
    return another_apis_results(returned)


def _unasked(rec: Recorder, name: str, returned: Any, response: Any) -> Miss:
    said = " ".join(str(fact(r)["text"]) for r in returned or ())
    if "approve()" in said:  # the call to approve itself failed, and a try turned it into a result
        return Miss("lesson.l5.approve_call", {"error": said[:120]})
    if not rec.ran(name) and len(returned) < len(tool_calls(response.content)):  # a return inside the for
        return Miss("lesson.l5.returned_early", {"calls": len(tool_calls(response.content)), "results": len(returned)})
    return Miss("lesson.l5.not_asked", {"tool": name})


def _point_1(fn, *keys: str) -> Miss | None:
    """Point 1's miss when it is one of ``keys``: a later point then sees only its consequences, and
    names their cause. No result at all (a return before or inside the for): a refusal with no result,
    calls that never ran. A yes read as a no (``== "y"``, a ``not`` slipped): an approved call that did
    not run. A tool run before approve was asked (the colleague's wiring): a no that ran it anyway."""
    miss = _asks_first(fn)
    return miss if miss is not None and miss.key in keys else None


def _nothing_returned(fn) -> Miss | None:
    return _point_1(fn, "lesson.l5.returned_early")


def _yes_refused(fn) -> Miss | None:
    return _point_1(fn, "lesson.l5.yes_refused")


def _write():
    return response_of(_said("saving"), call("write_file", **_note()))


def _no_means_not_run(fn) -> Miss | None:
    rec = Recorder()
    response = _write()
    before, calls = content_dicts(response.content), tool_calls(response.content)
    try:
        returned = fn(response.content, _tools(rec), _approver(rec, lambda name, given: False))
    except NotImplementedError:  # the unwritten TODO: it must count as unwritten, not as a refusal
        raise
    except Exception as exc:  # a no is an answer for the model, not an error of the harness (unless it was a slip)
        key = "lesson.l5.approve_call" if "approve()" in (error := describe_error(exc)) else "lesson.l5.denied_raised"
        return slip(exc, error) or Miss(key, {"error": error})
    if miss := _shape(returned):
        return miss
    if not returned and (miss := _nothing_returned(fn)):
        return miss
    if rec.ran("write_file"):  # a no that ran it: run before asking, or read backwards when a yes did not run it
        return _point_1(fn, "lesson.l5.ran_before_asking", "lesson.l5.yes_refused") or Miss("lesson.l5.ran_anyway")
    if not unchanged(before, response.content):  # the refused call taken out of the turn, say
        return Miss("lesson.l5.changed_content")
    facts = [fact(r) for r in returned or ()]
    if len(facts) != 1 or facts[0]["tool_use_id"] != calls[0]["id"]:
        return Miss("lesson.l5.denied_dropped")
    if not facts[0]["is_error"]:
        return unflagged(facts, "lesson.l5.denied_not_error")
    # No, yes, no in the same turn: each call is asked about, and decided, on its own (a yes is
    # not remembered for the next call of the same tool, a no does not stop the others).
    rec, note, other, third = Recorder(), _note(), _other(), {**_other(), "path": "/etc/hosts"}
    response = response_of(
        _said("time_and_three"),
        call("get_time"),
        call("write_file", **other),
        call("write_file", **note),
        call("write_file", **third),
        prompt=_said("next"),
    )
    approve = _approver(rec, lambda name, given: given == note)
    returned = fn(response.content, _tools(rec), approve)
    if miss := _shape(returned):
        return miss
    if approve.odd:  # asked about something else than the call: the person could not say yes to this one
        return Miss("lesson.l5.approve_args", {"got": approve.odd[0][:80]})
    ran = [e.input for e in rec.ran("write_file")]
    for given in (other, third):
        if logged(given) in ran and not rec.asked_before_ran("write_file", given):  # never put to approve
            return Miss("lesson.l5.yes_reused", {"path": given["path"]})
    if logged(other) in ran or logged(third) in ran:
        return Miss("lesson.l5.ran_anyway")
    if ran != [logged(note)]:
        if miss := _yes_refused(fn):  # a yes is never followed, alone as among others
            return miss
        # each asked, and the yes to one of them not followed: another call's answer decided it
        return Miss(
            "lesson.l5.answer_reused" if not ran and len(rec.asked("write_file")) == 3 else "lesson.l5.per_call"
        )
    facts = [fact(r) for r in returned]
    miss = _one_each(facts, response)
    if miss:
        return miss
    if not facts[1]["is_error"] or facts[2]["is_error"] or not facts[3]["is_error"]:
        return unflagged(facts, "lesson.l5.denied_not_error")
    return answer_rejected(_said("next"), response, returned) or _fails_closed(fn) or _no_answer_is_no(fn)


def _cannot_answer(name: str, given: dict) -> bool:
    raise RuntimeError(_said("no_screen"))


def _fails_closed(fn) -> Miss | None:
    """An approval that raises instead of answering is no yes: the call must not run (it may be
    answered as an is_error result, or the exception may stop the turn; either way nothing ran)."""
    rec, response = Recorder(), _write()
    try:
        returned = fn(response.content, _tools(rec), _approver(rec, _cannot_answer))
    except NotImplementedError:
        raise
    except Exception:  # the turn stopped before anything ran: closed, as it should be
        return Miss("lesson.l5.failed_open") if rec.ran("write_file") else None
    if rec.ran("write_file"):
        return Miss("lesson.l5.failed_open")
    if miss := _shape(returned):
        return miss
    facts = [fact(r) for r in returned]
    if [f["tool_use_id"] for f in facts] != [c["id"] for c in tool_calls(response.content)]:
        return Miss("lesson.l5.denied_dropped")  # answered, then: one result for the call, as a denial is
    return None if facts[0]["is_error"] else unflagged(facts, "lesson.l5.denied_not_error")


def _no_answer_is_no(fn) -> Miss | None:
    """An approval that answers None (a callback with no return on some path) said no yes: a loop that
    refuses only on an explicit False (``is False``, ``== False``) lets the call run."""
    rec, response = Recorder(), _write()
    noted = _approver(rec, lambda name, given: False)  # the spy answers a bool: this one answers nothing

    def approve(name, tool_input):
        noted(name, tool_input)

    returned = fn(response.content, _tools(rec), approve)
    if rec.ran("write_file"):
        return Miss("lesson.l5.unknown_allowed", {"got": "None"})
    return _shape(returned)


def _one_each(facts: list[dict], response: Any) -> Miss | None:
    """One result per call, in call order; results of an earlier call coming back named as such."""
    ids = [c["id"] for c in tool_calls(response.content)]
    got = [f["tool_use_id"] for f in facts]
    if len(got) > len(ids) and set(got) - set(ids):
        return Miss("lesson.l5.kept_results", {"calls": len(ids), "results": len(got)})
    if got != ids:
        return Miss("lesson.l5.results_order")
    return None


def _harmless_runs_and_all_answered(fn) -> Miss | None:
    rec = Recorder()
    response = response_of(
        _said("in_order"), call("get_time"), call("write_file", **_note()), call("read_file", path="inbox.md")
    )
    before = content_dicts(response.content)
    returned = fn(response.content, _tools(rec), _approver(rec, _yes))
    if miss := _shape(returned):
        return miss
    if not returned and (miss := _nothing_returned(fn)):
        return miss
    if {e.name for e in rec.asked()} - {"write_file"}:
        return Miss("lesson.l5.asked_harmless")
    if sorted({e.name for e in rec.ran()}) != ["get_time", "read_file", "write_file"]:
        return _yes_refused(fn) or Miss("lesson.l5.not_all_ran")
    facts = [fact(r) for r in returned or ()]
    miss = _one_each(facts, response)
    if miss:
        return miss
    if not unchanged(before, response.content):
        return Miss("lesson.l5.changed_content")
    if miss := _failures_answered(fn):
        return miss
    # These results went into the history as this turn's message: the next call must leave them as they were.
    if [fact(r) for r in returned] != facts:
        return Miss("lesson.l5.reused_list")
    return answer_rejected(_said("save_it_all"), response, returned)


def _failures_answered(fn) -> Miss | None:
    """A tool that raises and a tool nobody wired: each an is_error result, the other calls still run."""
    rec = Recorder()
    search = call("search", query=_said("weekly"))
    response = response_of(
        _said("searching"), call("read_file", path=MISSING), search, call("get_time"), prompt=_said("next")
    )
    try:
        returned = fn(response.content, _tools(rec), _approver(rec, _yes))
    except NotImplementedError:
        raise
    except Exception as exc:  # the point is exactly that nothing escapes: say which exception did
        return Miss("lesson.l5.tool_raised", {"error": describe_error(exc)})
    if miss := _shape(returned):
        return miss
    facts = [fact(r) for r in returned]
    ids, got = [c["id"] for c in tool_calls(response.content)], [f["tool_use_id"] for f in facts]
    if got and got == [i for i in ids if i in got] and ids[-1] in got and len(got) < len(ids):
        return Miss("lesson.l5.failure_dropped")  # the working call answered, in order; the failed ones not at all
    miss = _one_each(facts, response)
    if miss:
        return miss
    if not (facts[0]["is_error"] and facts[1]["is_error"]) or facts[2]["is_error"] or not rec.ran("get_time"):
        return unflagged(facts, "lesson.l5.failure_not_error")
    if miss := answer_rejected(_said("next"), response, returned):
        return miss
    # Last: another call to fn may empty a list it reuses, which the check above reads.
    return interrupt_escapes(lambda tool: fn(response_of(call("get_time")).content, {"get_time": tool}, _yes))


RUN_TOOL_USES = Piece(
    "run_tool_uses",
    5,
    (
        Point("lesson.l5.p1", _asks_first),
        Point("lesson.l5.p2", _no_means_not_run),
        Point("lesson.l5.p3", _harmless_runs_and_all_answered),
    ),
    run_tool_uses,
    hint="lesson.hint.run_tool_uses",
    shape="run_tool_uses(content, impls, approve)",
    rules=((re.compile(r"approve\(\) (takes|missing|got an unexpected)"), "lesson.l5.approve_call"),),
)
