"""Watching the learner's ``run_tool_uses`` at level 1, one call at a time (the children's side).

Everything here that touches a learner object runs in a time-limited child of ``bridge.observe``:
each call gets its own copy of the model's response, and spy tools and an approver that answer from
the grader's side; what comes back is reduced to plain facts. ``seen_tiers`` is the grader's side:
the tier each call behaved as, read from the log the spies kept there.
"""

from __future__ import annotations

import copy
import inspect
import os
from collections.abc import Callable
from fnmatch import fnmatchcase
from typing import Any

from ..emulator import call
from ..messages import field, in_another_apis_shape, misspelled_is_error
from .level1_scene import _OBSERVED, INPUTS, REQUIRED_TIERS, UNLISTED_TOOL
from .policy_probe import exact_tier, items, listed, odd_tiers, rewrite, shape_of, tier_name
from .sandbox import describe_error, plain
from .scenarios import content_of, outputs
from .spies import SWAPPED, Recorder, Spies, misuse_of, remote_approver, remote_tools
from .wire import ends

__all__ = [
    "asked_without_an_answer",
    "fact_of",
    "observe_calls",
    "probe_calls",
    "returned_as",
    "returned_by",
    "seen_after",
    "returned_when_a_tool_fails",
    "returned_when_asking_fails",
    "results_kept",
    "seen_tiers",
    "structure_of",
    "tier_listed",
]


def _tier_seen(rec: Recorder, name: str, facts: list[dict]) -> str:
    """The tier a single call behaved as: asked → ask; ran and answered cleanly → allow; else deny.

    The scene holds one call, so any clean result answers it; whether the ids are right is
    criterion 3's question. Three mistakes get names of their own: ``approve_args`` (the approver got
    the input where the name goes), the form of an approver call the notebook's approver refuses
    (``approve(name=…, input=…)``: that refusal, not the tier it left behind, is the cause), and
    ``fell_through`` (an error result, and then the tool ran anyway: a refusal without its ``continue``).
    """
    if rec.asked(SWAPPED):
        return "approve_args"
    if form := misuse_of(rec.events):
        return form
    if rec.asked(name):
        return "ask"
    answering = [f for f in facts if f["tool_use_id"] is not None] or facts  # an extra block answers no call
    facts = [f for f in facts if f["tool_use_id"] == answering[-1]["tool_use_id"]]  # this call's, not a kept list's
    answered = [f for f in facts if not f["is_error"]]
    if rec.ran(name) and answered:
        return "fell_through" if len(answered) < len(facts) else "allow"
    return "deny"


def results_kept(calls: list) -> str | None:
    """The grader's side: the first tool whose single call got results answering other calls as well (a
    results list kept between calls, outside run_tool_uses), or None."""
    for name, (kind, value) in calls:
        if (
            kind != "error" and len({fact["tool_use_id"] for fact in value} - {None}) > 1
        ):  # an id-less block is no call's
            return plain(name)
    return None


def seen_tiers(spies: Spies, prefix: str, calls: list) -> dict[str, tuple[str, str]]:
    """The grader's side: each call's tier from the log kept here, or the error it raised."""
    tiers = {}
    for name, (kind, value) in calls:
        name, rec = plain(name), spies.recorders[prefix + plain(name)]
        if kind == "error" and not misuse_of(rec.events):  # an approver called wrongly raised: the call is the cause
            tiers[name] = ("error", plain(value))
        else:
            tiers[name] = ("tier", _tier_seen(rec, name, value if kind != "error" else []))
    return tiers


def _observe_one(run_tool_uses: Callable, name: str, tag: str) -> tuple[str, Any]:
    """In the child: one call of ``name``; ("facts", the results as plain facts) or ("error", line)."""
    try:
        return "facts", _results(run_tool_uses, content_of(call(name, **INPUTS[name])), tag)
    except MemoryError:
        raise  # the job's own handler names the memory cap
    except Exception as exc:
        return "error", describe_error(exc)


def _shown(default: Any) -> str:
    """DEFAULT_TIER as the hint quotes it: an empty or blank string in quotes, or the hint reads 'is .'"""
    if isinstance(default, str) and not default.strip():
        return plain(repr(default), 40)
    return plain(default, 40)


def structure_of(policy: Any, default: Any) -> dict:
    """In the child: what POLICY and DEFAULT_TIER say by themselves, with no call of run_tool_uses
    (criterion 1's own facts, still there when run_tool_uses never returns)."""
    shape, shape_shown = shape_of(policy)
    tier = tier_name(default)
    return {
        "default": tier,
        "default_shown": _shown(default) if tier is None else tier,
        "default_odd": None if exact_tier(default) else plain(repr(default), 40),
        "odd": odd_tiers(policy, shape, REQUIRED_TIERS),
        "shape": shape,
        "shape_shown": shape_shown,
        "listed": {name: listed(policy, shape, name) for name in REQUIRED_TIERS},
    }


def observe_calls(policy: Any, default: Any, run_tool_uses: Callable) -> dict:
    unlisted = tier_listed(policy, UNLISTED_TOOL)
    # first: nothing the learner's code keeps has been said yet
    after = _after_another(run_tool_uses, tier_name(default))
    found = structure_of(policy, default)
    shape = found["shape"]
    found |= {
        "covering": {name: _covering(policy, shape, name) for name in REQUIRED_TIERS},
        "calls": [(name, _observe_one(run_tool_uses, name, "see:" + name)) for name in _OBSERVED],
        "after": after,
        "lazy": _lazy(run_tool_uses),
    }
    written = tier_listed(policy, UNLISTED_TOOL)  # a person's answer to the unlisted tool put into POLICY
    return found | {"rewritten": plain(written, 40) if written != unlisted else None}


def _lazy(run_tool_uses: Callable) -> str:
    """What an ``async def`` returns when called (none of its body runs), "" for a plain function."""
    if inspect.isasyncgenfunction(run_tool_uses):
        return "async_generator"
    return "coroutine" if inspect.iscoroutinefunction(run_tool_uses) else ""


def _after_another(run_tool_uses: Callable, default: str | None) -> str | None:
    """In the child: the unlisted tool called right after a listed one of another tier than the default,
    in one response (a tier kept from the block before shows there), and refused if asked; that listed
    tool's name, or None."""
    before = "send_email" if default == "allow" else "get_time"
    try:
        returned_by(run_tool_uses, content_of(call(before), call(UNLISTED_TOOL, **INPUTS[UNLISTED_TOOL])), "see:after")
    except MemoryError:
        raise  # the job's own handler names the memory cap
    except Exception:
        return None  # an error here is the single calls' to name
    return before


def seen_after(spies: Spies) -> str:
    """The grader's side: the tier the unlisted tool behaved as after another call (``_after_another``)."""
    rec = spies.recorders["see:after"]
    return "ask" if rec.asked(UNLISTED_TOOL) else "allow" if rec.ran(UNLISTED_TOOL) else "deny"


_WILDCARDS = str.maketrans("", "", "*?[]")  # a "*" that covers every name is a default, not a pattern


def _covering(policy: Any, shape: str, name: str) -> str | None:
    """An entry of the policy data that is not ``name`` but covers it: a prefix, a part or a wildcard."""
    try:
        if shape == "by_name":
            entries = items(policy)
        elif shape == "by_tier":
            entries = [entry for tier in items(policy) for entry in items(policy[tier])]
        else:
            return None
        for entry in entries:
            literal = entry.translate(_WILDCARDS) if type(entry) is str else ""
            if len(literal) > 1 and entry != name and (entry in name or fnmatchcase(name, entry)):
                return plain(entry, 40)
    except MemoryError:
        raise  # the job's own handler names the memory cap
    except Exception:
        return None
    return None


def probe_calls(policy: Any, run_tool_uses: Callable, shape: str, forced: dict, prefix: str) -> list:
    """In the child: change the learner's policy to ``forced`` (here only) and call each changed tool once."""
    restore = rewrite(policy, shape, run_tool_uses, forced, in_place=hasattr(os, "fork"))
    calls = []
    try:
        for name in forced:
            calls.append((name, _observe_one(run_tool_uses, name, prefix + name)))
            if calls[-1][1][0] == "error":
                break
    finally:
        restore()
    return calls


def _results(run_tool_uses: Callable, content: list, tag: str) -> list[dict]:
    """Call the learner's function on a fresh copy of ``content``; its results as plain facts."""
    return [fact_of(r) for r in returned_by(run_tool_uses, content, tag)]


def returned_by(run_tool_uses: Callable, content: list, tag: str, approve: Callable | None = None) -> list:
    return returned_as(run_tool_uses, content, tag, approve)[0]


def returned_as(
    run_tool_uses: Callable, content: list, tag: str, approve: Callable | None = None, *, fresh: bool = True
) -> tuple[list, str]:
    """The results of one call, and the type it returned them as when that is no list or tuple ("" else):
    a generator runs its tools only when read, and can be read once. ``fresh=False`` hands ``content``
    itself (a copy the caller owns), so the caller sees what the learner's code left of it."""
    approve = remote_approver(tag) if approve is None else approve
    returned = run_tool_uses(copy.deepcopy(content) if fresh else content, remote_tools(tag, outputs()), approve)
    kind = "" if returned is None or isinstance(returned, (list, tuple)) else plain(type(returned).__name__, 40)
    return (items(returned) if returned is not None else []), kind


def tier_listed(policy: Any, name: str) -> str | None:
    """The tier the learner's policy data gives ``name`` now (None when it cannot be read)."""
    try:
        return listed(policy, shape_of(policy)[0], name)
    except MemoryError:
        raise  # the job's own handler names the memory cap
    except Exception:
        return None


class ApprovalUnavailable(RuntimeError):
    """What the approver raises when asking the human fails (the prompt could not be shown)."""


def returned_when_asking_fails(run_tool_uses: Callable, content: list, tag: str) -> dict:
    """In the child: the call with an approver that logs the question, then raises instead of answering.

    Whether the tool ran is read from the grader's log; here only whether the learner's function
    let the error out, or else the results it returned, as plain facts.
    """
    asked = remote_approver(tag)

    def approve(*args: Any, **kwargs: Any) -> bool:
        asked(*args, **kwargs)
        raise ApprovalUnavailable("the approval prompt could not be shown")

    try:
        returned = returned_by(run_tool_uses, content, tag, approve)
    except MemoryError:
        raise  # the job's own handler names the memory cap
    except Exception:
        return {"raised": True, "facts": []}
    return {"raised": False, "facts": [fact_of(r) for r in returned]}


def asked_without_an_answer(run_tool_uses: Callable, content: list, tag: str) -> None:
    """In the child: the call with an approver that logs the question, then answers None (a prompt closed
    with neither a yes nor a no). Whether the tool ran is read from the grader's log; an error the
    learner's function let out left it unrun, which is what failing closed asks."""
    asked = remote_approver(tag)

    def approve(*args: Any, **kwargs: Any) -> None:
        asked(*args, **kwargs)

    try:
        returned_by(run_tool_uses, content, tag, approve)
    except MemoryError:
        raise  # the job's own handler names the memory cap
    except Exception:
        pass


def returned_when_a_tool_fails(run_tool_uses: Callable, content: list, tag: str, failing: str) -> dict:
    """In the child: the call with tools whose ``failing`` one is logged, then raises (a file not found).

    Whether the learner's function let the tool's error out, or else its results as plain facts."""
    tools = remote_tools(tag, outputs())
    spy = tools[failing]

    def broken(*args: Any, **kwargs: Any) -> Any:
        spy(*args, **kwargs)
        raise FileNotFoundError(2, "No such file or directory", "missing.md")

    tools[failing] = broken
    try:
        returned = run_tool_uses(copy.deepcopy(content), tools, remote_approver(tag))
        facts = [fact_of(r) for r in items(returned)] if returned is not None else []
    except MemoryError:
        raise  # the job's own handler names the memory cap
    except Exception as exc:
        return {"raised": plain(describe_error(exc), 200), "facts": [], "interrupt_caught": False}
    return {"raised": "", "facts": facts, "interrupt_caught": _interrupt_caught(run_tool_uses, content, tag, failing)}


def _interrupt_caught(run_tool_uses: Callable, content: list, tag: str, name: str) -> bool:
    """Ctrl-C pressed while ``name`` runs (KeyboardInterrupt): the person's stop, which ``except Exception``
    lets out; ``except BaseException`` or a bare ``except:`` makes one more failed result of it."""

    def pressed(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    try:
        run_tool_uses(copy.deepcopy(content), {**remote_tools(tag, outputs()), name: pressed}, remote_approver(tag))
    except MemoryError:
        raise
    except (KeyboardInterrupt, Exception):  # let out, or a failure of its own, which the facts above name
        return False
    return True


def fact_of(result: Any) -> dict:
    content = field(result, "content")
    if isinstance(content, (list, tuple)):  # a plain string in the list is read too: the API's 400 names that slip
        text = "".join(plain(b) if isinstance(b, str) else plain(field(b, "text", "") or "") for b in content)
    else:
        text = "" if content is None else plain(str(content))
    text = ends(text)  # searched for a reason and a tool's output only; 10 MB of it read as tampering
    use_id = field(result, "tool_use_id")
    kind = field(result, "type")
    return {
        "type": plain(kind) if isinstance(kind, str) else None,
        "tool_use_id": plain(use_id) if isinstance(use_id, str) else None,
        "is_error": _flag(flag := field(result, "is_error", False)),
        "flag_text": plain(flag) if isinstance(flag, str) else None,  # "true" written as a word: the API's 400
        "text": text,
        "other_api": in_another_apis_shape(result),
        "spelled": next(map(plain, filter(misspelled_is_error, result)), None) if isinstance(result, dict) else None,
    }


def _flag(value: Any) -> bool:
    """``is_error`` as the learner meant it: a string says what it says ("false" is no error), so a
    wrong type is left to the API's own 400, not read as the opposite."""
    if isinstance(value, str):
        return value.strip().lower() == "true"
    return bool(value)
