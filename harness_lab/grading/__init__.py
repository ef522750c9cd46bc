"""Graders for lesson 6's two exercises (layer 5: uses the emulator, never the widgets).

In a notebook's grade cell::

    from harness_lab.grading import check_level1
    check_level1(POLICY, DEFAULT_TIER, run_tool_uses, ANSWERS)

prints one line per criterion (「○ 合格」, or 「× 不合格」 with a hint) and a summary line, then
raises ``GradeFailed`` (one line) if a criterion failed, so the cell fails by itself whatever the
notebook file stored. ``grade_level1`` and ``grade_level2`` return the ``Report`` instead.

``grade_notebook(path)`` grades a notebook file the way the course's grading command does
(``python -m harness_lab.grading NOTEBOOK...``): it runs the notebook's tagged answer cells and the
package's own grade code in a fresh process, never the learner's grade cell. A try-it cell runs the
learner's code through ``try_limited``, so a runaway stops there too, before the grade cell.

``harness-lab grade-class SUBMISSIONS --out REPORT`` grades a whole class the same way:
``classroom.py`` (the batch, on the long-lived workers of ``workers.py``), ``record.py`` (the signed
record that lets a rerun skip what it graded), ``class_report.py`` (the CSV, the feedback files,
the instructor's page), ``report_files.py`` (writing them without following links) and
``class_command.py`` (the terminal).
"""

import typing

from .. import lazy
from ..cell_runs import watch
from . import catalog, class_catalog, level1_catalog, level2_catalog  # noqa: F401  # the layer's strings, before any module uses them
from .notebook import NotebookGrade, grade_notebook
from .report import Check, GradeFailed, Report
from .sandbox import JobResult, run_limited
from .try_it import try_limited

if typing.TYPE_CHECKING:
    from .level1 import check_level1, grade_level1, level1_options
    from .level2 import check_level2, grade_level2, level2_options

# The exercises' graders drive the emulator through the SDK: they load on first use (lazy.py says
# why), so the class command's own process, which only hands notebooks to grading hosts, never loads it.
__getattr__, __dir__ = lazy.lazy_names(
    __name__,
    {f"{verb}_{level}": level for level in ("level1", "level2") for verb in ("check", "grade")}
    | {"level1_options": "level1", "level2_options": "level2"},
)

__all__ = [
    "Check",
    "GradeFailed",
    "JobResult",
    "NotebookGrade",
    "Report",
    "check_level1",
    "check_level2",
    "grade_level1",
    "grade_level2",
    "grade_notebook",
    "level1_options",
    "level2_options",
    "run_limited",
    "try_limited",
]

# In a kernel: which answer cells raised, so a grade cell does not grade the answer they left behind.
watch(("POLICY", "DEFAULT_TIER", "run_tool_uses", "ANSWERS", "MISSING", "run_agent", "MAX_TURNS"))
