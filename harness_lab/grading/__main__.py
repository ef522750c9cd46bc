"""``python -P -m harness_lab.grading NOTEBOOK...``: the course's grading command (see ``command.py``)."""

import sys

from .command import main

sys.exit(main())
