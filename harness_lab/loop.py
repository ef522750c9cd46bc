"""The harness: lesson 6's ``runAgent`` as a generator you can step, with its four valves.

One ``next()`` is one turn: a model call plus the tools it asked for. ``stop_reason`` drives it;
each valve is checked at its own step, named in the code. An assistant message enters the history
only together with its tool results, so a stop anywhere — a valve, an API error, Ctrl-C — leaves
``messages`` valid to send again, and the response that was held back is picked up by ``resume()``.
"""

from __future__ import annotations

import inspect
import os
import reprlib
import sys
from dataclasses import dataclass
from typing import Any, Callable, Generator, Iterable

import anthropic

from .events import ApprovalRequest, Decision, Finished, Stopped, Turn, Usage
from .messages import assistant, field, text_of, tool_calls, tool_result, user
from .state import RunState
from .text import t
from .tools import Tool, ToolsInterrupted, as_tools, describe, result_text, run_calls
from .valves.progress import signature_of

__all__ = ["Outcome", "Run", "drain", "run"]

FINISH = ("end_turn", "stop_sequence")  # the model ended the run itself
TRUNCATED = ("max_tokens", "refusal", "model_context_window_exceeded")  # stop; never run a cut-off call

Event = Turn | ApprovalRequest | Finished | Stopped


def default_model() -> str:
    """``harness_lab.client.MODEL`` when the client module is loaded, else ``HARNESS_LAB_MODEL``.

    Looked up, not imported: the client module pulls in the emulator, which the loop must not.
    """
    client = sys.modules.get("harness_lab.client")
    return getattr(client, "MODEL", None) or os.environ.get("HARNESS_LAB_MODEL", "claude-sonnet-5")


class Run:
    """One conversation with the harness around it; ``start`` it, step it, ``resume`` it after a stop."""

    def __init__(self, client: Any, tools: Any = (), valves: Iterable = (), model: str | None = None,
                 max_tokens: int = 1024, system: str | None = None, tool_timeout: float | None = 30.0):
        self.client, self.tools, self.valves = _client(client), as_tools(tools), _valves(valves)
        self.max_tokens, self.system, self.tool_timeout = _max_tokens(max_tokens), system, tool_timeout
        self.state = RunState(model=model or default_model())
        self.end: Finished | Stopped | None = None  # how the last generator ended
        self._gen: Generator | None = None  # the one generator driving this run
        self._held_at: str | None = None  # the loop step whose valve held back ``state.pending``

    @property
    def messages(self) -> list:
        return self.state.messages

    def start(self, prompt: str | list) -> Generator[Event, Any, Finished | Stopped]:
        """Begin with the user's prompt; the generator yields each turn and ends with the outcome.

        After a ``Finished`` run, ``start`` asks a follow-up in the same conversation. While a run is
        under way it refuses: a second prompt would interleave with the first run's calls.
        """
        if self.state.messages and (self.end is None or self.state.pending is not None):
            raise RuntimeError(t("usage.running"))
        self.state.messages.append(user(_prompt(prompt)))  # checked first: a bad prompt would stay in the history
        return self._new_generator()

    def resume(self, valves: Iterable | None = None) -> Generator[Event, Any, Finished | Stopped]:
        """Go on after a stop (raise a limit first, or pass new valves); same history, same counters."""
        if not self.state.messages:
            raise RuntimeError(t("usage.not_started"))
        if valves is not None:
            self.valves = _valves(valves)
        if self.state.pending is not None and self._held_at == "after_response" and self.state.pending_user:
            self._set_aside(self.state.pending)  # NoProgress held a repeat and the user redirected
        if isinstance(self.end, Finished):  # the model had finished: only a new instruction goes on
            if not self.state.pending_user:
                return self._replay(self.end)
            self.state.messages.append(user([{"type": "text", "text": x} for x in self.state.pending_user]))
            self.state.pending_user = []
        return self._new_generator()

    def steer(self, text: str) -> None:
        """Add a user instruction; it goes out after the next tool results, in the same message.

        After a NoProgress stop, ``resume()`` answers the held-back repeat with ``is_error`` results
        instead of running it, and sends the instruction with them: the person has redirected.
        """
        self.state.pending_user.append(_instruction(text))  # checked now: a bad one would poison the history

    def _new_generator(self) -> Generator[Event, Any, Finished | Stopped]:
        # Only one generator drives a run: an older one still suspended (mid-turn, say) is closed,
        # which leaves its unanswered response held back for the new one.
        if self._gen is not None:
            self._gen.close()
        self._gen = self._drive()
        return self._gen

    def _drive(self) -> Generator[Event, Any, Finished | Stopped]:
        self.end, self._held_at = None, None
        self.end = yield from self._loop()
        yield self.end
        return self.end

    @staticmethod
    def _replay(end: Finished) -> Generator[Event, Any, Finished | Stopped]:
        yield end
        return end

    def _loop(self) -> Generator[Event, Any, Finished | Stopped]:
        s = self.state
        try:
            while True:
                if s.pending is None:  # nothing held back by an earlier stop: ask the model
                    if stop := self._preflight():  # valve 2 (before_request): would this request cross the budget?
                        return stop
                    try:
                        s.pending = self._create()
                    except anthropic.APIError as exc:  # raised after the SDK's own retries
                        return self._stopped("api_error", t("stop.api_error", error=_api_error(exc)))
                response = s.pending
                reason = field(response, "stop_reason")
                if reason in FINISH or (reason == "tool_use" and not tool_calls(response.content)):
                    return self._finish(response)
                if reason not in ("tool_use", "pause_turn"):  # truncated or refused: run nothing
                    return self._stopped(reason or "unexpected", self._abnormal(response), drop=True)
                # The lesson's top of the while body: may we go one more lap (tools + next request)?
                if stop := self._check("before_request"):  # valve 1 MaxTurns, valve 2 TokenBudget
                    return stop
                if reason == "pause_turn" and not tool_calls(response.content):  # send it back unchanged
                    self._commit(response, [], lap=True)
                    yield self._turn(response, ())
                    continue
                if stop := self._check("after_response"):  # valve 3 NoProgress: the same calls again?
                    return stop
                results = yield from self.run_tool_uses(response)  # valve 4 Approval, per tool_use
                self._commit(response, results)  # turns += 1 here, with the history
                yield self._turn(response, results)
        except ToolsInterrupted as cut:  # Ctrl-C while tools ran: keep what ran, so resume never repeats it
            response = s.pending
            self._commit(response, cut.results)
            try:
                yield self._turn(response, cut.results)
            except KeyboardInterrupt:  # pressed again: it asks for the stop that follows anyway
                pass
            return self._stopped("interrupted", t("stop.interrupted_tools"))
        except KeyboardInterrupt:  # between turns or at an approval: nothing ran, nothing half-written
            return self._stopped("interrupted", t("stop.interrupted"))

    # --- the steps the loop names -------------------------------------------------------------

    def _request(self) -> dict:
        request = {"model": self.state.model, "max_tokens": self.max_tokens, "messages": self.state.messages}
        if self.tools:  # passed on every request: history with tool blocks needs them
            request["tools"] = [one.definition for one in self.tools.values()]
        if self.system:
            request["system"] = self.system
        return request

    def _create(self) -> Any:
        request = self._request()
        try:
            response = self.client.messages.create(**request)
        except ValueError as exc:
            # The SDK refuses, before sending, a plain call whose max_tokens could outlast its 10-minute
            # timeout; streamed, the same request is allowed and ends in the same Message.
            if "Streaming is required" not in str(exc):
                raise
            with self.client.messages.stream(**request) as stream:
                response = stream.get_final_message()
        s = self.state
        used = Usage.of(field(response, "usage"))
        s.model_calls, s.usage, s.last_response = s.model_calls + 1, s.usage + used, response
        s.turn_usage.append(used)
        return response

    def _preflight(self) -> Stopped | None:
        budgets = [v for v in self.valves if getattr(v, "preflight", False) and hasattr(v, "before_send")]
        if not budgets:
            return None
        estimate = self._estimate()
        for valve in budgets:
            if reason := valve.before_send(self.state, estimate):
                return self._stopped(valve.name, reason)
        return None

    def _estimate(self) -> int:
        request = self._request()
        request.pop("max_tokens")
        try:
            return int(self.client.messages.count_tokens(**request).input_tokens)
        except Exception:  # no count_tokens (or it failed): the next prompt is at least the last one
            return self.state.turn_usage[-1].prompt_tokens if self.state.turn_usage else 0

    def _at(self, step: str) -> list:
        return [valve for valve in self.valves if getattr(valve, "step", None) == step]

    def _check(self, step: str) -> Stopped | None:
        for valve in self._at(step):
            if reason := valve.check(self.state):
                self._held_at = step
                return self._stopped(valve.name, reason)
        return None

    def run_tool_uses(self, response: Any) -> Generator[ApprovalRequest, Any, list]:
        """One tool_result per tool_use, in call order: decide each call first, then run the allowed ones.

        Yields an ``ApprovalRequest`` for each ``ask`` the approver cannot answer; the value sent back
        is coerced with ``Decision.coerce``, so a plain ``next()`` denies.
        """
        calls = tool_calls(response.content)
        results: list[dict | None] = [None] * len(calls)
        to_run: list[tuple[int, Tool]] = []
        for i, call in enumerate(calls):
            one = self.tools.get(call["name"])
            if one is None:
                known = ", ".join(self.tools) or "-"
                results[i] = tool_result(call["id"], t("result.unknown_tool", name=call["name"], known=known), True)
                continue
            tier = self._tier(call, one)
            if tier == "deny":  # forbidden by policy: the function is never entered
                results[i] = tool_result(call["id"], t("result.forbidden", name=call["name"]), True)
                continue
            if tier == "ask":
                decision = yield from self._ask(call)
                if not decision.allowed:
                    why = t("result.denied_reason", reason=decision.reason) if decision.reason else t("result.denied")
                    results[i] = tool_result(call["id"], result_text(why), True)  # bounded, valid UTF-8
                    continue
            to_run.append((i, one))
        cut = None
        try:
            answers = run_calls([(one, calls[i]["input"]) for i, one in to_run], self.tool_timeout)
        except ToolsInterrupted as exc:
            answers, cut = exc.answers, exc
        for (i, _), (text, is_error) in zip(to_run, answers):
            results[i] = tool_result(calls[i]["id"], text, is_error)
        if cut is not None:  # the loop records these results before it stops
            cut.results = results
            raise cut
        return results

    def _tier(self, call: dict, one: Tool) -> str:
        tiers = [v.tier(call["name"], call["input"], one.high_impact) for v in self._at("before_tool")]
        return max(tiers, key=("allow", "ask", "deny").index) if tiers else "allow"

    def _ask(self, call: dict) -> Generator[ApprovalRequest, Any, Decision]:
        request = ApprovalRequest(self.state.model_calls, call["id"], call["name"], call["input"])
        for valve in self._at("before_tool"):
            if (decision := valve.ask(request)) is not None:
                return decision
        return Decision.coerce((yield request))  # the caller answers; next() sends None: deny

    def _commit(self, response: Any, results: list, lap: bool = False) -> None:
        """Add the assistant message and its results (plus steering) to the history in one step.

        A ``pause_turn`` resend is a ``lap`` too: it counts as a turn, so MaxTurns bounds a server
        that keeps pausing. An empty response adds nothing (the API refuses empty messages).
        """
        s = self.state
        new = [assistant(response.content)] if response.content else []
        if lap:
            s.turns += 1
        if results:
            steering = [{"type": "text", "text": text} for text in s.pending_user]
            new.append(user(results + steering))
            s.pending_user = []
            s.turns += 1  # the lesson's turns++: a tool round is done
            s.signatures.append(signature_of(response.content))
        s.messages.extend(new)
        s.pending = None

    def _set_aside(self, response: Any) -> None:
        skipped = [tool_result(c["id"], t("result.skipped_steered"), True) for c in tool_calls(response.content)]
        self._commit(response, skipped)

    def _finish(self, response: Any) -> Finished:
        s = self.state
        self._commit(response, [])
        calls = tool_calls(response.content)
        if calls:  # tool_use blocks in a finished response still need their results
            s.messages.append(user([tool_result(c["id"], t("result.skipped"), True) for c in calls]))
        return Finished(text_of(response.content), field(response, "stop_reason"), s.turns, s.usage, tuple(s.messages))

    def _abnormal(self, response: Any) -> str:
        reason = field(response, "stop_reason")
        if reason == "refusal":
            details = field(response, "stop_details")
            explanation = field(details, "explanation") or field(details, "category") if details else None
            return t("stop.refusal", detail=f": {explanation}" if explanation else "")
        if reason in TRUNCATED:
            return t(f"stop.{reason}")
        return t("stop.unexpected", stop_reason=reason)

    def _stopped(self, valve: str, reason: str, drop: bool = False) -> Stopped:
        """The stop event; ``drop`` forgets a truncated response so that ``resume()`` asks again."""
        s = self.state
        text = text_of(s.pending.content) if s.pending is not None else ""
        if drop:
            s.pending = None
        return Stopped(valve, reason, s.turns, s.usage, tuple(s.messages), text)

    def _turn(self, response: Any, results: Iterable[dict]) -> Turn:
        s = self.state
        return Turn(
            request_number=s.model_calls, response=response, stop_reason=field(response, "stop_reason"),
            results=tuple(results), usage=s.turn_usage[-1] if s.turn_usage else Usage(), total=s.usage,
            signature=s.signatures[-1] if results else "",
            readings={v.name: v.reading(s) for v in self.valves},
        )


@dataclass(frozen=True)
class Outcome:
    """What ``run()`` hands back: the answer (or the stop), the counters and the history."""

    text: str
    stop: Finished | Stopped
    turns: int
    usage: Usage
    messages: list
    turn_usage: tuple = ()  # one Usage per model call, for the token-burn plot


def run(client: Any, prompt: str, tools: Any = (), valves: Iterable = (),
        approve: Callable[[ApprovalRequest], Any] | None = None,
        on_event: Callable[[Any], None] | None = None, **options: Any) -> Outcome:
    """Run the harness to its end, answering approval requests with ``approve`` (fails closed)."""
    if approve is not None and not callable(approve):
        raise TypeError(t("usage.approve", got=reprlib.repr(approve)))
    harness = Run(client, tools, valves, **_options(options))
    end = drain(harness.start(prompt), approve, on_event)
    return Outcome(end.text, end, end.turns, end.usage, list(harness.messages), tuple(harness.state.turn_usage))


def drain(gen: Generator, approve: Callable[[ApprovalRequest], Any] | None = None,
          on_event: Callable[[Any], None] | None = None) -> Finished | Stopped:
    """Step a ``Run`` generator to its last event; ``approve(request) -> Decision | bool`` answers asks."""
    event = next(gen)
    while not isinstance(event, (Finished, Stopped)):
        try:
            if on_event is not None:
                on_event(event)
            answer = _answer(approve, event) if isinstance(event, ApprovalRequest) else None
            event = gen.send(answer)
        except KeyboardInterrupt:  # Ctrl-C in our own code (at the approval prompt, say): stop cleanly
            event = gen.throw(KeyboardInterrupt())
    if on_event is not None:
        on_event(event)
    gen.close()
    return event


def _client(client: Any) -> Any:
    if not hasattr(getattr(client, "messages", None), "create"):
        raise TypeError(t("usage.client", got=reprlib.repr(client)))
    return client


def _valves(valves: Any) -> list:
    """The valves as a list, each checked now rather than failing mid-run at its step."""
    if hasattr(valves, "step") or not isinstance(valves, Iterable) or isinstance(valves, (str, dict)):
        raise TypeError(t("usage.valves", got=reprlib.repr(valves)))
    valves = list(valves)
    for valve in valves:
        if isinstance(valve, type):
            raise TypeError(t("usage.valve_class", name=valve.__name__))
        if not all(hasattr(valve, a) for a in ("name", "step", "check", "reading")):
            raise TypeError(t("usage.valve", got=reprlib.repr(valve)))
    return valves


def _options(options: dict) -> dict:
    """``run()``'s extra keywords, refused by name: a limit on turns or tokens is a valve, not an option."""
    known = [name for name in inspect.signature(Run).parameters if name not in ("client", "tools", "valves")]
    for name, value in options.items():
        if name not in known:
            valve = _VALVE_FOR.get(name)
            hint = t("usage.option_valve", valve=valve.format(reprlib.repr(value))) if valve else ""
            raise TypeError(t("usage.option", name=name, known=", ".join(known), hint=hint).rstrip())
    return options


_VALVE_FOR = {  # what a newcomer reaches for, and the valve that does it
    "max_turns": "hl.MaxTurns({})", "turns": "hl.MaxTurns({})", "max_iterations": "hl.MaxTurns({})",
    "token_budget": "hl.TokenBudget({})", "budget": "hl.TokenBudget({})", "max_total_tokens": "hl.TokenBudget({})",
    "no_progress": "hl.NoProgress()", "approval": "hl.Approval()", "policy": "hl.Approval(policy=...)",
}


def _max_tokens(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(t("usage.max_tokens", got=reprlib.repr(value)))
    return value


def _prompt(prompt: Any) -> Any:
    if isinstance(prompt, str) and prompt.strip() or isinstance(prompt, list) and prompt:
        return prompt
    error = ValueError if isinstance(prompt, (str, list)) else TypeError
    raise error(t("usage.prompt", got=reprlib.repr(prompt)))


def _instruction(text: Any) -> str:
    if isinstance(text, str) and text.strip():
        return text
    raise ValueError(t("usage.steer", got=reprlib.repr(text)))


def _answer(approve: Callable | None, request: ApprovalRequest) -> Decision:
    if approve is None:
        return Decision(False)
    try:
        return Decision.coerce(approve(request))
    except Exception as exc:  # an approver that breaks must not let the call through
        return Decision(False, t("result.approver_failed", error=describe(exc)))


def _api_error(exc: anthropic.APIError, limit: int = 500) -> str:
    """The SDK's error text, with its HTTP status, short enough for a stop message.

    The SDK names the status only for JSON error bodies; a proxy's HTML error page comes as bare
    text, and can run to megabytes.
    """
    text = str(exc)
    status = getattr(exc, "status_code", None)
    if status is not None and str(status) not in text[:40]:
        text = f"HTTP {status}: {text}"
    return text if len(text) <= limit else text[:limit] + "…"
