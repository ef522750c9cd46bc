"""Events print as one readable line in a plain terminal, in the learner's language."""

from __future__ import annotations

import harness_lab as hl
from harness_lab.emulator import call, emulated_client, say


def run_events(monkeypatch, lang):
    monkeypatch.setenv("HARNESS_LAB_LANG", lang)
    client = emulated_client([call("get_time"), call("write_file", path="sandbox/a.md", content="x"), say("おわり")])
    run = hl.Run(client, tools=[hl.get_time, hl.make_write_file()], valves=[hl.Approval()])
    gen = run.start("go")
    events = [next(gen)]
    while not isinstance(events[-1], (hl.Finished, hl.Stopped)):
        answer = hl.deny("not now") if isinstance(events[-1], hl.ApprovalRequest) else None
        events.append(gen.send(answer))
    return events


def test_each_event_prints_one_summary_in_japanese(monkeypatch):
    turn, approval, denied_turn, end = run_events(monkeypatch, "ja")
    assert str(turn).startswith("[ターン 1] tool_use: get_time({}) → 結果 1 件（うちエラー 0）")
    assert str(approval) == '[ターン 2] 承認待ち: write_file({"path":"sandbox/a.md","content":"x"})'
    assert "（うちエラー 1）" in str(denied_turn)
    assert str(end).startswith("完了（end_turn）: ツール呼び出し 2 ターン") and str(end).endswith("おわり")
    assert "Message(" not in str(turn)


def test_english_catalog_and_stops(monkeypatch):
    turn, approval, _, _end = run_events(monkeypatch, "en")
    assert str(turn).startswith("[turn 1] tool_use: get_time({}) -> 1 result (0 errors)")
    assert str(approval).startswith("[turn 2] waiting for approval: write_file(")
    stopped = hl.run(emulated_client([call("get_time")]), "go", tools=[hl.get_time], valves=[hl.MaxTurns(1)]).stop
    assert str(stopped).startswith("Stopped (max_turns) after 1 tool turn,")
