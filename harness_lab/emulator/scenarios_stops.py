"""Scenarios for lesson 3's stop conditions: one per ``stop_reason``, and the stop anti-patterns.

Registered with the others (``scenario(name)``); each writes in the language of the request.
"""

from __future__ import annotations

from .ids import make_id
from .reading import assistant_turns, first_user_text
from .replies import Reply, call, reply, say
from .scenarios import _en, _in_language, _readme_and_time, _register

__all__ = ["LONG_TASK_ROUNDS"]

# -- every stop_reason ----------------------------------------------------------------------------


@_register("max_tokens", "stop_reason max_tokens with a truncated write_file call (must not be run)")
def max_tokens(request: dict) -> Reply:
    en = _en(request)
    if assistant_turns(request) == 0:
        return reply(
            "Writing the report out." if en else "レポートを書き出します。",
            call(
                "write_file",
                path="sandbox/report.md",
                content="# Weekly report\n\n- Inquiries: 4" if en else "# 週次レポート\n\n- 問い合わせ件数: 4",
            ),
            stop_reason="max_tokens",
        )
    return say("The report was cut off partway." if en else "レポートは途中で打ち切られました。")


def _web_search(request: dict) -> str | None:
    """The name of the web search server tool the request defines, if it defines one."""
    for tool in request.get("tools") or ():
        if isinstance(tool, dict) and str(tool.get("type", "")).startswith("web_search_"):
            return str(tool.get("name") or "web_search")
    return None


@_register(
    "pause_turn",
    "with the web_search server tool: the server loop pauses (pause_turn) on a search not yet run; sent "
    "back unchanged, the search runs and the answer ends the turn. Without a server tool it just answers",
)
def pause_turn(request: dict) -> Reply:
    # The server tools page: pause_turn comes only from a server tool's loop reaching its iteration
    # limit, and the paused content "can end with a server_tool_use block whose tool has not run yet";
    # "the API runs the pending server tool at the start of the next request". A request without a
    # server tool has no such loop, so the model cannot pause: it answers from what it knows.
    en = _en(request)
    name = _web_search(request)
    if name is None:
        return say(
            "I have no search tool here, so from what I know: three key points."
            if en
            else "検索ツールがないので、手元の知識で答えます。要点は3つです。"
        )
    task = first_user_text(request)
    use_id = make_id("srvtoolu_01", task.encode(), "web_search")  # the same on the resend
    if assistant_turns(request) == 0:
        query = {"query": task[:60]}
        searching = "Still researching the material." if en else "資料の調査を進めています。"
        return reply(
            searching, {"type": "server_tool_use", "id": use_id, "name": name, "input": query}, stop_reason="pause_turn"
        )
    found = {
        "type": "web_search_result",
        "title": "Research notes" if en else "調査メモ",
        "url": "https://example.com/research",
        "encrypted_content": make_id("", task.encode(), "page", 40),
        "page_age": None,
    }
    result = {"type": "web_search_tool_result", "tool_use_id": use_id, "content": [found]}
    return reply(result, "Research done: three key points." if en else "調査が終わりました。要点は3つです。")


# A classifier's refusal before any output, as the refusals page shows one ("What a refusal looks like"):
# no content at all, and the API's explanation in English whatever the request's language.
_REFUSAL_DETAILS = {
    "type": "refusal",
    "category": "cyber",
    "explanation": "This request was declined because it could enable cyber harm.",
}
_register("refusal", "stop_reason refusal before any output: empty content, stop_details explaining it")(
    lambda request: reply(stop_reason="refusal", stop_details=_REFUSAL_DETAILS)
)

_register("model_context_window_exceeded", "stop_reason model_context_window_exceeded with a truncated answer")(
    _in_language(
        [reply("長い資料を要約します。第1章では", stop_reason="model_context_window_exceeded")],
        [reply("Summarising the long document. Chapter 1 argues that", stop_reason="model_context_window_exceeded")],
    )
)


@_register("stop_sequence", "stop_reason stop_sequence: cut at the request's first stop sequence (or '###')")
def stop_sequence(request: dict) -> Reply:
    en = _en(request)
    answer = "The answer is 42." if en else "答えは 42 です。"
    sequences = [s for s in request.get("stop_sequences") or () if isinstance(s, str) and s]
    if sequences:
        return say(f"{answer}{sequences[0]}" + ("What follows is extra detail." if en else "以下は補足です。"))
    return reply(answer, stop_reason="stop_sequence", stop_sequence="###")


_register("empty_end_turn", "calls get_time, then ends the turn with no text block at all")([call("get_time"), say("")])


# -- stop anti-patterns ---------------------------------------------------------------------------


@_register(
    "text_and_tool", "text '調べてみます' ('Let me look') with a tool_use in one response, more work, then the answer"
)
def text_and_tool(request: dict) -> Reply:
    en = _en(request)
    turn = assistant_turns(request)
    if turn == 0:
        return reply("Let me look into it" if en else "調べてみます", call("read_file", path="README.md"))
    if turn == 1:
        return reply("Next, I'll check the time" if en else "次に時刻を確認します", call("get_time"))
    return say(_readme_and_time(request))


@_register(
    "ijou_desu",
    "a mid-run response says '以上です' ('That's all') while still calling a tool; the real answer comes later",
)
def ijou_desu(request: dict) -> Reply:
    turn = assistant_turns(request)
    if turn == 0:
        return call("read_file", path="README.md")
    if turn == 1:
        return reply("That's all for README.md." if _en(request) else "README.md の確認は以上です。", call("get_time"))
    return say(_readme_and_time(request))


# The name both editions use: an English reader should not meet romanised Japanese. The first name
# stays, so a notebook saved before the rename still runs.
_register("thats_all", "a mid-run response says 'That's all' (以上です) while still calling a tool")(ijou_desu)


LONG_TASK_ROUNDS = 12


@_register("long_task", "needs 12 tool rounds (read_file chapters/01.md ... 12.md) before end_turn")
def long_task(request: dict) -> Reply:
    turn = assistant_turns(request)
    if turn < LONG_TASK_ROUNDS:
        return call("read_file", path=f"chapters/{turn + 1:02d}.md")
    en = _en(request)
    return say(f"Checked all {LONG_TASK_ROUNDS} chapters." if en else f"全{LONG_TASK_ROUNDS}章を確認し終えました。")
