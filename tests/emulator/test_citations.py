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
