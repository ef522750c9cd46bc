"""Thinking round trips through the real SDK: what goes back whole is accepted, every other way is the API's 400."""

import copy
from dataclasses import replace

import anthropic
import pytest

from harness_lab import messages as hl_messages
from harness_lab.emulator import Emulator, call, emulated_client, reply, roundtrip, say, think
from harness_lab.emulator.models import (
    BINDING_BETA,
    DISABLED_REJECTED_SONNET_5_5,
    ENABLED_REJECTED,
    INTERLEAVED_BETA,
    MODELS,
)
from tests.emulator.refusals import refusal_of

MODEL = "claude-sonnet-5"
TOOLS = [
    {"name": "get_time", "description": "the time", "input_schema": {"type": "object", "properties": {}}},
    {
        "name": "read_file",
        "description": "read",
        "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}},
    },
]
TASK = "README.md を読んで、今何時か教えて"
SCRIPT = [call("read_file", path="README.md"), call("get_time"), say("終わりました")]


def start(model=MODEL, script=SCRIPT, **fields):
    """A client and the first round trip: (client, request, history with the tool results appended)."""
    client = emulated_client(script, max_retries=0)
    request = {"model": model, "max_tokens": 2048, "tools": TOOLS, **fields}
    first = client.messages.create(**request, messages=[{"role": "user", "content": TASK}])
    return client, request, answered([{"role": "user", "content": TASK}], first)


def answered(history, response):
    """History + the response as dicts (exactly the fields sent) + a result for each of its calls."""
    results = [hl_messages.tool_result(c["id"], "ok") for c in hl_messages.tool_calls(response.content)]
    return [*history, hl_messages.assistant(response.content), hl_messages.user(results)]


def refused(client, request, history) -> str:
    return refusal_of(lambda: client.messages.create(**request, messages=history))


def test_the_default_model_thinks_and_an_exact_echo_is_accepted():
    client, request, history = start()
    turn = history[1]["content"]
    assert turn[0]["type"] == "thinking" and turn[0]["thinking"] == "" and turn[0]["signature"]  # omitted
    assert client.messages.create(**request, messages=history).stop_reason == "tool_use"
    # the SDK objects themselves, as the article's loop sends response.content back, work too
    objects = client.messages.create(**request, messages=[{"role": "user", "content": TASK}])
    history = [{"role": "user", "content": TASK}, {"role": "assistant", "content": objects.content}, history[2]]
    assert client.messages.create(**request, messages=history).stop_reason == "tool_use"


def test_a_turn_filtered_to_text_and_tool_use_is_refused():
    client, request, history = start()
    history[1]["content"] = [b for b in history[1]["content"] if b["type"] in ("text", "tool_use")]
    message = refused(client, request, history)
    assert message == roundtrip.MUST_START_WITH_THINKING.format(n=1, found="tool_use")
    assert message.startswith(
        "messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`."
    )


def test_a_rebuilt_turn_with_the_thinking_moved_is_refused():
    client, request, history = start()
    thinking, *rest = history[1]["content"]
    history[1]["content"] = [*rest, thinking]
    assert refused(client, request, history) == roundtrip.MUST_START_WITH_THINKING.format(n=1, found="tool_use")


def test_edited_thinking_text_and_altered_signature():
    client, request, history = start(thinking={"type": "adaptive", "display": "summarized"})
    edited = copy.deepcopy(history)
    edited[1]["content"][0]["thinking"] = "I changed my mind"
    assert refused(client, request, edited) == roundtrip.MODIFIED.format(path="messages.1.content.0")
    altered = copy.deepcopy(history)
    signature = altered[1]["content"][0]["signature"]
    altered[1]["content"][0]["signature"] = signature[:10] + ("A" if signature[10] != "A" else "B") + signature[11:]
    assert refused(client, request, altered) == "messages.1.content.0: Invalid `signature` in `thinking` block"


def test_text_written_into_an_omitted_block_is_ignored_not_refused():
    client, request, history = start()  # Sonnet 5 omits its thinking by default
    assert history[1]["content"][0]["thinking"] == ""
    filled = copy.deepcopy(history)
    filled[1]["content"][0]["thinking"] = "I decided to ask for the time"
    answer = client.messages.create(**request, messages=filled)
    # The model read the request as if the text were not there: the same answer, the same prompt size.
    assert answer.to_dict() == client.messages.create(**request, messages=history).to_dict()


def test_an_edited_block_of_an_earlier_turn_is_an_invalid_signature():
    client, request, history = start(thinking={"type": "adaptive", "display": "summarized"})
    second = client.messages.create(**request, messages=history)
    history = answered(history, second)
    history[1]["content"][0]["thinking"] = "edited later"
    assert refused(client, request, history) == "messages.1.content.0: Invalid `signature` in `thinking` block"


def test_an_earlier_turn_rebuilt_with_its_text_first_is_refused_before_its_seal_is_read():
    script = [reply("README を読みます。", call("read_file", path="README.md")), call("get_time"), say("終わり")]
    client, request, history = start(script=script)
    history = answered(history, client.messages.create(**request, messages=history))
    thinking, text, use = history[1]["content"]
    history[1]["content"] = [text, thinking, use]
    assert refused(client, request, history) == (
        "messages.1.content.0: If an assistant message contains any thinking blocks, the first block must be "
        "thinking or redacted_thinking. Found text."
    )


def _without_thinking(history):
    return [
        {**m, "content": [b for b in m["content"] if b["type"] not in ("thinking", "redacted_thinking")]}
        if m["role"] == "assistant"
        else m
        for m in history
    ]


def _counted(client, request, messages) -> int:
    fields = {k: v for k, v in request.items() if k != "max_tokens"}
    return client.messages.count_tokens(**fields, messages=messages).input_tokens


@pytest.mark.parametrize("display", ["omitted", "summarized"])
def test_thinking_sent_back_costs_what_the_model_thought_whatever_it_showed(display):
    # The signature carries the whole thinking, so an omitted block with no text costs as much input
    # as a summarized one: what the turn that made it billed as thinking.
    client = emulated_client(SCRIPT, max_retries=0)
    request = {"model": MODEL, "max_tokens": 2048, "tools": TOOLS, "thinking": {"type": "adaptive", "display": display}}
    first = client.messages.create(**request, messages=[{"role": "user", "content": TASK}])
    thought = first.usage.to_dict()["output_tokens_details"]["thinking_tokens"]
    history = answered([{"role": "user", "content": TASK}], first)
    assert thought > 20
    assert _counted(client, request, history) - _counted(client, request, _without_thinking(history)) == thought
    second = client.messages.create(**request, messages=history)
    assert second.usage.input_tokens == _counted(client, request, history)


def test_a_last_turn_only_model_stops_reading_old_thinking_once_a_new_task_comes():
    model = "claude-haiku-4-5"  # keeps only the current turn's thinking (the thinking page)
    thinking = {"type": "enabled", "budget_tokens": 1024}
    client = emulated_client([call("get_time"), say("12時です"), say("どういたしまして")], max_retries=0)
    request = {"model": model, "max_tokens": 2048, "tools": TOOLS, "thinking": thinking}
    first = client.messages.create(**request, messages=[{"role": "user", "content": "今何時？"}])
    in_the_loop = answered([{"role": "user", "content": "今何時？"}], first)
    billed = _counted(client, request, in_the_loop) - _counted(client, request, _without_thinking(in_the_loop))
    assert billed > 0  # the turn the results answer still reads its thinking
    second = client.messages.create(**request, messages=in_the_loop)
    later = [*in_the_loop, hl_messages.assistant(second.content), {"role": "user", "content": "ありがとう"}]
    assert _counted(client, request, later) == _counted(client, request, _without_thinking(later))
    keeps_all = {**request, "model": "claude-sonnet-4-6"}  # where every turn's thinking stays, it costs
    assert _counted(client, keeps_all, later) > _counted(client, keeps_all, _without_thinking(later))


def test_reordered_thinking_blocks_inside_a_turn_are_refused():
    script = [reply(think("一つ目"), think("二つ目"), call("get_time")), say("終わり")]
    client, request, history = start(script=script)
    first, second, *rest = history[1]["content"]
    history[1]["content"] = [second, first, *rest]
    assert refused(client, request, history) == roundtrip.MODIFIED.format(path="messages.1.content.0")


def test_redacted_thinking_goes_back_unchanged_or_is_refused():
    client, request, history = start(script="redacted_thinking")
    assert [b["type"] for b in history[1]["content"]] == ["redacted_thinking", "tool_use"]
    assert client.messages.create(**request, messages=history).stop_reason == "end_turn"
    data = history[1]["content"][0]["data"]
    history[1]["content"][0]["data"] = data[:-6] + ("AAAA" if data[-6:-2] != "AAAA" else "BBBB") + data[-2:]
    assert refused(client, request, history) == "messages.1.content.0: Invalid `data` in `redacted_thinking` block"


def test_malformed_blocks_get_the_apis_400_not_a_traceback():
    client, request, history = start()
    block = history[1]["content"][0]
    cases = [
        (
            {k: v for k, v in block.items() if k != "signature"},
            "messages.1.content.0.thinking.signature: Field required",
        ),
        ({**block, "signature": 12}, "messages.1.content.0.thinking.signature: Input should be a valid string"),
        ({**block, "thinking": None}, "messages.1.content.0.thinking.thinking: Input should be a valid string"),
        ({**block, "signature": "x" * 1_000_000}, "messages.1.content.0: Invalid `signature` in `thinking` block"),
        ({**block, "signature": ""}, "messages.1.content.0: Invalid `signature` in `thinking` block"),
        ({**block, "signature": "!!not base64!!" * 6}, "messages.1.content.0: Invalid `signature` in `thinking` block"),
        ({"type": "redacted_thinking"}, "messages.1.content.0.redacted_thinking.data: Field required"),
    ]
    for bad, message in cases:
        broken = copy.deepcopy(history)
        broken[1]["content"][0] = bad
        assert refused(client, request, broken) == message


def test_a_block_from_another_model_before_and_after_preserved_thinking():
    client, request, history = start()  # made by claude-sonnet-5
    # Another model ignores it [TT: "Other models silently ignore them rather than rejecting the request"].
    on_haiku = {**request, "model": "claude-haiku-4-5", "thinking": {"type": "enabled", "budget_tokens": 1024}}
    switched = client.messages.create(**on_haiku, messages=history).to_dict()
    assert switched["stop_reason"] == "tool_use" and "input_transformations" not in switched
    # Fable 5.1 may not read Sonnet 5.5's blocks (only Opus 5.5 does): dropped without an error, and listed.
    _, sonnet_request, sonnet_history = start(model="claude-sonnet-5-5")
    on_fable = {**sonnet_request, "model": "claude-fable-5-1", "betas": [BINDING_BETA]}
    response = client.beta.messages.create(**on_fable, messages=sonnet_history)
    assert response.to_dict()["input_transformations"] == [
        {"type": "thinking_dropped", "path": "messages.1.content.0", "reason": "model_binding_mismatch"}
    ]
    # ... but Opus 5's it may.
    _, opus_request, opus_history = start(model="claude-opus-5")
    on_fable = {**opus_request, "model": "claude-fable-5-1", "betas": [BINDING_BETA]}
    assert client.beta.messages.create(**on_fable, messages=opus_history).to_dict()["input_transformations"] == []


def test_preserved_thinking_binds_a_block_to_its_conversation():
    client, request, history = start(model="claude-sonnet-5-5", system="簡潔に答える")
    assert client.messages.create(**request, messages=history).stop_reason == "tool_use"
    bound = roundtrip.BOUND_ELSEWHERE.format(path="messages.1.content.0")
    # Without the beta header the message goes on to name it (the preserved thinking page).
    without_beta = f"{bound} That setting requires the `{BINDING_BETA}` value in the `anthropic-beta` header."
    assert refused(client, {**request, "system": "丁寧に答える"}, history) == without_beta  # a rebuilt system prompt
    edited = copy.deepcopy(history)
    edited[0]["content"] = TASK + "（急ぎで）"  # an injected reminder in an earlier message
    assert refused(client, request, edited) == without_beta
    assert bound.endswith('set `thinking.block_binding.prefix_mismatch_behavior` to "drop_block".')
    with pytest.raises(anthropic.BadRequestError) as caught:
        client.beta.messages.create(**request, messages=edited, betas=[BINDING_BETA])
    assert caught.value.api_message == bound
    dropping = {
        **request,
        "thinking": {"type": "adaptive", "block_binding": {"prefix_mismatch_behavior": "drop_block"}},
    }
    response = client.beta.messages.create(**dropping, messages=edited, betas=[BINDING_BETA])
    assert response.to_dict()["input_transformations"][0]["reason"] == "prefix_binding_mismatch"
    # Sonnet 5 has no preserved thinking: the same edit is accepted there.
    client, request, history = start(system="簡潔に答える")
    assert client.messages.create(**{**request, "system": "丁寧に答える"}, messages=history).stop_reason == "tool_use"


def test_a_thinking_configuration_changed_inside_a_tool_use_loop_turns_thinking_off_for_the_request():
    """The docs: "If you toggle thinking mid-turn ... the API doesn't error. Instead, it silently disables
    thinking for that request"; manual mode still wants the turn to start with a thinking block."""
    client, request, history = start(script=[call("get_time"), call("get_time"), say("終わり")])  # adaptive
    off = {**request, "thinking": {"type": "disabled"}}
    assert [b.type for b in client.messages.create(**off, messages=history).content] == ["tool_use"]
    client, request, history = start(
        script=[call("get_time"), say("12時です"), say("どういたしまして")], thinking={"type": "disabled"}
    )
    assert history[1]["content"][0]["type"] == "tool_use"
    on = {**request, "thinking": {"type": "adaptive"}}
    toggled = client.messages.create(**on, messages=history)
    assert toggled.stop_reason == "end_turn" and [b.type for b in toggled.content] == ["text"]
    # Between turns (the loop ended with an answer) the new configuration applies.
    after = [*history, {"role": "assistant", "content": toggled.content}, {"role": "user", "content": "ありがとう"}]
    assert client.messages.create(**on, messages=after).content[0].type == "thinking"
    # Manual extended thinking switched on inside the loop: the turn must start with a thinking block.
    client, request, history = start(model="claude-sonnet-4-6")
    manual = {**request, "thinking": {"type": "enabled", "budget_tokens": 1024}}
    assert refused(client, manual, history) == roundtrip.MUST_START_WITH_THINKING.format(n=1, found="tool_use")


def test_refused_configurations_on_the_newest_models():
    client = emulated_client([say("x")], max_retries=0)
    base = {"max_tokens": 2048, "messages": [{"role": "user", "content": "q"}]}
    with pytest.raises(anthropic.BadRequestError) as caught:
        client.messages.create(model=MODEL, thinking={"type": "enabled", "budget_tokens": 1024}, **base)
    assert caught.value.api_message == ENABLED_REJECTED
    with pytest.raises(anthropic.BadRequestError) as caught:
        client.messages.create(model="claude-sonnet-5-5", thinking={"type": "disabled"}, **base)
    assert caught.value.api_message == DISABLED_REJECTED_SONNET_5_5
    with pytest.raises(anthropic.BadRequestError) as caught:
        client.messages.create(model="claude-sonnet-5-5", tools=TOOLS, tool_choice={"type": "any"}, **base)
    assert caught.value.api_message == roundtrip.FORCED_TOOL_CHOICE


def test_forced_tool_choice_skips_thinking_and_the_loop_goes_on():
    client, request, history = start(tool_choice={"type": "tool", "name": "read_file"})
    assert [b["type"] for b in history[1]["content"]] == ["tool_use"]
    assert client.messages.create(**{**request, "tool_choice": {"type": "auto"}}, messages=history).stop_reason


def test_text_between_tool_calls_comes_back_as_thinking_on_sonnet_5_5():
    script = [reply("調べます", call("get_time")), say("12時です")]
    _, _, history = start(model="claude-sonnet-5-5", script=script)
    assert [b["type"] for b in history[1]["content"]] == ["thinking", "thinking", "tool_use"]
    _, _, history = start(model="claude-sonnet-5-5", script=script, thinking={"type": "between_tools"})
    assert [b["type"] for b in history[1]["content"]] == ["thinking", "tool_use"]
    _, _, shown = start(model="claude-sonnet-5", script=script)
    assert [b["type"] for b in shown[1]["content"]] == ["thinking", "text", "tool_use"]


def test_interleaved_scenario_thinks_before_each_call():
    client = emulated_client("interleaved", max_retries=0)
    request = {
        "model": MODEL,
        "max_tokens": 2048,
        "tools": TOOLS,
        "thinking": {"type": "adaptive", "display": "summarized"},
    }
    history = [{"role": "user", "content": TASK}]
    kinds = []
    while True:
        response = client.messages.create(**request, messages=history)
        kinds.append([b.type for b in response.content])
        if response.stop_reason != "tool_use":
            break
        history = answered(history, response)
    assert kinds == [["thinking", "tool_use"], ["thinking", "tool_use"], ["thinking", "text"]]
    assert history[1]["content"][0]["thinking"] == "まず README を読む。"


@pytest.mark.parametrize(
    ("task", "env", "language"),
    [("今何時？", None, "ja"), ("What time is it?", None, "en"), ("今何時？", "en", "en")],
)
def test_summaries_follow_the_course_language(monkeypatch, task, env, language):
    if env:
        monkeypatch.setenv("HARNESS_LAB_LANG", env)
    else:
        monkeypatch.delenv("HARNESS_LAB_LANG", raising=False)
    request = {
        "model": MODEL,
        "max_tokens": 2048,
        "tools": TOOLS,
        "thinking": {"type": "adaptive", "display": "summarized"},
        "messages": [{"role": "user", "content": task}],
    }
    _, _, body = Emulator([call("get_time")]).respond(request)
    summary = body["content"][0]["thinking"]
    assert ("get_time" in summary) and (("呼び出して" in summary) == (language == "ja"))


def test_a_prefill_while_manual_thinking_is_on_is_refused_where_prefill_is_taken():
    """The thinking page: "You can't pre-fill the assistant response while thinking is on"."""
    client = emulated_client([say("続きです")], max_retries=0)
    prefilled = [
        {"role": "user", "content": TASK},
        {"role": "assistant", "content": [{"type": "text", "text": "はい"}]},
    ]
    request = {"model": "claude-haiku-4-5", "max_tokens": 2048, "tools": TOOLS}
    thinking = {**request, "thinking": {"type": "enabled", "budget_tokens": 1024}}
    assert refused(client, thinking, prefilled) == roundtrip.MUST_START_WITH_THINKING.format(n=1, found="text")
    assert client.messages.create(**request, messages=prefilled).stop_reason == "end_turn"  # thinking off: taken


def test_a_prefill_holding_thinking_is_refused_while_thinking_is_off():
    client = emulated_client([say("続きです")], max_retries=0)
    request = {"model": "claude-haiku-4-5", "max_tokens": 2048, "tools": TOOLS}
    thinking = {**request, "thinking": {"type": "enabled", "budget_tokens": 1024}}
    made = client.messages.create(**thinking, messages=[{"role": "user", "content": TASK}])
    block = hl_messages.assistant(made.content)["content"][0]
    assert block["type"] == "thinking"
    prefilled = [{"role": "user", "content": TASK}, {"role": "assistant", "content": [block]}]
    assert refused(client, request, prefilled) == (
        "messages.1.content.0: When thinking is disabled, an `assistant` message in the final position cannot "
        "contain `thinking`. To use thinking blocks, enable `thinking` in your request."
    )


def test_with_the_interleaved_header_a_manual_budget_may_pass_max_tokens_where_it_interleaves():
    """The extended thinking page: with interleaving "budget_tokens can exceed max_tokens"; Opus 4.6's manual
    mode does not interleave, and Haiku 4.5 ignores the header."""
    client = emulated_client([say("答えです")], max_retries=0)
    over = {"max_tokens": 2048, "thinking": {"type": "enabled", "budget_tokens": 4096}}
    header = {"extra_headers": {"anthropic-beta": "interleaved-thinking-2025-05-14"}}
    task = [{"role": "user", "content": TASK}]
    for model in ("claude-sonnet-4-6", "claude-opus-4-5"):
        assert client.messages.create(model=model, messages=task, **over, **header).stop_reason == "end_turn"
        with pytest.raises(anthropic.BadRequestError):  # no header: the budget must stay under max_tokens
            client.messages.create(model=model, messages=task, **over)
    for model in ("claude-opus-4-6", "claude-haiku-4-5"):
        with pytest.raises(anthropic.BadRequestError):
            client.messages.create(model=model, messages=task, **over, **header)


@pytest.mark.parametrize(("model", "interleaves"), [("claude-opus-4-6", False), ("claude-opus-4-5", True)])
def test_manual_interleaving_follows_the_models_row(monkeypatch, model, interleaves):
    # The row decides, not the id: with the header, a budget over max_tokens passes exactly where the row interleaves.
    over = {"max_tokens": 2048, "thinking": {"type": "enabled", "budget_tokens": 4096}}
    request = {"model": model, "messages": [{"role": "user", "content": TASK}], **over}
    for says in (interleaves, not interleaves):
        monkeypatch.setitem(MODELS, model, replace(MODELS[model], manual_interleaving=says))
        status, _, body = Emulator([say("答えです")]).respond(request, headers={"anthropic-beta": INTERLEAVED_BETA})
        assert (status == 200) is says, (model, says, body)


@pytest.mark.parametrize(
    ("model", "header", "again"),
    [
        ("claude-haiku-4-5", False, False),
        ("claude-haiku-4-5", True, False),  # the header is ignored there
        ("claude-opus-4-6", True, False),  # its manual mode never interleaves
        ("claude-opus-4-5", False, False),
        ("claude-opus-4-5", True, True),
    ],
)
def test_manual_thinking_thinks_again_after_a_tool_result_only_where_it_interleaves(model, header, again):
    extra = {"extra_headers": {"anthropic-beta": "interleaved-thinking-2025-05-14"}} if header else {}
    manual = {"thinking": {"type": "enabled", "budget_tokens": 1024}, **extra}
    client, request, history = start(model=model, **manual)
    assert history[1]["content"][0]["type"] == "thinking"  # a turn starts with thinking either way
    after = client.messages.create(**request, messages=history)
    assert (after.content[0].type == "thinking") is again
    history = answered(history[:-1] + [history[-1]], after)  # and the turn goes on without a 400
    assert client.messages.create(**request, messages=history).stop_reason == "end_turn"
