"""The token estimate: deterministic, Japanese counted by character, count_tokens agrees with usage."""

import itertools

from harness_lab.emulator import Emulator, emulated_client, estimate_request, say, text_tokens
from harness_lab.emulator.tokens import TOOLS_SYSTEM_PROMPT_TOKENS

MODEL = "claude-sonnet-5"
TOOLS = [{"name": "get_time", "description": "現在時刻を返す", "input_schema": {"type": "object", "properties": {}}}]


def test_text_tokens_counts_japanese_per_character_and_ascii_by_four():
    assert text_tokens("") == 0
    assert text_tokens("こんにちは、世界。") == 9
    assert text_tokens("abcd" * 10) == 10
    assert text_tokens("abcde") == 2
    assert text_tokens("東京 is cloudy") == 2 + 3  # two kanji, then 11 other characters -> 3
    # Not bytes: UTF-8 Japanese is 3 bytes a character, still one token.
    assert text_tokens("あ" * 100) == 100


def test_korean_emoji_and_supplementary_kanji_count_like_japanese():
    assert text_tokens("안녕하세요") == 5  # Hangul syllables
    assert text_tokens("ᄒ" * 4) == text_tokens("ㅎ" * 4) == 4  # conjoining and compatibility jamo
    assert text_tokens("𠮷" * 4) == 4  # outside the BMP, still one kanji each
    assert text_tokens("😀🚀🈁") == 3 and text_tokens("☀✅") == 2
    assert text_tokens("👍🏻") == 2  # the skin-tone modifier is a pictograph-plane character too
    assert text_tokens("❤️") == 1 + 1  # the heart, then its variation selector as a quarter, rounded up
    assert text_tokens("ok 👍") == 1 + 1  # three other characters round up to one, plus the emoji


def test_usage_matches_count_tokens_and_has_every_field():
    client = emulated_client([say("はい")])
    request = {
        "model": MODEL,
        "messages": [{"role": "user", "content": "今何時？"}],
        "tools": TOOLS,
        "system": "簡潔に",
    }
    counted = client.messages.count_tokens(**request).input_tokens
    response = client.messages.create(max_tokens=1024, **request)
    usage = response.usage.to_dict()
    assert usage["input_tokens"] == counted == estimate_request(request).total
    for name in (
        "cache_creation_input_tokens",
        "cache_read_input_tokens",
        "output_tokens",
        "service_tier",
        "inference_geo",
    ):
        assert name in usage
    assert usage["cache_creation"] == {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 0}
    thought = usage["output_tokens_details"]["thinking_tokens"]
    assert thought > 0 and usage["output_tokens"] == 1 + 2 + thought  # overhead, two kana, the thinking
    quiet = client.messages.create(max_tokens=64, thinking={"type": "disabled"}, **request).usage
    assert quiet.output_tokens == 1 + 2 and quiet.output_tokens_details.thinking_tokens == 0


def test_usage_has_no_server_tool_count_where_no_server_tool_was_used():
    # Live replies of 2026-08 with no server tool carry no server_tool_use key at all (a direct API probe
    # of claude-opus-5, claude-fable-5 and claude-opus-4-6 pasted in full in a public port's notes, and
    # claude-fable-5-1 and claude-sonnet-4-5 messages in public fixtures): usage.server_tool_use is None there,
    # so a loop reading usage.server_tool_use.web_search_requests must check it. A turn that used one says
    # how many searches ran (the pause_turn scenario: its paused call, then its result).
    client = emulated_client([say("はい")])
    usage = client.messages.create(model=MODEL, max_tokens=64, messages=[{"role": "user", "content": "q"}]).usage
    assert usage.server_tool_use is None and "server_tool_use" not in usage.to_dict()
    with client.messages.stream(model=MODEL, max_tokens=64, messages=[{"role": "user", "content": "q"}]) as stream:
        assert stream.get_final_message().usage.server_tool_use is None


def test_tools_add_the_hidden_tool_system_prompt():
    base = {"model": MODEL, "messages": [{"role": "user", "content": "q"}]}
    with_tools = estimate_request({**base, "tools": TOOLS}).total
    assert with_tools - estimate_request(base).total > TOOLS_SYSTEM_PROMPT_TOKENS


def test_history_grows_input_tokens_every_turn():
    client = emulated_client("never_ending")
    tools = [
        {
            "name": "read_file",
            "description": "read",
            "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}},
        }
    ]
    messages = [{"role": "user", "content": "ノートを全部読んで"}]
    inputs = []
    for _ in range(4):
        response = client.messages.create(model=MODEL, max_tokens=256, tools=tools, messages=messages)
        inputs.append(response.usage.input_tokens)
        messages += [
            {"role": "assistant", "content": response.content},
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": response.content[-1].id, "content": "ノートの本文" * 20}
                ],
            },
        ]
    steps = [b - a for a, b in itertools.pairwise(inputs)]
    assert all(s > 100 for s in steps) and len(set(steps)) == 1  # same-sized turns: linear growth


def _cached(system_blocks, history, emulator=None):
    """One request to ``emulator`` (the same server holds the cache between requests)."""
    request = {"model": MODEL, "max_tokens": 1024, "system": system_blocks, "messages": history}
    status, _, body = (emulator or Emulator([say("はい")])).respond(request)
    assert status == 200
    return body["usage"], estimate_request(request).total


def test_cache_write_then_read_of_the_same_prefix():
    system = [{"type": "text", "text": "規則: " + "丁寧に答える。" * 300, "cache_control": {"type": "ephemeral"}}]
    emulator = Emulator([say("はい")])
    first, total = _cached(system, [{"role": "user", "content": "q"}], emulator)
    assert first["cache_creation_input_tokens"] > 1024 and first["cache_read_input_tokens"] == 0
    assert first["input_tokens"] + first["cache_creation_input_tokens"] == total
    assert first["cache_creation"]["ephemeral_5m_input_tokens"] == first["cache_creation_input_tokens"]
    later, total = _cached(
        system,
        [{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}, {"role": "user", "content": "r"}],
        emulator,
    )
    assert later["cache_read_input_tokens"] == first["cache_creation_input_tokens"]
    assert later["cache_creation_input_tokens"] == 0
    assert later["input_tokens"] + later["cache_read_input_tokens"] == total


def test_short_prefixes_are_not_cached_and_1h_ttl_is_reported():
    short = [{"type": "text", "text": "短い", "cache_control": {"type": "ephemeral"}}]
    usage, _ = _cached(short, [{"role": "user", "content": "q"}])
    assert usage["cache_creation_input_tokens"] == usage["cache_read_input_tokens"] == 0
    long_1h = [{"type": "text", "text": "長い規則。" * 400, "cache_control": {"type": "ephemeral", "ttl": "1h"}}]
    usage, _ = _cached(long_1h, [{"role": "user", "content": "q"}])
    assert usage["cache_creation"]["ephemeral_1h_input_tokens"] == usage["cache_creation_input_tokens"] > 0
    assert usage["cache_creation"]["ephemeral_5m_input_tokens"] == 0


def test_respond_is_linear_in_request_size():
    """Counted in function calls, not seconds: timings on a shared machine are too noisy to compare."""
    import sys

    def calls(n):
        messages = [
            {"role": "user" if i % 2 == 0 else "assistant", "content": f"テキスト abc {i} " * 20} for i in range(n)
        ]
        request = {"model": MODEL, "max_tokens": 1024, "messages": messages}
        emulator = Emulator([say("x")])
        count = 0

        def profile(frame, event, arg):
            nonlocal count
            count += event in ("call", "c_call")

        sys.setprofile(profile)
        try:
            emulator.respond(request)
        finally:
            sys.setprofile(None)
        return count

    small, large = calls(500), calls(2000)
    assert large <= small * 4.2  # 4x the messages, 4x the work: nothing quadratic
