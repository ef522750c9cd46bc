"""Scenarios for the loop on the 2026 API (lesson 6): thinking, caching, context management, budgets.

Registered with the others (``scenario(name)``), so ``connect("interleaved")`` works the same way.
Each one shows one thing the API does offline:

- ``interleaved``: thinking before each of two tool calls, then an answer (the blocks go back whole).
- ``redacted_thinking``: a ``redacted_thinking`` block before a tool call; it goes back unchanged.
- ``twenty_turns``: 19 rounds of ``read_file`` then an answer: long enough for caching to show in cost.
- ``big_results``: reads eight large log parts; ``clear_tool_uses`` has something to clear.
- ``task_budget``: keeps working while the task budget it sees allows, then wraps up (the budget
  is advisory: the model reads it; only the harness's TokenBudget stops a run).
"""

from __future__ import annotations

from .context_management import CLEARED
from .history import blocks_of
from .reading import assistant_turns, results_by_name, task_budget_left
from .replies import Reply, call, redacted, reply, say, think
from .scenarios import _en, _readme_and_time, _register

__all__: list[str] = []


@_register("interleaved", "thinks before read_file(README.md), thinks again before get_time, then answers both")
def interleaved(request: dict) -> Reply:
    en = _en(request)
    turn = assistant_turns(request)
    if turn == 0:
        return reply(
            think("Read the README first." if en else "まず README を読む。"), call("read_file", path="README.md")
        )
    if turn == 1:
        note = "The time is needed too." if en else "時刻も要るので get_time を呼ぶ。"
        return reply(think(note), call("get_time"))
    return say(_readme_and_time(request))


@_register("redacted_thinking", "a redacted_thinking block before get_time, then an answer with the time")
def redacted_thinking(request: dict) -> Reply:
    if assistant_turns(request) == 0:
        return reply(redacted(), call("get_time"))
    result = results_by_name(request).get("get_time")
    if _en(request):
        return say(f"The time is {result.text if result else 'unknown'}.")
    return say(f"時刻は {result.text if result else '不明'} です。")


TWENTY = 20


@_register("twenty_turns", "19 rounds of read_file(notes/01.md ... 19.md), then an answer on the 20th request")
def twenty_turns(request: dict) -> Reply:
    turn = assistant_turns(request)
    if turn < TWENTY - 1:
        return call("read_file", path=f"notes/{turn + 1:02d}.md")
    return say(f"Read all {TWENTY - 1} notes." if _en(request) else f"ノート {TWENTY - 1} 件を読み終えました。")


@_register("big_results", "read_file of logs/part01.log ... part08.log (large results), then a summary")
def big_results(request: dict) -> Reply:
    turn = assistant_turns(request)
    if turn < 8:
        return call("read_file", path=f"logs/part{turn + 1:02d}.log")
    cleared = sum(
        1
        for message in request.get("messages") or ()
        for block in blocks_of(message.get("content"))
        if isinstance(block, dict) and block.get("type") == "tool_result" and block.get("content") == CLEARED
    )
    if _en(request):
        return say(f"Checked all 8 logs ({cleared} of the older results had been cleared from the context).")
    return say(f"8 つのログを確認しました（うち古い結果 {cleared} 件は文脈から消されていました）。")


@_register("task_budget", "reads notes/NN.md while the task budget it sees allows, then wraps up (no budget: 5 notes)")
def task_budget(request: dict) -> Reply:
    turn = assistant_turns(request)
    left = task_budget_left(request)
    en = _en(request)
    if (left is None and turn < 5) or (left is not None and left > 2_000):
        return call("read_file", path=f"notes/{turn + 1:02d}.md")
    if left is None:
        return say("Read 5 notes." if en else "ノートを 5 件読みました。")
    wrap = (
        "The budget is nearly spent: here is what the first {n} notes say."
        if en
        else "予算が残り少ないので、ここまでの {n} 件の結果をまとめます。"
    )
    return say(wrap.format(n=turn))
