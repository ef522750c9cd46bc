"""Scenarios for lesson 4's runaways that the no-progress valve is about: a model that spins on the
same call, the same call with its input's keys reordered, legitimate polling (a false alarm for the
valve) and calls that alternate A, B, A, B (a repeat it misses).
"""

from __future__ import annotations

from .reading import assistant_turns, instruction, last_results
from .replies import Reply, call, say
from .scenarios import _en, _register

__all__: list[str] = []  # registered by name, not imported


@_register("spinning", "spins: read_file(path='notes.txt') with the same input every turn, until a person steers")
def spinning(request: dict) -> Reply:
    if instruction(request):  # a steer after a no-progress stop: a real model takes the hint
        en = _en(request)
        return say(
            "Understood: I will stop retrying notes.txt. It could not be read."
            if en
            else "指示どおり、notes.txt を読み直すのはやめます。このファイルは読めませんでした。"
        )
    return call("read_file", path="notes.txt")


@_register(
    "spinning_reordered",
    "spins with the input's key order flipped each turn: search(query, limit) / search(limit, query)",
)
def spinning_reordered(request: dict) -> Reply:
    query = "deadline" if _en(request) else "締め切り"
    if assistant_turns(request) % 2 == 0:
        return call("search", query=query, limit=5)
    return call("search", limit=5, query=query)


@_register("polling", "legitimate polling: check_status(job_id='job-42') three times, then a done answer")
def polling(request: dict) -> Reply:
    turn = assistant_turns(request)
    done = any("done" in r.text.lower() or "完了" in r.text for r in last_results(request) if not r.is_error)
    if turn < 3 and not done:
        return call("check_status", job_id="job-42")
    return say("Job job-42 has finished." if _en(request) else "ジョブ job-42 の完了を確認しました。")


@_register("abab", "alternates get_time and read_file(README.md) forever (A, B, A, B...)")
def abab(request: dict) -> Reply:
    if assistant_turns(request) % 2 == 0:
        return call("get_time")
    return call("read_file", path="README.md")
