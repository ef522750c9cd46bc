"""API version 2026-10-21 (the one SDK 2.x sends): where documents and citations may stand.

The migration guide's breaking changes for the Messages API and token counting, and the structured
outputs page's "Returns 400 error if citations enabled with `output_config.format`".
"""

from harness_lab.emulator import Emulator, say

DOC = {
    "type": "document",
    "source": {"type": "text", "media_type": "text/plain", "data": "The sky is blue."},
    "citations": {"enabled": True},
}
CITATION = {"type": "char_location", "cited_text": "x", "document_index": 0, "start_char_index": 0, "end_char_index": 1}
FORMAT = {
    "format": {
        "type": "json_schema",
        "schema": {
            "type": "object",
            "properties": {"a": {"type": "string"}},
            "required": ["a"],
            "additionalProperties": False,
        },
    }
}


def answer(messages, path="/v1/messages", **fields):
    request = {"model": "claude-sonnet-5", "messages": messages, **fields}
    if path == "/v1/messages":
        request["max_tokens"] = 1024
    status, _, body = Emulator([say("はい。")]).respond(request, path)
    return status, body["error"]["message"] if status != 200 else None


def test_a_document_in_an_assistant_message_is_refused_in_create_and_count_tokens():
    history = [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": [DOC]},
        {"role": "user", "content": "ok"},
    ]
    for path in ("/v1/messages", "/v1/messages/count_tokens"):
        assert answer(history, path) == (
            400,
            "messages.1.content.0: document blocks are not supported in assistant messages",
        )
    assert answer([{"role": "user", "content": [DOC, {"type": "text", "text": "q"}]}]) == (200, None)


def test_citations_on_a_user_messages_text_are_refused_directly_or_inside_a_search_result():
    cited = {"type": "text", "text": "hi", "citations": [CITATION]}
    assert answer([{"role": "user", "content": [cited]}]) == (
        400,
        "messages.0.content.0.text.citations: text blocks in user messages cannot carry citations",
    )
    result = {"type": "search_result", "source": "s", "title": "t", "content": [{"type": "text", "text": "a"}, cited]}
    assert answer([{"role": "user", "content": [result, {"type": "text", "text": "q"}]}]) == (
        400,
        "messages.0.content.0.search_result.content.1.citations: text blocks in user messages cannot carry citations",
    )
    assert answer([{"role": "user", "content": [{**cited, "citations": []}]}]) == (200, None)  # none at all
    reply = [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": [cited]},
        {"role": "user", "content": "ok"},
    ]
    assert answer(reply) == (200, None)  # a reply's cited text goes back as it came


def test_citations_enabled_with_a_structured_output_format_are_refused():
    asked = [{"role": "user", "content": [DOC, {"type": "text", "text": "what color?"}]}]
    assert answer(asked, output_config=FORMAT) == (400, "citations are not supported with output_config.format")
    plain = [{"role": "user", "content": [{**DOC, "citations": {"enabled": False}}, {"type": "text", "text": "q"}]}]
    assert answer(plain, output_config=FORMAT) == (200, None)


# The citations page ("citations must be enabled on all or none of the documents within a request") and
# the search results page (one setting for every search result; a tool result holding one holds only
# search results; with web search on, every search result enables citations). The wordings are inferred.
SEARCH_TOOL = {"name": "search", "description": "s", "input_schema": {"type": "object", "properties": {}}}
USE = {"type": "tool_use", "id": "toolu_01A", "name": "search", "input": {}}


def found(cited=True):
    block = {"type": "search_result", "source": "https://docs.example/a", "title": "A"}
    block["content"] = [{"type": "text", "text": "The sky is blue."}]
    return {**block, "citations": {"enabled": True}} if cited else block


def searched(*blocks):
    result = {"type": "tool_result", "tool_use_id": "toolu_01A", "content": list(blocks)}
    return [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": [USE]},
        {"role": "user", "content": [result]},
    ]


def test_citations_are_enabled_on_every_document_or_on_none():
    plain = {**DOC, "citations": {"enabled": False}}
    ask = {"type": "text", "text": "q"}
    assert answer([{"role": "user", "content": [DOC, plain, ask]}]) == (
        400,
        "messages.0.content.1: citations must be enabled on all or none of the documents within a request",
    )
    unset = {k: v for k, v in DOC.items() if k != "citations"}  # off by default
    assert answer([{"role": "user", "content": [unset, DOC, ask]}])[0] == 400
    assert answer([{"role": "user", "content": [DOC, DOC, ask]}]) == (200, None)
    assert answer([{"role": "user", "content": [plain, unset, ask]}]) == (200, None)


def test_search_results_share_one_citations_setting_across_the_request():
    history = searched(found(), found(cited=False))
    assert answer(history, tools=[SEARCH_TOOL]) == (
        400,
        "messages.2.content.0.tool_result.content.1: all search results in a request must use the same citations setting",
    )
    later = [*searched(found()), {"role": "assistant", "content": "ok"}]
    later.append({"role": "user", "content": [found(cited=False), {"type": "text", "text": "and this?"}]})
    assert answer(later, tools=[SEARCH_TOOL])[1] == (
        "messages.4.content.0: all search results in a request must use the same citations setting"
    )
    assert answer(searched(found(), found()), tools=[SEARCH_TOOL]) == (200, None)


def test_a_tool_result_holding_a_search_result_holds_nothing_else():
    history = searched(found(), {"type": "text", "text": "two results"})
    assert answer(history, tools=[SEARCH_TOOL]) == (
        400,
        "messages.2.content.0.tool_result.content.1: a tool_result that holds a search_result block may hold only "
        "search_result blocks",
    )
    # in a user message search results may sit beside anything
    beside = [{"role": "user", "content": [found(), {"type": "text", "text": "q"}]}]
    assert answer(beside) == (200, None)


def test_with_web_search_on_every_search_result_enables_citations():
    web = {"type": "web_search_20250305", "name": "web_search"}
    history = searched(found(cited=False))
    assert answer(history, tools=[SEARCH_TOOL, web]) == (
        400,
        "messages.2.content.0.tool_result.content.0: citations must be enabled on all search_result blocks when the "
        "web search tool is enabled",
    )
    assert answer(history, tools=[SEARCH_TOOL]) == (200, None)
    assert answer(searched(found()), tools=[SEARCH_TOOL, web]) == (200, None)
