"""argparse in the language in use: its word for "usage:", its sections' titles, ``--help`` and its errors.

Shared by ``harness-lab`` (``cli_parser.py``) and ``python -P -m harness_lab.grading``
(``grading/command.py``): the second was argparse's English ("error: the following arguments are
required") to an instructor working in Japanese. The help is built when the parser is, so the language
must be chosen first: ``requested_language`` reads ``--lang`` before argparse does.
"""

from __future__ import annotations

import argparse
import re
import sys
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any, NoReturn

from .text import LANGUAGES, t

__all__ = ["LANGUAGE_CHOICES", "Help", "Parser", "language", "requested_language", "wrapped"]

LANGUAGE_CHOICES = "{" + ",".join(LANGUAGES) + "}"  # as argparse shows ``choices`` in the usage line


def requested_language(argv: Sequence[str]) -> str | None:
    """The language a ``--lang`` in ``argv`` asks for (the last one: the one after the command wins), or None."""
    asked = None
    for at, arg in enumerate(argv):
        if arg == "--":  # what follows is a prompt, never an option
            break
        value = argv[at + 1] if arg == "--lang" and at + 1 < len(argv) else arg.partition("=")[2]
        if (arg == "--lang" or arg.startswith("--lang=")) and value in LANGUAGES:
            asked = value
    return asked


def language(text: str) -> str:
    """``--lang``'s type. Not ``choices``: argparse would say "invalid choice" in English whatever the language."""
    if text not in LANGUAGES:
        raise argparse.ArgumentTypeError(t("usage.args.not_language", text=text))
    return text


# argparse's error sentences (its English msgids) -> the catalog's; anything else keeps argparse's words
_ARGPARSE_SAYS = (
    (re.compile(r"the following arguments are required: (?P<names>.*)", re.DOTALL), "usage.args.required"),
    (re.compile(r"unrecognized arguments: (?P<names>.*)", re.DOTALL), "usage.args.unrecognized"),
    (re.compile(r"argument (?P<name>\S+): expected one argument", re.DOTALL), "usage.args.expected_one"),
    (
        re.compile(
            r"argument (?P<name>[^:]+): invalid choice: (?P<value>.*) \(choose from (?P<choices>.*)\)", re.DOTALL
        ),
        "usage.args.choice",
    ),
    (re.compile(r"argument (?P<name>[^:]+): (?P<message>.*)", re.DOTALL), "usage.args.argument"),
)


def _said(message: str) -> str:
    for pattern, key in _ARGPARSE_SAYS:
        if found := pattern.fullmatch(message):
            return t(key, **found.groupdict())
    return message


# Japanese punctuation a line never starts with, and brackets it never ends with (kinsoku).
_NO_LINE_START = set("。、，．）」』】！？：")
_NO_LINE_END = set("（「『【")


def _columns(text: str) -> int:
    """How many terminal columns ``text`` takes: kana, kanji and full-width forms take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _pieces(text: str) -> list[str]:
    """The units a line may break between: a space, a word of narrow characters, or one wide character
    (with the punctuation that must stay beside it)."""
    pieces: list[str] = []
    for char in text:
        narrow = _columns(char) == 1 and not char.isspace()
        glued = pieces and (pieces[-1][-1] in _NO_LINE_END or char in _NO_LINE_START)
        if pieces and (glued or (narrow and _columns(pieces[-1][-1]) == 1 and not pieces[-1][-1].isspace())):
            pieces[-1] += char
        else:
            pieces.append(char)
    return pieces


def wrapped(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` terminal columns, broken at a space or between two Japanese
    characters, never inside a word (a word wider than a line gets a line of its own)."""
    lines, line = [], ""
    for piece in _pieces(" ".join(text.split())):
        if line.strip() and _columns(line.rstrip() + piece.rstrip()) > width:
            lines.append(line.rstrip())
            line = piece.lstrip()
        else:
            line += piece
    return [*lines, line.rstrip()] if line.strip() else lines


class Help(argparse.HelpFormatter):
    """argparse's layout with the catalog's word for "usage:", its text wrapped by terminal columns: argparse
    counts a kanji as one column and a Japanese sentence as one word, so a Japanese option's help ran to 136
    columns and an 80-column terminal broke it under the option names."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return wrapped(text, width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n".join(indent + line for line in wrapped(text, width - len(indent)))

    def add_usage(
        self,
        usage: str | None,
        actions: Iterable[argparse.Action],
        groups: Iterable[argparse._MutuallyExclusiveGroup],
        prefix: str | None = None,
    ) -> None:
        super().add_usage(usage, actions, groups, prefix if prefix is not None else t("usage.args.usage"))


class Parser(argparse.ArgumentParser):
    """argparse with its sections, its ``--help`` and its error line in the catalog's words (subcommands too)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", Help)
        super().__init__(*args, **{**kwargs, "add_help": False})
        self._positionals.title = t("usage.args.positionals")
        self._optionals.title = t("usage.args.options")
        self.add_argument("-h", "--help", action="help", help=t("usage.args.help"))

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, t("usage.args.error", prog=self.prog, message=_said(message)) + "\n")
