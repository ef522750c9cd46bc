"""The terminal demo: ``harness-lab run "..."`` prints lesson 6's trace offline."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest

from harness_lab.cli import main, terminal_approver
from harness_lab.events import ApprovalRequest, Decision, deny
from harness_lab.terminal import shorten
from harness_lab.text import t

PROMPT = "README.md の1行目を読んで、それから今何時か教えて"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def project(tmp_path, monkeypatch):
    (tmp_path / "README.md").write_text("# テスト用の見出し\n\n二行目は読まれない\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HARNESS_LAB_LANG", "ja")  # restored after the test, whatever main() sets
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    return tmp_path


def run_cli(*args: str) -> tuple[int, list[str]]:
    out = io.StringIO()
    code = main(list(args), out=out)
    return code, out.getvalue().splitlines()


def test_prints_the_lessons_trace_and_a_real_answer(project):
    code, lines = run_cli("run", PROMPT)
    assert code == 0
    assert lines[0] == '[turn 1] モデルがツールを要求: read_file({"path":"README.md"})'
    assert lines[1] == '[turn 1] ツールの返り値: "# テスト用の見出し\\n..."'
    assert lines[2] == "[turn 2] モデルがツールを要求: get_time({})"
    stamp = re.fullmatch(r'\[turn 2\] ツールの返り値: "(.+)"', lines[3]).group(1)
    now = datetime.fromisoformat(stamp)
    assert abs((datetime.now().astimezone() - now).total_seconds()) < 60
    assert lines[4] == "[turn 3] モデルが切り上げ (end_turn)"
    assert lines[5] == ""
    answer = "\n".join(lines[6:])
    assert "# テスト用の見出し" in answer and now.strftime("%H:%M") in answer


def test_english_catalog(project):
    code, lines = run_cli("run", PROMPT, "--lang", "en")
    assert code == 0 and lines[0].startswith("[turn 1] the model asks for a tool: read_file(")


def test_lang_before_the_command_too(project):
    code, lines = run_cli("--lang", "en", "run", PROMPT)
    assert code == 0 and lines[0].startswith("[turn 1] the model asks for a tool: read_file(")
    code, lines = run_cli("--lang", "en", "run", PROMPT, "--lang", "ja")  # the one after the command wins
    assert code == 0 and lines[0].startswith("[turn 1] モデルがツールを要求")


def test_a_valve_stop_prints_its_reason_and_exits_1(project):
    code, lines = run_cli("run", "go", "--scenario", "never_ending", "--max-turns", "2")
    assert code == 1
    assert lines[-1].startswith("[turn 3] ハーネスが停止 (max_turns): 最大ターン数 2 に達したので")
    assert sum("モデルがツールを要求" in line for line in lines) == 2


def test_budget_option(project):
    code, lines = run_cli("run", PROMPT, "--budget", "100")
    assert code == 1 and "(token_budget)" in lines[-1]


@pytest.mark.parametrize("args", [["run"], ["run", "x", "--max-turns", "0"], ["run", "x", "--lang", "fr"], []])
def test_usage_errors_exit_2(project, args):
    with pytest.raises(SystemExit) as exit_:
        main(args, out=io.StringIO())
    assert exit_.value.code == 2


def test_unknown_scenario_and_live_without_a_key_exit_2(project, capsys):
    assert main(["run", "x", "--scenario", "no_such_thing"], out=io.StringIO()) == 2
    assert main(["run", "x", "--live"], out=io.StringIO()) == 2
    assert "ANTHROPIC_API_KEY" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("language", "opening"), [("ja", "シナリオ 'no_such_thing' はありません"), ("en", "unknown scenario")]
)
def test_an_unknown_scenario_is_told_in_the_chosen_language(project, capsys, language, opening):
    assert main(["run", "x", "--scenario", "no_such_thing", "--lang", language], out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err.startswith(opening) and "never_ending" in err


def test_an_unknown_model_is_refused_offline_before_the_run_starts(project, capsys):
    # it used to start, then stop at turn 0 on the emulator's 404, as if the API had failed
    out = io.StringIO()
    assert main(["run", "hi", "--model", "nope", "--lang", "en"], out=out) == 2
    err = capsys.readouterr().err
    assert err.startswith("the emulator knows no model 'nope'") and "claude-sonnet-5" in err
    assert out.getvalue() == ""
    assert main(["run", PROMPT, "--model", "claude-haiku-4-5"], out=io.StringIO()) == 0


def test_run_help_lists_the_scenarios(capsys):
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    assert "never_ending" in capsys.readouterr().out.replace("\n", " ")


def test_high_impact_is_denied_without_a_terminal(project):
    code, lines = run_cli("run", "save", "--scenario", "high_impact", "--high-impact")
    assert code == 0 and any("(is_error)" in line for line in lines)
    assert not (project / "sandbox" / "report.md").exists()


def test_yes_allows_high_impact(project):
    code, _lines = run_cli("run", "save", "--scenario", "high_impact", "--high-impact", "--yes")
    assert code == 0 and (project / "sandbox" / "report.md").exists()


def test_terminal_approver_enter_allows_n_denies_eof_denies():  # every other answer: tests/reliability/test_cli_attacks.py
    request = ApprovalRequest(1, "toolu_1", "write_file", {"path": "sandbox/a"})
    prompts = []

    def answer_with(text):
        def ask(prompt):
            prompts.append(prompt)
            return text

        return ask

    assert terminal_approver(ask=answer_with(""), interactive=lambda: True)(request) is True
    assert terminal_approver(ask=answer_with("n"), interactive=lambda: True)(request) is False
    assert terminal_approver(ask=answer_with(" N "), interactive=lambda: True)(request) is False
    assert 'write_file({"path":"sandbox/a"})' in prompts[0] and "Enter" in prompts[0]

    def eof(prompt):
        raise EOFError

    eof_answer = terminal_approver(ask=eof, interactive=lambda: True, out=io.StringIO())(request)
    assert Decision.coerce(eof_answer) == deny(t("cli.eof_reason"))  # denied, and the model is told why
    no_tty = terminal_approver(ask=answer_with(""), interactive=lambda: False, out=io.StringIO())(request)
    assert Decision.coerce(no_tty) == deny(t("cli.no_tty_reason"))  # denied, and the model is told why
    assert terminal_approver(yes=True, interactive=lambda: False)(request) is True


def test_shorten():
    assert shorten("2026-08-26T10:42:07+08:00") == '"2026-08-26T10:42:07+08:00"'
    assert shorten("# 見出し\n本文") == '"# 見出し\\n..."'
    assert shorten("x" * 100) == '"' + "x" * 40 + '..."'


def test_the_installed_command_runs(project):
    command = Path(sys.executable).with_name("harness-lab")
    if not command.exists():
        pytest.skip("harness-lab is not installed in this venv (pip install -e .)")
    done = subprocess.run(
        [str(command), "run", PROMPT],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "HARNESS_LAB_LANG": "ja"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[4] == "[turn 3] モデルが切り上げ (end_turn)"


def test_python_dash_m_harness_lab_is_the_command():
    # where the venv's bin is not on PATH (a class server's venv), `python -m harness_lab` still runs it
    done = subprocess.run(
        [sys.executable, "-m", "harness_lab", "--help"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert "grade-class" in done.stdout


def test_with_stdin_closed_the_high_impact_call_is_denied_with_the_no_terminal_notice(project):
    """``harness-lab run ... <&-``: there is no sys.stdin at all, and the approval still fails closed, plainly."""
    done = subprocess.run(
        [sys.executable, "-m", "harness_lab.cli", "run", "save", "--scenario", "high_impact", "--high-impact"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=project,
        preexec_fn=lambda: os.close(0),
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr
    assert t("cli.approve_no_tty", call="write_file(")[:20] in done.stdout and "AttributeError" not in done.stdout
    assert not (project / "sandbox" / "report.md").exists()


def test_a_reader_that_stops_reading_gets_no_traceback(tmp_path):
    # `harness-lab ... | head -1`: the reader closes the pipe; the command ends quietly, as Unix tools do
    env = {k: v for k, v in os.environ.items() if k != "ANTHROPIC_API_KEY"}
    command = [sys.executable, "-m", "harness_lab", "run", "--scenario", "lesson6", "README.md の1行目を教えて"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path, env=env)
    proc.stdout.close()  # gone before the first line is written
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 1
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
