"""The scripted models the level-2 grader runs the learner's loop against (criterion 3).

A model that never stops asking for tools (one search a turn, or two or three at once), one that
answers after a few rounds, one that uses two tools and answers; and ``run_scene``, which runs the
learner's ``run_agent`` once against one of them in a child (``bridge.observe``) and keeps, on the
grader's side, what was sent and run: requests, tool turns, tool runs, and the API's 400 if any.
"""

from __future__ import annotations

import inspect
import json
import types
from collections.abc import Callable, Iterator
from functools import partial
from itertools import pairwise
from typing import Any

import anthropic

from ..emulator import Emulator, assistant_turns, call, reply, say
from ..emulator.transport import handler_for
from ..text import lang
from .bridge import Stop, bridged_client, observe, serve_http
from .sandbox import JobResult, plain
from .scenarios import outputs, tool_defs
from .spies import remote_tools
from .wire import ends

__all__ = [
    "RUNAWAY_MARGIN",
    "cut_in_a_call",
    "cut_off",
    "finishing_after",
    "function_of",
    "never_ending",
    "run_scene",
    "said",
    "two_tools",
]

# How far past N a capless loop may go before the scripted model ends the child.
RUNAWAY_MARGIN = 25
# How many times in a row the same refused request may come back before the child is ended: a 400 is the
# request's own fault, so a loop that sends it again unchanged would send it for ever.
REFUSED_AGAIN = 3
# What the scripted models say, in the grading language: a hint may quote what the learner's loop returned.
TEXTS = {
    "ja": {
        "answer": "README.md の1行目は「# エージェントハーネスの基礎」で、いまは 2026年8月26日の 10:42 です。",
        "more": "まだ手がかりを探します。",
        "clue": "手がかり {n}",
        "task": "README.md の1行目を読んで、それから今何時か教えて",
    },
    "en": {
        "answer": 'The first line of README.md is "# harness_lab", and it is 10:42 on 26 August 2026.',
        "more": "Still looking for clues.",
        "clue": "clue {n}",
        "task": "Read the first line of README.md, then tell me the time",
    },
}
TOOL_NAMES = ("search", "get_time", "read_file")


def said(what: str, **values: Any) -> str:
    return TEXTS[lang()][what].format(**values)


def never_ending(
    n: int, width: Callable[[int], int], silent: bool = False, quiet: bool = False
) -> Callable[[dict], Any]:
    """A model that asks for more searches every turn, with new arguments (so it is not spinning).

    Turn k asks for ``width(k)`` searches at once; ``silent``: every other turn holds its calls alone, no
    text (live models often say nothing before a call, and that response is a turn all the same);
    ``quiet``: every turn does.
    """

    clue, more = said("clue", n="{n}"), said("more")

    def policy(request: dict) -> Any:
        done = assistant_turns(request)
        calls = [call("search", query=clue.format(n=f"{done + 1}-{i + 1}")) for i in range(width(done))]
        return reply(*calls) if quiet or (silent and done % 2) else reply(more, *calls)

    return policy


def finishing_after(rounds: int) -> Callable[[dict], Any]:
    """A model that searches ``rounds`` times and then answers (the normal case)."""

    clue, answer = said("clue", n="{n}"), said("answer")

    def policy(request: dict) -> Any:
        done = assistant_turns(request)
        if done < rounds:
            return call("search", query=clue.format(n=done + 1))
        return say(answer)

    return policy


def cut_off(n: int) -> list:
    """One search, then an answer cut off at max_tokens: no tool_use, so the loop must end there."""
    answer = said("answer")
    return [call("search", query=said("clue", n=1)), reply(answer[: len(answer) // 2], stop_reason="max_tokens")]


def cut_in_a_call(n: int) -> list:
    """One search, then a reply cut off at max_tokens inside a second call: its tool_use block is there,
    perhaps half written, and only stop_reason says not to run it."""
    answer = said("answer")
    cut = reply(answer[: len(answer) // 2], call("search", query=said("clue", n=2)), stop_reason="max_tokens")
    return [call("search", query=said("clue", n=1)), cut, say(answer)]


def two_tools(n: int) -> list:
    return [call("get_time"), call("read_file", path="README.md"), say(said("answer"))]


class _Scene:
    """The grader's side of one run of the learner's loop: the model, the spy tools and the counts.

    A loop that goes ``RUNAWAY_MARGIN`` requests past N without stopping is ended here.
    """

    def __init__(self, script: Any, n: int) -> None:
        self.emulator, self.limit = Emulator(script), n + RUNAWAY_MARGIN
        self.model = serve_http(handler_for(self.emulator))
        self.turns: set[int] = set()  # tool turns: the request count at the moment each tool ran
        self.runs, self.rejected, self.reused = 0, "", False
        self.misplaced = ""  # where a rejected history put its tool results, when that was the mistake
        self.flag_text = ""  # a result's is_error written as a word ("true") in the rejected history
        self.miscalled = ""  # the first tool call in a form the notebook's tools refuse (the input by position)
        self.refusals: list[Any] = []  # the requests refused in a row, each a 400, to see one sent again
        self.runner = False  # a request came from the SDK's tool runner (client.beta.messages.tool_runner)

    def answer(self, message: tuple) -> Any:
        kind, _, *rest = message
        if kind == "impl":
            name = plain(rest[0])
            if "(" in name:  # a form, not a tool's name: the spy raises, and no tool ran
                self.miscalled = self.miscalled or name
                return ""
            self.runs += 1
            self.turns.add(len(self.emulator.requests))
            return outputs().get(name, "")  # in the grading language: a hint may quote it
        if kind != "http":
            raise ValueError(f"no spy answers {kind!r} here")
        status, headers, content = self.model(*rest)
        self.runner = self.runner or "BetaToolRunner" in str(rest[2])  # the SDK's x-stainless-helper header
        if self.emulator.requests and assistant_turns(self.emulator.requests[-1]) > self.limit:
            raise Stop({"runaway": True, "miscalled": self.miscalled})
        if status == 400:
            last = self.emulator.requests[-1] if self.emulator.requests else None
            self.rejected = _error_message(content)
            self.refusals.append(last)
            if len(self.refusals) > REFUSED_AGAIN and all(
                r == self.refusals[-1] for r in self.refusals[-REFUSED_AGAIN:]
            ):
                raise Stop({"retried": self.rejected or "?", "times": len(self.refusals), "miscalled": self.miscalled})
            self.reused = _one_list_reused(last)
            self.misplaced = _results_misplaced(last)
            self.flag_text = _flag_text(last)
        else:
            self.refusals = []
        return status, headers, content

    def summary(self, seen: dict) -> dict:
        """The counts kept here, with what the child says the loop returned (a str or None)."""
        if seen.get("raised_400"):
            return {
                "api_error": self.rejected or "?",
                "reused": self.reused,
                "misplaced": self.misplaced,
                "flag_text": self.flag_text,
            }
        returned, shown, lazy = seen["returned"], seen["shown"], seen.get("lazy", "")
        if not (returned is None or type(returned) is str) or type(shown) is not str or type(lazy) is not str:
            raise TypeError("not what the grader's child sends")
        return {
            "returned": returned,
            "shown": shown,
            "lazy": lazy,
            "asked": self.asked(),
            "displaced": self.task_not_first(),
            "dropped": self.dropped(),
            **self.counts(),
        }

    def asked(self) -> int:
        """The most times one request carried the task as a user message: more than once, the history of an
        earlier run came along (a messages list kept outside run_agent)."""
        return max((sum(1 for m in r.get("messages", []) if _is_task(m)) for r in self.emulator.requests), default=0)

    def task_not_first(self) -> int:
        """The first request (1-based) whose messages do not start with the task, else 0: each turn put at the
        top (newest first), or the oldest messages cut. The API accepts both; the model loses the task."""
        for number, request in enumerate(self.emulator.requests, 1):
            messages = request.get("messages") or [None]
            if not _is_task(messages[0]):
                return number
        return 0

    def dropped(self) -> int:
        """The first request (1-based) that carried no more messages than the one before, else 0: each turn adds
        the response and its results, so a history built again inside the loop keeps the model from its earlier turns."""
        sizes = [len(r.get("messages") or []) for r in self.emulator.requests]
        return next((number for number, (a, b) in enumerate(pairwise(sizes), 2) if b <= a), 0)

    def counts(self) -> dict:
        last = self.emulator.requests[-1].get("messages", []) if self.emulator.requests else []
        return {
            "calls": len(self.emulator.requests),
            "held": len(last) if isinstance(last, list) else 0,  # the messages the last request carried
            "rounds": len(self.turns),
            "runs": self.runs,
            "miscalled": self.miscalled,
            "runner": self.runner,
        }


def _is_task(message: Any) -> bool:
    """Is this message the user's task, as a string or as one text block?"""
    if not isinstance(message, dict) or message.get("role") != "user":
        return False
    content = message.get("content")
    if isinstance(content, list) and len(content) == 1 and isinstance(content[0], dict):
        content = content[0].get("text")
    return content == said("task")


def _messages(request: Any) -> Iterator[tuple[dict, list[dict]]]:
    """Each message of a request the learner's loop sent, with its content's blocks (none for a string)."""
    messages = request.get("messages") if isinstance(request, dict) else None
    for m in (m for m in messages if isinstance(m, dict)) if isinstance(messages, list) else ():
        content = m.get("content")
        yield m, [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def _one_list_reused(request: Any) -> bool:
    """Do two turns' result messages answer the same calls? One results list put into the history on
    every turn, emptied and refilled, leaves every earlier turn holding the latest turn's results."""
    answered = []
    for m, blocks in _messages(request):
        ids = tuple(b.get("tool_use_id") for b in blocks if b.get("type") == "tool_result")
        if ids and m.get("role") == "user":
            answered.append(ids)
    return len(set(answered)) < len(answered)


def _results_misplaced(request: Any) -> str:
    """Where the history put tool results the API cannot take: "assistant" (in a message of another role
    than user), "before" (ahead of the response whose calls they answer), else ""."""
    called: set = set()
    for m, blocks in _messages(request):
        called |= {b.get("id") for b in blocks if b.get("type") == "tool_use"}
        answered = {b.get("tool_use_id") for b in blocks if b.get("type") == "tool_result"}
        if answered and m.get("role") != "user":
            return "assistant"
        if answered - called:
            return "before"
    return ""


def _flag_text(request: Any) -> str:
    """The first tool_result's is_error written as a word ("true", "False"), else "": the API wants True or False."""
    for _, blocks in _messages(request):
        for b in blocks:
            if b.get("type") == "tool_result" and isinstance(b.get("is_error"), str):
                return plain(b["is_error"], 20)
    return ""


def _error_message(content: bytes) -> str:
    try:
        return plain(json.loads(content)["error"]["message"], 300)
    except (ValueError, KeyError, TypeError):
        return ""


def function_of(run_agent: Any) -> tuple[types.FunctionType | None, list[dict]]:
    """The plain function behind ``run_agent`` (through partials, bound methods and callable objects),
    and the keyword dicts of the partials on the way; the graders call it in the child, the lesson
    checks (``lessons.diagnosis``) to find the module a loop reads its limits from."""
    keywords: list[dict] = []
    for _ in range(8):
        if isinstance(run_agent, partial):
            keywords.append(run_agent.keywords)
            run_agent = run_agent.func
        elif isinstance(run_agent, types.MethodType):
            run_agent = run_agent.__func__
        elif isinstance(run_agent, types.FunctionType):
            return run_agent, keywords
        else:
            method = inspect.getattr_static(type(run_agent), "__call__", None)  # a callable object's own code
            if not isinstance(method, types.FunctionType):
                break
            run_agent = method
    return None, keywords


def _recapped(run_agent: Any, n: int, cap: int) -> list[Callable[[], Any]]:
    """In the child: MAX_TURNS made ``cap`` wherever ``run_agent`` reads it when it runs (its module's
    global, a default argument or a closure variable that took N, a partial's keyword); the undo
    steps, empty where there is no such place. A limit fixed when the cell ran is left alone: that
    is what this finds."""

    def took_n(value: Any) -> bool:
        return type(value) is int and value == n

    undo: list[Callable[[], Any]] = []
    fn, keywords = function_of(run_agent)
    if fn is not None:
        names = fn.__globals__
        if took_n(names.get("MAX_TURNS")):
            names["MAX_TURNS"] = cap
            undo.append(partial(names.__setitem__, "MAX_TURNS", n))
        if fn.__defaults__ and any(map(took_n, fn.__defaults__)):
            undo.append(partial(setattr, fn, "__defaults__", fn.__defaults__))
            fn.__defaults__ = tuple(cap if took_n(v) else v for v in fn.__defaults__)
        if fn.__kwdefaults__ and any(map(took_n, fn.__kwdefaults__.values())):
            undo.append(partial(setattr, fn, "__kwdefaults__", fn.__kwdefaults__))
            fn.__kwdefaults__ = {k: cap if took_n(v) else v for k, v in fn.__kwdefaults__.items()}
        for cell in fn.__closure__ or ():
            try:
                value = cell.cell_contents
            except ValueError:  # a cell not yet filled
                continue
            if took_n(value):
                cell.cell_contents = cap
                undo.append(partial(setattr, cell, "cell_contents", value))
    for given in keywords:
        for key, value in list(given.items()):
            if took_n(value):
                given[key] = cap
                undo.append(partial(given.__setitem__, key, value))
    return undo


def _scenario_capped(run_agent: Callable, task: str, n: int, cap: int) -> dict:
    """In the child: the loop run with MAX_TURNS changed to ``cap``; ``{"varied": False}`` where it cannot be.

    Whatever this child says, all it decides is whether a passing loop gets the note.
    """
    undo = _recapped(run_agent, n, cap)
    if not undo:
        return {"varied": False}
    try:
        return _scenario(run_agent, task)
    finally:
        for step in reversed(undo):
            step()


def _scenario(run_agent: Callable, task: str, twice: bool = False) -> dict:
    """In the child: run the learner's loop against the grader's model; what it returned. ``twice``: run it
    twice in one process, as a notebook runs it, and what the second run returned."""
    if twice:
        _scenario(run_agent, task)
    tools = [d for d in tool_defs() if d["name"] in TOOL_NAMES]
    try:
        returned = run_agent(
            bridged_client("model"),
            task,
            tools,
            remote_tools("tools", TOOL_NAMES),
        )
    except anthropic.BadRequestError:
        return {"raised_400": True}
    lazy = inspect.iscoroutine(returned) or inspect.isgenerator(returned) or inspect.isasyncgen(returned)
    if lazy:
        returned.close()  # its body never ran: nothing to finish, and no "never awaited" warning
    shown = plain(returned, 60)
    kind = plain(type(returned).__name__, 40) if lazy else ""
    return {"returned": ends(plain(returned)) if isinstance(returned, str) else None, "shown": shown, "lazy": kind}


def run_scene(
    learner: Callable[[], tuple], n: int, script: Any, timeout: float, twice: bool = False, cap: int | None = None
) -> JobResult:
    """One run of the learner's loop against ``script``; with ``cap``, MAX_TURNS is changed from ``n`` to it.

    A run that raised keeps the counts it got to, so a hint can say where it raised.
    """
    scene = _Scene(script, max(n, cap or n))
    task = said("task")
    if cap is not None:
        outcome = observe(lambda: _scenario_capped(learner()[1], task, n, cap), scene.answer, timeout)
    else:
        outcome = observe(lambda: _scenario(learner()[1], task, twice), scene.answer, timeout)
    if outcome.status == "error":
        return JobResult("error", value=scene.counts(), error=outcome.error)
    if outcome.status != "ok":
        return outcome
    if outcome.value == {"varied": False}:
        return JobResult("ok", value={"varied": False})
    return JobResult("ok", value=scene.summary(outcome.value))
