"""Context editing, compaction and task budgets, with their beta headers, offline (lesson 6's server-side valves)."""

from dataclasses import replace

import anthropic
import pytest

from harness_lab.emulator import Emulator, emulated_client, model_rules, say
from harness_lab.emulator.context_management import CLEARED
from harness_lab.emulator.models import MODELS
from harness_lab.events import Usage
from tests.emulator.refusals import refusal_of

MODEL = "claude-sonnet-5"
TOOLS = [
    {
        "name": "read_file",
        "description": "read",
        "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}},
    }
]
LOG = "2026-12-01 12:00:00 GET /api/items 200 12ms\n" * 60
EDITING = "context-management-2025-06-27"
COMPACT = "compact-2026-01-12"
BUDGETS = "task-budgets-2026-03-13"


def loop(client, rounds, model=MODEL, first="ログを全部読んでまとめて", history=None, **fields):
    """A plain loop over the beta client; returns the responses (``history`` gets the messages)."""
    messages = history if history is not None else []
    messages.append({"role": "user", "content": first})
    responses = []
    for _ in range(rounds):
        response = client.beta.messages.create(model=model, max_tokens=2048, tools=TOOLS, messages=messages, **fields)
        responses.append(response)
        if response.stop_reason != "tool_use":
            break
        calls = [b for b in response.content if b.type == "tool_use"]
        messages += [
            {"role": "assistant", "content": response.content},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": c.id, "content": LOG} for c in calls]},
        ]
    return responses


CLEAR = {
    "edits": [
        {
            "type": "clear_tool_uses_20250919",
            "trigger": {"type": "input_tokens", "value": 3000},
            "keep": {"type": "tool_uses", "value": 2},
        }
    ]
}


def test_clear_tool_uses_shrinks_the_prompt_and_reports_what_it_did():
    plain = loop(emulated_client("big_results"), 9)
    edited = loop(emulated_client("big_results"), 9, context_management=CLEAR, betas=[EDITING])
    assert len(plain) == len(edited) == 9
    last = edited[-1].context_management.applied_edits[0]
    assert last.type == "clear_tool_uses_20250919" and last.cleared_tool_uses == 6 and last.cleared_input_tokens > 0
    assert edited[0].context_management.applied_edits == []  # below the trigger nothing is cleared
    assert edited[-1].usage.input_tokens < plain[-1].usage.input_tokens - last.cleared_input_tokens / 2
    text = next(b.text for b in edited[-1].content if b.type == "text")
    assert "古い結果 6 件" in text  # the model saw the placeholders
    assert CLEARED.startswith("[")


def test_count_tokens_counts_after_the_edits_and_reports_the_count_before():
    # The context editing page: count_tokens "supports context management" and answers
    # context_management.original_input_tokens; it takes mcp_servers as the SDK's beta parameters do.
    client, history = emulated_client("big_results"), []
    edited = loop(client, 9, context_management=CLEAR, betas=[EDITING], history=history)
    request = {"model": MODEL, "tools": TOOLS, "messages": history}  # what the last request sent
    counted = client.beta.messages.count_tokens(**request, context_management=CLEAR, betas=[EDITING], mcp_servers=[])
    plain = client.beta.messages.count_tokens(**request)
    assert counted.input_tokens == edited[-1].usage.input_tokens < plain.input_tokens
    assert counted.context_management.original_input_tokens == plain.input_tokens
    assert plain.context_management is None


def test_context_management_needs_its_beta_header():
    client = emulated_client("big_results", max_retries=0)
    with pytest.raises(anthropic.BadRequestError) as caught:
        client.messages.create(
            model=MODEL,
            max_tokens=1024,
            messages=[{"role": "user", "content": "q"}],
            extra_body={"context_management": CLEAR},
        )
    assert caught.value.api_message == "context_management: Extra inputs are not permitted"
    with pytest.raises(anthropic.BadRequestError) as caught:
        client.beta.messages.create(
            model=MODEL,
            max_tokens=1024,
            messages=[{"role": "user", "content": "q"}],
            context_management={"edits": [{"type": "compact_20260112"}]},
            betas=[EDITING],  # compaction has its own header
        )
    assert caught.value.api_message == "context_management: Extra inputs are not permitted"


def test_a_compaction_trigger_under_50000_tokens_is_refused():
    client = emulated_client("big_results", max_retries=0)
    low = {
        "edits": [
            {"type": "clear_thinking_20251015"},
            {"type": "compact_20260112", "trigger": {"type": "input_tokens", "value": 49_999}},
        ]
    }
    with pytest.raises(anthropic.BadRequestError) as caught:
        client.beta.messages.create(
            model=MODEL,
            max_tokens=1024,
            messages=[{"role": "user", "content": "q"}],
            context_management=low,
            betas=[EDITING, COMPACT],
        )
    assert (
        caught.value.api_message == "context_management.edits.1.compact_20260112: trigger.value must be at least 50000"
    )


def test_clear_thinking_keeps_the_last_turns_thinking():
    edits = {"edits": [{"type": "clear_thinking_20251015", "keep": {"type": "thinking_turns", "value": 1}}]}
    responses = loop(emulated_client("big_results"), 4, context_management=edits, betas=[EDITING])
    applied = responses[-1].context_management.applied_edits[0]
    assert applied.type == "clear_thinking_20251015" and applied.cleared_thinking_turns == 2


def chat(model, turns, **fields):
    """``turns`` user turns, each answered with thinking; the last request's response."""
    client, messages = emulated_client([say("はい。")]), []
    for n in range(turns):
        messages.append({"role": "user", "content": f"質問 {n}"})
        response = client.beta.messages.create(model=model, max_tokens=2048, messages=messages, **fields)
        messages.append({"role": "assistant", "content": response.content})
    return response


def test_clear_thinking_without_keep_keeps_what_the_model_keeps_and_keep_must_be_positive():
    # The context editing page: the default is per model, all turns from Opus 4.5 and Sonnet 4.6 on,
    # the last turn only on the earlier models; a thinking_turns value must be > 0.
    edits = {"context_management": {"edits": [{"type": "clear_thinking_20251015"}]}, "betas": [EDITING]}
    manual = {"type": "enabled", "budget_tokens": 1024}
    assert chat(MODEL, 4, **edits).context_management.applied_edits == []
    applied = chat("claude-haiku-4-5", 4, thinking=manual, **edits).context_management.applied_edits
    assert applied[0].cleared_thinking_turns == 2
    zero = {"edits": [{"type": "clear_thinking_20251015", "keep": {"type": "thinking_turns", "value": 0}}]}
    with pytest.raises(anthropic.BadRequestError) as caught:
        loop(emulated_client("big_results", max_retries=0), 1, context_management=zero, betas=[EDITING])
    assert caught.value.api_message == (
        "context_management.edits.0.clear_thinking_20251015.keep.thinking_turns.value: "
        "Input should be greater than or equal to 1"
    )


CLEAR_THINKING = {"type": "clear_thinking_20251015", "keep": "all"}


@pytest.mark.parametrize(
    ("model", "thinking", "runs"),
    [
        (MODEL, None, True),  # Sonnet 5 thinks unless told not to
        (MODEL, {"type": "disabled"}, False),
        ("claude-opus-4-8", None, False),  # thinks only when asked
        ("claude-opus-4-8", {"type": "adaptive"}, True),
        ("claude-haiku-4-5", None, False),
        ("claude-haiku-4-5", {"type": "enabled", "budget_tokens": 1024}, True),
        ("claude-sonnet-5-5", {"type": "between_tools"}, False),
    ],
)
def test_clear_thinking_needs_a_request_that_thinks(model, thinking, runs):
    # The live 400 (CLIProxyAPI #4957, request id req_011Ce1wHVtTC9TqewyaBQBLm, 2026-08): an absent thinking
    # field is as ineligible as "disabled" where the model does not think unasked; Sonnet 5 thinks unasked.
    fields = {"thinking": thinking} if thinking else {}
    create = lambda: emulated_client([say("はい。")], max_retries=0).beta.messages.create(  # noqa: E731
        model=model,
        max_tokens=2048,
        messages=[{"role": "user", "content": "質問"}],
        context_management={"edits": [CLEAR_THINKING]},
        betas=[EDITING],
        **fields,
    )
    if runs:
        assert create().stop_reason == "end_turn"
    else:
        message = refusal_of(create)
        assert message == "`clear_thinking_20251015` strategy requires `thinking` to be enabled or adaptive"


def test_clear_thinking_comes_first_when_the_strategies_are_combined():
    # The context editing page: "When using multiple strategies, the clear_thinking_20251015 strategy must be
    # listed first in the edits array".
    clear_tools = {"type": "clear_tool_uses_20250919"}
    first = loop(
        emulated_client("big_results"), 1, context_management={"edits": [CLEAR_THINKING, clear_tools]}, betas=[EDITING]
    )
    assert first[0].stop_reason == "tool_use"
    second = {"edits": [clear_tools, CLEAR_THINKING]}
    message = refusal_of(
        lambda: loop(emulated_client("big_results", max_retries=0), 1, context_management=second, betas=[EDITING])
    )
    assert message == (
        "context_management.edits.1: the clear_thinking_20251015 strategy must be listed first in the edits array"
    )


# A first message of about 47,500 tokens: a few log parts more reach compaction's lowest trigger.
LONG_TASK = "ログを全部読んでまとめて。" + "背景: " * 19_000


def test_compaction_pauses_with_a_summary_that_stands_for_the_history():
    edits = {
        "edits": [
            {
                "type": "compact_20260112",
                "trigger": {"type": "input_tokens", "value": 50_000},
                "pause_after_compaction": True,
            }
        ]
    }
    responses = loop(emulated_client("big_results"), 9, first=LONG_TASK, context_management=edits, betas=[COMPACT])
    paused = responses[-1]
    assert paused.stop_reason == "compaction"
    assert [b.type for b in paused.content] == ["compaction"] and "ツール呼び出し" in paused.content[0].content
    assert [i.type for i in paused.usage.iterations] == ["compaction"]  # no message iteration after a pause
    before = responses[-2].usage.input_tokens
    # Sent back, the compaction block stands for everything before it.
    emulator = Emulator("big_results")
    history = [
        {"role": "user", "content": "ログを全部読んでまとめて"},
        {"role": "assistant", "content": [{"type": "compaction", "content": paused.content[0].content}]},
        {"role": "user", "content": "続けて"},
    ]
    status, _, body = emulator.respond(
        {"model": MODEL, "max_tokens": 2048, "tools": TOOLS, "messages": history, "context_management": edits},
        headers={"anthropic-beta": COMPACT},
    )
    assert status == 200 and body["usage"]["input_tokens"] < before / 2


def test_triggers_and_cleared_tokens_are_in_the_models_own_tokenizer():
    # Sonnet 4.6 counts the same prompt in fewer tokens than the estimate's (the 2026 tokenizer's): its
    # triggers are compared with what its usage and count_tokens report.
    older, client, history = "claude-sonnet-4-6", emulated_client("big_results"), []
    loop(client, 4, older, history=history)
    request = {"model": older, "tools": TOOLS, "messages": history}
    count = client.messages.count_tokens(**request).input_tokens

    def cleared(trigger):
        edit = {"type": "clear_tool_uses_20250919", "trigger": {"type": "input_tokens", "value": trigger}}
        response = client.beta.messages.create(
            **request,
            max_tokens=1024,
            context_management={"edits": [{**edit, "keep": {"type": "tool_uses", "value": 1}}]},
            betas=[EDITING],
        )
        return response.context_management.applied_edits, response.usage.input_tokens

    assert cleared(count + 1) == ([], count)
    applied, after = cleared(count)
    assert applied[0].cleared_input_tokens == count - after
    below = LONG_TASK + "背景: " * 3000  # about 55,000 estimated tokens, some 42,000 on Sonnet 4.6
    edits = {"edits": [{"type": "compact_20260112", "trigger": {"type": "input_tokens", "value": 50_000}}]}
    first = [{"role": "user", "content": below}]
    assert client.messages.count_tokens(model=MODEL, messages=first).input_tokens > 50_000
    assert client.messages.count_tokens(model=older, messages=first).input_tokens < 50_000
    response = client.beta.messages.create(
        model=older, max_tokens=1024, messages=first, context_management=edits, betas=[COMPACT]
    )
    assert response.content[0].type != "compaction"


def test_compaction_without_a_pause_continues_after_the_block():
    edits = {"edits": [{"type": "compact_20260112", "trigger": {"type": "input_tokens", "value": 50_000}}]}
    responses = loop(emulated_client("big_results"), 9, first=LONG_TASK, context_management=edits, betas=[COMPACT])
    compacted = next(r for r in responses if r.content[0].type == "compaction")
    assert [b.type for b in compacted.content][:2] == ["compaction", "thinking"] and compacted.stop_reason == "tool_use"
    # The compaction page, "Understanding usage": a compaction iteration, then the message iteration the
    # top-level fields match, which reads the compacted context.
    compaction, message = compacted.usage.iterations
    assert (compaction.type, message.type) == ("compaction", "message")
    assert compaction.input_tokens >= 50_000 > message.input_tokens == compacted.usage.input_tokens
    assert message.output_tokens == compacted.usage.output_tokens


def test_the_token_budget_counts_a_compaction_the_top_level_leaves_out():
    # The bill of a reply that compacted is the sum of its iterations; the top level is only the part
    # after the summary (and 0 on a paused compaction, live): a budget reading it alone missed the summary.
    edits = {"edits": [{"type": "compact_20260112", "trigger": {"type": "input_tokens", "value": 50_000}}]}
    responses = loop(emulated_client("big_results"), 9, first=LONG_TASK, context_management=edits, betas=[COMPACT])
    usage = next(r for r in responses if r.content[0].type == "compaction").usage
    billed = sum(i.input_tokens + i.output_tokens for i in usage.iterations)
    assert Usage.of(usage).total == billed > usage.input_tokens + usage.output_tokens
    paused_live = {
        "input_tokens": 0,
        "output_tokens": 0,
        "iterations": [{"type": "compaction", "input_tokens": 60_000, "output_tokens": 900}],
    }
    assert Usage.of(paused_live).total == 60_900
    assert Usage.of({"input_tokens": 5, "output_tokens": 2, "iterations": None}).total == 7


def test_compaction_only_on_the_models_the_compaction_page_lists():
    client = emulated_client("big_results", max_retries=0)
    edits = {"edits": [{"type": "compact_20260112"}]}
    for model in ("claude-haiku-4-5", "claude-opus-4-5"):
        with pytest.raises(anthropic.BadRequestError) as caught:
            client.beta.messages.create(
                model=model,
                max_tokens=1024,
                messages=[{"role": "user", "content": "q"}],
                context_management=edits,
                betas=[COMPACT],
            )
        assert caught.value.api_message == "context_management: compact_20260112 is not supported for this model"
    for model in ("claude-opus-4-6", "claude-opus-4-7", MODEL):
        taken = client.beta.messages.create(
            model=model,
            max_tokens=1024,
            messages=[{"role": "user", "content": "q"}],
            context_management=edits,
            betas=[COMPACT],
        )
        assert [i.type for i in taken.usage.iterations] == ["message"]  # nothing compacted


@pytest.mark.parametrize(("model", "compacts"), [("claude-haiku-4-5", False), ("claude-sonnet-5", True)])
def test_compaction_follows_the_models_row(monkeypatch, model, compacts):
    # The row decides, not the id: compact_20260112 is refused exactly where the row has no compaction, and
    # notebook 06's check of the learner's model says the same.
    request = {"model": model, "max_tokens": 1024, "messages": [{"role": "user", "content": "q"}]}
    request["context_management"] = {"edits": [{"type": "compact_20260112"}]}
    for says in (compacts, not compacts):
        monkeypatch.setitem(MODELS, model, replace(MODELS[model], compaction=says))
        status, _, body = Emulator([say("はい。")]).respond(request, headers={"anthropic-beta": COMPACT})
        assert (status == 200) is says is model_rules.compacts(model), (model, says, body)


@pytest.mark.parametrize(("model", "kept"), [("claude-haiku-4-5", False), ("claude-opus-4-6", True)])
def test_thinking_kept_from_earlier_turns_follows_the_models_row(monkeypatch, model, kept):
    # The row decides, not the id: clear_thinking without keep clears the earlier turns' thinking exactly
    # where the row keeps only the last turn's.
    edits = {"context_management": {"edits": [{"type": "clear_thinking_20251015"}]}, "betas": [EDITING]}
    manual = {"type": "enabled", "budget_tokens": 1024}
    for says in (kept, not kept):
        monkeypatch.setitem(MODELS, model, replace(MODELS[model], keeps_prior_thinking=says))
        applied = chat(model, 4, thinking=manual, **edits).context_management.applied_edits
        assert (applied == []) is says, (model, says, applied)


BUDGETED = "claude-opus-5"  # the default Sonnet 5 takes no task budget


def test_a_task_budget_is_advisory_the_model_sees_it_and_winds_down():
    small = {"task_budget": {"type": "tokens", "total": 20000}}
    large = {"task_budget": {"type": "tokens", "total": 40000}}
    short = loop(emulated_client("task_budget"), 80, BUDGETED, output_config=small, betas=[BUDGETS])
    long = loop(emulated_client("task_budget"), 80, BUDGETED, output_config=large, betas=[BUDGETS])
    assert short[-1].stop_reason == long[-1].stop_reason == "end_turn"
    assert len(short) < len(long)
    assert "予算が残り少ない" in short[-1].content[-1].text


def test_a_task_budget_needs_its_header_and_a_model_that_takes_it():
    client = emulated_client("task_budget", max_retries=0)
    request = {"max_tokens": 1024, "messages": [{"role": "user", "content": "q"}]}
    budget = {"task_budget": {"type": "tokens", "total": 20000}}
    with pytest.raises(anthropic.BadRequestError) as caught:
        client.beta.messages.create(model=BUDGETED, output_config=budget, **request)
    assert caught.value.api_message == "output_config.task_budget: Extra inputs are not permitted"
    for model in ("claude-haiku-4-5", "claude-sonnet-5"):
        with pytest.raises(anthropic.BadRequestError) as caught:
            client.beta.messages.create(model=model, output_config=budget, betas=[BUDGETS], **request)
        assert caught.value.api_message == "output_config.task_budget: task budgets are not supported on this model"
    with pytest.raises(anthropic.BadRequestError) as caught:
        client.beta.messages.create(
            model=BUDGETED, output_config={"task_budget": {"type": "tokens"}}, betas=[BUDGETS], **request
        )
    assert caught.value.api_message == "output_config.task_budget.total: Field required"
    small = {"task_budget": {"type": "tokens", "total": 19999}}
    with pytest.raises(anthropic.BadRequestError) as caught:
        client.beta.messages.create(model=BUDGETED, output_config=small, betas=[BUDGETS], **request)
    assert caught.value.api_message == "output_config.task_budget.total: Input should be greater than or equal to 20000"
    taken = client.beta.messages.create(model=BUDGETED, output_config=budget, betas=[BUDGETS], **request)
    assert taken.stop_reason in ("tool_use", "end_turn")


def test_pause_turn_refusal_and_the_window_stop_reasons_have_their_documented_shapes():
    client = emulated_client("refusal", max_retries=0)
    refusal = client.messages.create(model=MODEL, max_tokens=1024, messages=[{"role": "user", "content": "q"}])
    assert refusal.stop_reason == "refusal" and refusal.stop_details.type == "refusal"
    assert refusal.stop_details.category == "cyber" and refusal.stop_details.explanation
    client = emulated_client([say("x")], max_retries=0)
    status, _, body = Emulator([say("答えです。" * 500)]).respond(
        {"model": "claude-haiku-4-5", "max_tokens": 4000, "messages": [{"role": "user", "content": "あ" * 259_000}]}
    )
    assert status == 200 and body["stop_reason"] == "model_context_window_exceeded"


PAUSE = {
    "edits": [
        {
            "type": "compact_20260112",
            "trigger": {"type": "input_tokens", "value": 50_000},
            "pause_after_compaction": True,
        }
    ]
}


def _paused(client):
    """A history whose last request paused on a compaction, and that paused response."""
    history = []
    paused = loop(client, 9, first=LONG_TASK, history=history, context_management=PAUSE, betas=[COMPACT])[-1]
    assert paused.stop_reason == "compaction"
    return history, paused


def test_a_paused_compaction_resent_as_it_came_continues_the_turn():
    # The compaction page's own continuation (on Opus 5 and Opus 4.8, which take no prefill): append the paused
    # response as the assistant message and send the request again, the edit still set.
    client = emulated_client("big_results")
    history, paused = _paused(client)
    history.append({"role": "assistant", "content": paused.content})
    resumed = client.beta.messages.create(
        model=MODEL, max_tokens=2048, tools=TOOLS, messages=history, context_management=PAUSE, betas=[COMPACT]
    )
    assert resumed.stop_reason != "compaction" and resumed.usage.input_tokens < paused.usage.iterations[0].input_tokens
    # Only the model's own pause goes on so: an edited block at the end is a prefill, which Sonnet 5 refuses.
    history[-1] = {"role": "assistant", "content": [{"type": "compaction", "content": "要約を書き換えた"}]}
    with pytest.raises(anthropic.BadRequestError, match="does not support assistant message prefill"):
        client.beta.messages.create(
            model=MODEL, max_tokens=2048, tools=TOOLS, messages=history, context_management=PAUSE, betas=[COMPACT]
        )


def test_a_compaction_block_sent_without_the_compaction_edit_is_refused():
    # A live 400 of 2026-09-26 (claude-opus-5-5, docs/api_facts.md): the block is read only by the edit that wrote it.
    client = emulated_client("big_results")
    history, paused = _paused(client)
    history += [{"role": "assistant", "content": paused.content}, {"role": "user", "content": "続けて"}]
    n = len(history) - 2
    request = {"model": MODEL, "max_tokens": 2048, "tools": TOOLS, "messages": history}
    text = f"messages.{n}.content.0: `compaction` blocks require a `compact_20260112` strategy in `context_management.edits`."
    for fields in ({}, {"betas": [COMPACT]}, {"context_management": CLEAR, "betas": [EDITING]}):
        with pytest.raises(anthropic.BadRequestError) as refused:
            client.beta.messages.create(**request, **fields)
        assert refused.value.api_message == text
    resumed = client.beta.messages.create(**request, context_management=PAUSE, betas=[COMPACT])
    assert resumed.stop_reason != "compaction"


def test_a_compaction_edit_that_does_not_fire_still_lists_the_message_iteration():
    # A live reply of 2026-09-26 (claude-opus-5-5, docs/api_facts.md): with compact_20260112 set, usage.iterations
    # holds the one message iteration the top-level fields match; clearing alone lists none.
    client = emulated_client("big_results")
    quiet = client.beta.messages.create(
        model=MODEL,
        max_tokens=1024,
        tools=TOOLS,
        messages=[{"role": "user", "content": "ログを読んで"}],
        context_management=PAUSE,
        betas=[COMPACT],
    )
    usage = quiet.usage
    assert quiet.stop_reason != "compaction" and [i.type for i in usage.iterations] == ["message"]
    (message,) = usage.iterations
    assert (message.input_tokens, message.output_tokens) == (usage.input_tokens, usage.output_tokens)
    assert message.cache_read_input_tokens == usage.cache_read_input_tokens
    cleared = client.beta.messages.create(
        model=MODEL,
        max_tokens=1024,
        tools=TOOLS,
        messages=[{"role": "user", "content": "ログを読んで"}],
        context_management=CLEAR,
        betas=[EDITING],
    )
    assert cleared.usage.iterations is None
