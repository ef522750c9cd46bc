"""dev.py, the one command a new contributor runs: what it starts and how it says it was misused."""

from __future__ import annotations

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
