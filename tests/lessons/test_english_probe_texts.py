"""An English kernel's lesson checks quote no Japanese (issue 25): a hint that quotes what a probe's
scripted model said, called or was told (its answer, a tool call's input, a tool's output or error,
the user's request) quotes it in English, because the probes of lessons 2 to 7 speak the kernel's
language, as the capstone's hidden scenarios do.

Each wrong answer in tests/lessons/answers*.py whose hint quotes such data is checked in English,
with its own words in English too (an English learner writes English), and so are a few wrong
answers written here for the quoting hints the tables provoke with the learner's words only. The
output ``lessons.check`` prints must name the same cause as in Japanese, and hold no Japanese.
"""

from __future__ import annotations

import dataclasses
import inspect
import linecache
import re
import sys
from functools import cache
from types import ModuleType

import pytest

from harness_lab import lessons
from harness_lab.text import speaking
from tests.lessons import answers
from tests.lessons.answers6 import WRONG_RUN_AGENT, loaded, variant
from tests.lessons.answers_more import WRONG_MORE, WRONG_RUN_AGENT_MORE
from tests.lessons.answers_valves import WRONG_RUN_AGENT_VALVES

JAPANESE = re.compile(r"[\u3000-\u30ff\u4e00-\u9fff\uff01-\uff9f]")

# The hints whose values can carry a probe's words (a learner's return value, an error, the calls made).
QUOTING = {
    "lesson.l2.run_tools.call_failed",
    "lesson.l2.run_tools.not_json",
    "lesson.l2.run_agent.not_text",
    "lesson.l3.next_step.vocabulary",
    "lesson.l4.signature.collides",
    "lesson.l4.signature.key_order",
    "lesson.l5.call_failed",
    "lesson.l5.approve_call",
    "lesson.l5.denied_raised",
    "lesson.l5.tool_raised",
    "lesson.l6.run_agent.no_end",
    "lesson.l6.run_agent.not_answer",
    "lesson.l6.run_agent.ended_while_calling",
    "lesson.l6.run_agent.no_progress_on_new_calls",
    "lesson.l6.run_agent.normal_no_progress",
    "lesson.l6.run_agent.missed_spinning",
    "lesson.l7.stop_message.not_none",
}
# What the English probes say, as the hint for some of these answers quotes it (by the case's id).
QUOTED = {
    "tools_str_dict": "'city': 'Osaka'",  # the tool's output
    "agent_returns_the_history": "'content': 'Compare the temperatures",  # the user's request
    "step_returns_the_text": "'Let me look.'",  # what the model said
    "sig_of_the_words": "First, work out what is needed",  # what the model thought
    "approve_no_try": "FileNotFoundError: sandbox/missing.md does not exist",  # the tool's error
    "no_end-1": "'The first line of README.md is",  # the model's answer
    "no_progress_on_new_calls-3": 'search({"query": "clue to follow up 1"})',  # the calls it made
    "stop_on_pause_too": "None Still ",  # what the model said before it paused
    "ends_on_words-3": '"I\'ll keep looking into it."',  # what the model said beside its call
}
# The learner's own words in the wrong answers, as an English learner writes them (a word before the words inside it).
ENGLISH_LEARNER = {
    "拒否されました": "denied",
    "拒否": "denied",
    "失敗: ": "failed: ",
    "ツールを実行する": "run the tools",
    "断られました": "declined",
    "切れました: ": "cut off: ",
    " で止まりました": " stopped",
    "止まりました": "stopped",
    "結果です": "here are the results",
    " は許可されませんでした": " is not allowed",
    "ルートの外は読めません": "cannot read outside the root",
    " はルートの外です": " is outside the root",
    "上限に達した": "limit reached",
    "上限": "limit",
    "予算": "budget",
    "空回り": "spinning",
    "止めました": "stopped",
    "答え": "the answer",
    "続けて": "go on",
    "（": " (",
    "）": ")",
}


def english(source: str) -> str:
    for ja, en in ENGLISH_LEARNER.items():
        source = source.replace(ja, en)
    assert not JAPANESE.search(source), source
    return source


@cache
def english_functions(module: ModuleType) -> dict:
    """The module's functions with their words in English, calling one another (helpers included).

    A table is split over several modules (answers_more_gates calls answers_more_loop's ``_error``):
    the functions a module takes from the other answer modules are put in English with its own.
    """
    functions = [
        f for f in vars(module).values() if inspect.isfunction(f) and f.__module__.startswith("tests.lessons.answers")
    ]
    source = "\n\n".join(english(inspect.getsource(f)) for f in functions)
    filename = f"<{module.__name__} in English>"
    linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)  # the line a hint shows
    namespace = dict(vars(module))
    exec(compile(source, filename, "exec"), namespace)
    return namespace


# --- wrong answers written here: the quoting hints, provoked with the probe's words --------------


def agent_returns_the_history(client, user_input, tools, impls):
    messages = [{"role": "user", "content": user_input}]
    client.messages.create(model="claude-sonnet-5", max_tokens=1024, tools=tools, messages=messages)
    return messages


def step_returns_the_text(response):  # what the model said, where the loop's next step belongs
    return "".join(b.text for b in response.content if b.type == "text")


def sig_of_the_words(content):  # what the model thought and said, not what it called
    return " ".join(getattr(b, "thinking", None) or getattr(b, "text", "") for b in content)


# A loop that takes the model's words for its end, and returns them as the answer.
ENDS_ON_WORDS = variant(
    (
        '    while step in ("run_tools", "resend"):',
        '    while step in ("run_tools", "resend") and not hl.text_of(response.content):',
    ),
    ('    if step == "finish":\n        return', "    if True:\n        return"),
)
HERE = [
    ("run_agent", None, agent_returns_the_history, 1, "lesson.l2.run_agent.not_text"),
    ("next_step", None, step_returns_the_text, 1, "lesson.l3.next_step.vocabulary"),
    ("signature_of", None, sig_of_the_words, 2, "lesson.l4.signature.collides"),
    ("run_agent", 6, ENDS_ON_WORDS, 3, "lesson.l6.run_agent.ended_while_calling"),
]


def _cases() -> list:
    """(id, piece, lesson, how to get the English wrong answer, point, key)."""
    cases = []
    for name, fn, point, key in answers.WRONG + WRONG_MORE:
        if key in QUOTING:
            module = sys.modules[fn.__module__]  # the answer module that defines it, with its helpers
            cases.append((fn.__name__, name, None, (module, fn.__name__), point, key))
    for source, point, key in WRONG_RUN_AGENT + WRONG_RUN_AGENT_MORE + WRONG_RUN_AGENT_VALVES:
        if key in QUOTING:
            cases.append((f"{key.rsplit('.', 1)[1]}-{point}", "run_agent", 6, english(source), point, key))
    for name, lesson, how, point, key in HERE:
        case = how.__name__ if callable(how) else f"ends_on_words-{point}"
        cases.append((case, name, lesson, english(how) if isinstance(how, str) else how, point, key))
    return cases


CASES = _cases()


def _wrong(how):
    if isinstance(how, str):
        return loaded(how)
    if isinstance(how, tuple):
        module, name = how
        return english_functions(module)[name]
    return how


def test_every_quoting_hint_is_provoked_here():
    assert {case[-1] for case in CASES} == QUOTING
    assert set(QUOTED) <= {case[0] for case in CASES}


@pytest.mark.parametrize("case, name, lesson, how, point, key", CASES, ids=[c[0] for c in CASES])
def test_an_english_check_quotes_the_probe_in_english(case, name, lesson, how, point, key, monkeypatch, capsys):
    whole = lessons.piece(name, lesson)
    one = dataclasses.replace(whole, points=(whole.points[point - 1],))  # the point the answer is wrong on
    verdicts = []

    def judge(*args, **kwargs):
        verdicts.append(real_judge(*args, **kwargs))
        return verdicts[-1]

    real_judge = lessons.judge
    monkeypatch.setattr(lessons, "piece", lambda *_, **__: one)
    monkeypatch.setattr(lessons, "judge", judge)
    with speaking("en"):
        lessons.check(name, _wrong(how), lesson=lesson)
    printed = capsys.readouterr().out
    assert [v.checks[0].key for v in verdicts] == [key], printed
    assert not (found := JAPANESE.search(printed)), printed[max(found.start() - 200, 0) : found.end() + 100]
    assert QUOTED.get(case, "") in printed, printed


@pytest.mark.parametrize("name, lesson, how, point, key", HERE, ids=[f"{h[-1].rsplit('.', 1)[1]}" for h in HERE])
def test_the_answers_written_here_get_the_same_hint_in_japanese(name, lesson, how, point, key):
    whole = lessons.piece(name, lesson)
    one = dataclasses.replace(whole, points=(whole.points[point - 1],))
    with speaking("ja"):
        verdict = lessons.judge(one, loaded(how) if isinstance(how, str) else how)
    assert verdict.checks[0].key == key, verdict.text()
