"""Each emulator module's ``__all__`` is sorted and names only what the module defines."""

import importlib
import pkgutil
import re

import pytest

import harness_lab.emulator as package

MODULES = ["harness_lab.emulator", "harness_lab.client", "harness_lab.trace"] + [
    f"harness_lab.emulator.{m.name}" for m in pkgutil.iter_modules(package.__path__)
]


@pytest.mark.parametrize("name", MODULES)
def test_all_is_sorted_and_real(name):
    module = importlib.import_module(name)
    exported = module.__all__
    assert exported == sorted(exported)
    assert all(hasattr(module, n) for n in exported)


def test_the_emulator_package_imports_no_higher_layer():
    """Layer 1: the emulator never imports the loop, valves, trace, UI or graders."""
    higher = ("loop", "valves", "trace", "cli", "ui", "grading", "client")
    for name in MODULES[3:]:
        source = importlib.import_module(name).__loader__.get_source(name)
        imports = re.findall(r"^\s*(?:from|import)\s+([\w.]+)", source, re.MULTILINE)
        for target in imports:
            top = target.removeprefix("harness_lab.").lstrip(".").split(".")[0]
            assert not (target.startswith(("harness_lab.", "..")) and top in higher), (name, target)
