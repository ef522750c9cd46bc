"""Running these notebooks with nbval: a grade cell fails by itself, so nothing is compared.

Each grade cell prints its report and raises ``GradeFailed`` (one line) when a criterion fails, so
``pytest --nbval-lax`` fails there whatever output the file stored, and no cell carries
``# NBVAL_CHECK_OUTPUT``. The course's own grading command (``python3 dev.py grade``) does not use
nbval at all: it runs the tagged answer cells with the package's grade code in a fresh process.

nbval waits 2000 s for a cell by default. Learner code runs time-limited (``try_limited`` and the
graders), so no cell here needs more than a few seconds; a cell that still runs away fails after
``CELL_TIMEOUT`` with nbval's timeout message. ``--nbval-cell-timeout`` on the command line wins.
"""

from __future__ import annotations

CELL_TIMEOUT = 60.0  # seconds; the slowest grade cell makes a few 5 s runs at most
NBVAL_DEFAULT_CELL_TIMEOUT = 2000


def pytest_configure(config):
    if getattr(config.option, "nbval_cell_timeout", None) == NBVAL_DEFAULT_CELL_TIMEOUT:
        config.option.nbval_cell_timeout = CELL_TIMEOUT
