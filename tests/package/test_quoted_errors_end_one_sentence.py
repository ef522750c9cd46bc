"""An error quoted in a hint or message ends its sentence once: the API's 400s end in a full stop of
their own ("...must define tools."), and the entry's "。" or "." after them read "tools.。" or "tools..".
The texts are the emulator's, which are the API's (docs/api_facts.md)."""

from __future__ import annotations

import string

import anthropic
import pytest

import harness_lab.cli_catalog  # these four imports add their entries
import harness_lab.grading
import harness_lab.lessons
import harness_lab.ui  # noqa: F401
from harness_lab.emulator import emulated_client
from harness_lab.grading.report import Check
from harness_lab.grading.wire import describe_error
from harness_lab.text import CATALOG, speaking, t

USE = {"type": "tool_use", "id": "toolu_01", "name": "get_time", "input": {}}
RESULT = {"type": "tool_result", "tool_use_id": "toolu_01", "content": "12:00"}
CACHED = {"type": "text", "text": "x", "cache_control": {"type": "ephemeral"}}
REFUSED = {  # requests the API answers with a 400 whose message ends in "."
    "no tools": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": [USE]},
        {"role": "user", "content": [RESULT]},
    ],
    "prefill": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "Sure"}],
    "five breakpoints": [{"role": "user", "content": [CACHED] * 5}],
}
DOUBLED = ("。。", ".。", "..", ".、", ".,", ".;", ".:")
WITH_ERROR = sorted(key for key, pair in CATALOG.items() if any("{error}" in text for text in pair))


def refusal(messages: list) -> anthropic.BadRequestError:
    try:
        emulated_client(["ok"], max_retries=0).messages.create(
            model="claude-sonnet-5", max_tokens=64, messages=messages
        )
    except anthropic.BadRequestError as exc:
        return exc.with_traceback(None)  # as if raised where the grader names no learner's line
    raise AssertionError("the emulator took a request the API refuses")


REFUSALS = {name: refusal(messages) for name, messages in REFUSED.items()}
MESSAGES = [exc.body["error"]["message"] for exc in REFUSALS.values()]


def filled(key: str, error: str) -> str:
    """``key``'s entry with ``error``, its other placeholders filled with a word that ends nothing."""
    names = {name for text in CATALOG[key] for _, name, _, _ in string.Formatter().parse(text) if name}
    return t(key, **dict.fromkeys(names - {"error"}, "word"), error=error)


def doubled(text: str) -> list[str]:
    return [pair for pair in DOUBLED if pair in text]


def test_the_api_texts_these_tests_quote_end_in_a_full_stop():
    assert MESSAGES and all(message.endswith(".") for message in MESSAGES), MESSAGES


@pytest.mark.parametrize("language", ["ja", "en"])
@pytest.mark.parametrize("key", WITH_ERROR)
def test_no_entry_doubles_the_full_stop_of_a_400_it_quotes(key, language):
    with speaking(language):
        plain = doubled(filled(key, "error"))  # what the entry's own text has ("create(...)")
        for message in MESSAGES:
            text = filled(key, message)
            assert doubled(text) == plain, text
            assert message.removesuffix(".") in text  # the API's words otherwise as it wrote them


@pytest.mark.parametrize("language", ["ja", "en"])
def test_a_400_keeps_its_full_stop_where_the_entry_does_not_punctuate_after_it(language):
    message = REFUSALS["no tools"].body["error"]["message"]
    with speaking(language):
        assert f"{message})" in t("lesson.l2.pass_tools", error=message) or f"{message}）" in t(
            "lesson.l2.pass_tools", error=message
        )
        assert t("lesson.api_400", error=message).endswith(message)


@pytest.mark.parametrize(("language", "after"), [("ja", "tools。どこで"), ("en", "tools. Use its type")])
def test_a_learners_400_read_by_the_grader_ends_its_sentence_once(language, after):
    with speaking(language):
        hint = Check.fail(1, "title", "grade.raised", error=describe_error(REFUSALS["no tools"])).hint
        assert after in hint and not doubled(hint), hint


def test_an_error_cut_short_keeps_the_dots_that_say_so():
    with speaking("en"):
        assert "must define..." in t("grade.raised", error="BadRequestError: Requests which include ... must define...")
