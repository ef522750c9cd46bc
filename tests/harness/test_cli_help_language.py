"""``harness-lab --help`` and each command's help speak the course's language: Japanese unless asked.

They were English literals in a course whose every other message is Japanese by default. The language is
``--lang`` (before the command or after it) or ``HARNESS_LAB_LANG``, read before argparse prints the help.
"""

from __future__ import annotations

import unicodedata

import pytest

from harness_lab.cli import main
from harness_lab.command_line import wrapped
from harness_lab.text import speaking, t

COMMANDS = {"run": "cli.help.run", "grade": "cli.help.grade", "grade-class": "cli.help.grade_class"}


def _help(capsys, *args: str) -> str:
    with pytest.raises(SystemExit) as done:
        main(list(args))
    assert done.value.code == 0
    return "".join(capsys.readouterr().out.split())  # argparse wraps lines wherever it likes


def _said(key: str, language: str, **values: object) -> str:
    with speaking(language):
        return "".join(t(key, **values).split())


def test_with_no_language_asked_every_help_is_japanese(capsys, monkeypatch):
    monkeypatch.delenv("HARNESS_LAB_LANG", raising=False)
    top = _help(capsys, "--help")
    assert top.startswith(_said("usage.args.usage", "ja")) and _said("cli.help.description", "ja") in top
    for command, key in COMMANDS.items():
        assert _said(key, "ja") in top
        shown = _help(capsys, command, "--help")
        assert _said(key, "ja") in shown and _said("usage.args.help", "ja") in shown, command
    assert _said("cli.help.class_lang", "ja") in _help(capsys, "grade-class", "--help")


@pytest.mark.parametrize(
    "asked",
    [["--lang", "en", "grade-class", "--help"], ["grade-class", "--lang=en", "--help"], ["grade-class", "--help"]],
)
def test_english_asked_before_or_after_the_command_or_by_the_environment(capsys, monkeypatch, asked):
    # with --lang given, the environment says Japanese: the option wins over it
    monkeypatch.setenv("HARNESS_LAB_LANG", "en" if asked[1] == "--help" else "ja")
    shown = _help(capsys, *asked)
    assert shown.startswith(_said("usage.args.usage", "en"))
    for key in ("cli.help.grade_class", "cli.help.out", "cli.help.class_lang", "cli.help.unsandboxed"):
        assert _said(key, "en") in shown, key
    assert _said("cli.help.out", "ja") not in shown


@pytest.mark.parametrize("language", ["ja", "en"])
def test_a_usage_error_is_told_in_the_language_asked(capsys, monkeypatch, language):
    monkeypatch.delenv("HARNESS_LAB_LANG", raising=False)
    with pytest.raises(SystemExit) as done:
        main(["--lang", language, "run", "hi", "--max-turns", "0"])
    assert done.value.code == 2
    assert _said("cli.help.not_positive", language, text="0") in "".join(capsys.readouterr().err.split())


def test_an_unknown_command_is_told_in_japanese_with_the_commands_there_are(capsys, monkeypatch):
    # was argparse's English inside the Japanese line: "エラー: 引数 command: invalid choice: 'frobnicate' (choose from ...)"
    monkeypatch.delenv("HARNESS_LAB_LANG", raising=False)
    with pytest.raises(SystemExit) as done:
        main(["frobnicate"])
    assert done.value.code == 2
    said = capsys.readouterr().err.splitlines()[-1]
    assert "invalid choice" not in said and "choose from" not in said
    assert "'frobnicate'" in said and all(command in said for command in COMMANDS)


def _columns(line: str) -> int:
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in line)


@pytest.mark.parametrize("language", ["ja", "en"])
@pytest.mark.parametrize("command", [[], *([name] for name in COMMANDS)], ids=["harness-lab", *COMMANDS])
def test_every_help_line_fits_an_80_column_terminal(capsys, monkeypatch, command, language):
    # argparse counts a kanji as one column and a Japanese sentence as one word: grade-class --help had a
    # 136-column --lang line, which an 80-column terminal broke under the option names.
    monkeypatch.setenv("COLUMNS", "80")
    with pytest.raises(SystemExit):
        main(["--lang", language, *command, "--help"])
    assert [line for line in capsys.readouterr().out.splitlines() if _columns(line) > 80] == []


def test_japanese_breaks_between_characters_never_inside_a_word_nor_before_a_full_stop():
    text = "受講者のコードは HARNESS_LAB_LANG を読みません。キーも（ANTHROPIC_API_KEY）見えません。" * 3
    lines = wrapped(text, 24)
    assert all(_columns(line) <= 24 for line in lines), lines
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    assert not [line for line in lines if line[0] in "。、）" or line[-1] == "（"], lines
    assert all(word in line for line in lines for word in ("HARNESS_LAB_LANG", "ANTHROPIC_API_KEY") if word[:7] in line)
