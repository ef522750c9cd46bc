"""Every Python file stays short enough to be read whole: the package's modules under 400 lines, its string
catalogs (ja and en side by side) and every file of the tests and of the notebooks under 500.

A test file that grows past it is split along the behaviours it tests, into files named after them in
the same folder, its helpers kept in one place (a conftest.py or a helper module); an answer table is
split into modules the table imports from. A module or catalog is split by concept, each part named
for its own (``lessons/catalog6_budget.py`` beside ``catalog6_harness.py``).
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 500
MODULE_LIMIT = 400


def _too_long(folder: str, limit_of) -> list[str]:
    found = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines >= limit_of(path):
            found.append(f"{path.relative_to(ROOT)}: {lines} lines")
    return found


def test_every_test_and_notebook_python_file_is_under_500_lines():
    too_long = _too_long("tests", lambda _: LIMIT) + _too_long("notebooks", lambda _: LIMIT)
    assert not too_long, f"split these under {LIMIT} lines: {too_long}"


def test_every_package_module_is_under_400_lines_and_every_catalog_under_500():
    too_long = _too_long("harness_lab", lambda path: LIMIT if "catalog" in path.name else MODULE_LIMIT)
    assert not too_long, f"split these by concept (modules under {MODULE_LIMIT}, catalogs under {LIMIT}): {too_long}"
