"""The terminal demo under attack: approval answers, hostile model and tool text, bytes that are not UTF-8.

Round three of the outside attack run (issue 16): only an exact ``n`` / ``no`` denied, so 「ｎ」 typed
with the IME on let ``write_file`` run; an ESC sequence in a model's text, a tool name or a tool's
output reached the terminal raw; ``harness-lab run $'\\xff'`` printed a 47-line traceback.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from harness_lab.cli import main, terminal_approver
from harness_lab.emulator import call, emulated_client, reply, say
from harness_lab.events import ApprovalRequest, Decision
from harness_lab.text import t

ROOT = Path(__file__).resolve().parents[2]
REQUEST = ApprovalRequest(1, "toolu_1", "write_file", {"path": "sandbox/a.txt", "content": "x"})

ALLOWED = [
    "",
    " ",
    "\u3000",
    "y",
    "Y",
    "yes",
    "ｙｅｓ",
    "Ｙ",
    "ok",
    "OK",
    "allow",
    "はい",
    "ハイ",
    "ﾊｲ",
    "許可",
    "うん",
]
DENIED = [
    "n",
    "N",
    " n ",
    "no",
    "NO",
    "ｎ",
    "ｎｏ",
    "Ｎ",
    "N o",
    "ｎ\u3000ｏ",
    "n o",
    "いいえ",
    "イイエ",
    "いいえ。",
    "いや",
    "イヤ",
    "だめ",
    "ダメ",
    "駄目",
    "拒否",
    "キャンセル",
    "ｷｬﾝｾﾙ",
    "deny",
    "Deny",
    "nope",
    "no.",
    "No!",
    "cancel",
    "の",
    "ん",
]
ASKED_AGAIN = [
    "maybe",
    "yes please",
    "nn",
    "いいです",
    "結構です",
    "大丈夫",
    "はい？",
    "?",
    "。",
    "n/a",
    "\x1b[A",
    "\u200bn",
    "allow?",
    "\ufffd",
]

# What must never reach the terminal from the model or a tool: C0 controls but newline and tab,
# DEL, C1 controls, the line separators and the bidi controls.
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")

OSC52 = "\x1b]52;c;ZWNobyBwd25lZA==\x07"  # writes "echo pwned" to the clipboard
CLEAR = "\x1b[2J\x1b[H"
LINK = "\x1b]8;;https://evil.example/\x1b\\ここを押す\x1b]8;;\x1b\\"
BIDI = "\u202etxt.exe\u202c \u2066\u2067\u2068\u2069 \u200e\u200f\u061c"
C1 = "\x9b31m\x85\x90"


class Typist:
    """Types the given answers at the approval prompt, one per question, and keeps the prompts."""

    def __init__(self, *answers: str | type[BaseException]) -> None:
        self.answers = list(answers)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        answer = self.answers.pop(0)
        if isinstance(answer, type):
            raise answer
        return answer


def approve(*answers):
    typist, out = Typist(*answers), io.StringIO()
    decision = Decision.coerce(terminal_approver(ask=typist, interactive=lambda: True, out=out)(REQUEST))
    return decision, typist, out.getvalue()


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HARNESS_LAB_LANG", "ja")
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    return tmp_path


# -- approval answers ------------------------------------------------------------------------------


@pytest.mark.parametrize("answer", ALLOWED)
def test_enter_and_each_yes_allow_at_once(answer):
    decision, typist, said = approve(answer)
    assert decision.allowed and len(typist.prompts) == 1 and said == ""


@pytest.mark.parametrize("answer", DENIED)
def test_each_recognisable_no_denies_at_once(answer):
    decision, typist, said = approve(answer)
    assert not decision.allowed and len(typist.prompts) == 1 and said == ""


@pytest.mark.parametrize("answer", ASKED_AGAIN)
def test_an_unreadable_answer_is_asked_again_with_a_hint(answer):
    decision, typist, said = approve(answer, "")  # then Enter: allowed on the second question
    assert decision.allowed and len(typist.prompts) == 2
    hint = said.strip()
    assert "\n" not in hint and hint.startswith("[approve]") and "いいえ" in hint and not RAW.search(hint)


def test_three_unreadable_answers_deny():
    decision, typist, said = approve("maybe", "たぶん", "？")
    assert not decision.allowed and decision.reason == t("cli.unread_reason") and len(typist.prompts) == 3
    assert said.splitlines()[-1] == t("cli.approve_gave_up")


def test_eof_denies_even_after_an_unreadable_answer():
    decision, _typist, said = approve("maybe", EOFError)
    assert not decision.allowed and decision.reason == t("cli.eof_reason")
    assert said.strip().endswith(t("cli.approve_eof"))


def test_bytes_the_terminal_cannot_decode_are_asked_again():
    decode_error = UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")

    def typist(prompt, answers=[decode_error, "ｎ"]):  # noqa: B006 (consumed across calls on purpose)
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    decision = Decision.coerce(terminal_approver(ask=typist, interactive=lambda: True, out=io.StringIO())(REQUEST))
    assert not decision.allowed


@pytest.mark.parametrize("answer", ["ｎ", "ｎｏ", "いいえ", "deny", "nope", "N o"])
def test_the_attack_runs_answers_keep_write_file_from_running(project, answer):
    typist, out = Typist(answer), io.StringIO()
    code = main(
        ["run", "save", "--scenario", "high_impact", "--high-impact"], out=out, ask=typist, interactive=lambda: True
    )
    assert code == 0 and len(typist.prompts) == 1
    assert not (project / "sandbox" / "report.md").exists()
    assert any("(is_error)" in line for line in out.getvalue().splitlines())


def test_ctrl_c_at_the_prompt_stops_the_run_and_runs_nothing(project):
    out = io.StringIO()
    code = main(
        ["run", "save", "--scenario", "high_impact", "--high-impact"],
        out=out,
        ask=Typist(KeyboardInterrupt),
        interactive=lambda: True,
    )
    assert code == 1 and "(interrupted)" in out.getvalue()
    assert not (project / "sandbox" / "report.md").exists()


# -- terminal escapes from the model and its tools ------------------------------------------------


def hostile_script(request: dict):
    """A model whose every word carries escapes: in its text, tool inputs, its answer. (Tool names are
    the request's own: the emulator's model calls no tool the request did not define.)"""
    turn = sum(m["role"] == "assistant" for m in request["messages"])
    if turn == 0:
        return reply(
            "読みます" + OSC52,
            call("read_file", path="hostile.txt"),
            call("read_file", path="wipe" + CLEAR + BIDI + C1),
        )
    if turn == 1:
        return reply(
            "保存します" + CLEAR, call("write_file", path="sandbox/" + BIDI + ".md", content=OSC52 + LINK + C1)
        )
    return say(f"終わりました{OSC52}\n二行目\tタブ {LINK} {BIDI} {C1} {CLEAR}")


def test_no_escape_from_the_model_or_a_tool_reaches_the_terminal(project):
    (project / "hostile.txt").write_text(f"{CLEAR}見出し{LINK}{BIDI}{C1}{OSC52}\n二行目\n", encoding="utf-8")
    typist, out = Typist("n"), io.StringIO()
    code = main(
        ["run", "x", "--high-impact"],
        out=out,
        client=emulated_client(hostile_script),
        ask=typist,
        interactive=lambda: True,
    )
    shown = out.getvalue()
    assert code == 0 and len(typist.prompts) == 1
    for text in (shown, *typist.prompts):
        assert not RAW.search(text), RAW.search(text)
    lines = shown.splitlines()
    assert lines[0].startswith("[turn 1] モデルがツールを要求: read_file(")
    assert "wipe" in shown  # the second call's path, escaped (RAW found no raw escape above)
    assert "\\u202e" in typist.prompts[0] and "\\x9b" in typist.prompts[0]  # the approval prompt
    answer = shown.split("\n\n", 1)[1]
    assert answer.startswith("終わりました\\x1b]52;c;ZWNobyBwd25lZA==\\x07\n二行目\tタブ ")  # lines and tabs kept
    assert not (project / "sandbox").exists() or not any((project / "sandbox").iterdir())


def test_a_stop_shows_the_held_back_text_escaped(project):
    script = [
        reply("一回目" + OSC52, call("get_time")),
        reply("二回目" + CLEAR + BIDI + "\n続き", call("get_time", x=1)),
    ]
    out = io.StringIO()
    code = main(["run", "x", "--max-turns", "1"], out=out, client=emulated_client(script))
    assert code == 1 and not RAW.search(out.getvalue())
    assert "二回目\\x1b[2J\\x1b[H\\u202etxt.exe" in out.getvalue() and "\n続き" in out.getvalue()


def test_a_file_the_lesson_demo_reads_cannot_drive_the_terminal(project):
    """lesson6 quotes README.md's first line in its answer: the file's escapes reach the answer too."""
    (project / "README.md").write_text(f"# 見出し{OSC52}{C1}{BIDI}\n\n本文\n", encoding="utf-8")
    out = io.StringIO()
    code = main(["run", "README.md の1行目を読んで、それから今何時か教えて"], out=out)
    assert code == 0 and not RAW.search(out.getvalue())
    assert "# 見出し\\x1b]52;c;" in out.getvalue().split("\n\n", 1)[1]


# -- a prompt that is not UTF-8 --------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_prompt_that_is_not_utf8_is_one_line_and_exit_2(project, lang):
    done = subprocess.run(
        [sys.executable, "-m", "harness_lab.cli", "run", b"\xff"],
        capture_output=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(ROOT), "HARNESS_LAB_LANG": lang},
    )
    err = done.stderr.decode("utf-8")
    assert done.returncode == 2 and done.stdout == b""
    assert err.splitlines() == [
        t("cli.not_utf8", name="prompt")
        if lang == "ja"
        else "argument prompt is not valid UTF-8; set the terminal's encoding to UTF-8 and type it again"
    ]


@pytest.mark.parametrize("argv", [["run", "x\ud800"], ["run", "読んで\udcff"], ["run", "x", "--model", "m\udcff"]])
def test_a_lone_surrogate_given_to_main_is_refused_at_the_door(project, capsys, argv):
    assert main(argv, out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "UTF-8" in err
