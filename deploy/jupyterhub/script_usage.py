"""argparse in the class's language, for the scripts an instructor runs here (collect.sh, course_files.py).

They run with a Python of their own (root's, an image build's), where harness_lab's catalog may be out of
reach, so argparse's words are here, in Japanese and English, as the scripts' own texts are beside them.
A Japanese instructor was told "error: the following arguments are required: LEARNER" and the like.

``sides`` says which languages are spoken: ``(0,)`` Japanese, ``(1,)`` English, ``(0, 1)`` both, each
error line then printed once per language, Japanese first.
"""

from __future__ import annotations

import argparse
import re
import sys
from typing import Any, NoReturn

WORDS = {
    "usage": ("使い方", "usage"),
    "positionals": ("引数", "positional arguments"),
    "options": ("オプション", "options"),
    "help": ("このヘルプを表示して終わります", "show this help message and exit"),
    "error": ("{prog}: エラー: {message}", "{prog}: error: {message}"),
    "required": ("次の引数が必要です: {names}", "the following arguments are required: {names}"),
    "unrecognized": ("知らない引数です: {names}", "unrecognized arguments: {names}"),
    "expected_one": ("引数 {name} には値が1つ必要です", "argument {name}: expected one argument"),
    "not_number": ("引数 {name}: 数を指定してください: {value}", "argument {name}: must be a number: {value}"),
}
# argparse's error sentences (its English msgids) -> WORDS' keys; anything else keeps argparse's words
ARGPARSE_SAYS = (
    (re.compile(r"the following arguments are required: (?P<names>.*)", re.DOTALL), "required"),
    (re.compile(r"unrecognized arguments: (?P<names>.*)", re.DOTALL), "unrecognized"),
    (re.compile(r"argument (?P<name>\S+): expected one argument", re.DOTALL), "expected_one"),
    (re.compile(r"argument (?P<name>\S+): invalid \w+ value: (?P<value>.*)", re.DOTALL), "not_number"),
)


class Parser(argparse.ArgumentParser):
    """argparse whose usage line, sections, ``--help`` and errors are in the languages of ``sides``."""

    def __init__(self, sides: tuple[int, ...], **kwargs: Any) -> None:
        self.sides = sides
        usage = " / ".join(self.say("usage")) + ": "

        class Help(argparse.HelpFormatter):
            def add_usage(self, usage_, actions, groups, prefix=None):  # type: ignore[no-untyped-def]
                super().add_usage(usage_, actions, groups, prefix if prefix is not None else usage)

        super().__init__(formatter_class=Help, add_help=False, **kwargs)
        self._positionals.title = " / ".join(self.say("positionals"))
        self._optionals.title = " / ".join(self.say("options"))
        self.add_argument("-h", "--help", action="help", help=" / ".join(self.say("help")))

    def say(self, key: str, **values: object) -> list[str]:
        return [WORDS[key][side].format(**values) for side in self.sides]

    def error(self, message: str) -> NoReturn:
        for pattern, key in ARGPARSE_SAYS:
            if found := pattern.fullmatch(message):
                self.refuse(self.say(key, **found.groupdict()))
        self.refuse([message for _ in self.sides])

    def refuse(self, lines: list[str]) -> NoReturn:
        """Stop with exit 2: the usage line, then ``lines``, one per language spoken, each as an error."""
        self.print_usage(sys.stderr)
        said = (WORDS["error"][side].format(prog=self.prog, message=line) for side, line in zip(self.sides, lines))
        self.exit(2, "".join(line + "\n" for line in said))
