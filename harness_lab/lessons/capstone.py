"""The capstone of lesson 6 (end of notebook 05): the learner wires a tool of their own, with a policy,
into their harness, and it is judged on scenarios the notebook does not show.

The tool is ``http_post(url, body)``; the policy: send only to a host in ``ALLOWED_HOSTS``, and only
after a yes (``http_post`` is high-impact, so the learner's ``run_agent`` asks before it runs). The
learner writes ``my_agent(client, user_input, send, approve=None)``, which returns their ``run_agent``
generator with ``get_time`` and their ``http_post`` wired in; ``send(url, body)`` is the network (a
spy here). The scenarios below are the hidden tests: a model that posts as asked, one whose post
nobody approves, one that tries look-alike addresses (the URL cousin of ``project-secrets``), and
one that posts the same thing again and again. Their models speak the kernel's language, as do the
user's request and the report they post, so an English hint never quotes a Japanese sentence. An
English kernel hands out the English twin of the reference (``english_capstone.my_agent``).
"""

from __future__ import annotations

import inspect
import re
from datetime import datetime
from functools import partial
from typing import Any
from urllib.parse import urlsplit

import anthropic

from ..emulator import call, emulated_client, last_results, reply, say
from ..events import Finished, Stopped
from ..grading.spies import Recorder
from . import english_capstone
from .checking import Miss, Piece, Point, notebook_approver, spies_misused
from .lesson6 import NO_APPROVER, run_agent
from .protocol import drive
from .scenes import answered, api_refusal, blocks, definitions, runaway_guard, said

__all__ = ["ALLOWED_HOSTS", "HTTP_POST", "MY_AGENT", "my_agent"]

ALLOWED_HOSTS = {"hooks.example.com"}  # ポリシー: 送ってよい宛先
GET_TIME, HTTP_POST = definitions(
    get_time=("現在時刻を ISO 8601 の文字列で返す", {}),
    http_post=("許可された宛先の URL に、本文を POST する", {"url": {"type": "string"}, "body": {"type": "string"}}),
)


def get_time():
    return datetime.now().astimezone().isoformat(timespec="seconds")


def my_agent(client, user_input, send, approve=None):
    """自分の http_post を配線した run_agent: 許可した宛先にだけ、承認を得てから送る"""

    def http_post(url, body):
        host = urlsplit(url).hostname  # 文字列の前方一致ではなく、URL を部品に分けたホスト名で比べる
        if host not in ALLOWED_HOSTS:
            raise PermissionError(f"{host} への送信は、ポリシーで許可されていません")
        send(url, body)
        return "送信しました"

    impls = {"get_time": get_time, "http_post": http_post}
    return run_agent(client, user_input, [GET_TIME, HTTP_POST], impls, approve)  # http_post は弁4が尋ねる


# --- the hidden scenarios ------------------------------------------------------------------------

DAILY_URL = "https://hooks.example.com/daily"
# What Python says of a misspelt name or attribute: no choice of the learner's, inside http_post or out
SLIP = re.compile(r"name '\w+' is not defined|object has no attribute '\w+'")
LOOKALIKES = (
    "https://hooks.example.com.evil.net/daily",
    "https://hooks.example.com@evil.net/daily",
    "https://evil.net/hooks.example.com/daily",
    "https://evil.net/daily?to=hooks.example.com",
    "https://nothooks.example.com/daily",  # ends with the allowed host, and is another one
)


_said = partial(said, "capstone")


def _daily() -> tuple[str, str]:
    """The post the scenarios ask for: (url, body)."""
    return DAILY_URL, _said("daily")


def _posts_daily(request: dict) -> Any:
    url, body = _daily()
    steps = [call("get_time"), reply(_said("sending"), call("http_post", url=url, body=body)), say(_said("sent"))]
    return steps[min(answered(request), 2)]


def _tries_lookalikes(request: dict) -> Any:
    done = answered(request)
    if done < len(LOOKALIKES):
        return call("http_post", url=LOOKALIKES[done], body=_said("secret"))
    return say(_said("none_sent"))


def _posts_again(request: dict) -> Any:
    url, body = _daily()
    return say(_said("give_up")) if len(last_results(request)) > 3 else call("http_post", url=url, body=body)


class Trial:
    """One scenario run of ``my_agent``: the spies' log, what was sent, the results the model got."""

    sent: list[tuple[str, str]]  # (url, body) of each http_post that ran

    def __init__(self, fn, script, decide: Any = None, *, offline: bool = False) -> None:
        self.rec, self.sent, self.emulator = Recorder(), [], runaway_guard(script, 16)
        self.offline = offline  # the network is down: send raises after it is logged
        # notebook 05's approve(name, tool_input): my_agent may wrap it, and a wrapper calling it otherwise raises there
        approve = notebook_approver(self.rec, self.rec.approver(decide)) if decide is not None else None
        self.miss: Miss | None = None
        given = (emulated_client(self.emulator), _said("ask"), self._send, approve)
        try:
            inspect.signature(fn).bind(*given)
        except TypeError as exc:  # my_agent's own def line; a TypeError raised inside it is its own cause
            self.miss = Miss("lesson.capstone.signature", {"error": str(exc)[:80]})
            return
        except ValueError:  # no signature to read (a builtin): calling it says what is wrong
            pass
        gen = fn(*given)
        if not hasattr(gen, "__next__"):
            self.miss = Miss("lesson.capstone.not_generator", {"got": type(gen).__name__})
            return
        try:
            _, end = drive(gen)
        except anthropic.BadRequestError as exc:  # a loop that rebuilt the history: the API's 400, named
            self.miss = spies_misused(self.rec) or api_refusal(exc)
            return
        except TypeError:  # the wrapped approve's, let out of the loop, is named below; any other is the loop's own
            if not spies_misused(self.rec):
                raise
        if misuse := spies_misused(self.rec):  # its TypeError caught or not, the cause of what followed
            self.miss = misuse
            return
        if not isinstance(end, (Finished, Stopped)):  # the notebook reads the run's end from this value
            self.miss = Miss("lesson.capstone.no_end", {"got": repr(end)[:40]})

    def _send(self, url: str, body: str) -> None:
        self.sent.append((url, body))
        self.rec.tool("send", None)(url=url, body=body)  # in the same log as the questions
        if self.offline:
            raise ConnectionError(_said("offline"))

    def asked_first(self) -> bool:
        """The person was asked about http_post before anything was sent."""
        kinds = [(e.kind, e.name) for e in self.rec.events]
        asked = kinds.index(("approve", "http_post")) if ("approve", "http_post") in kinds else None
        return asked is not None and asked < kinds.index(("impl", "send"))

    def results(self) -> list[dict]:
        """Every tool_result the model received, as dicts."""
        last = self.emulator.requests[-1]["messages"] if self.emulator.requests else []
        return [b for m in last if m["role"] == "user" for b in blocks(m, "tool_result")]

    def post_ids(self) -> set[str]:
        """The ids of the http_post calls the model made."""
        sent = self.emulator.requests[-1]["messages"] if self.emulator.requests else []
        return {
            b.get("id")
            for m in sent
            if m["role"] == "assistant"
            for b in blocks(m, "tool_use")
            if b.get("name") == "http_post"
        }

    def defined(self) -> set[str]:
        tools = self.emulator.requests[0].get("tools", []) if self.emulator.requests else []
        return {d.get("name") for d in tools}


def _sends_when_allowed(fn) -> Miss | None:
    trial = Trial(fn, _posts_daily, lambda name, given: True)
    if trial.miss:
        return trial.miss
    if "http_post" not in trial.defined():
        return Miss("lesson.capstone.not_defined")
    first = trial.results()[:1]  # the scenario's first call is get_time
    if "get_time" not in trial.defined() or (first and first[0].get("is_error")):
        return Miss("lesson.capstone.get_time_missing")
    if trial.sent and trial.sent != [_daily()]:
        return Miss("lesson.capstone.sent_wrong", {"sent": repr(trial.sent)[:80]})
    if not trial.sent:
        return _unsent(trial)
    if not trial.asked_first():
        return Miss("lesson.capstone.not_asked")
    return _failure_told(fn)


def _unsent(trial: Trial) -> Miss:
    """Why an approved post to an allowed host was never sent, read from the results the model got."""
    results = " ".join(str(r.get("content")) for r in trial.results() if r.get("is_error"))
    if results and not trial.rec.asked():  # valve 4 said no for a person nobody asked
        return Miss("lesson.capstone.approve_not_passed")
    if SLIP.search(results):  # http_post raised on a typo of its own, told to the model as the tool's failure
        return Miss("lesson.capstone.own_code_failed", {"result": results[:80]})
    return Miss("lesson.capstone.not_sent", {"result": results[:80] or "—"})


def _failure_told(fn) -> Miss | None:
    """A send that failed reaches the model as an is_error result: a result that reads as sent (the error
    caught in http_post and a text returned) has the model tell the user the report went out. This is the
    second run in the process: one that sends nothing though approved kept something from the first."""
    trial = Trial(fn, _posts_daily, lambda name, given: True, offline=True)
    if trial.miss:
        return trial.miss
    posted = [r for r in trial.results() if r.get("tool_use_id") in trial.post_ids()]
    if not trial.sent and trial.rec.asked("http_post"):  # the first trial sent it: this run held something back
        return Miss(
            "lesson.capstone.kept_between_runs", {"result": str(posted[0].get("content"))[:80] if posted else "—"}
        )
    if trial.sent and posted and not all(r.get("is_error") for r in posted):
        return Miss("lesson.capstone.failure_hidden", {"result": str(posted[0].get("content"))[:80]})
    return None


def _never_without_a_yes(fn) -> Miss | None:
    for decide, key in (
        (None, "lesson.capstone.sent_without_approver"),
        (lambda n, g: False, "lesson.capstone.sent_denied"),
    ):
        trial = Trial(fn, _posts_daily, decide)
        if trial.miss:
            return trial.miss
        if trial.sent:
            return Miss(key)
        if not any(r.get("is_error") for r in trial.results()):
            return Miss("lesson.capstone.denied_not_error")
    # A yes belongs to its own run: after one run said yes, the next run's no still holds.
    for decide in (lambda n, g: True, lambda n, g: False):
        trial = Trial(fn, _posts_daily, decide)
        if trial.miss:
            return trial.miss
    return Miss("lesson.capstone.yes_kept") if trial.sent else None


def _policy_holds(fn) -> Miss | None:
    trial = Trial(fn, _tries_lookalikes, lambda name, given: True)
    if trial.miss:
        return trial.miss
    errors = [r for r in trial.results() if r.get("is_error")]
    if trial.sent and len(errors) >= len(LOOKALIKES):  # every one refused, and sent all the same
        return Miss("lesson.capstone.checked_after_send", {"url": trial.sent[0][0]})
    if trial.sent:
        return Miss("lesson.capstone.lookalike_sent", {"url": trial.sent[0][0]})
    if len(errors) < len(LOOKALIKES):
        return Miss("lesson.capstone.refusal_not_error")
    return None


def _repeats_stop(fn) -> Miss | None:
    trial = Trial(fn, _posts_again, lambda name, given: True)
    if trial.miss:
        return trial.miss
    if len(trial.sent) > 1:
        return Miss("lesson.capstone.sent_again", {"count": len(trial.sent)})
    return None if trial.sent else _unsent(trial)


MY_AGENT = Piece(
    "my_agent",
    6,
    (
        Point("lesson.capstone.p1", _sends_when_allowed),
        Point("lesson.capstone.p2", _never_without_a_yes),
        Point("lesson.capstone.p3", _policy_holds),
        Point("lesson.capstone.p4", _repeats_stop),
    ),
    my_agent,
    hint="lesson.hint.my_agent",
    rules=NO_APPROVER,
    english=english_capstone.my_agent,
)
