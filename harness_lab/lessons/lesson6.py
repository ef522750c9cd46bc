"""Lesson 6 (notebook 05): ``run_agent`` grown into the whole harness, the four valves written into the
loop as a generator the Stepper can step, with ``next_step`` (lesson 3) deciding each response.

It is checked against the package's own ``Run`` on the same scripted models (``diagnosis``): where the
package ends (which valve, after how many requests and tool turns), the learner's loop must end. The
approval valve's checks are in ``lesson6_approval``, no-progress detection's in ``lesson6_spin``, Ctrl-C's
in ``lesson6_interrupt``, an API error's in ``lesson6_api_error``.
"""

from __future__ import annotations

import inspect
from functools import partial
from types import FunctionType
from typing import Any

from ..emulator import call, reply, say
from ..grading.sandbox import describe_error
from ..model import DEFAULT_MODEL
from . import english
from .budget_count import budget_cause, every_token_once, miscounted
from .checking import Miss, Piece, Point
from .diagnosis import DEFAULTS, compare, counter_reset, learner_end, package_end
from .lesson3 import next_step
from .lesson4 import signature_of
from .lesson5 import run_tool_uses
from .lesson6_api_error import api_error_ends
from .lesson6_approval import NO_APPROVER, RISKY, asked_only_what_runs, harmless_run_without_asking, never_without_a_yes
from .lesson6_interrupt import interrupt_stops
from .lesson6_spin import ends_like_the_package, stops_spinning
from .protocol import finished, stopped, turn
from .scenes import answered, said, scripted, thought

__all__ = ["NO_APPROVER", "RISKY", "RUN_AGENT_WITH_VALVES", "run_agent"]

MODEL = DEFAULT_MODEL
MAX_TURNS = 8  # 弁1: 最大ターン数（レッスン3 停止条件）
TOKEN_BUDGET = 40_000  # 弁2: 累計トークン予算（レッスン4 予算バーンアウト）


def run_agent(client, user_input, tools, tool_impls, approve=None):
    """レッスン6の runAgent: 裸のループに4つの弁を付け、1ターンごとに yield する"""
    messages = [{"role": "user", "content": user_input}]
    turns, tokens_used, last_signature = 0, 0, None
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    tokens_used += (
        response.usage.input_tokens
        + (response.usage.cache_creation_input_tokens or 0)
        + (response.usage.cache_read_input_tokens or 0)
        + response.usage.output_tokens
    )  # 弁2: 使ったトークンはすべて。プロンプトキャッシュのキャッシュ書き込み・読み込みも（None なら 0）
    step = next_step(response)  # レッスン3: "run_tools" / "resend" / "finish" / "stop"
    while step in ("run_tools", "resend"):
        if turns >= MAX_TURNS:  # 弁1: 本体の先頭、turns += 1 の手前
            return stopped(
                "max_turns", f"最大ターン数 {MAX_TURNS} に達したので、自分から停止します", turns, tokens_used
            )
        if tokens_used >= TOKEN_BUDGET:  # 弁2: 累計トークンが天井に達したら止まる
            return stopped(
                "token_budget", f"トークン予算 {TOKEN_BUDGET} に達したので、自分から停止します", turns, tokens_used
            )
        turns += 1
        results = []
        if step == "run_tools":
            signature = signature_of(response.content)  # 弁3: 前のターンと同じ呼び出しなら空回り
            if signature == last_signature:
                return stopped(
                    "no_progress", f"2ターン連続で同一のツール呼び出しでした（{signature}）", turns, tokens_used
                )
            last_signature = signature
            results = run_tool_uses(response.content, tool_impls, approve or (lambda name, given: False))  # 弁4
        messages.append({"role": "assistant", "content": response.content})  # pause_turn でも、そのまま
        if results:
            messages.append({"role": "user", "content": results})
        yield turn(turns, response, results)  # 1ターン終わり: Stepper はここで一時停止する
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
        tokens_used += (
            response.usage.input_tokens
            + (response.usage.cache_creation_input_tokens or 0)
            + (response.usage.cache_read_input_tokens or 0)
            + response.usage.output_tokens
        )
        step = next_step(response)
    if step == "finish":
        return finished(response, turns, tokens_used)
    return stopped(response.stop_reason, f"stop_reason {response.stop_reason} で止めました", turns, tokens_used)


# --- the scripted models ------------------------------------------------------------------------


_said = partial(said, "l6")


def _normal_task(request: dict) -> Any:
    steps = [reply(thought(), call("read_file", path="README.md")), call("get_time"), reply(thought(), _said("answer"))]
    return steps[min(answered(request), 2)]


def _never_ending(request: dict) -> Any:
    return reply(_said("more"), call("search", query=_said("clue", n=answered(request) + 1)))


def _burning(request: dict) -> Any:
    return reply(_said("burn") * 40, call("search", query=_said("detail", n=answered(request) + 1)))


def _burning_then_answering(request: dict) -> Any:
    return say(_said("answer")) if answered(request) >= 3 else _burning(request)


def _done_at_the_limit(request: dict) -> Any:
    # Three tool turns, then the answer: a limit of 3 is reached, not crossed, so the task finishes.
    return say(_said("answer")) if answered(request) >= 3 else _never_ending(request)


def _parallel_at_the_limit(request: dict) -> Any:
    # Two calls in each response, three tool turns, then the answer: a turn is one response, however
    # many calls it holds, so a limit of 3 is reached, not crossed.
    if answered(request) >= 3:
        return say(_said("answer"))
    return reply(_said("more"), call("search", query=_said("clue", n=answered(request) + 1)), call("get_time"))


def _max_turns_holds(fn) -> Miss | None:
    if miss := ends_like_the_package(fn, _never_ending, NO_MAX_TURNS, turns=3):
        if miss.key == "lesson.l6.run_agent.after_increment":  # one turn early: turns counted from 1 is that too
            return _counted_from_one(fn) or miss
        return miss
    mine, _, _ = learner_end(fn, _done_at_the_limit, turns=3)
    if mine.miss is None and mine.cause == "max_turns" and mine.rounds == 0:  # the run before counted right
        return Miss("lesson.l6.run_agent.turns_carried", {"limit": 3})
    if mine.miss is None and mine.cause == "max_turns":  # asked after the answer came, not before the next lap
        return Miss("lesson.l6.run_agent.limit_after_answer", {"turns": mine.rounds})
    if miss := compare(mine, package_end(_done_at_the_limit, turns=3), turns=3):
        return miss
    mine, _, _ = learner_end(fn, _parallel_at_the_limit, turns=3)
    if mine.miss is None and mine.cause == "max_turns" and mine.rounds < 3:  # each call counted as a turn
        return Miss("lesson.l6.run_agent.turns_per_call", {"limit": 3, "rounds": mine.rounds})
    if miss := compare(mine, package_end(_parallel_at_the_limit, turns=3), turns=3):
        return miss
    # A model that pauses for ever: a resend is a lap too, so valve 1 stops it as it stops tool turns.
    mine, _, _ = learner_end(fn, _pausing_forever, runaway=RESEND_UNCOUNTED, turns=3)
    if mine.miss is None and mine.cause == "no_progress":  # valve 3 compared the resends' empty signatures
        return Miss("lesson.l6.run_agent.spin_on_resend")
    if mine.miss is None and mine.cause != "max_turns":
        return RESEND_UNCOUNTED
    want = package_end(_pausing_forever, turns=3)
    if mine.miss is None and mine.cause == "max_turns" and mine.requests > want.requests:  # a resend counted short
        return Miss("lesson.l6.run_agent.resend_late", {"limit": 3, "requests": mine.requests, "want": want.requests})
    return compare(mine, want, turns=3) or asked_only_what_runs(fn, "max_turns", turns=3)


def _budget_holds(fn) -> Miss | None:
    miss = _budget_reached(fn)
    if miss is not None and miss.key in ONE_FIELD:  # or every field but one: with caching on the two differ
        exact = _cache_counted(fn)
        return exact if exact is not None and exact.key == "lesson.l6.run_agent.budget_field_omitted" else miss
    return miss or _cache_counted(fn)


def _cache_counted(fn) -> Miss | None:
    """A burning model that answers after three tool turns, with prompt caching on: from the second request
    on, most of each prompt is billed as cache writes and reads, not input_tokens, so a count that leaves a
    field out shows in the end value (without caching both cache fields are 0, and such a count looks
    right). No valve fires, so only the count is judged here."""
    free, _, _ = learner_end(fn, _burning_then_answering, caching=True, budget=10**9)
    plain, _, _ = learner_end(fn, _burning_then_answering, budget=10**9)  # tells input from output apart
    return free.miss or every_token_once(free, plain)


def _budget_reached(fn) -> Miss | None:
    if miss := ends_like_the_package(fn, _burning, budget=3000):
        return miss
    # A budget reached exactly, after two responses: the valve stops once the total reaches it (>=).
    free, _, _ = learner_end(fn, _burning, budget=10**9)
    if free.miss is not None or len(free.usage) < 3:
        return None  # a loop that breaks before then is named by the other points
    exact = sum(sum(pair) for pair in free.usage[:2]) + sum(free.cached[:2])
    mine, _, _ = learner_end(fn, _burning, budget=exact)
    if mine.miss is None and mine.whole and mine.cause == "token_budget" and mine.requests == 2:
        # Stopped where its own two responses reached the budget. The package's Run is no yardstick
        # here: a loop that sends more (a person's words after the results) spends more per request.
        return every_token_once(free) or _answer_over_budget(fn)
    if mine.miss is None and mine.cause == "max_turns" and mine.rounds == 0:  # the free run's turns were kept
        return Miss("lesson.l6.run_agent.turns_carried", {"limit": DEFAULTS["turns"]})
    want = package_end(_burning, budget=exact)
    if mine.miss is None and want.cause == "token_budget" and mine.requests > want.requests:
        return Miss("lesson.l6.run_agent.budget_reached", {"budget": exact})
    return compare(mine, want, budget=exact) or every_token_once(free) or _answer_over_budget(fn)


def _answer_over_budget(fn) -> Miss | None:
    """A task whose answer is the response that crosses the budget: the answer is paid for and there is no
    next lap to stop, so it finishes (valve 2 asks at the top of the loop, as valve 1 does, not after a response)."""
    free, _, _ = learner_end(fn, _normal_task)
    if free.miss is not None or len(free.usage) != 3:
        return None  # a loop that breaks on the normal task is named by point 1
    budget = sum(sum(pair) for pair in free.usage[:2]) + sum(free.cached[:2]) + 1
    mine, _, _ = learner_end(fn, _normal_task, budget=budget)
    if mine.miss is None and mine.cause == "token_budget" and mine.requests == 3:
        return Miss("lesson.l6.run_agent.budget_after_answer", {"budget": budget})
    if mine.miss is None and mine.cause == "token_budget" and mine.requests < 3:  # stopped short of the budget
        used = sum(sum(pair) for pair in mine.usage) + sum(mine.cached)
        return miscounted(mine) or Miss("lesson.l6.run_agent.budget_below", {"budget": budget, "used": used})
    return compare(mine, package_end(_normal_task, budget=budget), budget=budget)


def _pausing(request: dict) -> Any:
    # Two pauses in a row: a resend is no tool turn, so valve 3 has no calls to compare and must not fire.
    return reply(_said("paused"), stop_reason="pause_turn") if answered(request) < 2 else say(_said("resumed"))


def _pausing_forever(request: dict) -> Any:
    return reply(_said("paused"), stop_reason="pause_turn")


def _cut_off(request: dict) -> Any:
    note = {"path": "report.md", "content": _said("report")}
    return (
        reply(_said("writing"), call("write_file", **note), stop_reason="max_tokens")
        if answered(request) == 0
        else say("…")
    )


def _refusing(request: dict) -> Any:
    return reply(stop_reason="refusal")  # declined before any output: no content at all, as the API sends it


def _window_full(request: dict) -> Any:
    # The same history sent again fills the same window: the model answers so every time.
    return reply(_said("writing"), stop_reason="model_context_window_exceeded")


def _at_a_stop_sequence(request: dict) -> Any:
    # The API says stop_sequence only to a request that set stop_sequences, and the lesson's loop sets
    # none: the script answers as though it had, so a loop that finishes on end_turn alone shows here.
    return scripted(
        call("read_file", path="README.md"),
        reply(_said("answer"), stop_reason="stop_sequence", stop_sequence="###"),
    )(request)


# --- the points ----------------------------------------------------------------------------------


def _finishes_a_task(fn) -> Miss | None:
    mine, _, _ = learner_end(fn, _normal_task)
    miss = compare(mine, package_end(_normal_task))
    if miss is None and mine.text != _said("answer"):
        return Miss("lesson.l6.run_agent.not_answer", {"got": repr(mine.text)[:40]})
    if miss is None and counter_reset(mine):
        return Miss("lesson.l6.run_agent.turns_reset", {"rounds": mine.rounds})
    if miss is None and mine.told_turns != mine.rounds:  # what the Stepper and the comparison table show
        return Miss("lesson.l6.run_agent.end_turns", {"told": mine.told_turns, "turns": mine.rounds})
    if miss is None and mine.labels != list(range(1, len(mine.labels) + 1)):  # the Stepper's "turn k" labels
        want = ", ".join(map(str, range(1, len(mine.labels) + 1)))
        return Miss("lesson.l6.run_agent.turn_labels", {"got": ", ".join(map(str, mine.labels)), "want": want})
    used = sum(i + o for i, o in mine.usage) + sum(mine.cached)  # every token billed, cache writes and reads too
    if miss is None and mine.reported != used:  # what it counted wrong (one side of the usage...), else what it passed
        counted = budget_cause(mine, DEFAULTS)
        if counted.key in ONE_FIELD:  # or every field but one: with caching on the two differ
            return _cache_counted(fn) or counted  # and the hint names the field left out
        return (
            counted
            if counted.key in MISCOUNTED
            else Miss("lesson.l6.run_agent.end_tokens", {"told": mine.reported, "used": used})
        )
    return miss


def _counted_from_one(fn) -> Miss | None:
    """Point 1's miss when the turns a finished task reports are one too many: valve 1 compares that count."""
    miss = _finishes_a_task(fn)
    return miss if miss is not None and miss.key == "lesson.l6.run_agent.end_turns" else None


def _decides_by_next_step(fn) -> Miss | None:
    mine, _, emulator = learner_end(fn, _pausing)
    if mine.miss is not None and mine.miss.key == "lesson.l2.empty_message":  # going on is right here
        return Miss("lesson.l6.run_agent.empty_results", mine.miss.values)
    if mine.miss is not None:
        return mine.miss
    if mine.cause == "finish" and mine.text == _said("paused"):
        return Miss("lesson.l6.run_agent.pause_turn")
    if mine.cause == "no_progress":  # two pauses in a row: both signatures are empty
        return Miss("lesson.l6.run_agent.spin_on_resend")
    if len(emulator.requests) >= 2:
        sent = emulator.requests[1]["messages"]
        if sent[-1].get("role") != "assistant" or len(sent) != 2:
            return Miss("lesson.l6.run_agent.resend_changed")
    if mine.cause == "finish" and not mine.text:  # lessons.finished was given something other than the response
        return Miss("lesson.l6.run_agent.not_answer", {"got": repr(mine.text)[:40]})
    if mine.text != _said("resumed"):
        return Miss("lesson.l6.run_agent.pause_turn")
    if not mine.whole:
        return Miss("lesson.l2.run_agent.not_whole")
    mine, rec, emulator = learner_end(fn, _cut_off, decide=lambda name, given: True)  # a yes: only the loop can refuse
    if rec.asked("write_file") or rec.ran("write_file"):
        return Miss("lesson.l6.run_agent.ran_cut_call")
    if len(emulator.requests) > 1:  # sent again after max_tokens (a loop on "not end_turn"): the 400 is its symptom
        return Miss("lesson.l6.run_agent.went_on_after_cut", {"requests": len(emulator.requests)})
    if mine.miss is not None:
        return mine.miss
    if mine.cause != "max_tokens":
        return Miss("lesson.l6.run_agent.max_tokens", {"got": mine.cause})
    try:  # another stop: the cause is the model's, not a fixed one
        mine, _, _ = learner_end(fn, _refusing)
    except IndexError as exc:  # content[0] of the one response with no content: the rule, not the symptom
        return Miss("lesson.empty_content", {"error": describe_error(exc)})
    if mine.miss is None and mine.cause != "refusal":
        return Miss("lesson.l6.run_agent.refusal", {"got": mine.cause})
    if mine.miss is not None:
        return mine.miss
    mine, _, emulator = learner_end(fn, _window_full)
    if len(emulator.requests) > 1:  # the full window sent again: a 400 for the prefill, or a valve, ends it
        return Miss("lesson.l6.run_agent.window_resent", {"requests": len(emulator.requests)})
    return ends_like_the_package(fn, _at_a_stop_sequence)  # a stop sequence is an answer, as end_turn is


def _stalled(fn, seconds: str) -> Miss:
    """A loop that did not end in time: a function with no yield runs its whole loop on the first call."""
    if type(fn) is not FunctionType or not inspect.isgeneratorfunction(fn):  # no learner code runs in the kernel
        return Miss("lesson.l6.run_agent.not_generator_stalled", {"seconds": seconds})
    return Miss("lesson.l2.run_agent.stalled", {"seconds": seconds})


# tokens_used counted from the wrong fields, as valve 2's hints name them.
MISCOUNTED = {
    f"lesson.l6.run_agent.budget_{how}"
    for how in (
        "cache_omitted",
        "max_tokens",
        "last_only",
        "output_only",
        "input_only",
        "first_missing",
        "count_tokens",
        "output_twice",
    )
}
ONE_FIELD = {"lesson.l6.run_agent.budget_input_only", "lesson.l6.run_agent.budget_output_only"}
NO_MAX_TURNS = Miss("lesson.l6.run_agent.no_max_turns", {"limit": 3})
RESEND_UNCOUNTED = Miss("lesson.l6.run_agent.resend_uncounted", {"limit": 3})

RUN_AGENT_WITH_VALVES = Piece(
    "run_agent",
    6,
    (
        Point("lesson.l6.run_agent.p1", _finishes_a_task),
        Point("lesson.l6.run_agent.p2", _decides_by_next_step),
        Point("lesson.l6.run_agent.p3", _max_turns_holds),
        Point("lesson.l6.run_agent.p4", _budget_holds),
        Point("lesson.l6.run_agent.p5", stops_spinning),
        Point("lesson.l6.run_agent.p6", never_without_a_yes),
        Point("lesson.l6.run_agent.p7", harmless_run_without_asking),
        Point("lesson.l6.run_agent.p8", interrupt_stops),
        Point("lesson.l6.run_agent.p9", api_error_ends),
    ),
    run_agent,
    hint="lesson.hint.run_agent6",
    shape="run_agent(client, user_input, tools, tool_impls, approve=None)",
    rules=NO_APPROVER,
    stalled=_stalled,
    english=english.run_agent,
)
