"""Recording the scenarios' Japanese (CONTRIBUTING.md, "Adding an emulator scenario") records Japanese."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
RECORDER = HERE / "test_scenario_languages.py"
GOLDEN = HERE / "scenario_transcripts_ja.json"


def test_recording_from_an_english_shell_writes_the_same_japanese(tmp_path):
    # A copy writes its transcripts beside itself, so the committed ones stay as they are.
    shutil.copy(RECORDER, tmp_path)
    env = {**os.environ, "HARNESS_LAB_LANG": "en"}
    done = subprocess.run(
        [sys.executable, tmp_path / RECORDER.name, "--write"], env=env, capture_output=True, text=True, check=True
    )
    written = (tmp_path / GOLDEN.name).read_text(encoding="utf-8")
    assert written == GOLDEN.read_text(encoding="utf-8")
    assert "changed none" in done.stdout


def test_the_recorder_run_without_write_says_how_to_use_it(tmp_path):
    shutil.copy(RECORDER, tmp_path)
    done = subprocess.run([sys.executable, tmp_path / RECORDER.name], capture_output=True, text=True)
    assert done.returncode != 0 and "--write" in done.stderr
    assert not (tmp_path / GOLDEN.name).exists()
