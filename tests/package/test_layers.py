"""The layer table of docs/architecture.md, enforced: a lower layer never imports a higher one.

The table in the doc is the source of truth: a module it does not name fails the test. The core — everything ``import harness_lab`` loads — never
imports ipywidgets, matplotlib or IPython, and the loop never imports the emulator.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "harness_lab"
UI_LIBRARIES = ("ipywidgets", "matplotlib", "IPython")


def doc_layers() -> dict[str, int]:
    """Top-level part name -> layer, read from the table in docs/architecture.md."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    layers = {}
    for number, modules in re.findall(r"^\|\s*(\d+)\s*\|([^|]*)\|", text, re.MULTILINE):
        for name in re.findall(r"`([\w/]+)`", modules):
            layers[name.strip("/")] = int(number)
    return layers


LAYERS = doc_layers()


def part_of(module: str) -> str:
    """``harness_lab.valves.budget`` -> ``valves``; the package itself -> ``__init__``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def layer_of(part: str) -> int:
    if part == "__init__":
        return 4  # the package imports layers 0-4; nothing inside the core may import it back
    return LAYERS[part]


def module_name(path: Path) -> str:
    relative = path.relative_to(ROOT).with_suffix("")
    parts = list(relative.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def module_imports(path: Path) -> set[str]:
    """The harness_lab modules ``path`` imports (for the cycle test)."""
    return imports_of(path) & MODULES


def imports_of(path: Path) -> set[str]:
    """Every module ``path`` imports, anywhere in the file, relative imports resolved."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module
            submodules = {f"{target}.{alias.name}" for alias in node.names} & MODULES
            # `from . import a` imports module a; the package itself is only the way to it.
            found |= submodules if submodules and not node.module else {target}
    return found


SOURCES = sorted(PACKAGE.rglob("*.py"))
MODULES = {module_name(p) for p in SOURCES}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (or a module importing itself)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                group.append(top)
                if top == node:
                    break
            if len(group) > 1 or node in graph.get(node, ()):
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycles_at_any_layer():
    # A cycle works only while the modules happen to load in one order (importing
    # ``harness_lab.tools.files`` first must work as well as ``import harness_lab``).
    graph = {module_name(p): module_imports(p) for p in SOURCES}
    assert cycles(graph) == []


def test_the_cycle_finder_finds_one():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_doc_table_was_read():
    assert {"messages", "events", "text", "tools", "state", "emulator", "valves", "loop", "cli", "ui"} <= set(LAYERS)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_imports_a_higher_layer(path):
    own = part_of(module_name(path))
    assert own in LAYERS or own == "__init__", f"{own} is not in the layer table of docs/architecture.md"
    mine = layer_of(own)
    for target in imports_of(path):
        if target.split(".")[0] != "harness_lab" or part_of(target) == own:
            continue
        if part_of(target) not in LAYERS and part_of(target) != "__init__":
            continue  # `from . import x` also lists names that are not modules
        assert layer_of(part_of(target)) <= mine, f"{module_name(path)} (layer {mine}) imports {target}"


@pytest.mark.parametrize(
    "path", [p for p in SOURCES if layer_of(part_of(module_name(p))) <= 4], ids=lambda p: str(p.relative_to(ROOT))
)
def test_the_core_never_imports_ui_libraries(path):
    bad = {t for t in imports_of(path) if t.split(".")[0] in UI_LIBRARIES}
    assert not bad, f"{path.name} imports {bad}"


def test_the_loop_never_imports_the_emulator_or_the_client():
    for path in [
        PACKAGE / "loop.py",
        *sorted((PACKAGE / "valves").glob("*.py")),
        *sorted((PACKAGE / "tools").glob("*.py")),
        PACKAGE / "state.py",
    ]:
        bad = {t for t in imports_of(path) if part_of(t) in ("emulator", "client")}
        assert not bad, f"{path.name} imports {bad}"


def test_import_harness_lab_loads_no_ui_and_prints_nothing():
    code = f"import sys, harness_lab\nprint(sorted(m for m in sys.modules if m.split('.')[0] in {UI_LIBRARIES!r}))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[]\n"
