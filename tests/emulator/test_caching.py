"""Prompt caching as documented: reads and writes in usage, a 20-turn run that costs less, edits that invalidate."""

import itertools

import pytest

from harness_lab.emulator import Emulator, emulated_client, say
from harness_lab.emulator.models import MODELS
from harness_lab.events import Usage
from harness_lab.valves import cost_usd

MODEL = "claude-sonnet-5"
TOOLS = [
    {
        "name": "read_file",
        "description": "read a note",
        "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}},
    }
]
NOTE = "会議の議事録です。決定事項と宿題を一つずつ確認します。" * 8


def run(cache_control=None, rounds=20, edit_at=None):
    """``twenty_turns`` driven by a plain loop; returns each request's usage and the history."""
    client = emulated_client("twenty_turns", max_retries=0)
    request = {"model": MODEL, "max_tokens": 2048, "tools": TOOLS}
    if cache_control:
        request["cache_control"] = cache_control
    messages = [{"role": "user", "content": "ノートを順に全部読んで要点を教えて"}]
    usages = []
    for turn in range(rounds):
        if edit_at is not None and turn == edit_at:
            messages[12]["content"][0]["content"] = "書き換えた結果"  # the 6th tool result
        response = client.messages.create(**request, messages=messages)
        usages.append(Usage.of(response.usage))
        if response.stop_reason != "tool_use":
            break
        calls = [b for b in response.content if b.type == "tool_use"]
        messages += [
            {"role": "assistant", "content": response.content},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": c.id, "content": NOTE} for c in calls]},
        ]
    return usages, messages


def test_a_twenty_turn_run_costs_visibly_less_with_automatic_caching():
    plain, _ = run()
    cached, _ = run({"type": "ephemeral"})
    assert len(plain) == len(cached) == 20
    assert all(u.cache_read_input_tokens == u.cache_creation_input_tokens == 0 for u in plain)
    # The same prompts either way: only how they are billed differs.
    assert [u.prompt_tokens for u in plain] == [u.prompt_tokens for u in cached]
    reads = [u.cache_read_input_tokens for u in cached]
    assert reads[0] == 0 and all(r > 0 for r in reads[4:])  # once the prefix is long enough to cache
    for previous, current in itertools.pairwise(cached[3:]):
        # each turn reads what the turn before wrote, and writes only what is new
        assert (
            current.cache_read_input_tokens == previous.cache_read_input_tokens + previous.cache_creation_input_tokens
        )
    assert cost_usd(cached, MODEL) < 0.6 * cost_usd(plain, MODEL)


def test_editing_history_invalidates_the_cache_after_the_edit():
    untouched, _ = run({"type": "ephemeral"}, rounds=10)
    edited, _ = run({"type": "ephemeral"}, rounds=10, edit_at=8)
    # Turn 9 reads the whole previous prompt when nothing changed, only the part before the edit otherwise
    # (the automatic breakpoint looks back 20 blocks: far enough to find the prefix cached before the edit).
    assert edited[8].cache_read_input_tokens < untouched[8].cache_read_input_tokens
    assert edited[8].cache_creation_input_tokens > untouched[8].cache_creation_input_tokens
    assert edited[8].cache_read_input_tokens > 0  # the prefix before the edit still reads


def test_an_explicit_breakpoint_and_each_models_minimum():
    system = [{"type": "text", "text": "規則: " + "丁寧に答える。" * 90, "cache_control": {"type": "ephemeral"}}]
    request = {"max_tokens": 1024, "system": system, "messages": [{"role": "user", "content": "q"}]}
    for model, minimum in (("claude-sonnet-5", 1024), ("claude-sonnet-5-5", 512)):
        emulator = Emulator([say("はい")])
        _, _, first = emulator.respond({**request, "model": model})
        _, _, again = emulator.respond({**request, "model": model})
        prefix = first["usage"]["cache_creation_input_tokens"]
        if minimum == 512:  # ~640 tokens: cacheable on Sonnet 5.5, too short for Sonnet 5
            assert prefix > 512 and again["usage"]["cache_read_input_tokens"] == prefix
        else:
            assert prefix == 0 and again["usage"]["cache_read_input_tokens"] == 0


# The prompt caching page's "Cache limitations" (docs/api_facts.md, PC), in each model's own tokens;
# the 5.2 models' are inferred from the 5.1 ones.
DOCUMENTED_MINIMUM = {
    **dict.fromkeys(("claude-fable-5-2", "claude-mythos-5-2", "claude-fable-5-1", "claude-mythos-5-1"), 512),
    **dict.fromkeys(("claude-opus-5-5", "claude-sonnet-5-5", "claude-haiku-5-5"), 512),
    **dict.fromkeys(("claude-opus-5", "claude-fable-5", "claude-mythos-5"), 512),
    **dict.fromkeys(("claude-opus-4-7",), 2048),
    **dict.fromkeys(("claude-sonnet-5", "claude-opus-4-8", "claude-sonnet-4-6"), 1024),
    **dict.fromkeys(("claude-opus-4-6", "claude-opus-4-5", "claude-haiku-4-5"), 4096),
}


@pytest.mark.parametrize("model", sorted(MODELS))
def test_a_prompt_is_cached_from_the_models_documented_minimum_on(model):
    minimum = DOCUMENTED_MINIMUM[model.rsplit("-2025", 1)[0]]
    client = emulated_client([say("はい")] * 4, max_retries=0)

    def request(chars: int) -> dict:
        messages = [{"role": "user", "content": "規" * chars}]
        return {"model": model, "max_tokens": 1024, "messages": messages, "cache_control": {"type": "ephemeral"}}

    def prompt(chars: int) -> int:
        return client.messages.count_tokens(
            **{k: v for k, v in request(chars).items() if k != "max_tokens"}
        ).input_tokens

    chars = minimum
    while prompt(chars) < minimum:  # a 2025-tokenizer model counts the same text as fewer tokens
        chars += 16
    below, above = chars - 40, chars + 40
    assert prompt(below) < minimum <= prompt(above)
    short = client.messages.create(**request(below)).usage
    assert short.cache_creation_input_tokens == short.cache_read_input_tokens == 0
    written = client.messages.create(**request(above)).usage
    assert written.cache_creation_input_tokens == prompt(above)


def test_each_emulator_holds_its_own_cache():
    request = {
        "model": MODEL,
        "max_tokens": 1024,
        "cache_control": {"type": "ephemeral"},
        "system": "規則: " + "丁寧に答える。" * 300,
        "messages": [{"role": "user", "content": "q"}],
    }
    first, second = Emulator([say("はい")]), Emulator([say("はい")])
    assert first.respond(request)[2]["usage"]["cache_creation_input_tokens"] > 0
    assert first.respond(request)[2]["usage"]["cache_read_input_tokens"] > 0
    assert second.respond(request)[2]["usage"]["cache_read_input_tokens"] == 0


@pytest.mark.parametrize(
    ("change", "keeps"),
    [
        ({}, "all"),
        ({"output_config": {"effort": "high"}}, "all"),  # the default, said out loud
        ({"output_config": {"effort": "low"}}, "system"),
        ({"thinking": {"type": "disabled"}}, "system"),
        ({"tool_choice": {"type": "none"}}, "system"),
        ({"model": "claude-opus-5"}, "nothing"),  # the cache is per model
        ({"model": "claude-opus-5", "speed": "fast"}, "nothing"),
    ],
)
def test_what_a_changed_setting_leaves_of_the_cache(change, keeps):
    # The prompt caching page's table: effort, thinking and tool choice invalidate the messages' cache,
    # the system prompt's stays; another model reads nothing.
    client = emulated_client([say("はい")], max_retries=0)
    system = [{"type": "text", "text": NOTE * 12, "cache_control": {"type": "ephemeral"}}]
    words = [{"type": "text", "text": "要点を教えて。" * 200, "cache_control": {"type": "ephemeral"}}]
    request = {"model": MODEL, "max_tokens": 1024, "system": system, "messages": [{"role": "user", "content": words}]}
    first = client.messages.create(**request).usage
    again = client.messages.create(**{**request, **change}).usage
    whole = first.cache_creation_input_tokens
    read = {"all": whole, "nothing": 0}.get(keeps)
    if keeps == "system":
        assert again.cache_read_input_tokens > 0 < whole and again.cache_creation_input_tokens > 0
    else:
        assert again.cache_read_input_tokens == read


@pytest.mark.parametrize(("effort", "keeps"), [("medium", "all"), ("high", "system")])
def test_opus_5_5_left_without_effort_runs_at_medium(effort, keeps):
    # The effort page (late 2026): "Most Claude models default to high effort ...; Claude Opus 5.5 and
    # Claude Haiku 5.5 default to medium". Saying the default out loud keeps the messages' cache; saying
    # high changes the effort, which the prompt caching page's table says invalidates it.
    client = emulated_client([say("はい")], max_retries=0)
    system = [{"type": "text", "text": NOTE * 12, "cache_control": {"type": "ephemeral"}}]
    words = [{"type": "text", "text": "要点を教えて。" * 200, "cache_control": {"type": "ephemeral"}}]
    request = {"model": "claude-opus-5-5", "max_tokens": 1024, "system": system}
    request["messages"] = [{"role": "user", "content": words}]
    whole = client.messages.create(**request).usage.cache_creation_input_tokens
    again = client.messages.create(**request, output_config={"effort": effort}).usage
    assert (again.cache_read_input_tokens == whole) == (keeps == "all")
    assert again.cache_read_input_tokens > 0
