"""The ``harness-lab`` command line: its arguments and its help, in the course's language (lesson 6: the entry point).

The help is the catalog's (``cli.help.*``), in the language asked for: ``--lang`` anywhere before a
``--`` (read before argparse, which prints the help while it parses), else ``HARNESS_LAB_LANG``, else
Japanese, as everywhere in the course. So are its errors (``command_line.py``): ``--lang fr`` and a missing ``--out`` were
told in argparse's English under a Japanese usage line, to an instructor working in Japanese.
"""

from __future__ import annotations

import argparse

from . import cli_catalog  # noqa: F401  (the help text, registered on import)
from .checks import seconds
from .command_line import LANGUAGE_CHOICES, Help, Parser, language, requested_language
from .model import DEFAULT_MODEL
from .text import t

__all__ = ["build_parser", "requested_language"]


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:  # else argparse says "invalid _positive value"
        value = 0
    if value <= 0:
        raise argparse.ArgumentTypeError(t("cli.help.not_positive", text=text))
    return value


def _prompt(text: str) -> str:
    # An empty prompt is a usage error here, not a traceback from Run.start.
    if not text.strip():
        raise argparse.ArgumentTypeError(t("cli.help.empty_prompt"))
    return text


class _RunHelp(Help):
    """``run --help`` lists the scenarios; their module loads the SDK (about 1.5 s), so only when help is shown."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = super()._get_help_string(action)
        if action.dest != "scenario":
            return text
        from .emulator.scenarios import scenario_names

        return f"{text}: {', '.join(scenario_names())}"


def build_parser() -> argparse.ArgumentParser:
    """The whole command line, its texts in the language in use when it is built."""
    parser = Parser(prog="harness-lab", description=t("cli.help.description"))
    # Also before the command (`harness-lab --lang en run ...`), under a name of its own: a subcommand's
    # own --lang default (None) would overwrite the value in the namespace they share.
    parser.add_argument(
        "--lang", dest="lang_first", type=language, metavar=LANGUAGE_CHOICES, default=None, help=t("cli.help.lang")
    )
    commands = parser.add_subparsers(dest="command", required=True, title=t("cli.help.commands"))

    def command(name: str, formatter: type[argparse.HelpFormatter] = Help) -> argparse.ArgumentParser:
        help_text = t(f"cli.help.{name.replace('-', '_')}")  # a Parser too: argparse makes each of its parent's class
        return commands.add_parser(name, help=help_text, description=help_text, formatter_class=formatter)

    run = command("run", _RunHelp)
    run.add_argument("prompt", type=_prompt, help=t("cli.help.prompt"))
    run.add_argument("--max-turns", type=_positive, default=8, help=t("cli.help.max_turns", default=8))
    run.add_argument("--budget", type=_positive, default=40_000, help=t("cli.help.budget", default=40_000))
    run.add_argument("--scenario", default="lesson6", help=t("cli.help.scenario", default="lesson6"))
    run.add_argument("--live", action="store_true", help=t("cli.help.live"))
    run.add_argument("--model", default=None, help=t("cli.help.model", default=DEFAULT_MODEL))
    run.add_argument("--lang", type=language, metavar=LANGUAGE_CHOICES, default=None, help=t("cli.help.lang"))
    run.add_argument("--yes", action="store_true", help=t("cli.help.yes"))
    run.add_argument("--high-impact", action="store_true", help=t("cli.help.high_impact"))
    grade = command("grade")
    grade.add_argument("notebooks", nargs="+", help=t("cli.help.notebooks"))
    grade.add_argument("--timeout", type=seconds, default=None, metavar="S", help=t("cli.help.timeout", default=60))
    grade.add_argument("--lang", type=language, metavar=LANGUAGE_CHOICES, default=None, help=t("cli.help.grade_lang"))
    klass = command("grade-class")
    klass.add_argument("submissions", metavar="SUBMISSIONS", help=t("cli.help.submissions"))
    klass.add_argument("--out", required=True, metavar="REPORT", help=t("cli.help.out"))
    klass.add_argument("--jobs", type=_positive, default=None, metavar="N", help=t("cli.help.jobs"))
    klass.add_argument("--timeout", type=seconds, default=None, metavar="S", help=t("cli.help.timeout", default=60))
    klass.add_argument("--lang", type=language, metavar=LANGUAGE_CHOICES, default=None, help=t("cli.help.class_lang"))
    klass.add_argument("--unsandboxed", action="store_true", help=t("cli.help.unsandboxed"))
    return parser
