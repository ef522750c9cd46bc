"""A reply about documents or search results with citations on cites them, as the citations page shows."""

import base64

from harness_lab.emulator import emulated_client, say

MODEL = "claude-sonnet-5"
QUESTION = {"type": "text", "text": "What color is the grass and sky?"}


def text_document(data="The grass is green. The sky is blue.", **fields):
    source = {"type": "text", "media_type": "text/plain", "data": data}
    return {"type": "document", "source": source, "citations": {"enabled": True}, **fields}


def ask(*blocks, stream=False, script=("The grass is green.",)):
    client = emulated_client([say(text) for text in script], max_retries=0)
    body = {"model": MODEL, "max_tokens": 1024, "thinking": {"type": "disabled"}}
    messages = [{"role": "user", "content": [*blocks, QUESTION]}]
    if not stream:
        return client.messages.create(**body, messages=messages)
    with client.messages.stream(**body, messages=messages) as events:
        return events.get_final_message()


def test_a_plain_text_document_is_cited_by_its_first_sentence():
    reply = ask(text_document(title="My Document"))
    citation = reply.content[0].citations[0]
    # The page's own example: "The grass is green." is characters 0 to 20, its trailing space in the range.
    assert (citation.type, citation.cited_text) == ("char_location", "The grass is green.")
    assert (citation.start_char_index, citation.end_char_index) == (0, 20)
    assert (citation.document_index, citation.document_title) == (0, "My Document")


def test_a_citation_costs_no_output_tokens():
    cited = ask(text_document())
    uncited = ask({**text_document(), "citations": {"enabled": False}})
    assert uncited.content[0].citations is None
    assert cited.usage.output_tokens == uncited.usage.output_tokens


def test_a_streamed_reply_carries_the_same_citations():
    streamed, whole = ask(text_document(), stream=True).content[0], ask(text_document()).content[0]
    assert streamed.citations and (streamed.text, streamed.citations) == (whole.text, whole.citations)


def test_a_custom_content_document_is_cited_by_its_first_block():
    source = {"type": "content", "content": [{"type": "text", "text": "First chunk"}, {"type": "text", "text": "Two"}]}
    reply = ask({"type": "document", "source": source, "citations": {"enabled": True}})
    citation = reply.content[0].citations[0]
    assert citation.type == "content_block_location" and citation.cited_text == "First chunk"
    assert (citation.start_block_index, citation.end_block_index) == (0, 1)


def test_a_pdf_is_counted_but_not_cited_offline():
    pdf = base64.b64encode(b"%PDF-1.4\n%%EOF").decode()
    document = {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": pdf}}
    reply = ask({**document, "citations": {"enabled": True}}, text_document())
    assert reply.content[0].citations[0].document_index == 1  # the PDF is document 0


def test_a_search_result_is_cited_by_its_first_block():
    result = {
        "type": "search_result",
        "source": "https://example.com/grass",
        "title": "Grass",
        "content": [{"type": "text", "text": "Grass is green."}],
        "citations": {"enabled": True},
    }
    citation = ask(result).content[0].citations[0]
    assert citation.type == "search_result_location" and citation.cited_text == "Grass is green."
    assert (citation.search_result_index, citation.source, citation.title) == (0, "https://example.com/grass", "Grass")


def test_a_cited_reply_goes_back_as_it_came():
    client = emulated_client([say("The grass is green."), say("Yes.")], max_retries=0)
    body = {"model": MODEL, "max_tokens": 1024, "thinking": {"type": "disabled"}}
    messages = [{"role": "user", "content": [text_document(), QUESTION]}]
    first = client.messages.create(**body, messages=messages)
    history = [*messages, {"role": "assistant", "content": first.content}, {"role": "user", "content": "Sure?"}]
    assert client.messages.create(**body, messages=history).stop_reason == "end_turn"


def test_a_cited_reply_is_its_claim_in_one_block_and_the_rest_in_another():
    # The citations page's "Response Structure": the claim "the grass is green" a block with its citations,
    # ". Information from ..." (the stop and what follows) a block without; joined, the whole answer.
    reply = ask(text_document(), script=("The grass is green. The sky is blue.",))
    assert [block.text for block in reply.content] == ["The grass is green", ". The sky is blue."]
    assert reply.content[0].citations and reply.content[1].citations is None
    assert "".join(block.text for block in reply.content) == "The grass is green. The sky is blue."


def test_a_japanese_cited_reply_splits_at_its_first_stop_and_streams_alike():
    script = ("草は緑です。空は青いです。",)
    whole, streamed = ask(text_document(), script=script), ask(text_document(), stream=True, script=script)
    assert [b.text for b in whole.content] == [b.text for b in streamed.content] == ["草は緑です", "。空は青いです。"]
    assert [bool(b.citations) for b in streamed.content] == [True, False]


def test_a_cited_reply_without_a_stop_stays_one_block():
    reply = ask(text_document(), script=("Green",))
    assert [(b.text, bool(b.citations)) for b in reply.content] == [("Green", True)]
