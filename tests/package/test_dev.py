"""dev.py, the one command a new contributor runs: what it starts and how it says it was misused."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import pytest

import dev


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


def test_every_test_run_says_why_a_test_was_skipped(monkeypatch):
    # the README promises it: without bubblewrap the sandbox tests are skipped, saying why
    assert all("-rs" in args for _, _, args in dev.suites())
    ran = []
    monkeypatch.setattr(dev, "lint", lambda: 0)
    monkeypatch.setattr(dev, "sh", lambda *args, **kwargs: ran.append(args) or 0)
    with pytest.raises(SystemExit):
        dev.quick()
    assert [args for args in ran if "pytest" in args] and all("-rs" in args for args in ran if "pytest" in args)


def _dev(*args):
    return subprocess.run([sys.executable, str(dev.ROOT / "dev.py"), *args], capture_output=True, text=True, timeout=60)


def test_an_unknown_command_is_a_usage_error_and_help_says_what_each_does():
    done = _dev("tset")
    assert done.returncode == 2 and done.stderr.startswith("usage: python3 dev.py {demo|test|") and not done.stdout
    for flag in ("-h", "--help"):
        done = _dev(flag)
        assert done.returncode == 0 and "python3 dev.py quick" in done.stdout
