"""Graders for lesson 6's two exercises (layer 5: uses the emulator, never the widgets).

In a notebook's grade cell::

    # NBVAL_CHECK_OUTPUT
    from harness_lab.grading import check_level1
    check_level1(POLICY, DEFAULT_TIER, run_tool_uses)

prints one line per criterion (✅, or ❌ with a hint) and a summary line. ``grade_level1`` and
``grade_level2`` return the ``Report`` instead, for tests and batch grading. A try-it cell runs the
learner's code through ``try_limited``, so a runaway stops there too, before the grade cell.
"""

from . import catalog  # noqa: F401  # the layer's strings, before any module uses them
from .level1 import check_level1, grade_level1
from .level2 import check_level2, grade_level2, level2_options
from .report import Check, Report
from .sandbox import JobResult, run_limited, try_limited

__all__ = [
    "Check",
    "JobResult",
    "Report",
    "check_level1",
    "check_level2",
    "grade_level1",
    "grade_level2",
    "level2_options",
    "run_limited",
    "try_limited",
]
