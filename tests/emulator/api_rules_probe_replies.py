"""The probe's rules on replies: streaming, thinking, documents and citations."""

import base64

from harness_lab.emulator import call, reply, say, think
from tests.emulator.api_rules_probe_kit import ASK, MODEL, TOOL, client, create, refusal, rule

# ---- streaming ------------------------------------------------------------------------------------


@rule("SE")
def stream_tool_input_json_delta() -> bool:
    """a streamed tool call starts with input {} and sends input_json_delta"""
    c = client([call("read_file", path="a.md")])
    tool = {"name": "read_file", "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}}}
    events = list(c.messages.create(model=MODEL, max_tokens=256, messages=ASK, tools=[tool], stream=True))
    start = next(e for e in events if e.type == "content_block_start" and e.content_block.type == "tool_use")
    deltas = [
        e.delta.partial_json for e in events if e.type == "content_block_delta" and e.delta.type == "input_json_delta"
    ]
    return start.content_block.input == {} and "".join(deltas).replace(" ", "") == '{"path":"a.md"}'


@rule("SE")
def stream_usage_cumulative() -> bool:
    """message_delta's usage output_tokens equals the non-streamed reply's"""
    c = client([say("こんにちは"), say("こんにちは")])
    events = list(c.messages.create(model=MODEL, max_tokens=64, messages=ASK, stream=True))
    delta = next(e for e in events if e.type == "message_delta")
    whole = c.messages.create(model=MODEL, max_tokens=64, messages=ASK)
    return delta.usage.output_tokens == whole.usage.output_tokens


@rule("SE")
def stream_stop_reason_in_delta() -> bool:
    """message_start has stop_reason null; message_delta carries it"""
    c = client([say("こんにちは")])
    events = list(c.messages.create(model=MODEL, max_tokens=1024, messages=ASK, stream=True))
    start = events[0]
    delta = next(e for e in events if e.type == "message_delta")
    return start.message.stop_reason is None and delta.delta.stop_reason == "end_turn"


# ---- thinking -------------------------------------------------------------------------------------


@rule("TH")
def thinking_in_user_message_refused() -> bool:
    """a thinking block in a user message is a 400"""
    block = {"type": "thinking", "thinking": "x", "signature": "abc"}
    return (
        refusal(lambda: create(messages=[{"role": "user", "content": [block, {"type": "text", "text": "hi"}]}]))
        is not None
    )


@rule("TH")
def text_before_thinking_refused() -> bool:
    """an assistant message with thinking must start with it"""
    message = create([reply(think("考える"), call("get_time")), say("ok")], tools=[TOOL])
    blocks = [b.model_dump(exclude_none=True) for b in message.content]
    blocks.insert(0, {"type": "text", "text": "前置き"})
    use = next(b for b in message.content if b.type == "tool_use")
    result = {"type": "tool_result", "tool_use_id": use.id, "content": "12:00"}
    messages = [*ASK, {"role": "assistant", "content": blocks}, {"role": "user", "content": [result]}]
    return refusal(lambda: create(tools=[TOOL], messages=messages)) is not None


# ---- documents and citations ----------------------------------------------------------------------


@rule("CI")
def citations_in_reply() -> bool:
    """a reply about a document with citations enabled cites it"""
    document = {
        "type": "document",
        "source": {"type": "text", "media_type": "text/plain", "data": "The grass is green. The sky is blue."},
        "citations": {"enabled": True},
    }
    message = create(
        messages=[{"role": "user", "content": [document, {"type": "text", "text": "What color is the grass?"}]}]
    )
    return any(getattr(b, "citations", None) for b in message.content if b.type == "text")


@rule("CI")
def pdf_document_taken() -> bool:
    """a base64 PDF document is taken"""
    pdf = base64.b64encode(b"%PDF-1.4\n%%EOF").decode()
    document = {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": pdf}}
    return (
        create(messages=[{"role": "user", "content": [document, {"type": "text", "text": "要約して"}]}]).stop_reason
        is not None
    )


# ---- citations in replies (CI) and thinking cut by max_tokens ----------------------------


def _cited(*blocks, stream=False):
    c = client([say("The grass is green.")])
    body = {"model": MODEL, "max_tokens": 1024, "thinking": {"type": "disabled"}}
    messages = [{"role": "user", "content": [*blocks, {"type": "text", "text": "What color is the grass?"}]}]
    if stream:
        return list(c.messages.create(**body, messages=messages, stream=True))
    return c.messages.create(**body, messages=messages)


def _document(data="The grass is green. The sky is blue.", **fields):
    source = {"type": "text", "media_type": "text/plain", "data": data}
    return {"type": "document", "source": source, "citations": {"enabled": True}, **fields}


@rule("CI")
def char_location_indices() -> bool:
    """a plain-text citation: 0-based characters, end exclusive (the page's example, 0 to 20)"""
    citation = _cited(_document()).content[0].citations[0]
    return (citation.type, citation.start_char_index, citation.end_char_index) == ("char_location", 0, 20)


@rule("CI")
def document_title_carried() -> bool:
    """a citation names its document's title, and title is not cited from"""
    citation = _cited(_document(title="My Document", context="trustworthy")).content[0].citations[0]
    return citation.document_title == "My Document" and "trustworthy" not in citation.cited_text


@rule("CI")
def document_index_spans_the_request() -> bool:
    """document_index counts every document in the request, across messages (a PDF is counted, not cited, offline)"""
    c = client([say("ok"), say("The grass is green.")])
    body = {"model": MODEL, "max_tokens": 1024, "thinking": {"type": "disabled"}}
    pdf = {"type": "base64", "media_type": "application/pdf", "data": base64.b64encode(b"%PDF-1.4\n%%EOF").decode()}
    earlier = {"type": "document", "source": pdf, "citations": {"enabled": True}}
    first = [
        {"role": "user", "content": [earlier, {"type": "text", "text": "a"}]},
        {"role": "assistant", "content": "ok"},
    ]
    messages = [*first, {"role": "user", "content": [_document(), {"type": "text", "text": "b"}]}]
    return c.messages.create(**body, messages=messages).content[0].citations[0].document_index == 1


@rule("CI")
def content_document_cites_blocks() -> bool:
    """a custom content document is cited by block indices, end exclusive"""
    source = {
        "type": "content",
        "content": [{"type": "text", "text": "First chunk"}, {"type": "text", "text": "Second chunk"}],
    }
    citation = _cited({"type": "document", "source": source, "citations": {"enabled": True}}).content[0].citations[0]
    return (citation.type, citation.start_block_index, citation.end_block_index) == ("content_block_location", 0, 1)


@rule("CI, SDK")
def search_result_cites_blocks() -> bool:
    """a search result is cited by search_result_location, cited_text = its blocks joined"""
    result = {
        "type": "search_result",
        "source": "https://example.com",
        "title": "t",
        "content": [{"type": "text", "text": "Grass is green."}],
        "citations": {"enabled": True},
    }
    citation = _cited(result).content[0].citations[0]
    return (
        citation.type == "search_result_location"
        and citation.cited_text == "Grass is green."
        and citation.end_block_index == 1
    )


@rule("CI")
def citations_delta_streamed() -> bool:
    """a streamed cited text block gets its citation in a citations_delta"""
    events = _cited(_document(), stream=True)
    return any(e.type == "content_block_delta" and e.delta.type == "citations_delta" for e in events)


@rule("CI")
def cited_text_costs_nothing() -> bool:
    """cited_text does not count toward output tokens"""
    cited = _cited(_document())
    plain = _cited({**_document(), "citations": {"enabled": False}})
    return plain.content[0].citations is None and cited.usage.output_tokens == plain.usage.output_tokens


@rule("CI")
def cited_reply_sent_back() -> bool:
    """a cited reply sent back in the history is taken"""
    c = client([say("The grass is green."), say("Yes.")])
    body = {"model": MODEL, "max_tokens": 1024, "thinking": {"type": "disabled"}}
    messages = [{"role": "user", "content": [_document(), {"type": "text", "text": "?"}]}]
    first = c.messages.create(**body, messages=messages)
    history = [*messages, {"role": "assistant", "content": first.content}, {"role": "user", "content": "Sure?"}]
    return c.messages.create(**body, messages=history).stop_reason == "end_turn"


@rule("CI")
def cited_text_in_blocks() -> bool:
    """a cited answer comes as several text blocks: the claim with its citations, the stop and the rest without"""
    c = client([say("The grass is green. The sky is blue.")])
    body = {"model": MODEL, "max_tokens": 1024, "thinking": {"type": "disabled"}}
    messages = [{"role": "user", "content": [_document(), {"type": "text", "text": "What color is the grass?"}]}]
    content = c.messages.create(**body, messages=messages).content
    # The page's example: "the grass is green" cited, then ". Information from page 5 states that " uncited.
    return (
        len(content) > 1
        and bool(content[0].citations)
        and not content[0].text.endswith(".")
        and content[1].citations is None
        and content[1].text.startswith(".")
        and "".join(b.text for b in content) == "The grass is green. The sky is blue."
    )


@rule("HS")
def cut_inside_thinking() -> bool:
    """a reply cut by max_tokens inside its thinking holds the thinking block only (claude-code #68882)"""
    message = create([say("長い答え")], max_tokens=8, thinking={"type": "adaptive", "display": "summarized"})
    return message.stop_reason == "max_tokens" and [b.type for b in message.content] == ["thinking"]


@rule("ET")
def summary_not_billed_on_top() -> bool:
    """summarized thinking bills the full thinking, not the summary: the same output_tokens as omitted"""
    usages = [
        create([say("答えます。")], thinking={"type": "adaptive", "display": display}).usage
        for display in ("omitted", "summarized")
    ]
    return usages[0].output_tokens == usages[1].output_tokens and usages[0].output_tokens_details.thinking_tokens > 0
