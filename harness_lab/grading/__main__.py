"""``python -m harness_lab.grading NOTEBOOK...``: the course's grading command (see ``notebook.py``)."""

import sys

from .notebook import main

sys.exit(main())
