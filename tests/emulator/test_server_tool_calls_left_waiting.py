"""A server tool call left without its result goes on only where the turn goes on (docs/api_facts.md,
"Server tool calls left waiting"): the paused reply resent as it is, or tool results and nothing else
after a reply that also called a client tool, with the server tool still defined."""

import pytest

from harness_lab.emulator import emulated_client, reply, say
from tests.emulator.refusals import refusal_of

SEARCH = {"type": "web_search_20250305", "name": "web_search"}
READ = {"name": "read_file", "description": "read a file", "input_schema": {"type": "object"}}
QUESTION = [{"role": "user", "content": "Look up the latest information"}]


def ask(client, messages, tools=(SEARCH,)):
    return client.messages.create(model="claude-sonnet-5", max_tokens=1024, tools=list(tools), messages=messages)


def refusal(client, messages, tools=(SEARCH,)) -> str:
    return refusal_of(lambda: ask(client, messages, tools))


def paused():
    client = emulated_client("pause_turn", max_retries=0)
    response = ask(client, QUESTION)
    assert response.stop_reason == "pause_turn" and response.content[-1].type == "server_tool_use"
    return client, [*QUESTION, {"role": "assistant", "content": response.content}], response.content[-1]


def test_a_paused_search_resent_as_it_is_runs_and_the_conversation_goes_on():
    client, history, _ = paused()
    resumed = ask(client, history)
    assert resumed.stop_reason == "end_turn" and resumed.content[0].type == "web_search_tool_result"
    later = [*history, {"role": "assistant", "content": resumed.content}, {"role": "user", "content": "Thanks"}]
    assert ask(client, later).stop_reason == "end_turn"  # the result came in a later message: paired by id


def test_continue_added_after_a_paused_search_closes_the_turn_on_an_unresolved_call():
    # The stop reasons page: send the paused content back as it is; anything after it ends the turn.
    client, history, pending = paused()
    message = refusal(client, [*history, {"role": "user", "content": "continue"}])
    assert message == (
        f"messages.1: `web_search` tool use with id `{pending.id}` was found without a corresponding "
        "`web_search_tool_result` block"
    )


@pytest.mark.parametrize("tools", [(), (READ,)], ids=["no tools", "web search dropped"])
def test_a_paused_search_resent_without_the_search_tool_is_refused(tools):
    # The server tools page: "the API returns a validation error if that tool is missing from the continuation".
    client, history, pending = paused()
    message = refusal(client, history, tools)
    where = len(history[-1]["content"]) - 1  # the call ends the paused reply (after its thinking, if any)
    assert message.startswith(f"messages.1.content.{where}: ") and pending.id in message
    assert message.endswith("but no `web_search` tool was provided")


def test_the_search_deferred_beside_a_client_call_waits_for_the_results_alone():
    # A tool_use reply holding a web search not yet run: tool results alone continue it, and the
    # next reply starts with the search's result; text after the results ends the turn.
    pending = {"type": "server_tool_use", "id": "srvtoolu_01Waiting", "name": "web_search", "input": {"query": "q"}}
    result = {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_01Waiting", "content": []}
    client = emulated_client(
        [reply(pending, {"type": "tool_use", "name": "read_file", "input": {}}), reply(result, say("Done"))]
    )
    tools = (SEARCH, READ)
    mixed = ask(client, QUESTION, tools)
    shown = [b.type for b in mixed.content if b.type != "thinking"]
    assert mixed.stop_reason == "tool_use" and shown == ["server_tool_use", "tool_use"]
    answer = {"type": "tool_result", "tool_use_id": mixed.content[-1].id, "content": "text"}
    history = [*QUESTION, {"role": "assistant", "content": mixed.content}]
    resumed = ask(client, [*history, {"role": "user", "content": [answer]}], tools)
    assert resumed.content[0].type == "web_search_tool_result"
    later = [*history, {"role": "user", "content": [answer]}, {"role": "assistant", "content": resumed.content}]
    assert ask(client, [*later, {"role": "user", "content": "Thanks"}], tools).stop_reason == "end_turn"
    with_text = {"role": "user", "content": [answer, {"type": "text", "text": "Also, hurry"}]}
    assert "was found without a corresponding `web_search_tool_result` block" in refusal(
        client, [*history, with_text], tools
    )
    assert refusal(client, [*history, {"role": "user", "content": [answer]}], (READ,)).endswith(
        "but no `web_search` tool was provided"
    )
    counted = client.messages.count_tokens(
        model="claude-sonnet-5", messages=[*history, {"role": "user", "content": [answer]}], tools=[READ]
    )
    assert counted.input_tokens > 0  # counting runs nothing: the waiting tool need not be there


def test_a_search_result_whose_call_was_filtered_out_is_refused():
    # A loop that keeps only the blocks it knows (text, tool_use) drops the paused call but keeps the
    # result of the reply that ran it: the live 400 for a server tool result with no call before it.
    client, history, pending = paused()
    resumed = ask(client, history)
    kept = [b for b in history[-1]["content"] if b.type != "server_tool_use"]
    later = [
        *QUESTION,
        {"role": "assistant", "content": [*kept, *resumed.content]},
        {"role": "user", "content": "Thanks"},
    ]
    where = len(kept) + [b.type for b in resumed.content].index("web_search_tool_result")
    assert refusal(client, later) == (
        f"messages.1.content.{where}: unexpected `tool_use_id` found in `web_search_tool_result` blocks: "
        f"{pending.id}. Each `web_search_tool_result` block must have a corresponding `server_tool_use` block before it."
    )
