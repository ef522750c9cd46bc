"""Round five's per-model rules: the same request to every model of the table, each model's own answer.

Each rule writes what its sources give per model (docs/api_facts.md, "Checked on 2026-12-07 (round five)"),
not what the emulator's table says, so that a row of the table that drifted from its sources shows up here.
"""

import warnings

from harness_lab.emulator import call, say
from tests.emulator.api_rules_probe_kit import ASK, LINEUP, TOOL, client, per_model, rule, status_of

# The Claude 5 generation and Fable/Mythos think unasked; Opus 4.8 and older do not [S5, S55, TT, MO].
ADAPTIVE_BY_DEFAULT = {m for m in LINEUP if m.split("-")[1] in ("fable", "mythos") or m.split("-")[2] == "5"}
GEN_2025 = {"claude-opus-4-6", "claude-sonnet-4-6", "claude-haiku-4-5", "claude-opus-4-5"}  # the older tokenizer
BEFORE_4_6 = {"claude-haiku-4-5", "claude-opus-4-5"}  # no inference_geo [DR], 200K windows [MO]


def _ask(model: str, script=None, **fields):
    with warnings.catch_warnings():  # the SDK warns about Opus 4.5 (deprecated, still served until 2027-01-22)
        warnings.simplefilter("ignore", DeprecationWarning)
        body = {"model": model, "max_tokens": 1024, "messages": ASK, **fields}
        return client(script).messages.create(**body)


def _beta(model: str, betas: list, script=None, **fields):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        body = {"model": model, "max_tokens": 1024, "messages": ASK, "betas": betas, **fields}
        return client(script).beta.messages.create(**body)


@rule("S5, S55, TT, MO")
def thinks_unasked() -> bool:
    """a request without `thinking` starts with a thinking block on the Claude 5 models, Fable and Mythos only"""
    return per_model(
        "thinks_unasked",
        lambda m: m in ADAPTIVE_BY_DEFAULT,
        lambda m: _ask(m).content[0].type == "thinking",
    )


@rule("CD")
def thinking_tokens_detail() -> bool:
    """usage.output_tokens_details is there on every model but Haiku 4.5 (Opus 4.5: no source)"""
    return per_model(
        "thinking_tokens_detail",
        lambda m: None if m == "claude-opus-4-5" else m != "claude-haiku-4-5",
        lambda m: _ask(m).usage.output_tokens_details is not None,
    )


@rule("CD, DR")
def inference_geo_reported() -> bool:
    """usage.inference_geo is "global" from Opus 4.6 on, "not_available" on Haiku 4.5 (Opus 4.5 inferred alike)"""
    return per_model(
        "inference_geo_reported",
        lambda m: "not_available" if m in BEFORE_4_6 else "global",
        lambda m: _ask(m).usage.inference_geo,
    )


@rule("DR")
def inference_geo_us() -> bool:
    """inference_geo "us" runs in the US from Opus 4.6 on and is a 400 on the older models"""
    return per_model(
        "inference_geo_us",
        lambda m: 400 if m in BEFORE_4_6 else "us",
        lambda m: (
            status_of(lambda: _ask(m, inference_geo="us"))
            if m in BEFORE_4_6
            else _ask(m, inference_geo="us").usage.inference_geo
        ),
    )


FAST = {"claude-fable-5-2": "fast", "claude-mythos-5-2": "fast", "claude-opus-5-5": "fast", "claude-opus-5": "fast"}


@rule("FM")
def fast_mode() -> bool:
    """speed "fast" runs fast on Fable 5.2, Mythos 5.2, Opus 5.5 and Opus 5, standard on Opus 4.6, else a 400
    (Opus 4.8's fast mode was removed on 2026-11-30)"""

    def ran(m: str) -> object:
        try:
            return _ask(m, speed="fast").usage.speed
        except Exception as exc:
            return "does not support the `speed` parameter" in str(exc)

    return per_model(
        "fast_mode",
        lambda m: FAST.get(m, "standard" if m == "claude-opus-4-6" else True),
        ran,
    )


@rule("MO")
def prompt_too_long() -> bool:
    """a prompt of about 260,000 tokens is `prompt is too long: ... > 200000 maximum` on the 200K models only"""
    big = [{"role": "user", "content": "ことば " * 200_000}]

    def answer(m: str) -> object:
        try:
            _ask(m, messages=big, max_tokens=16)
        except Exception as exc:
            return "> 200000 maximum" in str(exc) and "prompt is too long" in str(exc)
        return "taken"

    return per_model("prompt_too_long", lambda m: True if m in BEFORE_4_6 else "taken", answer)


@rule("S5, H55, F52")
def tokenizer_per_model() -> bool:
    """count_tokens counts the same text about 30% higher on Opus 4.7 and later than on the older tokenizer"""
    text = [{"role": "user", "content": "The quick brown fox jumps over the lazy dog. " * 400}]
    reference = client().messages.count_tokens(model="claude-sonnet-5", messages=text).input_tokens

    def ratio(m: str) -> str:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            counted = client().messages.count_tokens(model=m, messages=text).input_tokens
        return "2025" if 1.25 < reference / counted < 1.35 else "2026" if reference == counted else str(counted)

    return per_model("tokenizer_per_model", lambda m: "2025" if m in GEN_2025 else "2026", ratio)


NO_TASK_BUDGET = {"claude-sonnet-5", "claude-opus-4-6", "claude-sonnet-4-6", "claude-haiku-4-5", "claude-opus-4-5"}


@rule("TB")
def task_budget_per_model() -> bool:
    """output_config.task_budget is taken with its beta on the models TB lists, a 400 elsewhere (Sonnet 5 included)"""
    budget = {"task_budget": {"type": "tokens", "total": 50_000}}
    return per_model(
        "task_budget_per_model",
        lambda m: 400 if m in NO_TASK_BUDGET else 200,
        lambda m: status_of(lambda: _beta(m, ["task-budgets-2026-03-13"], output_config=budget)),
    )


NO_COMPACTION = {"claude-haiku-5-5", "claude-haiku-4-5", "claude-opus-4-5"}


@rule("CP")
def compaction_per_model() -> bool:
    """compact_20260112 is taken everywhere but the Haiku models and Opus 4.5 (Haiku 5.5 inferred)"""
    edits = {"edits": [{"type": "compact_20260112"}]}
    return per_model(
        "compaction_per_model",
        lambda m: 400 if m in NO_COMPACTION else 200,
        lambda m: status_of(lambda: _beta(m, ["compact-2026-01-12"], context_management=edits)),
    )


SYSTEM_TEXTS = {"unsupported": "role 'system' is not supported on this model", "unexpected": 'Unexpected role "system"'}
SYSTEM_BY_MODEL = {
    "claude-opus-4-7": "unsupported",
    "claude-opus-4-6": "unsupported",
    "claude-sonnet-4-6": "unsupported",
    "claude-haiku-4-5": "unexpected",
    "claude-opus-4-5": "unexpected",
}


@rule("MS, SR, LC")
def system_message_per_model() -> bool:
    """a role "system" message right after a user message is taken from Opus 4.8 on; older models refuse it in
    one of two texts"""
    messages = [*ASK, {"role": "system", "content": "短く答えること"}]

    def answer(m: str) -> str:
        try:
            _ask(m, messages=messages)
        except Exception as exc:
            return next((k for k, text in SYSTEM_TEXTS.items() if text in str(exc)), str(exc)[:80])
        return "yes"

    return per_model("system_message_per_model", lambda m: SYSTEM_BY_MODEL.get(m, "yes"), answer)


MIN_CACHE = {"claude-opus-4-7": 2048, "claude-opus-4-6": 4096, "claude-haiku-4-5": 4096, "claude-opus-4-5": 4096}
MIN_CACHE |= dict.fromkeys(("claude-opus-4-8", "claude-sonnet-5", "claude-sonnet-4-6"), 1024)


@rule("PC, OR")
def min_cacheable_prompt() -> bool:
    """a prompt of about 1,700 tokens is written to the cache where it reaches the model's minimum (512 on the
    5.x models, 1,024 on Opus 4.8, Sonnet 5 and 4.6, 2,048 on Opus 4.7, 4,096 on Opus 4.6 and the 4.5 models)"""
    system = [{"type": "text", "text": "規則を守ること。 " * 600, "cache_control": {"type": "ephemeral"}}]

    def answer(m: str) -> bool:
        return _ask(m, system=system).usage.cache_creation_input_tokens > 0

    def expected(m: str) -> bool:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            size = client().messages.count_tokens(model=m, messages=ASK, system=system).input_tokens
        return size >= MIN_CACHE.get(m, 512)

    return per_model("min_cacheable_prompt", expected, answer)


@rule("web search page, programmatic tool calling page")
def dynamic_web_search_per_model() -> bool:
    """web_search_20260209 without allowed_callers is a 400 naming 'claude-haiku-4-5-20251001' on Haiku 4.5 only"""
    tool = {"type": "web_search_20260209", "name": "web_search"}

    def answer(m: str) -> object:
        try:
            _ask(m, tools=[tool])
        except Exception as exc:
            return "'claude-haiku-4-5-20251001' does not support programmatic tool calling" in str(exc)
        return "taken"

    return per_model("dynamic_web_search_per_model", lambda m: True if m == "claude-haiku-4-5" else "taken", answer)


NO_COMPUTER_20251124 = {
    "claude-haiku-4-5",
    "claude-opus-5-5",
    "claude-sonnet-5-5",
    "claude-haiku-5-5",
    "claude-fable-5-2",
    "claude-mythos-5-2",
}
NO_TOOLSET = {"claude-opus-4-7", "claude-opus-4-6", "claude-sonnet-4-6", "claude-opus-4-5", "claude-haiku-4-5"}
SCREEN = {"display_width_px": 1280, "display_height_px": 800}


@rule("computer use page, O55, S55, F52, H55W")
def computer_20251124_per_model() -> bool:
    """computer_20251124 is `'<model>' does not support tool types` on Haiku 4.5 and the 5.5 and 5.2 models"""
    tool = {"type": "computer_20251124", "name": "computer", **SCREEN}
    return per_model(
        "computer_20251124_per_model",
        lambda m: 400 if m in NO_COMPUTER_20251124 else 200,
        lambda m: status_of(lambda: _beta(m, ["computer-use-2025-11-24"], tools=[tool])),
    )


@rule("computer use page, H55W")
def computer_toolset_per_model() -> bool:
    """computer_toolset_20260801 is refused on Opus 4.7 and older and on Haiku 4.5"""
    tool = {"type": "computer_toolset_20260801"}  # a toolset entry carries only type, configs, cache_control [SDK]
    return per_model(
        "computer_toolset_per_model",
        lambda m: 400 if m in NO_TOOLSET else 200,
        lambda m: status_of(lambda: _ask(m, tools=[tool])),
    )


@rule("promptfoo/promptfoo #10483 (live audit)")
def reply_names_dated_id() -> bool:
    """a reply's `model` is the dated id for the 4.5 aliases and the id sent for every other model"""
    dated = {"claude-haiku-4-5": "claude-haiku-4-5-20251001", "claude-opus-4-5": "claude-opus-4-5-20251101"}
    return per_model("reply_names_dated_id", lambda m: dated.get(m, m), lambda m: _ask(m).model)


@rule("F52, TH, PT")
def fable_5_2_thinking_elsewhere() -> bool:
    """a Fable 5.2 tool-use turn's thinking, replayed to each model under the binding header, is read by Fable 5.2
    and Mythos 5.2 and dropped (listed, never refused) by every other model that takes the request as sent"""
    first = _ask("claude-fable-5-2", [call("get_time"), say("12時")], tools=[TOOL])
    use = next(b for b in first.content if b.type == "tool_use")
    history = [
        *ASK,
        {"role": "assistant", "content": [b.to_dict() for b in first.content]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": use.id, "content": "12:00"}]},
    ]

    def answer(m: str) -> object:
        done = _beta(m, ["thinking-binding-controls-2026-08-01"], [say("12時")], tools=[TOOL], messages=history)
        return [t["reason"] for t in done.to_dict().get("input_transformations") or []]

    # A model that thinks only when asked finds an assistant turn that starts with thinking; with thinking off the
    # API ignores it (TH: a thinking configuration changed inside a loop "silently disables thinking").
    return per_model(
        "fable_5_2_thinking_elsewhere",
        lambda m: [] if m in ("claude-fable-5-2", "claude-mythos-5-2") else ["model_binding_mismatch"],
        answer,
    )


@rule("WP, MO")
def output_cap_per_model() -> bool:
    """max_tokens over the model's output cap is `max_tokens: N > CAP, which is the maximum allowed number of
    output tokens for <the id that answers>`: 64,000 on the 4.5 models (their dated ids), 128,000 elsewhere"""
    dated = {"claude-haiku-4-5": "claude-haiku-4-5-20251001", "claude-opus-4-5": "claude-opus-4-5-20251101"}

    def expected(m: str) -> str:
        cap = 64_000 if m in BEFORE_4_6 else 128_000
        return (
            f"max_tokens: 1000000 > {cap}, which is the maximum allowed number of output tokens for {dated.get(m, m)}"
        )

    def answer(m: str) -> str:
        try:
            with client().messages.stream(model=m, max_tokens=1_000_000, messages=ASK) as stream:
                stream.get_final_message()
        except Exception as exc:
            return getattr(exc, "body", {}).get("error", {}).get("message", str(exc))
        return "taken"

    return per_model("output_cap_per_model", expected, answer)
