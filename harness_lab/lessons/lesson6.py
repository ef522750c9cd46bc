"""Lesson 6 (notebook 05): the confined ``read_file`` and the whole harness, ``run_agent`` with its four
valves written as a generator the Stepper can step, with their checks.

The harness is checked against the package's own ``Run`` on the same scripted models: where the
package stops (which valve, after how many requests and tool rounds), the learner's loop must stop.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from ..emulator import call, emulated_client, last_results, reply, say
from ..events import Finished, Stopped, Turn
from ..grading.spies import Recorder
from ..model import DEFAULT_MODEL
from .checking import Miss, Piece, Point
from .lesson4 import signature_of
from .lesson5 import run_tool_uses
from .protocol import drive, finished, stopped, turn
from .scenes import TOOLS, runaway_guard

__all__ = ["READ_FILE", "RUN_AGENT_WITH_VALVES", "harness", "read_file"]

MODEL = DEFAULT_MODEL
MAX_TURNS = 8  # 弁1: 最大ターン数（レッスン3 停止条件）
TOKEN_BUDGET = 40_000  # 弁2: 累計トークン予算（レッスン4 予算バーンアウト）


def read_file(path, root="."):
    """root の内側にあるファイルの先頭 2000 文字。リンクをたどった本当の行き先で、内側かを確かめる"""
    base = Path(root).resolve()  # ルート自身がリンクでも、本当の場所にそろえる
    target = (base / path).resolve()  # リンクを最後までたどった、本当の行き先
    if not target.is_relative_to(base):  # 文字列の startswith ではなく、パスの部品で比べる
        raise PermissionError(f"プロジェクトディレクトリ外のパスの読み取りを拒否しました: {path}")
    with open(target, encoding="utf-8") as f:
        return f.read(2000)


def harness(client, user_input, tools, tool_impls, approve=None):
    """レッスン6の runAgent: 裸のループに4つの弁を付け、1ターンごとに yield する"""
    messages = [{"role": "user", "content": user_input}]
    turns, tokens_used, last_signature = 0, 0, None
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    tokens_used += response.usage.input_tokens + response.usage.output_tokens
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS:  # 弁1: 本体の先頭、turns += 1 の手前
            return stopped(
                "max_turns", f"最大ターン数 {MAX_TURNS} に達したので、自分から停止します", turns, tokens_used
            )
        if tokens_used >= TOKEN_BUDGET:  # 弁2: 累計トークンが天井に達したら止まる
            return stopped(
                "token_budget", f"トークン予算 {TOKEN_BUDGET} に達したので、自分から停止します", turns, tokens_used
            )
        turns += 1
        signature = signature_of(response.content)  # 弁3: 前のターンと同じ呼び出しなら空回り
        if signature == last_signature:
            return stopped("no_progress", f"2ターン連続で同一のツール呼び出しでした（{signature}）", turns, tokens_used)
        last_signature = signature
        messages.append({"role": "assistant", "content": response.content})
        results = run_tool_uses(response.content, tool_impls, approve or (lambda name, given: False))  # 弁4
        messages.append({"role": "user", "content": results})
        yield turn(turns, response, results)  # 1ターン終わり: Stepper はここで一時停止する
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
        tokens_used += response.usage.input_tokens + response.usage.output_tokens
    return finished(response, turns, tokens_used)


# --- checks for read_file ----------------------------------------------------------------------


def _project() -> tuple[Path, Path]:
    """A project folder with a README, and a secret outside it reachable by ``..`` and by a symlink."""
    top = Path(tempfile.mkdtemp(prefix="harness_lab_check_"))
    project = top / "project"
    (project / "docs").mkdir(parents=True)
    (project / "README.md").write_text("# タイトル\n本文\n", encoding="utf-8")
    (project / "docs" / "a.md").write_text("docs の中身", encoding="utf-8")
    (top / "secret.txt").write_text("SECRET-TOKEN", encoding="utf-8")
    os.symlink(top / "secret.txt", project / "link.txt")
    return project, top / "secret.txt"


def _leaks(fn, root: Path, path: str) -> bool:
    try:
        got = fn(path, root=str(root))
    except NotImplementedError:  # the unwritten TODO refuses everything: it must not count as a pass
        raise
    except Exception:
        return False
    return "SECRET-TOKEN" in str(got)


def _reads_inside(fn) -> Miss | None:
    project, _ = _project()
    got = fn("README.md", root=str(project))
    if not isinstance(got, str) or not got.startswith("# タイトル"):
        return Miss("lesson.l6.read_file.not_read", {"got": repr(got)[:40]})
    try:
        inner = fn("docs/../docs/a.md", root=str(project))
    except Exception:
        inner = None
    return None if inner == "docs の中身" else Miss("lesson.l6.read_file.inner_path")


def _refuses_outside(fn) -> Miss | None:
    project, secret = _project()
    for path in ("../secret.txt", str(secret)):
        if _leaks(fn, project, path):
            return Miss(
                "lesson.l6.read_file.escaped", {"path": "../secret.txt" if path.startswith("..") else "/…/secret.txt"}
            )
    return None


def _refuses_a_link_out(fn) -> Miss | None:
    project, _ = _project()
    return Miss("lesson.l6.read_file.link") if _leaks(fn, project, "link.txt") else None


READ_FILE = Piece(
    "read_file",
    6,
    (
        Point("lesson.l6.read_file.p1", _reads_inside),
        Point("lesson.l6.read_file.p2", _refuses_outside),
        Point("lesson.l6.read_file.p3", _refuses_a_link_out),
    ),
    read_file,
)


# --- checks for the harness -------------------------------------------------------------------

ANSWER = "README.md の1行目は「# エージェントハーネスの基礎」で、いまは 10:42 です。"
OUTPUTS = {
    "read_file": "# エージェントハーネスの基礎",
    "get_time": "2026-08-26T10:42:07+09:00",
    "search": "手がかりが1件",
    "write_file": "書き込みました",
}


def _reference_end(script, **limits: int) -> tuple[str | None, int, int]:
    """How the package's own Run ends on ``script``: (cause or None, model requests, tool rounds)."""
    from ..drain import drain
    from ..loop import Run
    from ..tools import tool
    from ..valves import MaxTurns, NoProgress, TokenBudget

    # The same tool definitions the learner's loop sends, so both requests cost the same tokens.
    tools = [
        tool(
            lambda d=d, **_: OUTPUTS.get(d["name"], ""),
            name=d["name"],
            description=d["description"],
            input_schema=d["input_schema"],
        )
        for d in TOOLS
    ]
    run = Run(
        emulated_client(script),
        tools,
        [MaxTurns(limits.get("turns", MAX_TURNS)), TokenBudget(limits.get("budget", TOKEN_BUDGET)), NoProgress()],
    )
    end = drain(run.start("やって"))
    return (end.cause if isinstance(end, Stopped) else None), run.state.model_calls, run.state.turns


def _run_learner(fn, script, approve=None, **limits: int) -> tuple[Any, list, Any, Recorder]:
    """Drive the learner's generator with its own MAX_TURNS / TOKEN_BUDGET set for this probe."""
    names = getattr(fn, "__globals__", {})
    names["MAX_TURNS"], names["TOKEN_BUDGET"] = limits.get("turns", MAX_TURNS), limits.get("budget", TOKEN_BUDGET)
    emulator = runaway_guard(script, 40)
    rec = Recorder()
    gen = fn(emulated_client(emulator), "やって", TOOLS, rec.tools(OUTPUTS), approve)
    if not hasattr(gen, "__next__"):
        return Miss("lesson.l6.harness.not_generator", {"got": type(gen).__name__}), [], emulator, rec
    events, end = drive(gen)
    return end, events, emulator, rec


def _ends_like_the_package(fn, script, cause: str | None, **limits: int) -> Miss | None:
    end, events, emulator, _rec = _run_learner(fn, script, **limits)
    if isinstance(end, Miss):
        return end
    want_cause, want_requests, want_rounds = _reference_end(script, **limits)
    if not isinstance(end, (Finished, Stopped)):
        return Miss("lesson.l6.harness.no_end", {"got": repr(end)[:40]})
    got_cause = end.cause if isinstance(end, Stopped) else None
    if got_cause != want_cause:
        return Miss(f"lesson.l6.harness.missed_{cause or 'finish'}", {"got": got_cause or "finish"})
    rounds = sum(1 for e in events if isinstance(e, Turn))
    if (len(emulator.requests), rounds) != (want_requests, want_rounds):
        return Miss(
            "lesson.l6.harness.counts",
            {
                "requests": len(emulator.requests),
                "rounds": rounds,
                "want_requests": want_requests,
                "want_rounds": want_rounds,
            },
        )
    return None


def _normal_task(request: dict) -> Any:
    done = sum(1 for m in request["messages"] if m["role"] == "assistant")
    return [call("read_file", path="README.md"), call("get_time"), say(ANSWER)][min(done, 2)]


def _never_ending(request: dict) -> Any:
    done = sum(1 for m in request["messages"] if m["role"] == "assistant")
    return reply("まだ調べます。", call("search", query=f"手がかり {done + 1}"))


def _burning(request: dict) -> Any:
    done = sum(1 for m in request["messages"] if m["role"] == "assistant")
    return reply("念のため、もっと詳しく調べます。" * 40, call("search", query=f"詳細 {done + 1}"))


def _spinning(request: dict) -> Any:
    results = last_results(request)
    return say("見つかりませんでした。") if len(results) > 3 else call("read_file", path="notes.txt")


def _finishes_a_task(fn) -> Miss | None:
    miss = _ends_like_the_package(fn, _normal_task, None)
    if miss:
        return miss
    end, _, _, _ = _run_learner(fn, _normal_task)
    return None if end.text == ANSWER else Miss("lesson.l6.harness.not_answer", {"got": repr(end.text)[:40]})


RUN_AGENT_WITH_VALVES = Piece(
    "harness",
    6,
    (
        Point("lesson.l6.harness.p1", _finishes_a_task),
        Point("lesson.l6.harness.p2", lambda fn: _ends_like_the_package(fn, _never_ending, "max_turns", turns=3)),
        Point("lesson.l6.harness.p3", lambda fn: _ends_like_the_package(fn, _burning, "token_budget", budget=3000)),
        Point("lesson.l6.harness.p4", lambda fn: _ends_like_the_package(fn, _spinning, "no_progress")),
    ),
    harness,
)
