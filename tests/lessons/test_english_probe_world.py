"""An English kernel's probes put an English world in front of the learner's loop: the request it is given,
the descriptions of the tools it is handed and what those tools return. A loop may print any of them, or
hand one back as its end value, and the hint quotes that value.

Each costs the emulator as many tokens in English as in Japanese, so a budget probe stops a loop at the same
request in both editions, and its hint states the same numbers.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from harness_lab import lessons
from harness_lab.emulator.tokens import text_tokens, value_tokens
from harness_lab.lessons import lesson2
from harness_lab.lessons.diagnosis import ask, outputs
from harness_lab.lessons.scenes import scene_tools
from harness_lab.text import speaking
from tests.lessons.answers6 import loaded, variant

JAPANESE = re.compile(r"[\u3000-\u30ff\u4e00-\u9fff\uff01-\uff9f]")


class Noted:
    """Appends what the loop was handed to a file: the probes run the learner's loop in a forked process."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def note(self, value: object) -> object:
        with self.path.open("a", encoding="utf-8") as f:
            f.write(json.dumps(value, ensure_ascii=False, default=str) + "\n")
        return value

    def tools(self, impls: dict) -> dict:
        """The tools as handed over, noting what each returns."""
        return {name: self._spied(impl) for name, impl in impls.items()}

    def _spied(self, impl):
        return lambda *args, **kwargs: self.note(impl(*args, **kwargs))

    def read(self) -> str:
        return self.path.read_text(encoding="utf-8") if self.path.exists() else ""


def _lesson6_loop_that_notes(noted: Noted):
    """The right lesson-6 run_agent, noting the request, the tool definitions and the tools' outputs."""
    source = variant(
        (
            "    messages = [",
            "    NOTED.note([user_input, tools])\n    tool_impls = NOTED.tools(tool_impls)\n    messages = [",
        )
    )
    fn = loaded(source)
    fn.__globals__["NOTED"] = noted
    return fn


def _lesson2_loop_that_notes(noted: Noted):
    def run_agent(client, user_input, tools, impls):
        noted.note([user_input, tools])
        return lesson2.run_agent(client, user_input, tools, noted.tools(impls))

    return run_agent


@pytest.mark.parametrize(("lesson", "make"), [(2, _lesson2_loop_that_notes), (6, _lesson6_loop_that_notes)])
def test_an_english_probe_hands_the_loop_no_japanese(lesson, make, capsys, tmp_path):
    noted = Noted(tmp_path / "handed.jsonl")
    with speaking("en"):
        lessons.check("run_agent", make(noted), lesson=lesson)
    printed = capsys.readouterr().out
    assert "[FAIL]" not in printed, printed
    handed = noted.read()
    assert '"read_file"' in handed and handed.count("\n") > 2  # the tools were handed over, and some ran
    assert not (found := JAPANESE.search(handed)), handed[max(found.start() - 200, 0) : found.end() + 100]


# A loop that hands back the history in place of lessons.finished(...): the hint quotes its first message.
RETURNS_THE_HISTORY = variant(
    ("        return lessons.finished(response, turns, tokens_used)", "        return messages")
)


def test_a_hint_quoting_the_probes_request_quotes_it_in_english(capsys):
    with speaking("en"):
        lessons.check("run_agent", loaded(RETURNS_THE_HISTORY), lesson=6)
        request = ask()
    printed = capsys.readouterr().out
    assert repr([{"role": "user", "content": request}])[:40] in printed, printed  # repr cut to 40 characters
    assert not (found := JAPANESE.search(printed)), printed[max(found.start() - 200, 0) : found.end() + 100]


def test_the_probes_world_costs_the_same_tokens_in_both_languages():
    def cost() -> tuple:
        return (
            [value_tokens(d) for d in scene_tools()],
            {k: text_tokens(v) for k, v in outputs().items()},
            text_tokens(ask()),
        )

    with speaking("ja"):
        japanese = cost()
    with speaking("en"):
        assert cost() == japanese
