"""Every Python file of the tests and of the notebooks stays under 500 lines, so that one can be read whole.

A test file that grows past it is split along the behaviours it tests, into files named after them in
the same folder, its helpers kept in one place (a conftest.py or a helper module); an answer table is
split into modules the table imports from.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 500


def test_every_test_and_notebook_python_file_is_under_500_lines():
    too_long = []
    for folder in ("tests", "notebooks"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines >= LIMIT:
                too_long.append(f"{path.relative_to(ROOT)}: {lines} lines")
    assert not too_long, f"split these under {LIMIT} lines: {too_long}"
