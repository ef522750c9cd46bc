"""The grading commands' usage errors: told in a sentence, exit 2, before any grading host starts."""

from __future__ import annotations

import io
import os
import re
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from harness_lab.cli import main as cli_main
from harness_lab.grading import command
from harness_lab.grading.class_command import grade_class_command
from harness_lab.text import speaking, t

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def no_host(monkeypatch):
    """A usage error is found before the sandbox starts (about nine seconds): starting one fails the test."""

    def started():
        raise AssertionError("a grading host was started for a usage error")

    monkeypatch.setattr(command, "start_host", started)


@pytest.mark.parametrize("timeout", ["nan", "inf", "0", "-5", "soon"])
def test_a_time_limit_that_is_not_a_positive_number_of_seconds_is_a_usage_error(no_host, capsys, timeout):
    for main in (command.main, lambda argv: cli_main(["grade", *argv], out=io.StringIO())):
        with pytest.raises(SystemExit) as exit_:
            main(["nb.ipynb", f"--timeout={timeout}"])
        assert exit_.value.code == 2
        assert t("usage.seconds", text=timeout) in capsys.readouterr().err


# What an instructor types wrong on grade-class's command line: a language the course has not, the report
# folder left out, a typo'd option. Each was argparse's English under a usage line in Japanese.
MISTYPED = {
    "a language the course has not": ["grade-class", "subs", "--out", "r", "--lang", "fr"],
    "no report folder": ["grade-class", "subs"],
    "an option with no value": ["grade-class", "subs", "--out"],
    "an option that does not exist": ["grade-class", "subs", "--out", "r", "--jobz", "2"],
    "a time limit that is no number": ["grade-class", "subs", "--out", "r", "--timeout", "soon"],
}


@pytest.mark.parametrize("language", ["ja", "en"])
@pytest.mark.parametrize("mistake", sorted(MISTYPED))
def test_a_mistyped_class_command_is_told_in_the_language_in_use(no_host, capsys, monkeypatch, language, mistake):
    monkeypatch.setenv("HARNESS_LAB_LANG", language)
    with pytest.raises(SystemExit) as exit_:
        cli_main(MISTYPED[mistake], out=io.StringIO())
    assert exit_.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    english = re.search(r"\b(error|argument|arguments|invalid|expected|must|unrecognized)\b", error)
    assert (english is None) == (language == "ja"), error
    if "--lang" in MISTYPED[mistake]:
        assert "fr" in error and "ja" in error and "en" in error, error  # the value typed and the ones to type


def _grade_class(subs, out):
    err = io.StringIO()
    code = grade_class_command(subs, out, stdout=io.StringIO(), stderr=err)
    return code, err.getvalue().strip()


def test_a_learners_folder_or_an_empty_one_given_as_submissions_is_refused(tmp_path):
    # both were "0 learners, 0 notebooks", exit 0: what grade-class grades is SUBMISSIONS/<learner>/*.ipynb
    alice = tmp_path / "subs" / "alice"
    alice.mkdir(parents=True)
    (alice / "level1_tiered_policy.ipynb").write_text("{}", encoding="utf-8")
    (alice / "notes.txt").write_text("", encoding="utf-8")
    assert _grade_class(alice, tmp_path / "r1") == (2, t("grade.class.learner_folder", path=alice))
    empty = tmp_path / "empty"
    (empty / ".ipynb_checkpoints").mkdir(parents=True)  # hidden: not a learner
    assert _grade_class(empty, tmp_path / "r2") == (2, t("grade.class.no_learners", path=empty))
    assert "SUBMISSIONS/<learner>/*.ipynb" in in_english("grade.class.no_learners", path=empty)
    assert not (tmp_path / "r1").exists() and not (tmp_path / "r2").exists()


def test_a_file_given_as_submissions_is_called_a_file(tmp_path):
    notebook = tmp_path / "level1_tiered_policy.ipynb"
    notebook.write_text("{}", encoding="utf-8")
    assert _grade_class(notebook, tmp_path / "r") == (2, t("grade.class.submissions_file", path=notebook))


def in_english(key, **values):
    with speaking("en"):
        return t(key, **values)


NOT_NOTEBOOKS = {
    "missing.ipynb": (None, "grade.nb.usage.not_found"),
    "README.md": ("# 見出し\n", "grade.nb.usage.not_json"),
    "broken.ipynb": ('{"cells": [', "grade.nb.usage.not_json"),
    "latin1.ipynb": (b"\xff\xfe{}", "grade.nb.usage.not_json"),
    "empty.ipynb": ("{}", "grade.nb.usage.no_cells"),
    "list.ipynb": ("[1, 2]", "grade.nb.usage.no_cells"),
    "oops.ipynb": ('{"cells": "oops"}', "grade.nb.usage.no_cells"),
    "numbers.ipynb": ('{"cells": [1, 2]}', "grade.nb.usage.no_cells"),
    "folder.ipynb": ("folder", "grade.nb.usage.folder"),
}


@pytest.mark.parametrize("name", list(NOT_NOTEBOOKS))
def test_a_file_that_is_no_notebook_is_a_usage_error_told_in_a_sentence(tmp_path, no_host, capsys, name):
    content, key = NOT_NOTEBOOKS[name]
    path = tmp_path / name
    if content == "folder":
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content, encoding="utf-8")
    assert command.main([str(path)]) == 2
    assert cli_main(["grade", str(path)], out=io.StringIO()) == 2
    said = capsys.readouterr()
    assert said.out == "" and said.err == 2 * (t(key, path=path) + "\n")


def test_files_that_are_all_no_notebook_stop_the_command_before_any_is_graded(tmp_path, no_host, capsys):
    # one notebook among them is graded (test_notebook_grading.py); with none, it is a usage error
    broken = tmp_path / "level1_tiered_policy.ipynb"
    broken.write_text('{"cells": [', encoding="utf-8")
    assert command.main([str(broken), str(tmp_path / "typo.ipynb")]) == 2
    said = [t("grade.nb.usage.not_json", path=broken), t("grade.nb.usage.not_found", path=tmp_path / "typo.ipynb")]
    assert capsys.readouterr().err == "\n".join(said) + "\n"


def test_a_file_given_as_the_report_folder_is_called_a_file(tmp_path):
    (tmp_path / "subs" / "kim").mkdir(parents=True)
    (tmp_path / "afile").write_text("メモ", encoding="utf-8")
    out = tmp_path / "afile"
    assert _grade_class(tmp_path / "subs", out) == (2, t("grade.class.out_file", out=out))
    assert out.read_text(encoding="utf-8") == "メモ"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_a_fifo_or_a_link_to_a_device_given_as_a_notebook_is_refused_unread(tmp_path, kind):
    # A notebook handed over to be graded may be a FIFO (waited on for ever) or a link to /dev/zero
    # (read until memory ran out: 3.8 GB in 20 s): both are files of no notebook, refused before grading.
    path = tmp_path / "level1_tiered_policy.ipynb"
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    code = f"import sys; sys.path.insert(0, {str(ROOT)!r}); from harness_lab.grading.command import main; sys.exit(main([{str(path)!r}]))"
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "HARNESS_LAB_LANG": "en"},
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30)),
    )
    assert done.returncode == 2, done.stderr[-500:]
    assert done.stderr.strip() == in_english("grade.nb.usage.not_regular", path=path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_beside_a_notebook_is_refused_unread_and_the_notebook_still_graded(tmp_path):
    # Refused, the FIFO was still opened to read its edition (for the language of its feedback) when
    # no --lang was given, and the command waited on it for ever.
    fifo, notebook = tmp_path / "level1_tiered_policy.ipynb", tmp_path / "level2_missing_gate.ipynb"
    os.mkfifo(fifo)
    notebook.write_text('{"cells": [], "metadata": {}}', encoding="utf-8")
    code = f"import sys; sys.path.insert(0, {str(ROOT)!r}); from harness_lab.grading.command import main; sys.exit(main({[str(fifo), str(notebook)]!r}))"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env={"PATH": "/usr/bin:/bin"}
    )
    assert done.returncode == 1, done.stderr[-500:]
    with speaking("ja"):
        refused = t("grade.nb.not_graded", reason=t("grade.nb.usage.not_regular", path=fifo))
        graded = t("grade.nb.no_answer_cells")
    assert refused in done.stdout and graded in done.stdout, done.stdout[-800:]


def test_a_submissions_folder_the_caller_may_not_read_is_refused_not_graded_as_empty(tmp_path, monkeypatch):
    # collect.sh makes SUBMISSIONS root's alone (0700) and the docs let grade-class run as you: it said
    # "0 learners, 0 notebooks" and exit 0, a quiet week to the instructor. Root reads any folder, so the
    # listing is refused here as the kernel refuses it to another account.
    subs = tmp_path / "week6"
    (subs / "alice").mkdir(parents=True)
    listing = os.scandir

    def refused(path=".", /):
        if Path(path) == subs:
            raise PermissionError(13, "Permission denied", str(path))
        return listing(path)

    monkeypatch.setattr(os, "scandir", refused)
    code, error = _grade_class(subs, tmp_path / "report")
    assert code == 2
    assert error.startswith(t("grade.class.submissions_denied", path=subs, error="").split(":")[0]), error
    assert "sudo" in error and "sudo" in in_english("grade.class.submissions_denied", path=subs, error="x")
    assert not (tmp_path / "report").exists()


# python -P -m harness_lab.grading, mistyped: each was argparse's English to a learner or instructor in Japanese
GRADE_MISTYPED = {
    "no notebook": [],
    "a language the course has not": ["nb.ipynb", "--lang", "fr"],
    "an option that does not exist": ["nb.ipynb", "--timout", "5"],
    "an option with no value": ["nb.ipynb", "--timeout"],
}


@pytest.mark.parametrize("language", ["ja", "en"])
@pytest.mark.parametrize("mistake", sorted(GRADE_MISTYPED))
def test_a_mistyped_grading_command_is_told_in_the_language_in_use(no_host, capsys, monkeypatch, language, mistake):
    monkeypatch.setenv("HARNESS_LAB_LANG", language)
    with pytest.raises(SystemExit) as exit_:
        command.main(GRADE_MISTYPED[mistake])
    assert exit_.value.code == 2
    usage, error = capsys.readouterr().err.strip().splitlines()[-2:]
    english = re.search(r"\b(usage|error|argument|arguments|invalid|expected|must|unrecognized)\b", usage + error)
    assert (english is None) == (language == "ja"), (usage, error)


@pytest.mark.parametrize("language", ["ja", "en"])
def test_a_file_that_is_not_json_is_told_which_file_grading_reads(tmp_path, no_host, capsys, language):
    # "notes.txt is not a notebook (not JSON)." gave no next step; grade-class's line for the same file does.
    path = tmp_path / "notes.txt"
    path.write_text('POLICY = {"send_email": "deny"}\n', encoding="utf-8")
    with speaking(language):
        assert command.main([str(path)]) == 2
    after_the_cause = capsys.readouterr().err.split("JSON", 1)[1]
    assert "JupyterLab" in after_the_cause and ".ipynb" in after_the_cause, after_the_cause
