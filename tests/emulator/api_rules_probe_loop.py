"""Round five's rules on what a learner's loop meets: the stream's events, errors, retired ids, refusals, replayed
thinking, count_tokens and the cache, each with its source keys (docs/api_facts.md, "Checked on 2026-12-07 (round
five)")."""

import warnings

import anthropic

from harness_lab.emulator import call, emulated_client, reply, say, think
from tests.emulator.api_rules_probe_kit import ASK, MODEL, TOOL, client, create, refusal, refused_with, rule

# ---- the stream's events ----------------------------------------------------------------------------


def _events(script, **fields) -> list:
    body = {"model": MODEL, "max_tokens": 1024, "messages": ASK, "stream": True, **fields}
    return list(client(script).messages.create(**body))


@rule("SE, TP, deepnoodle-ai/dive reference.md")
def ping_after_first_block_start() -> bool:
    """the ping comes after the first content_block_start (the streaming page's example, live recordings)"""
    body = {"model": MODEL, "max_tokens": 1024, "messages": ASK, "stream": True}
    with client([say("こんにちは")]).messages.with_streaming_response.create(**body) as response:  # the SDK skips pings
        kinds = [line.removeprefix("event: ") for line in response.iter_lines() if line.startswith("event: ")]
    return kinds[:3] == ["message_start", "content_block_start", "ping"]


@rule("SE, deepnoodle-ai/dive reference.md")
def thinking_block_opens_empty() -> bool:
    """a streamed thinking block opens with thinking "" and signature "" (both filled by deltas)"""
    start = next(e for e in _events([say("はい")]) if e.type == "content_block_start")
    return start.content_block.type == "thinking" and start.content_block.to_dict() == {
        "type": "thinking",
        "thinking": "",
        "signature": "",
    }


@rule("SE")
def text_block_opens_empty() -> bool:
    """a streamed text block without citations opens as {type: text, text: ""}"""
    starts = [e for e in _events([say("はい")]) if e.type == "content_block_start"]
    return starts[-1].content_block.to_dict() == {"type": "text", "text": ""}


@rule("SE")
def message_delta_usage_whole() -> bool:
    """message_delta's usage carries input_tokens and the cache counts beside output_tokens"""
    delta = next(e for e in _events([say("はい")]) if e.type == "message_delta")
    usage = delta.usage
    return usage.input_tokens is not None and usage.cache_read_input_tokens == 0 and usage.output_tokens > 1


@rule("SE, RF")
def message_start_before_output() -> bool:
    """message_start shows a token or so of output and null stop fields, stop_details included"""
    start = _events([say("はい")])[0].message
    return start.usage.output_tokens <= 5 and start.stop_reason is None and start.stop_details is None


@rule("RF, earendil-works/pi #5591")
def streamed_refusal_details() -> bool:
    """a streamed refusal's message_delta carries stop_details {type: refusal}"""
    events = list(
        emulated_client("refusal", max_retries=0).messages.create(
            model=MODEL, max_tokens=256, messages=ASK, stream=True
        )
    )
    delta = next(e for e in events if e.type == "message_delta")
    return delta.delta.stop_reason == "refusal" and delta.delta.stop_details.type == "refusal"


@rule("RF")
def streamed_end_turn_no_details() -> bool:
    """a streamed end_turn's message_delta has stop_details null"""
    delta = next(e for e in _events([say("はい")]) if e.type == "message_delta")
    return delta.delta.stop_reason == "end_turn" and delta.delta.stop_details is None


# ---- errors and ids ---------------------------------------------------------------------------------


@rule("claude-code #91800, vybestack/llxprt-code #2053")
def internal_error_body() -> bool:
    """a 500's body: api_error, "Internal server error", details null, the request id"""
    exc = refusal(lambda: client(faults={1: "500"}).messages.create(model=MODEL, max_tokens=64, messages=ASK))
    body = exc.body if exc is not None else {}
    return (
        isinstance(exc, anthropic.InternalServerError)
        and body.get("type") == "error"
        and body["error"] == {"details": None, "type": "api_error", "message": "Internal server error"}
        and str(body.get("request_id", "")).startswith("req_")
    )


@rule("promptfoo/promptfoo #10483")
def latest_alias_unknown() -> bool:
    """a `-latest` alias is an unknown id: 404 `model: claude-opus-4-5-latest`"""
    return refused_with(lambda: create(model="claude-opus-4-5-latest"), "model: claude-opus-4-5-latest", status=404)


@rule("model deprecations page, Sonnet 4.5 model page")
def retired_dated_id() -> bool:
    """Sonnet 4.5's dated id, retired on 2026-11-30, is a 404 not_found_error"""
    exc = refusal(lambda: create(model="claude-sonnet-4-5-20250929"))
    return isinstance(exc, anthropic.NotFoundError) and exc.body["error"]["type"] == "not_found_error"


@rule("model deprecations page")
def retired_id_counts_nothing() -> bool:
    """count_tokens naming a retired id is the same 404"""
    fn = lambda: client().messages.count_tokens(model="claude-sonnet-4-5", messages=ASK)  # noqa: E731
    return refused_with(fn, "model: claude-sonnet-4-5", status=404)


@rule("SDK deprecated_models")
def mythos_preview_gone() -> bool:
    """claude-mythos-preview (end date 2026-06-30) is a 404"""
    return refused_with(lambda: create(model="claude-mythos-preview"), status=404)


@rule("SDK deprecated_models, model deprecations page")
def deprecated_still_served() -> bool:
    """Opus 4.5, deprecated and retiring on 2027-01-22, still answers (the SDK warns client side)"""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        answered = create(model="claude-opus-4-5").stop_reason == "end_turn"
    return answered and any("deprecated" in str(w.message) for w in seen)


@rule("claude-code #46105, QuantumNous/new-api #2975")
def unknown_beta_named() -> bool:
    """an unknown anthropic-beta value is named in the live text"""
    fn = lambda: client().beta.messages.create(  # noqa: E731
        model=MODEL, max_tokens=64, messages=ASK, betas=["context-management-2025-06-72"]
    )
    return refused_with(
        fn,
        "Unexpected value(s) `context-management-2025-06-72` for the `anthropic-beta` header. Please consult our "
        "documentation at docs.claude.com or try again without the header.",
    )


@rule("mnfst/llm-gateway #2910, ericc-ch/copilot-api #217")
def beta_field_without_header() -> bool:
    """context_management without any anthropic-beta header: `context_management: Extra inputs are not permitted`"""
    edits = {"edits": [{"type": "clear_tool_uses_20250919"}]}
    fn = lambda: create(extra_body={"context_management": edits})  # noqa: E731
    return refused_with(fn, "context_management: Extra inputs are not permitted")


@rule("TB")
def task_budget_floor() -> bool:
    """a task budget under 20,000 tokens is a 400"""
    budget = {"task_budget": {"type": "tokens", "total": 19_999}}
    fn = lambda: client().beta.messages.create(  # noqa: E731
        model="claude-opus-5", max_tokens=64, messages=ASK, betas=["task-budgets-2026-03-13"], output_config=budget
    )
    return refused_with(fn, "output_config.task_budget.total: Input should be greater than or equal to 20000")


@rule("danny-avila/LibreChat #8346, tingly-dev/tingly-box #569")
def budget_floor_text() -> bool:
    """budget_tokens 1,023: `thinking.enabled.budget_tokens: Input should be greater than or equal to 1024`"""
    thinking = {"type": "enabled", "budget_tokens": 1023}
    fn = lambda: create(model="claude-sonnet-4-6", max_tokens=4096, thinking=thinking)  # noqa: E731
    return refused_with(fn, "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024")


# ---- usage, count_tokens, the cache -----------------------------------------------------------------


@rule("CD (live usage without a server tool)")
def no_server_tool_usage() -> bool:
    """usage.server_tool_use is absent from a turn that used no server tool"""
    return "server_tool_use" not in create().usage.to_dict()


@rule("token counting page, SDK MessageTokensCount")
def count_tokens_shape() -> bool:
    """count_tokens answers {input_tokens} and nothing else"""
    counted = client().messages.count_tokens(model=MODEL, messages=ASK, tools=[TOOL], system="短く")
    return counted.to_dict().keys() == {"input_tokens"} and counted.input_tokens > 0


@rule("token counting page")
def count_tokens_with_thinking() -> bool:
    """count_tokens takes a thinking configuration the model accepts and refuses one it does not"""
    c = client()
    taken = c.messages.count_tokens(model=MODEL, messages=ASK, thinking={"type": "adaptive"}).input_tokens > 0
    refused = refusal(
        lambda: c.messages.count_tokens(model=MODEL, messages=ASK, thinking={"type": "enabled", "budget_tokens": 2048})
    )
    return taken and refused is not None and refused.status_code == 400


@rule("PC")
def prewarm_empty() -> bool:
    """max_tokens 0 pre-warms: empty content, stop_reason max_tokens, no output tokens"""
    warmed = create(max_tokens=0)
    return warmed.content == [] and warmed.stop_reason == "max_tokens" and warmed.usage.output_tokens == 0


@rule("PC")
def prewarm_not_streamed() -> bool:
    """max_tokens 0 with stream: true is a 400"""
    return refusal(lambda: _events([say("はい")], max_tokens=0)) is not None


@rule("PC (public reports of the live 400)")
def ttl_order() -> bool:
    """a 1-hour breakpoint after a 5-minute one is the ttl-order 400"""
    system = [
        {"type": "text", "text": "一つ目", "cache_control": {"type": "ephemeral"}},
        {"type": "text", "text": "二つ目", "cache_control": {"type": "ephemeral", "ttl": "1h"}},
    ]
    return refused_with(
        lambda: create(system=system), "a ttl='1h' cache_control block must not come after a ttl='5m' cache_control"
    )


# ---- thinking sent back ------------------------------------------------------------------------------


def _manual_turn(model: str = "claude-sonnet-4-6"):
    """A tool-use turn with summarized manual thinking on ``model``, and the history that answers it."""
    thinking = {"type": "enabled", "budget_tokens": 2048}
    c = client([reply(think("時計を見る"), call("get_time")), say("12時"), say("12時")])
    first = c.messages.create(model=model, max_tokens=4096, messages=ASK, tools=[TOOL], thinking=thinking)
    use = next(b for b in first.content if b.type == "tool_use")
    result = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": use.id, "content": "12:00"}]}
    return c, thinking, [b.to_dict() for b in first.content], [*ASK, None, result]


@rule("Yeachan-Heo/gajae-code #4247, claude-code #63267")
def emptied_thinking_is_modified() -> bool:
    """a summarized thinking block of the latest assistant message sent back emptied (signature kept) is the
    `cannot be modified` 400"""
    c, thinking, blocks, history = _manual_turn()
    blocks[0] = {**blocks[0], "thinking": ""}
    history[1] = {"role": "assistant", "content": blocks}
    fn = lambda: c.messages.create(  # noqa: E731
        model="claude-sonnet-4-6", max_tokens=4096, messages=history, tools=[TOOL], thinking=thinking
    )
    return refused_with(fn, "blocks in the latest assistant message cannot be modified")


@rule("dshakes/distil #156 (live table)")
def signature_checked_with_thinking_off() -> bool:
    """an earlier turn's thinking with an altered signature is refused even when the new request does not think"""
    c, _, blocks, history = _manual_turn()
    history[1] = {"role": "assistant", "content": blocks}
    done = c.messages.create(model="claude-sonnet-4-6", max_tokens=4096, messages=history, tools=[TOOL])
    blocks[0] = {**blocks[0], "signature": blocks[0]["signature"][:-4] + "AAAA"}
    later = [*history, {"role": "assistant", "content": [b.to_dict() for b in done.content]}, *ASK]
    fn = lambda: c.messages.create(model="claude-sonnet-4-6", max_tokens=1024, messages=later, tools=[TOOL])  # noqa: E731
    return refused_with(fn, "Invalid `signature` in `thinking` block")
