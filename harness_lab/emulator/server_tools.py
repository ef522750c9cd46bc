"""A server tool call still waiting for its result, in the history (lesson 3's ``pause_turn``).

A server tool (web search, web fetch, tool search, code execution) runs on the API's side, and its
result block normally comes in the same assistant message as its ``server_tool_use`` block. Two
replies leave a call waiting (the server tools page, "The server-side loop and pause_turn" and
"Mixing server tools and client tools in one turn"; the stop reasons page, ``tool_use`` and
``pause_turn``): a ``pause_turn`` reply, which "can end with a ``server_tool_use`` block whose tool
has not run yet", and a ``tool_use`` reply that also called a client tool, for which the API returns
before running the server tool. "In both cases the API runs the pending server tool at the start of
the next request", if that request continues the turn: the paused reply resent as it is (it ends the
conversation), or a user message of ``tool_result`` blocks and nothing else after the mixed reply,
whose result then starts the next assistant message ("they arrive in two different responses").

Anything else closes the turn with the call unresolved, a 400 in the live words (the stop reasons
page; ``messages.N:`` before it, N the assistant message, as a public fixture of the live 400 with
request id ``req_011CdQL9JsEk5NWJxWQX4NiG`` shows): a "continue" added after a paused reply, text
after the tool results. A continuation whose ``tools`` no longer define the waiting tool is a 400
"whose message ends ``but no `web_search` tool was provided``" (both pages); what comes before that
ending is **inferred**. The code execution tools are left out of that second check: which tool
provides a paused code execution (its own, or a web tool's dynamic filtering) no page says.

A server tool's result with no ``server_tool_use`` before it (a history that filtered the calls out)
is refused as live replies refuse one (anthropics/claude-code #65726, request id
``req_011CbkhqTaJwBKZwhmp9dqQC``, in the words of its ``advisor_tool_result``).
"""

from __future__ import annotations

from .history import Merged

__all__ = ["is_server_result", "server_tool_error"]

UNRESOLVED = "messages.{n}: `{name}` tool use with id `{id}` was found without a corresponding `{result}` block"
# Inferred up to "but": the pages quote only the end of the message.
NOT_PROVIDED = (
    "messages.{n}.content.{m}: `{name}` tool use with id `{id}` is waiting for its result, "
    "but no `{name}` tool was provided"
)
ORPHAN = (
    "messages.{n}.content.{m}: unexpected `tool_use_id` found in `{result}` blocks: {id}. "
    "Each `{result}` block must have a corresponding `server_tool_use` block before it."
)
_RESULT_TYPES = {
    "tool_search_tool_regex": "tool_search_tool_result",
    "tool_search_tool_bm25": "tool_search_tool_result",
}
_NAMED_BY_THEIR_TOOL = ("web_search", "web_fetch", "tool_search_tool_regex", "tool_search_tool_bm25")


def _waiting(message: Merged, answered: set) -> list[tuple[int, dict]]:
    """The message's server tool calls (with their block index) whose result is neither in it nor in ``answered``."""
    results = answered | {b.get("tool_use_id") for b in message.content if is_server_result(b.get("type"))}
    return [
        (m, b)
        for m, b in enumerate(message.content)
        if b.get("type") == "server_tool_use" and b.get("id") not in results
    ]


def _only_results(message: Merged) -> bool:
    return bool(message.content) and all(b.get("type") == "tool_result" for b in message.content)


def _unresolved(message: Merged, block: dict) -> str:
    name = str(block.get("name"))
    result = _RESULT_TYPES.get(name, f"{name}_tool_result")
    return UNRESOLVED.format(n=message.index, name=name, id=block.get("id"), result=result)


def _orphan(conversation: list[Merged]) -> str | None:
    """The first server tool result whose call came nowhere before it (MCP's results aside: no text is known)."""
    calls: set = set()
    for message in conversation:
        for m, block in enumerate(message.content):
            kind = str(block.get("type"))
            if kind == "server_tool_use":
                calls.add(block.get("id"))
            elif is_server_result(kind) and kind != "mcp_tool_result" and block.get("tool_use_id") not in calls:
                return ORPHAN.format(n=message.index, m=m, result=kind, id=block.get("tool_use_id"))
    return None


def is_server_result(kind: object) -> bool:
    """Whether a block type is a server tool's result (``web_search_tool_result``, ...; a client tool's is ``tool_result``)."""
    return str(kind).endswith("_tool_result")


def server_tool_error(merged: list[Merged], tools: list, *, count_tokens: bool = False) -> str | None:
    """The 400 for a server tool call the history leaves waiting where the turn does not go on, or
    whose tool the continuing request no longer defines (not checked by ``count_tokens``: it runs nothing)."""
    conversation = [m for m in merged if m.role in ("user", "assistant")]  # system messages sit aside
    orphan = _orphan(conversation)
    if orphan:
        return orphan
    names = {t.get("name") for t in tools if isinstance(t, dict) and t.get("type") not in (None, "custom")}
    for position, message in enumerate(conversation):
        if message.role != "assistant":
            continue
        waiting = _waiting(message, set())
        if not waiting:
            continue
        rest = conversation[position + 1 :]
        calls_client_tools = any(b.get("type") == "tool_use" for b in message.content)
        if rest and not (calls_client_tools and _only_results(rest[0])):
            return _unresolved(message, waiting[0][1])  # the turn was closed with the call unresolved
        if len(rest) > 1:  # continued: the deferred result starts the next assistant message
            later = _waiting(message, {b.get("tool_use_id") for b in rest[1].content})
            if later:
                return _unresolved(message, later[0][1])
            continue
        if count_tokens:
            continue
        for m, block in waiting:  # this request continues the turn: the waiting tool must still be there
            name = block.get("name")
            if name in _NAMED_BY_THEIR_TOOL and name not in names:
                return NOT_PROVIDED.format(n=message.index, m=m, name=name, id=block.get("id"))
    return None
