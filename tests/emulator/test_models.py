"""The model table against its cited facts (docs/api_facts.md), and each row's behaviour through the SDK.

The docs' table is the cited record; models.py is what every rule reads. The first test holds
them equal cell by cell; the others send each model the requests its row says it accepts and
refuses, and check the answer.
"""

import re
from dataclasses import replace
from pathlib import Path

import anthropic
import pytest

from harness_lab.emulator import (
    Emulator,
    context_management,
    emulated_client,
    parameters,
    roundtrip,
    say,
    tool_choice,
)
from harness_lab.emulator import models as table
from harness_lab.emulator.caching import MAX_BREAKPOINTS
from harness_lab.emulator.models import EFFORTS, MODELS, THINKING_TYPES
from harness_lab.events import Usage
from harness_lab.valves import cost_usd
from tests.emulator.refusals import refusal_of

FACTS = Path(__file__).resolve().parents[2] / "docs" / "api_facts.md"
TOOLS = [{"name": "get_time", "description": "the time", "input_schema": {"type": "object", "properties": {}}}]


def documented_rows(heading: str = "| model | window |") -> dict[str, dict]:
    """The model table whose header line starts with ``heading``, row by row (the second table: ``| model | details |``)."""
    lines = FACTS.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(heading))
    header = [c.strip() for c in lines[start].strip("|").split("|")]
    rows = {}
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        cells = dict(zip(header, (c.strip() for c in line.strip("|").split("|")), strict=True))
        rows[cells["model"]] = cells
    return rows


def _names(cell: str) -> set:
    return {part.strip() for part in cell.split(",") if part.strip()}


def test_every_row_matches_the_documented_facts():
    documented = documented_rows()
    undated = {m for m in MODELS if not re.search(r"-\d{8}$", m)}
    assert set(documented) == undated
    yes = {"yes": True, "no": False}
    for model, cells in documented.items():
        row = MODELS[model]
        assert int(cells["window"]) == row.context_window, model
        assert int(cells["max output"]) == row.max_output, model
        assert _names(cells["accepts"]) == set(row.accepts), model
        assert _names(cells["rejects"]) == {t for t, _ in row.rejects}, model
        assert _names(cells["accepts"]) | _names(cells["rejects"]) == set(THINKING_TYPES), model
        assert cells["default"] == row.thinking_default and cells["display"] == row.display_default, model
        assert yes[cells["forced"]] == row.forced_tool_choice, model
        assert yes[cells["preserved"]] == row.preserved_thinking, model
        assert yes[cells["between"]] == row.text_between_tools_as_thinking, model
        assert int(cells["min cache"]) == row.min_cacheable and cells["tokenizer"] == row.tokenizer, model
        assert yes[cells["budget"]] == row.task_budget, model
        assert yes[cells["prefill"]] == row.prefill, model
        system = {"yes": None, "unsupported": table.SYSTEM_ROLE_UNSUPPORTED, "unexpected": table.SYSTEM_ROLE_UNEXPECTED}
        assert system[cells["system"]] == row.system_role, model
        levels, _, rule = cells["effort"].partition("; ")
        named = {"all": EFFORTS, "none": (), "no xhigh": tuple(e for e in EFFORTS if e != "xhigh")}
        listed = named[levels] if levels in named else tuple(e for e in EFFORTS if e in _names(levels))
        assert listed == row.efforts, model
        assert (rule == "high at most without thinking") == row.effort_needs_thinking, model
        assert {"no": ""}.get(cells["fast"], cells["fast"]) == row.fast_mode, model
        assert yes[cells["geo"]] == row.inference_geo, model
        assert cells["sources"], model
    for dated in set(MODELS) - undated:
        assert (
            MODELS[dated].family in documented
            and MODELS[dated].context_window == MODELS[MODELS[dated].family].context_window
        )


def test_every_row_matches_the_documented_facts_of_the_second_table():
    documented = documented_rows("| model | details |")
    assert set(documented) == set(documented_rows())
    yes = {"yes": True, "no": False}
    for model, cells in documented.items():
        row = MODELS[model]
        assert yes[cells["details"]] == row.output_details_without_thinking, model
        assert cells["effort default"] == row.effort_default and row.effort_default in EFFORTS, model
        assert yes[cells["interleaves"]] == row.manual_interleaving, model
        assert yes[cells["keeps thinking"]] == row.keeps_prior_thinking, model
        assert yes[cells["compaction"]] == row.compaction, model
        assert yes[cells["programmatic"]] == row.programmatic_tool_calling, model
        assert yes[cells["toolset"]] == row.computer_toolset, model
        assert yes[cells["computer_20251124"]] == row.computer_20251124, model
        assert yes[cells["computer_20250124"]] == row.computer_20250124, model
        assert tuple(int(n) for n in cells["rate"].split(" / ")) == row.rate_limits, model
        assert cells["sources"], model


def _quoted(text: str) -> str:
    """A code constant as the docs write it: placeholders shown by example, markdown ticks as-is."""
    return text.split("{")[0].strip()


@pytest.mark.parametrize(
    "text",
    [
        table.ENABLED_REJECTED,
        table.DISABLED_REJECTED,
        table.DISABLED_REJECTED_SONNET_5_5,
        table.DISABLED_REJECTED_PREVIEW,
        table.ADAPTIVE_REJECTED,
        table.BETWEEN_TOOLS_REJECTED,
        table.PREFILL_REFUSED,
        table.SYSTEM_ROLE_UNSUPPORTED,
        table.SYSTEM_ROLE_UNEXPECTED,
        roundtrip.FORCED_TOOL_CHOICE,
        roundtrip.FORCED_WITH_MANUAL_THINKING,
        roundtrip.DISPLAY_UPDATES_UNSUPPORTED,
        context_management.NEEDS_THINKING,
        context_management.THINKING_EDIT_NOT_FIRST.format(n="N"),
        roundtrip.TASK_BUDGET_UNSUPPORTED,
        roundtrip.TASK_BUDGET_TOO_SMALL,
        roundtrip.EFFORT_UNSUPPORTED,
        roundtrip.EFFORT_LEVEL_UNSUPPORTED.format(effort="xhigh"),
        roundtrip.EFFORT_WITHOUT_THINKING.format(effort="xhigh"),
        roundtrip.EFFORT_WITH_BETWEEN_TOOLS.format(effort="xhigh"),
        roundtrip.MODIFIED,
        roundtrip.BOUND_ELSEWHERE,
        roundtrip.MUST_START_WITH_THINKING,
        parameters.STOP_SEQUENCE_BLANK,
        parameters.SYSTEM_EMPTY,
        parameters.USER_ID_TOO_LONG,
        tool_choice.NO_TOOLS,
        f"A maximum of {MAX_BREAKPOINTS} blocks with cache_control may be provided",
    ],
)
def test_every_400_text_is_in_the_facts_with_its_source(text):
    facts = FACTS.read_text(encoding="utf-8")
    wanted = text.replace("{path}: ", "").replace("messages.{n}.content.0.type: ", "")
    assert _quoted(wanted) in facts


# -- behaviour, row by row --------------------------------------------------------------------------


def ask(model, **fields):
    client = emulated_client([say("はい")], max_retries=0)
    request = {"model": model, "max_tokens": 4096, "messages": [{"role": "user", "content": "q"}], **fields}
    return client.messages.create(**request)


def refused(model, **fields) -> str:
    return refusal_of(lambda: ask(model, **fields))


THINKING = {
    "adaptive": {"type": "adaptive"},
    "enabled": {"type": "enabled", "budget_tokens": 1024},
    "disabled": {"type": "disabled"},
    "between_tools": {"type": "between_tools"},
}


@pytest.mark.parametrize("model", sorted(MODELS))
def test_each_model_accepts_and_rejects_its_thinking_types(model):
    row = MODELS[model]
    for kind, config in THINKING.items():
        text = row.rejection(kind)
        if text is None:
            assert ask(model, thinking=config).stop_reason == "end_turn", (model, kind)
        else:
            assert refused(model, thinking=config) == text, (model, kind)


@pytest.mark.parametrize("model", sorted(MODELS))
def test_each_model_thinks_by_default_or_not_and_shows_its_default_display(model):
    row = MODELS[model]
    content = ask(model).content
    if row.thinking_default == "adaptive":
        assert content[0].type == "thinking" and content[0].signature, model
        assert (content[0].thinking == "") == (row.display_default == "omitted"), model
    else:
        assert [b.type for b in content] == ["text"], model


@pytest.mark.parametrize("model", sorted(MODELS))
def test_each_model_takes_forced_tool_choice_or_refuses_it(model):
    row = MODELS[model]
    forced = {"tools": TOOLS, "tool_choice": {"type": "tool", "name": "get_time"}}
    if row.forced_tool_choice:
        content = ask(model, **forced).content
        assert [b.type for b in content] == ["tool_use"], model  # thinking skipped: the call comes first
    else:
        assert refused(model, **forced) == roundtrip.FORCED_TOOL_CHOICE


@pytest.mark.parametrize("model", sorted(MODELS))
def test_each_model_takes_its_effort_levels_and_refuses_the_others(model):
    row = MODELS[model]
    for effort in EFFORTS:
        config = {"effort": effort}
        if not row.efforts:
            assert refused(model, output_config=config) == roundtrip.EFFORT_UNSUPPORTED, model
        elif effort not in row.efforts:
            assert (
                refused(model, output_config=config)
                == f"output_config.effort '{effort}' is not supported on this model."
            )
        else:
            assert ask(model, output_config=config).stop_reason == "end_turn", (model, effort)
    if "disabled" not in row.accepts:
        return
    for effort in set(row.efforts) & {"xhigh", "max"}:
        off = {"output_config": {"effort": effort}, "thinking": {"type": "disabled"}}
        if row.effort_needs_thinking:
            assert refused(model, **off) == roundtrip.EFFORT_WITHOUT_THINKING.format(effort=effort), model
        else:
            assert ask(model, **off).stop_reason == "end_turn", (model, effort)


def test_opus_5_thinks_at_high_effort_or_above_or_turns_thinking_off_at_high_at_most():
    expected = (
        "output_config.effort 'max' is not supported when thinking is disabled on this model. "
        "Use effort 'high' or below, or enable thinking."
    )
    assert refused("claude-opus-5", output_config={"effort": "max"}, thinking={"type": "disabled"}) == expected
    assert (
        ask("claude-opus-5", output_config={"effort": "high"}, thinking={"type": "disabled"}).content[0].type == "text"
    )
    assert ask("claude-opus-5", output_config={"effort": "max"}).content[0].type == "thinking"
    # Opus 4.8 does not think unless asked, and takes xhigh either way
    assert ask("claude-opus-4-8", output_config={"effort": "xhigh"}).stop_reason == "end_turn"


def test_sonnet_5_5_takes_between_tools_at_high_effort_at_most_and_adaptive_at_any():
    # What's new in Claude Sonnet 5.5: between_tools "is accepted at low, medium, and high effort. At xhigh or
    # max effort, a request with between_tools returns a 400 error. To run at xhigh or max, use adaptive".
    lowest = {"type": "between_tools"}
    for effort in ("low", "medium", "high"):
        assert ask("claude-sonnet-5-5", thinking=lowest, output_config={"effort": effort}).stop_reason == "end_turn"
    for effort in ("xhigh", "max"):
        text = refused("claude-sonnet-5-5", thinking=lowest, output_config={"effort": effort})
        assert text == roundtrip.EFFORT_WITH_BETWEEN_TOOLS.format(effort=effort)
        assert ask("claude-sonnet-5-5", output_config={"effort": effort}).content[0].type == "thinking"


@pytest.mark.parametrize("model", sorted(MODELS))
def test_each_model_runs_fast_quietly_runs_standard_or_refuses_speed_fast(model):
    row = MODELS[model]
    assert ask(model, speed="standard").usage.speed == "standard", model
    if row.fast_mode:
        assert ask(model, speed="fast").usage.speed == row.fast_mode, model
    else:
        assert refused(model, speed="fast") == f"'{model}' does not support the `speed` parameter.", model
    assert ask(model).usage.speed is None, model  # reported only when the request asked for a speed


@pytest.mark.parametrize("model", sorted(MODELS))
def test_each_model_takes_inference_geo_from_claude_4_6_on(model):
    if MODELS[model].inference_geo:
        assert ask(model, inference_geo="us").usage.inference_geo == "us", model
        assert ask(model).usage.inference_geo == "global", model
    else:
        assert refused(model, inference_geo="us") == f"'{model}' does not support the `inference_geo` parameter."
        # Live replies of claude-haiku-4-5-20251001 (docs/api_facts.md, DR) say the parameter does not apply.
        assert ask(model).usage.inference_geo == "not_available", model


def test_inference_geo_is_us_or_global_only():
    # The data residency page: "Only `"us"` and `"global"` are available".
    assert ask("claude-sonnet-5", inference_geo="global").usage.inference_geo == "global"
    for geo in ("eu", "jp", "", "US"):
        assert refused("claude-sonnet-5", inference_geo=geo) == "inference_geo: must be one of ['global', 'us']", geo


def test_what_a_fast_or_us_only_reply_reports_is_what_the_budget_prices():
    standard = Usage.of(ask("claude-opus-5").usage)
    fast = Usage.of(ask("claude-opus-5", speed="fast").usage)
    quietly_standard = Usage.of(ask("claude-opus-4-6", speed="fast", inference_geo="us").usage)
    assert (fast.speed, quietly_standard.speed, quietly_standard.inference_geo) == ("fast", "standard", "us")
    assert cost_usd(fast, "claude-opus-5") == pytest.approx(2 * cost_usd(standard, "claude-opus-5"))
    assert cost_usd(quietly_standard, "claude-opus-4-6") == pytest.approx(
        1.1 * cost_usd(Usage.of(ask("claude-opus-4-6").usage), "claude-opus-4-6")
    )


def test_fast_mode_is_fable_and_mythos_5_2_opus_5_5_and_5_and_only_opus_4_6_falls_back_quietly():
    # The fast mode page (December 2026): available on Fable 5.2, Mythos 5.2 and Opus 5.5, a research
    # preview on Opus 5, removed from Opus 4.8 on 2026-11-30 (its requests are refused since).
    fast = {"claude-fable-5-2", "claude-mythos-5-2", "claude-opus-5-5", "claude-opus-5"}
    assert {m for m, row in MODELS.items() if row.fast_mode == "fast"} == fast
    assert {m for m, row in MODELS.items() if row.fast_mode == "standard"} == {"claude-opus-4-6"}


SHARE = {"2026": 1, "2025": 1.3 + 1e-6}


@pytest.mark.parametrize("model", sorted(MODELS))
def test_each_models_output_limit_and_window(model):
    """Straight to the server: the SDK itself refuses a non-streamed call with max_tokens this large."""
    row = MODELS[model]
    emulator = Emulator([say("はい")])
    status, _, body = emulator.respond(
        {"model": model, "max_tokens": row.max_output + 1, "messages": [{"role": "user", "content": "q"}]}
    )
    assert status == 400 and body["error"]["message"].startswith(
        f"max_tokens: {row.max_output + 1} > {row.max_output},"
    )
    over = {
        "model": model,
        "max_tokens": 1024,
        # one wide character is one token of the estimate, which a 2025-tokenizer model counts as 1/1.3
        "messages": [{"role": "user", "content": "あ" * int((row.context_window + 1) * SHARE[row.tokenizer])}],
    }
    status, _, body = emulator.respond(over)
    assert status == 400 and body["error"]["message"].endswith(f"> {row.context_window} maximum")


@pytest.mark.parametrize("model", sorted(MODELS))
def test_each_model_takes_an_assistant_prefill_or_refuses_it_but_always_continues_a_pause(model):
    row = MODELS[model]
    prefilled = [{"role": "user", "content": "q"}, {"role": "assistant", "content": "The answer is"}]
    if row.prefill:
        assert ask(model, messages=prefilled).stop_reason == "end_turn", model
    else:
        assert refused(model, messages=prefilled) == table.PREFILL_REFUSED, model
    # A pause_turn reply resent unchanged is how a paused turn goes on, on every model; edited, it
    # is a prefill like any other.
    client = emulated_client("pause_turn", max_retries=0)
    history = [{"role": "user", "content": "調べて"}]
    search = {"max_tokens": 4096, "tools": [{"type": "web_search_20250305", "name": "web_search"}]}
    paused = client.messages.create(model=model, messages=history, **search)
    assert paused.stop_reason == "pause_turn", model
    resent = [*history, {"role": "assistant", "content": paused.content}]
    resumed = client.messages.create(model=model, messages=resent, **search)
    assert resumed.stop_reason == "end_turn" and resumed.content[0].type == "web_search_tool_result", model
    # The search's result opens the resumed reply, before any thinking; the conversation goes on from there.
    later = [*resent, {"role": "assistant", "content": resumed.content}, {"role": "user", "content": "ありがとう"}]
    assert client.messages.create(model=model, messages=later, **search).stop_reason == "end_turn", model
    if not row.prefill:
        edited = [*history, {"role": "assistant", "content": [*paused.content[:-1], {"type": "text", "text": "別の"}]}]
        with pytest.raises(anthropic.BadRequestError, match="does not support assistant message prefill"):
            client.messages.create(model=model, messages=edited, **search)


@pytest.mark.parametrize("model", sorted(MODELS))
def test_each_model_counts_with_its_own_tokenizer(model):
    """The 2026 tokenizer spends about 1.3x the tokens of the 2025 one on the same text (docs/api_facts.md)."""
    row = MODELS[model]
    client = emulated_client([say("はい、" * 300)], max_retries=0)
    text = "The same long question, asked of every model. " * 200 + "同じ長い質問です。" * 200
    messages = [{"role": "user", "content": text}]
    counted = client.messages.count_tokens(model=model, messages=messages).input_tokens
    ours = client.messages.count_tokens(model="claude-sonnet-5", messages=messages).input_tokens
    expected = {"2026": 1.0, "2025": 1 / 1.3}[row.tokenizer]
    assert counted == pytest.approx(ours * expected, abs=1), model
    usage = client.messages.create(model=model, max_tokens=4096, messages=messages).usage
    assert usage.input_tokens == counted, model  # nothing cached: the whole prompt is uncached input
    reference = client.messages.create(model="claude-sonnet-5", max_tokens=4096, messages=messages).usage
    if row.thinking_default == "disabled":
        reply_only = reference.output_tokens - reference.output_tokens_details.thinking_tokens
        assert usage.output_tokens == pytest.approx(reply_only * expected, abs=1), model


def test_haiku_does_not_think_unless_asked_and_then_summarizes():
    plain = ask("claude-haiku-4-5")
    assert [b.type for b in plain.content] == ["text"]
    # Live Haiku 4.5 replies without thinking carry no output_tokens_details (docs/api_facts.md), where
    # Sonnet 5's say 0: code reading thinking_tokens there fails offline as it does live.
    assert plain.usage.output_tokens_details is None
    assert ask("claude-sonnet-5", thinking=THINKING["disabled"]).usage.output_tokens_details.thinking_tokens == 0
    thought = ask("claude-haiku-4-5", thinking=THINKING["enabled"])
    assert thought.content[0].type == "thinking" and thought.content[0].thinking  # summarized by default on 4.5


@pytest.mark.parametrize(("model", "reported"), [("claude-haiku-4-5", False), ("claude-sonnet-5", True)])
def test_output_details_without_thinking_follow_the_models_row(monkeypatch, model, reported):
    # The row decides, not the id: the same model answers the other way once its row says the other thing.
    for says in (reported, not reported):
        monkeypatch.setitem(MODELS, model, replace(MODELS[model], output_details_without_thinking=says))
        details = ask(model, thinking=THINKING["disabled"]).usage.output_tokens_details
        assert (details is not None) == says, (model, says)
        assert details is None or details.thinking_tokens == 0


def test_manual_thinking_with_forced_tool_choice_is_refused_where_both_are_allowed():
    forced = {"tools": TOOLS, "tool_choice": {"type": "any"}}
    assert refused("claude-sonnet-4-6", thinking=THINKING["enabled"], **forced) == roundtrip.FORCED_WITH_MANUAL_THINKING


def test_temperature_is_unknown_to_every_model():
    client = emulated_client([say("はい")], max_retries=0)
    for model in ("claude-sonnet-5", "claude-haiku-4-5"):
        with pytest.raises(anthropic.BadRequestError) as caught:
            client.messages.create(
                model=model, max_tokens=64, messages=[{"role": "user", "content": "q"}], extra_body={"temperature": 0.2}
            )
        assert caught.value.api_message == "temperature: Extra inputs are not permitted"
