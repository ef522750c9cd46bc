"""Every lesson test keeps its workbook in its own tmp_path, never the default ``my_harness.py`` in the
working folder: a check that saves a piece saves it there, and a test may read or expect it there."""

import pytest


@pytest.fixture(autouse=True)
def workbook_here(tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_LAB_WORKBOOK", str(tmp_path / "my_harness.py"))
    return tmp_path / "my_harness.py"
