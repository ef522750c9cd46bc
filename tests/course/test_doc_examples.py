"""The Python examples in README.md and docs/architecture.md run, offline, as written.

Each page's ```python blocks run in order, as one program, in a folder of their own holding a
README.md for the examples that read it. An example that named a function it never imported
(``think`` in the emulator's) was found by a reader, not by a test.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = ("README.md", "docs/architecture.md")


def python_blocks(page: str) -> str:
    text = (ROOT / page).read_text(encoding="utf-8")
    return "\n".join(re.findall(r"^```python\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL))


@pytest.mark.parametrize("page", PAGES)
def test_the_pages_python_examples_run(tmp_path, page):
    program = python_blocks(page)
    assert program.strip(), f"{page} has no python example"
    (tmp_path / "README.md").write_text("# 見出し\n", encoding="utf-8")
    (tmp_path / "example.py").write_text(program, encoding="utf-8")
    offline = {k: v for k, v in os.environ.items() if k not in ("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL")}
    done = subprocess.run(
        [sys.executable, "example.py"],
        cwd=tmp_path,
        env={**offline, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr[-3000:]
