"""The grading commands' usage errors: told in a sentence, exit 2, before any grading host starts."""

from __future__ import annotations

import io

import pytest

from harness_lab.cli import main as cli_main
from harness_lab.grading import command


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
        assert f"must be a positive number of seconds: {timeout}" in capsys.readouterr().err
