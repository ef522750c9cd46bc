"""Grading these notebooks with nbval: a pass that carries advice still matches the stored feedback.

The stored grade output is the reference solution's, with no warning. A learner whose answer meets a
criterion but earns advice (a default tier of "allow") sees the advice in the notebook; nbval
compares the feedback without it, so the answer passes, as the curriculum says it should. A sanitize
file given on the command line wins.

Two more settings keep the verdict about the learner's code alone:

- The stored feedback is in the catalog's default language, Japanese. A learner who reads the
  course with ``HARNESS_LAB_LANG=en`` would get English feedback from the kernel and fail every
  grade cell however right the answer, so the kernels nbval starts here run without it.
- nbval waits 2000 s for a cell by default. Learner code runs time-limited (``try_limited`` and the
  graders), so no cell here needs more than a few seconds; a cell that still runs away fails after
  ``CELL_TIMEOUT`` with nbval's timeout message. ``--nbval-cell-timeout`` on the command line wins.
"""

from __future__ import annotations

import os
from pathlib import Path

CELL_TIMEOUT = 60.0  # seconds; the slowest grade cell makes three 5 s runs at most
NBVAL_DEFAULT_CELL_TIMEOUT = 2000


def pytest_configure(config):
    if getattr(config.option, "nbval_sanitize_with", "unset") is None:
        config.option.nbval_sanitize_with = str(Path(__file__).with_name("sanitize.cfg"))
    if getattr(config.option, "nbval_cell_timeout", None) == NBVAL_DEFAULT_CELL_TIMEOUT:
        config.option.nbval_cell_timeout = CELL_TIMEOUT
    # The kernels are started later, from this process, with its environment.
    os.environ.pop("HARNESS_LAB_LANG", None)
