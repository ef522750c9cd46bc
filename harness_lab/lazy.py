"""Names a package exports but loads on first use: those whose modules import the anthropic SDK.

Importing the SDK takes about two seconds. A process that drives no model (the class grading
command, a grading report, ``harness_lab.text`` on its own) should not pay for it, and every import
of a submodule runs its package's ``__init__`` first: so the packages bind these names lazily.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from typing import Any


def lazy_names(package: str, homes: dict[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """A module ``__getattr__`` and ``__dir__`` for ``package``: ``homes`` maps a name to its submodule."""
    namespace = importlib.import_module(package).__dict__

    def __getattr__(name: str) -> Any:
        if name in homes:
            value = getattr(importlib.import_module(f"{package}.{homes[name]}"), name)
            namespace[name] = value  # found directly from now on
            return value
        # A submodule (``hl.loop``, ``hl.emulator``) is there on first use too, as it was when the
        # package imported the SDK's users itself.
        if not name.startswith("_") and importlib.util.find_spec(f"{package}.{name}") is not None:
            return importlib.import_module(f"{package}.{name}")
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(homes))

    return __getattr__, __dir__
