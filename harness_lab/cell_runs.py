"""Definition cells that raised, as the kernel ran them (a notebook only): lessons' and exercises' names.

When the learner's "write it yourself" cell fails (a SyntaxError, a NameError at ``def`` time), the
``def`` never runs: the name still holds what it held before, the reference that an earlier check
handed back or the starter that raises NotImplementedError. A check that judged that object would
report on code the learner did not just write. So, in an IPython kernel, every cell run is watched:
before it, what each piece's name holds; after it, whether the run raised and the name still holds
the same object. Only a cell that says ``def <name>`` (or ``NAME = `` for a constant) counts as that name's definition cell; the
verdict (did its definition take effect?) is read from the namespace, not from the source.

The record lives on the shell, so a reloaded module does not watch twice or lose it.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from typing import Any

__all__ = ["failed_definition", "watch"]

_STATE = "_harness_lab_failed_cells"  # attribute on the shell: {"names", "before", "failed"}
_MISSING = object()


def _shell() -> Any:
    ipython = sys.modules.get("IPython")  # never imported here: outside a kernel there is nothing to watch
    get = getattr(ipython, "get_ipython", None)
    return get() if get else None


def _defines(source: str, name: str) -> bool:
    """A ``def name`` anywhere; for a constant (an exercise's POLICY, MISSING...), ``NAME = ...`` at the top
    level. Never a function's name assigned: a lesson's check cell reassigns it (``f = lessons.check(...)``)."""
    if re.search(rf"^[ \t]*(?:async[ \t]+)?def[ \t]+{re.escape(name)}\b", source, re.MULTILINE):
        return True
    return (
        name.isupper() and re.search(rf"^{re.escape(name)}[ \t]*(?::[^=\n]*)?=(?!=)", source, re.MULTILINE) is not None
    )


def watch(names: Iterable[str]) -> None:
    """Start watching the kernel's cell runs for definitions of ``names`` (once per kernel)."""
    shell = _shell()
    if shell is None or not hasattr(shell, "events"):
        return
    state = getattr(shell, _STATE, None)
    if state is not None:
        state["names"].update(names)
        return
    state = {"names": set(names), "before": {}, "source": "", "failed": {}}
    setattr(shell, _STATE, state)

    def before(info: Any) -> None:
        state["source"] = getattr(info, "raw_cell", "") or ""
        state["before"] = {name: shell.user_ns.get(name, _MISSING) for name in state["names"]}

    def after(result: Any) -> None:
        error = None if result is None else (result.error_before_exec or result.error_in_exec)
        for name in state["names"]:
            if not _defines(state["source"], name):
                continue
            held = state["before"].get(name, _MISSING)
            if error is not None and shell.user_ns.get(name, _MISSING) is held:
                state["failed"][name] = (type(error).__name__, held)
            else:  # ran, or raised after its def had taken effect: the check judges the new one
                state["failed"].pop(name, None)

    shell.events.register("pre_run_cell", before)
    shell.events.register("post_run_cell", after)


def failed_definition(name: str) -> tuple[str, Any] | None:
    """When ``name``'s last definition cell raised: its error type and the object the name kept then."""
    state = getattr(_shell(), _STATE, None)
    return state["failed"].get(name) if state else None
