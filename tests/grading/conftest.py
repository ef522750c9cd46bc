"""Fixtures the grading tests share."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest


@pytest.fixture
def open_folder():
    """A folder any user can enter, read and write in, for the normal user a test runs grading as (a
    tmp_path's parents are root's alone)."""
    folder = Path(tempfile.mkdtemp())
    folder.chmod(0o777)
    yield folder
    shutil.rmtree(folder)
