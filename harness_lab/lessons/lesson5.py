"""Lesson 5 (notebook 04): ``run_tool_uses`` with the approval valve before each high-impact call."""

from __future__ import annotations

from ..emulator import call
from ..grading.spies import Recorder
from ..messages import tool_calls
from ..text import t
from .checking import Miss, Piece, Point
from .scenes import answer_rejected, fact, response_of

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


OUTPUTS = {
    "get_time": "2026-08-26T10:42:07+09:00",
    "read_file": "# 今週の問い合わせ",
    "write_file": "書き込みました",
    "http_post": "送信しました",
    "delete_file": "削除しました",
}
NOTE = {"path": "sandbox/report.md", "content": "今週のまとめ"}


def _write():
    return response_of("保存します。", call("write_file", **NOTE))


def _asks_first(fn) -> Miss | None:
    rec = Recorder()
    fn(_write().content, rec.tools(OUTPUTS), rec.approver(lambda name, given: True))
    if not rec.asked("write_file"):
        return Miss("lesson.l5.not_asked")
    if not rec.asked_before_ran("write_file", NOTE):
        return Miss("lesson.l5.ran_before_asking")
    if len(rec.ran("write_file")) != 1:
        return Miss("lesson.l5.approved_not_run")
    return None


def _no_means_not_run(fn) -> Miss | None:
    rec = Recorder()
    response = _write()
    returned = fn(response.content, rec.tools(OUTPUTS), rec.approver(lambda name, given: False))
    if rec.ran("write_file"):
        return Miss("lesson.l5.ran_anyway")
    facts = [fact(r) for r in returned or ()]
    if len(facts) != 1 or facts[0]["tool_use_id"] != tool_calls(response.content)[0]["id"]:
        return Miss("lesson.l5.denied_dropped")
    if not facts[0]["is_error"]:
        return Miss("lesson.l5.denied_not_error")
    return None


def _harmless_runs_and_all_answered(fn) -> Miss | None:
    rec = Recorder()
    response = response_of(
        "順に片付けます。", call("get_time"), call("write_file", **NOTE), call("read_file", path="inbox.md")
    )
    returned = fn(response.content, rec.tools(OUTPUTS), rec.approver(lambda name, given: True))
    if {e.name for e in rec.asked()} - {"write_file"}:
        return Miss("lesson.l5.asked_harmless")
    if sorted({e.name for e in rec.ran()}) != ["get_time", "read_file", "write_file"]:
        return Miss("lesson.l5.not_all_ran")
    facts = [fact(r) for r in returned or ()]
    if [f["tool_use_id"] for f in facts] != [c["id"] for c in tool_calls(response.content)]:
        return Miss("lesson.l5.results_order")
    return answer_rejected("まとめて保存して", response, returned)


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
)
