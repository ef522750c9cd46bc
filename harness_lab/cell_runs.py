"""Definition cells that raised, as the kernel ran them (a notebook only): lessons' and exercises' names.

When the learner's "write it yourself" cell fails (a SyntaxError, a NameError at ``def`` time), the
``def`` never runs: the name still holds what it held before, the reference that an earlier check
handed back or the starter that raises NotImplementedError. A check that judged that object would
report on code the learner did not just write. So, in an IPython kernel, every cell run is watched:
before it, what each piece's name holds; after it, whether the run raised and the name still holds
the same object. Only a cell that says ``def <name>`` (or ``NAME = `` for a constant) counts as that name's definition cell; the
verdict (did its definition take effect?) is read from the namespace, not from the source.

The record lives on the shell, so a reloaded module does not watch twice or lose it.

A cell run before the cells it needs (after a kernel restart, or out of order) raises a NameError for a
name the course's cells define: a TODO cell's answer or piece, what the setup cells import, or what a cell
above assigns (a demo's ``run``, ``client``, ``s``...). Such a NameError, raised by the cell's own code or
by a helper the notebook defines, is shown as one line naming the cell to run, not a traceback; any other
exception is shown as IPython shows it.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from types import TracebackType
from typing import Any

from .text import LANGUAGES, explicit_language, speaking, t

__all__ = ["ABOVE", "SET_UP", "WRITTEN", "failed_definition", "show", "unrun_cell_hint", "watch"]

_STATE = "_harness_lab_failed_cells"  # attribute on the shell: {"names", "before", "failed"}
_MISSING = object()
# attribute on the shell: its NameError handler is ours (set by kernel_start.py too)
_HINTING = "_harness_lab_hints_unrun_cells"

# What a learner writes in a TODO cell: the exercises' answers and the lessons' pieces.
WRITTEN = frozenset(
    {"POLICY", "DEFAULT_TIER", "ANSWERS", "MISSING", "MAX_TURNS", "run_tool_uses", "run_agent", "run_tools"}
    | {"next_step", "signature_of", "read_file", "my_agent", "stop_message"}
)
# What the setup cells at the top import from harness_lab or define (tests/lessons/test_unrun_cells.py
# reads every notebook source and fails on a name imported from harness_lab that is missing here).
SET_UP = frozenset(
    {"hl", "lessons", "Stepper", "diagram", "plots", "compare_runs", "Emulator", "emulator_of", "emulated_client"}
    | {"call", "reply", "say", "last_results", "read_answer", "approval", "run_tool", "Place", "cost_usd"}
    | {"check_level1", "check_level2", "level1_options", "level2_options", "try_limited", "run_limited"}
    | {"tool_defs", "TOOLS", "MODEL"}
)
# Every other name a notebook's cell binds at its top level (assigns, defines, imports; the same test checks
# this list against the notebooks' sources, both editions): a demo's run, client, Stepper, history, helper.
ABOVE = frozenset(
    """
    ALLOWED_HOSTS BINDING CASES COMPACT CONTENDERS Counted DEMO EDITS FIRST Fake GET_TIME HIGH_IMPACT HTTP_POST IMPLS
    LAB LAPS LOOPS MY_GUESS NOTES OUTBOX PROMPT Path REQUEST SilentMock TASK TOKEN_BUDGET TRIES WALK WEB_SEARCH WORD
    _thread advised after again agent allowed answer answers anthropic approve article_for_range at bare before beta
    block blocks book box box1 box2 box3 branch budget burn by_counter by_stop_reason by_text_block by_words c cached
    calls chapter_reader check_after_increment check_after_tools check_at_top check_status_tool client
    colleague_run_agent content contents count count_turns counted datetime dead demo demo_tools display done drive
    edited end ends events field files filtered final first_call first_response fixed full gen get_forecast get_time
    get_weather guessed history how i impls importlib inspect json k kinds label last long_run loop loop_lines
    loop_until make_tools message messages mine mock n name needle never_done new_sandbox no_thanks normal normal_impls
    note original os outcome output packaged part paused plain poster project prompt r ran read_call read_chapter
    read_file_startswith read_in_book read_in_demo reader reason reasons refusals reordered reply_to_user requests
    response rest result_block results resumed row rows run run_agent_dead run_loop run_tool_uses_after running s say_no
    scenario search search_impls seed_approve send sent source status step stop stops stuck stuck_impls stuck_on_notes
    subprocess swapped sys tampered tempfile text_only thinking tier_of time tool_block tool_impls tools tools1 tools2
    tools3 toy toy_tools trimmed try_it try_read try_send turns usage valves w watch window write_file written yes
    """.split()  # noqa: SIM905 -- 15 lines to read, where a list literal takes 210
)
# Frames of a cell's own code besides its top level: a lambda's, a comprehension's (Python 3.11 gives each a frame).
_INLINE = frozenset({"<module>", "<lambda>", "<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>"})


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
    _hint_unrun_cells(shell)
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


def unrun_cell_hint(error: BaseException, tb: TracebackType | None, namespace: dict[str, Any]) -> str | None:
    """The line for a NameError a cell's own code raised for a name an earlier cell defines; else None.

    Only a cell's top level and the helpers the notebook defines count (every frame from the cell to the
    error): a NameError inside a function the learner wrote is their own mistake (a typo, a helper never
    defined), and so is one inside harness_lab's code; their tracebacks show where."""
    name = getattr(error, "name", None)
    if type(error) is not NameError or not (name in WRITTEN or name in SET_UP or name in ABOVE):
        return None
    while tb is not None and tb.tb_frame.f_globals is not namespace:
        tb = tb.tb_next  # IPython's frames, before the cell's own
    if tb is None:
        return None
    while tb is not None:
        where = tb.tb_frame.f_code.co_name
        helper = where in ABOVE and where not in WRITTEN
        if tb.tb_frame.f_globals is not namespace or not (where in _INLINE or helper):
            return None
        tb = tb.tb_next
    key = "cell.unrun_written" if name in WRITTEN else "cell.unrun_setup" if name in SET_UP else "cell.unrun_above"
    if explicit_language() is not None:
        return t(key, name=name)
    # After a restart nothing has chosen the notebook's language yet (its setup cell does): an English
    # learner must not get Japanese only, so say it in each.
    lines = []
    for code in LANGUAGES:
        with speaking(code):
            lines.append(t(key, name=name))
    return "\n".join(lines)


def show(shell: Any, etype: type, value: BaseException, tb: TracebackType, tb_offset: int | None = None) -> None:
    """IPython's NameError handler: the line naming the cell to run, or the traceback as IPython shows it."""
    line = unrun_cell_hint(value, tb, shell.user_global_ns)
    if line is None:  # exactly what IPython shows without a handler
        shell.showtraceback((etype, value, tb), tb_offset=tb_offset, running_compiled_code=True)
    else:
        shell._showtraceback(etype, value, [line])


def _hint_unrun_cells(shell: Any) -> None:
    """IPython's one custom handler for NameError, unless someone else already holds that slot."""
    if getattr(shell, _HINTING, False) or getattr(shell, "custom_exceptions", None) != ():
        return
    shell.set_custom_exc((NameError,), show)
    setattr(shell, _HINTING, True)
