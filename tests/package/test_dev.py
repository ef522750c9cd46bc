"""dev.py, the one command a new contributor runs: what it starts and how it says it was misused."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import dev
from harness_lab.grading.notebook_code import edition_of


@pytest.mark.parametrize(("euid", "expected"), [(0, True), (1000, False)])
def test_lab_allows_root_only_as_root(monkeypatch, euid, expected):
    # Jupyter refuses to start as root without --allow-root: `dev.py lab` in a container died there.
    monkeypatch.setattr(os, "geteuid", lambda: euid)
    command = [str(part) for part in dev.lab_command()]
    assert command[1] == "lab"
    assert ("--allow-root" in command) is expected


@pytest.mark.skipif(importlib.util.find_spec("ruff") is None, reason="ruff is installed with the test tools")
def test_plain_ruff_format_leaves_the_docs_alone():
    # ruff formats the Python blocks inside Markdown, and the docs' examples are laid out for reading:
    # a contributor's plain `ruff format --check .` must not fail on them.
    checked = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--check", "--force-exclude", "README.md", "docs"],
        cwd=dev.ROOT,
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_every_test_run_ends_naming_each_failure_and_why_tests_were_skipped(monkeypatch, tmp_path):
    # the README promises it: without bubblewrap the sandbox tests are skipped, saying why; and a
    # long run that fails must name the failed tests at its end, not only count them
    (tmp_path / "test_sample.py").write_text(
        "import pytest\n\ndef test_broken():\n    assert False\n\n"
        "@pytest.mark.skip(reason='no sandbox here')\ndef test_sandboxed():\n    pass\n",
        encoding="utf-8",
    )
    ran = []
    monkeypatch.setattr(dev, "lint", lambda: 0)
    monkeypatch.setattr(dev, "sh", lambda *args, **kwargs: ran.append(args) or 0)
    with pytest.raises(SystemExit):
        dev.quick()
    runs = [args for args in ran if "pytest" in args] + [args for _, _, args in dev.suites()]
    for summary in {tuple(a for a in args if str(a).startswith("-r")) for args in runs}:
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *summary, "test_sample.py"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
        )
        end = done.stdout.split("short test summary info")[-1]
        assert "FAILED test_sample.py::test_broken" in end and "no sandbox here" in end, summary


def _dev(*args):
    return subprocess.run([sys.executable, str(dev.ROOT / "dev.py"), *args], capture_output=True, text=True, timeout=60)


def test_an_unknown_command_is_a_usage_error_and_help_says_what_each_does():
    done = _dev("tset")
    assert done.returncode == 2 and done.stderr.startswith("usage: python3 dev.py {demo|test|") and not done.stdout
    for flag in ("-h", "--help"):
        done = _dev(flag)
        assert done.returncode == 0 and "python3 dev.py quick" in done.stdout


def test_live_without_a_key_says_how_to_give_one():
    done = _dev("live")  # the tests' environment holds no key (tests/conftest.py)
    assert done.returncode == 1 and "export ANTHROPIC_API_KEY=" in done.stderr and not done.stdout


def test_an_install_with_more_extras_serves_a_command_that_needs_fewer(monkeypatch, tmp_path):
    # `dev.py lint` right after `dev.py test` (CI's [test,bench]) installed everything again.
    monkeypatch.setattr(dev, "VENV", tmp_path)
    monkeypatch.setattr(dev, "PY", Path(sys.executable))
    started: list = []
    monkeypatch.setattr(dev.subprocess, "call", lambda command, **_: started.append(command) or 0)
    stamp = tmp_path / ".installed[test,bench]"
    stamp.touch()
    dev.setup("[test]")
    dev.setup()
    assert started == []
    dev.setup("[test,live]")  # an extra no install had
    assert started and any(".[test,live]" in map(str, command) for command in started)
    started.clear()
    os.utime(stamp, (0, 0))  # pyproject.toml changed since [test,bench] went in
    (tmp_path / ".installed[test,live]").unlink()
    dev.setup("[test]")
    assert any(".[test]" in map(str, command) for command in started)


@pytest.mark.skipif(importlib.util.find_spec("ruff") is None, reason="ruff is installed with the test tools")
def test_a_failed_lint_runs_every_check_and_says_what_mends_each(monkeypatch, tmp_path, capfd):
    # ruff's own output names the problem but not this checkout's command that fixes it, and the
    # format check never ran while the lint rules failed: one problem surfaced per run.
    unformatted = tmp_path / "careless.py"
    unformatted.write_text('import os\nx = {  "a":1}\n', encoding="utf-8")
    monkeypatch.setattr(dev, "LINTED", (str(unformatted),))
    monkeypatch.setattr(dev, "PY", Path(sys.executable))
    assert dev.ruff() == 1
    said = capfd.readouterr().out
    assert "F401" in said and "1 file would be reformatted" in said
    assert "ruff check failed: `.venv/bin/ruff check --fix`" in said
    assert "ruff format failed: `.venv/bin/ruff format`" in said


def test_pytest_run_by_hand_keeps_to_the_course_defaults_whatever_the_shell_chose():
    # CONTRIBUTING runs single files with plain pytest: a contributor who follows the course in English
    # (HARNESS_LAB_LANG=en, as the README offers) saw the panel tests fail on English labels.
    learner = {**os.environ, "HARNESS_LAB_LANG": "en", "HARNESS_LAB_MODEL": "claude-haiku-4-5"}
    learner["HARNESS_LAB_TEST_KERNELS"] = "off"  # these tests start no kernel: no forker to start either
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist"]
        + ["tests/harness/test_builtin_tools.py::test_clear_errors_for_missing_directory_binary_and_nul"],
        cwd=dev.ROOT,
        env=learner,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-3000:]


def _graded_by_grade(monkeypatch, *options):
    """What `dev.py grade OPTIONS` hands the grading command: each notebook's edition, and the rest."""
    ran = []
    monkeypatch.setattr(dev, "setup", lambda extras="": None)
    monkeypatch.setattr(dev, "sh", lambda *args, **kwargs: ran.append([str(a) for a in args]) or 0)
    dev.grade(list(options))
    (command,) = ran
    notebooks = [a for a in command if a.endswith(".ipynb")]
    rest = [a for a in command[command.index("harness_lab.grading") + 1 :] if a not in notebooks]
    editions = [edition_of(json.loads((dev.ROOT / n).read_text(encoding="utf-8"))) for n in notebooks]
    exercises = {
        json.loads((dev.ROOT / n).read_text(encoding="utf-8"))["metadata"]["harness_lab"]["exercise"] for n in notebooks
    }
    return editions, exercises, rest


@pytest.mark.parametrize(
    ("options", "shell", "edition", "rest"),
    [
        ((), None, "ja", []),
        (("--lang", "en"), None, "en", ["--lang", "en"]),
        (("--lang=en",), "ja", "en", ["--lang", "en"]),
        ((), "en_GB", "en", []),
        (("--lang", "ja"), "en", "ja", ["--lang", "ja"]),
    ],
)
def test_grade_grades_both_exercises_of_the_edition_asked_for(monkeypatch, options, shell, edition, rest):
    # an English instructor had no one-command way: `dev.py grade` graded the Japanese notebooks only
    if shell:
        monkeypatch.setenv("HARNESS_LAB_LANG", shell)
    editions, exercises, given = _graded_by_grade(monkeypatch, *options)
    assert editions == [edition, edition] and exercises == {"level1", "level2"}
    assert given == rest


@pytest.mark.parametrize("options", [("--lang", "fr"), ("--lang",), ("en",), ("--lang", "en", "extra")])
def test_grade_with_an_option_it_does_not_know_is_a_usage_error(options):
    done = _dev("grade", *options)
    assert done.returncode == 2 and done.stderr.startswith("usage: python3 dev.py grade [--lang {ja|en}]"), done.stderr
    assert not done.stdout


def _table_rows() -> list[tuple[list[str], str]]:
    """CONTRIBUTING.md's table of what to run: each row's path patterns, and the tests it names."""
    text = (dev.ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    table = text.split("| you changed |")[1].split("\n\n")[0]
    rows = []
    for line in table.splitlines()[2:]:
        changed, runs = line.split(" | ")[:2]
        patterns = re.findall(r"`([^`]+)`", changed.split(":")[0])
        rows.append((patterns, re.findall(r"`([^`]+)`", runs)[0]))
    return rows


def test_contributings_table_names_the_tests_dev_py_runs_for_each_changed_path():
    # the table is what a contributor reads, TESTS_FOR what `dev.py test PATH` runs: two lists drift
    listed = [(pattern, tests) for patterns, tests in _table_rows() for pattern in patterns]
    assert listed == [(pattern, tests) for pattern, tests in dev.TESTS_FOR if tests]


@pytest.mark.parametrize(
    ("changed", "tests"),
    [
        ("harness_lab/loop.py", ["tests/harness", "tests/reliability", "tests/package"]),
        ("harness_lab/valves/max_turns.py", ["tests/harness", "tests/reliability", "tests/package"]),
        (
            "harness_lab/grading/catalog.py",
            ["tests/package/test_catalog.py", "tests/course/test_glossary.py", "tests/package/test_english_counts.py"],
        ),
        ("harness_lab/grading/level2.py", ["tests/grading", "tests/reliability"]),
        ("harness_lab/ui", ["tests/ui"]),
        ("docs/benchmarks.md", dev.DOCS_TESTS.split()),
        ("tests/harness/test_loop.py::test_one", ["tests/harness/test_loop.py::test_one"]),
        ("tests/harness/", ["tests/harness"]),
        ("pyproject.toml", None),
        ("/etc/hostname", None),
    ],
)
def test_dev_py_test_picks_the_first_row_a_changed_path_matches(monkeypatch, changed, tests):
    monkeypatch.chdir(dev.ROOT)
    assert dev.tests_for(changed) == tests


def test_dev_py_test_with_paths_runs_their_tests_offline_in_the_whole_runs_order(monkeypatch, tmp_path):
    ran = []
    monkeypatch.setattr(dev, "setup", lambda extras="": None)
    monkeypatch.setattr(dev, "sh", lambda *args, **kwargs: ran.append((args, kwargs)) or 0)
    monkeypatch.chdir(tmp_path)  # a path is read from where the command was typed, a test named from the root
    with pytest.raises(SystemExit) as done:
        dev.test([str(dev.ROOT / "harness_lab" / "emulator" / "wire.py"), str(dev.ROOT / "tests" / "package")])
    assert done.value.code == 0
    ((args, kwargs),) = ran
    assert args[-2:] == ("tests/emulator", "tests/package") and kwargs["env"] is dev.OFFLINE
    assert all(part in args for part in dev.ORDER) and all(part in args for part in dev.QUIET_SUMMING_UP)


def test_dev_py_test_with_a_path_no_row_names_is_a_usage_error_that_runs_nothing():
    done = _dev("test", "pyproject.toml")
    assert done.returncode == 2 and "pyproject.toml" in done.stderr and not done.stdout


def test_dev_py_test_runs_a_few_files_in_one_process_and_folders_on_every_worker():
    # each worker imports the SDK and the test modules before its first test: for the catalog row's two
    # files, two workers doubled the CPU the run took
    assert dev.order_for(["tests/package/test_catalog.py", "tests/course/test_glossary.py"]) == ("-n", "0")
    assert dev.order_for(["tests/harness/test_loop.py::test_one"]) == ("-n", "0")
    assert dev.order_for(["tests/harness", "tests/reliability"]) == dev.ORDER
