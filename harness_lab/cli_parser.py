"""The ``harness-lab`` command line: its arguments and its help, in the course's language (lesson 6: the entry point).

The help is the catalog's (``cli.help.*``), in the language asked for: ``--lang`` anywhere before a
``--`` (read before argparse, which prints the help while it parses), else ``HARNESS_LAB_LANG``, else
Japanese, as everywhere in the course. So are its errors: ``--lang fr`` and a missing ``--out`` were
told in argparse's English under a Japanese usage line, to an instructor working in Japanese.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from typing import NoReturn

from . import cli_catalog  # noqa: F401  (the help text, registered on import)
from .checks import seconds
from .model import DEFAULT_MODEL
from .text import LANGUAGES, t

__all__ = ["build_parser", "requested_language"]

_LANGUAGE_CHOICES = "{" + ",".join(LANGUAGES) + "}"  # as argparse shows ``choices`` in the usage line


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


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:  # else argparse says "invalid _positive value"
        value = 0
    if value <= 0:
        raise argparse.ArgumentTypeError(t("cli.help.not_positive", text=text))
    return value


def _language(text: str) -> str:
    # Not ``choices``: argparse would say "invalid choice" in English whatever the language in use.
    if text not in LANGUAGES:
        raise argparse.ArgumentTypeError(t("cli.help.not_language", text=text))
    return text


# argparse's error sentences (its English msgids) -> the catalog's; anything else keeps argparse's words
_ARGPARSE_SAYS = (
    (re.compile(r"the following arguments are required: (?P<names>.*)", re.S), "cli.help.required"),
    (re.compile(r"unrecognized arguments: (?P<names>.*)", re.S), "cli.help.unrecognized"),
    (re.compile(r"argument (?P<name>\S+): expected one argument", re.S), "cli.help.expected_one"),
    (re.compile(r"argument (?P<name>[^:]+): (?P<message>.*)", re.S), "cli.help.argument"),
)


def _said(message: str) -> str:
    for pattern, key in _ARGPARSE_SAYS:
        if found := pattern.fullmatch(message):
            return t(key, **found.groupdict())
    return message


class _Parser(argparse.ArgumentParser):
    """argparse whose error line is the catalog's, in the language of the help above it."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, t("cli.help.error", prog=self.prog, message=_said(message)) + "\n")


def _prompt(text: str) -> str:
    # An empty prompt is a usage error here, not a traceback from Run.start.
    if not text.strip():
        raise argparse.ArgumentTypeError(t("cli.help.empty_prompt"))
    return text


class _Help(argparse.HelpFormatter):
    """argparse's layout with the catalog's word for "usage:"."""

    def add_usage(self, usage, actions, groups, prefix=None):  # type: ignore[no-untyped-def]
        super().add_usage(usage, actions, groups, prefix if prefix is not None else t("cli.help.usage"))


class _RunHelp(_Help):
    """``run --help`` lists the scenarios; their module loads the SDK (about 1.5 s), so only when help is shown."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = super()._get_help_string(action)
        if action.dest != "scenario":
            return text
        from .emulator.scenarios import scenario_names

        return f"{text}: {', '.join(scenario_names())}"


def _titled(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """``parser`` with its sections' titles and its own ``--help`` in the catalog's words."""
    parser._positionals.title = t("cli.help.positionals")
    parser._optionals.title = t("cli.help.options")
    parser.add_argument("-h", "--help", action="help", help=t("cli.help.help"))
    return parser


def build_parser() -> argparse.ArgumentParser:
    """The whole command line, its texts in the language in use when it is built."""
    parser = _titled(
        _Parser(prog="harness-lab", description=t("cli.help.description"), formatter_class=_Help, add_help=False)
    )
    # Also before the command (`harness-lab --lang en run ...`), under a name of its own: a subcommand's
    # own --lang default (None) would overwrite the value in the namespace they share.
    parser.add_argument(
        "--lang", dest="lang_first", type=_language, metavar=_LANGUAGE_CHOICES, default=None, help=t("cli.help.lang")
    )
    commands = parser.add_subparsers(dest="command", required=True, title=t("cli.help.commands"))

    def command(name: str, formatter: type[argparse.HelpFormatter] = _Help) -> argparse.ArgumentParser:
        help_text = t(f"cli.help.{name.replace('-', '_')}")
        made = commands.add_parser(
            name, help=help_text, description=help_text, formatter_class=formatter, add_help=False
        )
        return _titled(made)

    run = command("run", _RunHelp)
    run.add_argument("prompt", type=_prompt, help=t("cli.help.prompt"))
    run.add_argument("--max-turns", type=_positive, default=8, help=t("cli.help.max_turns", default=8))
    run.add_argument("--budget", type=_positive, default=40_000, help=t("cli.help.budget", default=40_000))
    run.add_argument("--scenario", default="lesson6", help=t("cli.help.scenario", default="lesson6"))
    run.add_argument("--live", action="store_true", help=t("cli.help.live"))
    run.add_argument("--model", default=None, help=t("cli.help.model", default=DEFAULT_MODEL))
    run.add_argument("--lang", type=_language, metavar=_LANGUAGE_CHOICES, default=None, help=t("cli.help.lang"))
    run.add_argument("--yes", action="store_true", help=t("cli.help.yes"))
    run.add_argument("--high-impact", action="store_true", help=t("cli.help.high_impact"))
    grade = command("grade")
    grade.add_argument("notebooks", nargs="+", help=t("cli.help.notebooks"))
    grade.add_argument("--timeout", type=seconds, default=None, metavar="S", help=t("cli.help.timeout", default=60))
    grade.add_argument("--lang", type=_language, metavar=_LANGUAGE_CHOICES, default=None, help=t("cli.help.grade_lang"))
    klass = command("grade-class")
    klass.add_argument("submissions", metavar="SUBMISSIONS", help=t("cli.help.submissions"))
    klass.add_argument("--out", required=True, metavar="REPORT", help=t("cli.help.out"))
    klass.add_argument("--jobs", type=_positive, default=None, metavar="N", help=t("cli.help.jobs"))
    klass.add_argument("--timeout", type=seconds, default=None, metavar="S", help=t("cli.help.timeout", default=60))
    klass.add_argument("--lang", type=_language, metavar=_LANGUAGE_CHOICES, default=None, help=t("cli.help.class_lang"))
    klass.add_argument("--unsandboxed", action="store_true", help=t("cli.help.unsandboxed"))
    return parser
