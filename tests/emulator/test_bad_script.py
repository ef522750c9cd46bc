"""A script that is not one fails at ``connect()`` with what a script may be, not deep in ``list()``."""

from __future__ import annotations

import pytest

import harness_lab as hl
from harness_lab.emulator import Emulator, emulated_client, say


@pytest.fixture(autouse=True)
def english(monkeypatch):
    monkeypatch.setenv("HARNESS_LAB_LANG", "en")
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)


@pytest.mark.parametrize("script", [42, 3.5, {"reply": "hi"}, b"hi"])
def test_a_script_that_is_not_one_names_the_four_kinds(script):
    for make in (Emulator, emulated_client, hl.connect):
        with pytest.raises(TypeError, match=r'scenario name \(e\.g\. "lesson6"\).*list of replies.*function.*Emulator'):
            make(script)


def test_tuples_and_generators_of_replies_still_work():
    for script in ((say("a"),), (r for r in [say("a")])):
        assert hl.run(emulated_client(script), "hi").text == "a"


def test_an_unknown_scenario_lists_the_known_ones():
    with pytest.raises(ValueError, match=r"^unknown scenario 'no_such_scenario'; known: .*lesson6"):
        hl.connect("no_such_scenario", live=False)


def test_an_unknown_scenario_is_named_in_the_learners_language(monkeypatch):
    monkeypatch.setenv("HARNESS_LAB_LANG", "ja")
    with pytest.raises(ValueError, match=r"^シナリオ 'lesson7' はありません。使えるシナリオ: .*lesson6"):
        hl.connect("lesson7", live=False)


@pytest.mark.parametrize("language, said", [("ja", "返答を1つ以上"), ("en", "at least one reply")])
def test_an_empty_list_of_replies_says_so_in_the_learners_language(monkeypatch, language, said):
    monkeypatch.setenv("HARNESS_LAB_LANG", language)
    with pytest.raises(ValueError, match=said):
        hl.connect([], live=False)
