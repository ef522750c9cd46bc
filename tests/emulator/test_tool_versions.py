"""Which tool versions a model takes, and what may stand next to a client toolset (tool_versions.py)."""

from dataclasses import replace

import pytest

from harness_lab.emulator import Emulator, say
from harness_lab.emulator.models import MODELS

SEARCH = {"type": "web_search_20260209", "name": "web_search"}
TOOLSET = {"type": "computer_toolset_20260801"}
COMPUTER = {"type": "computer_20251124", "name": "computer", "display_width_px": 1024, "display_height_px": 768}
OLD_COMPUTER = {"type": "computer_20250124", "name": "computer", "display_width_px": 1024, "display_height_px": 768}
CUSTOM = {"name": "computer", "input_schema": {"type": "object", "properties": {}}}


def answer(model, tools):
    request = {"model": model, "max_tokens": 256, "tools": tools, "messages": [{"role": "user", "content": "q"}]}
    status, _, body = Emulator([say("はい。")]).respond(request, headers={"anthropic-beta": "computer-use-2025-11-24"})
    return status, body["error"]["message"] if status != 200 else None


def test_dynamic_filtering_web_tools_need_direct_callers_on_a_model_without_programmatic_tool_calling():
    # The web search page: models without programmatic tool calling need allowed_callers ["direct"]
    # on the _20260209 versions; the live 400 as public reports quote it.
    assert answer("claude-haiku-4-5", [SEARCH]) == (
        400,
        "'claude-haiku-4-5-20251001' does not support programmatic tool calling. The following tools have "
        '`allowed_callers` that require it: web_search. Explicitly set `allowed_callers=["direct"]` on these '
        "tools, or use a model that supports programmatic tool calling.",
    )
    assert answer("claude-haiku-4-5", [{**SEARCH, "allowed_callers": ["direct"]}]) == (200, None)
    assert answer("claude-haiku-4-5", [{"type": "web_search_20250305", "name": "web_search"}]) == (200, None)
    assert answer("claude-sonnet-5", [SEARCH]) == (200, None)


@pytest.mark.parametrize(("model", "programmatic"), [("claude-haiku-4-5", False), ("claude-sonnet-5", True)])
def test_programmatic_tool_calling_follows_the_models_row(monkeypatch, model, programmatic):
    # The row decides, not the id: a dynamic filtering web tool is refused exactly where the row has no
    # programmatic tool calling.
    for says in (programmatic, not programmatic):
        monkeypatch.setitem(MODELS, model, replace(MODELS[model], programmatic_tool_calling=says))
        status, message = answer(model, [SEARCH])
        assert (status == 200) is says, (model, says)
        assert says or "does not support programmatic tool calling" in message


@pytest.mark.parametrize(
    ("model", "tool", "taken"),
    [
        ("claude-sonnet-5", TOOLSET, True),
        ("claude-opus-4-8", TOOLSET, True),
        ("claude-sonnet-4-6", TOOLSET, False),  # computer_20251124 only (the computer use page)
        ("claude-sonnet-4-6", COMPUTER, True),
        ("claude-sonnet-5-5", COMPUTER, False),  # no longer accepted (Sonnet 5.5's and Opus 5.5's pages)
        ("claude-opus-5-5", COMPUTER, False),
        ("claude-opus-5", COMPUTER, True),
        # What's new in Claude Fable 5.2: computer_20251124 "returns an error on every platform except Amazon Bedrock".
        ("claude-fable-5-2", COMPUTER, False),
        ("claude-mythos-5-2", COMPUTER, False),
        ("claude-fable-5-1", COMPUTER, True),
        ("claude-fable-5-2", TOOLSET, True),
        # What's new in Claude Haiku 5.5: on the Claude API computer use takes the toolset only.
        ("claude-haiku-5-5", COMPUTER, False),
        ("claude-haiku-5-5", TOOLSET, True),
        # computer_20250124: Sonnet 4.5, Haiku 4.5 and retired models only (the computer use page's "Earlier tool
        # versions"); What's new in Claude Haiku 5.5: replace it with the toolset.
        ("claude-haiku-4-5", OLD_COMPUTER, True),
        ("claude-haiku-5-5", OLD_COMPUTER, False),
        ("claude-sonnet-5", OLD_COMPUTER, False),
        ("claude-opus-4-5", OLD_COMPUTER, False),
    ],
)
def test_computer_use_versions_per_model(model, tool, taken):
    status, message = answer(model, [tool])
    assert (status == 200) is taken, message
    if not taken:
        # The live text's first sentence, as Opus 5.5's and Sonnet 5.5's What's new pages quote it.
        assert message == f"'{model}' does not support tool types: {tool['type']}."


@pytest.mark.parametrize(
    ("model", "field", "tool", "taken"),
    [
        ("claude-sonnet-4-6", "computer_toolset", TOOLSET, False),
        ("claude-sonnet-5", "computer_toolset", TOOLSET, True),
        ("claude-opus-5-5", "computer_20251124", COMPUTER, False),
        ("claude-opus-5", "computer_20251124", COMPUTER, True),
        ("claude-sonnet-5", "computer_20250124", OLD_COMPUTER, False),
    ],
)
def test_computer_tool_versions_follow_the_models_row(monkeypatch, model, field, tool, taken):
    # The row decides, not the id: a computer tool version is refused exactly where the row does not take it.
    for says in (taken, not taken):
        monkeypatch.setitem(MODELS, model, replace(MODELS[model], **{field: says}))
        status, message = answer(model, [tool])
        assert (status == 200) is says, (model, field, says, message)


def test_nothing_else_may_carry_a_toolsets_name():
    # The tool reference page: two entries of one toolset, or a tool named like the toolset beside it.
    assert answer("claude-sonnet-5", [TOOLSET, CUSTOM]) == (
        400,
        "tools.1: a tool named 'computer' cannot be declared alongside `computer_toolset_20260801`",
    )
    assert (
        answer("claude-sonnet-5", [TOOLSET, TOOLSET])[1]
        == "tools.1: `computer_toolset_20260801` may be declared only once"
    )
    assert answer("claude-sonnet-5", [COMPUTER, TOOLSET])[0] == 400
    assert answer("claude-sonnet-5", [TOOLSET, {"type": "browser_toolset_20260801"}]) == (200, None)
